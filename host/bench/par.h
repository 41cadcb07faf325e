/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/bench/par.h - the hosted `parallel` preset (host/bench/par.c): bench/parallel.c's
 * par_ops over pinned pthreads, for ck-bench --preset parallel.
 */
#ifndef CK_HOST_BENCH_PAR_H
#define CK_HOST_BENCH_PAR_H

#include "bench/harness.h"

/*
 * Run the parallel preset on every CPU this process was allowed at start-up (before
 * ck-bench pinned itself), writing through @env->out; @rounds timed rounds a step, @tiny
 * for the test sizes. Returns the number of steps measured without error.
 */
unsigned int ck_bench_parallel(const struct bench_env *env, unsigned int rounds, bool tiny);
/* The CPUs the process was allowed at start, ascending, at most @max; how many. */
unsigned int ck_bench_start_cpus(int *cpus, unsigned int max);
/* The first CPU the process was allowed at start on NUMA node @node (libnuma), or -1. */
int ck_bench_node_cpu(unsigned int node);

#endif
