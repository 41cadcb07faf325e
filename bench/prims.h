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
 * and prim_over(), the primitives table the clear preset uses for its clears, and
 * bench_primitive(), one primitive timed for the summary's quick figures (init/summary.c).
 */
#ifndef CK_BENCH_PRIMS_H
#define CK_BENCH_PRIMS_H

#include "bench/harness.h"
#include "bench/platform.h"

/*
 * Every primitive this CPU can run (only the clears with @clears_only) over each of
 * @sizes[0..@ns) that fits, hot then cold: a result record and a table line each.
 * Returns the number of cases run.
 */
unsigned int prim_over(const struct bench_env *env, const struct bench_platform *p,
		       const u64 *sizes, unsigned int ns, bool clears_only);

/*
 * Time the primitive named @name (as in the primitives preset) over @bytes of @src/@dst,
 * cache-hot, @runs runs. False when there is no such primitive or this CPU cannot run it.
 */
bool bench_primitive(const struct bench_env *env, const struct bench_platform *p,
		     const char *name, void *dst, void *src, u64 bytes, unsigned int runs,
		     struct bench_result *r);

unsigned int preset_primitives(const struct bench_env *env, const struct bench_platform *p);
unsigned int preset_patterns(const struct bench_env *env, const struct bench_platform *p);
unsigned int preset_big(const struct bench_env *env, const struct bench_platform *p);

#endif
