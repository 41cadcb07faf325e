/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/bench/mig.h - the hosted `migrate` preset (host/bench/mig.c): migration end to end
 * with Linux doing the unmap, shootdown and remap, and move_pages(2) end to end
 * (host/bench/movep.c), for ck-bench --preset migrate.
 */
#ifndef CK_HOST_BENCH_MIG_H
#define CK_HOST_BENCH_MIG_H

#include "bench/harness.h"

/*
 * At each CPU count of the CPUs this process was allowed at start, @rounds rounds of the
 * four copy forms (@tiny: the test size); through @env->out. The CPU counts measured.
 */
unsigned int ck_bench_migrate(const struct bench_env *env, unsigned int rounds, bool tiny);

/*
 * move_pages(2) end to end between the first two NUMA nodes with memory, 4 KiB, 2 MiB (THP)
 * and 1 GiB (hugetlb) folios, beside the project's copies of the same bytes
 * (host/bench/movep.c); with one node it says so. Through @env->out.
 */
void ck_bench_movepages(const struct bench_env *env, unsigned int rounds, bool tiny);

#endif
