/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prims.h - the presets over single primitives (bench/prims.c), for bench/presets.c:
 *
 *   primitives  every copy and clear routine at 4K, 64K, 2M and 64M, hot and cold
 *   patterns    memcpy_erms and memcpy_orig from a zero and a constant source against a
 *               random one
 *   big         the bandwidth probe, then rep movsb against the best non-temporal copy at
 *               the probe's size, cache-cold
 *
 * and prim_over(), the primitives table the clear preset uses for its clears.
 */
#ifndef CK_BENCH_PRIMS_H
#define CK_BENCH_PRIMS_H

#include "bench/presets.h"

/*
 * Every primitive this CPU can run (only the clears with @clears_only) over each of
 * @sizes[0..@ns) that fits, hot then cold: a result record and a table line each.
 * Returns the number of cases run.
 */
unsigned int prim_over(const struct bench_env *env, const struct bench_platform *p,
		       const u64 *sizes, unsigned int ns, bool clears_only);

unsigned int preset_primitives(const struct bench_env *env, const struct bench_platform *p);
unsigned int preset_patterns(const struct bench_env *env, const struct bench_platform *p);
unsigned int preset_big(const struct bench_env *env, const struct bench_platform *p);

#endif
