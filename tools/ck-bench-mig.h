/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ck-bench-mig.h - the hosted `migrate` preset (tools/ck-bench-mig.c): migration end to end
 * with Linux doing the unmap, shootdown and remap, for ck-bench --preset migrate.
 */
#ifndef CK_TOOLS_BENCH_MIG_H
#define CK_TOOLS_BENCH_MIG_H

#include "bench/harness.h"

/*
 * At each CPU count of the CPUs this process was allowed at start, @rounds rounds of the
 * four copy forms (@tiny: the test size); through @env->out. The CPU counts measured.
 */
unsigned int ck_bench_migrate(const struct bench_env *env, unsigned int rounds, bool tiny);

#endif
