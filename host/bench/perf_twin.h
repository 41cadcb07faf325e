/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf_twin.h - the perf twin of the hosted benchmark (ck-bench): the project's routines
 * timed the way perf 6.1's `perf bench mem` times its own, in a fresh process, interleaved
 * with the real perf in pairs.
 */
#ifndef CK_HOST_BENCH_PERF_TWIN_H
#define CK_HOST_BENCH_PERF_TWIN_H

#include <stdio.h>

/*
 * `ck-bench --perf-twin memcpy|memset FUNCTION SIZE LOOPS perf|aligned|perfdata`: one
 * twin run in this (fresh) process; prints "twin_ns=N" (the gettimeofday interval around
 * the loops) and the buffers' offsets. Returns the exit status.
 */
int perf_twin_main(int argc, char **argv);

/*
 * The comparison: for each routine and size, @pairs rounds, each one perf process and one
 * twin process per buffer layout, order alternating; per-row median of the per-round
 * ratios with a bootstrap 95% interval. @self is this program's path (exec'd per sample),
 * @cpu the CPU everything is pinned to, @json the JSON lines file (or NULL).
 * Says so and returns when perf is not installed.
 */
void perf_twin_compare(const char *self, unsigned int pairs, int cpu, const char *machine,
		       FILE *json);

#endif
