/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * presets.h - the seed experiments as benchmark presets, for the image (bench=) and the
 * hosted build (make bench):
 *
 *   rfc         folio_copy and folio_mc_copy, per-page baseline against batched,
 *               cache-cold 256K..2M and cache-hot 16K..2M, with the speedup column
 *   v3          copy_mc_highpages: one bulk call against the per-page loop, 2 MiB and 1 GiB
 *   clear       every clear primitive over 2 MiB, and the two huge-page orders
 *   primitives  every copy and clear routine across sizes, hot and cold, including the
 *               non-temporal candidates
 *   patterns    memcpy with a random source against a zero and a constant one
 *   uarch       rfc under each resolution Linux would make on other silicon: Zen 3 (no FSRM:
 *               bulk memcpy is memcpy_orig) and Zen 4/5 or Intel (FSRM: rep movsb)
 *   big         the bandwidth probe (what one core moves), then rep movsb against the best
 *               non-temporal copy at the probe's size, cache-cold, as % of the probe
 *   copy_pages  the copy_pages() candidates (not Linux) against the per-page loops and the
 *               RFC's bulk memcpy under each resolution, and the RFC's two questions
 *               answered row by row (bench/copy_pages.c)
 *   seed003     seed 003's table of PMD folio clears, target-last against sequential, and
 *               1 GiB cleared in batches of 4K..32M and whole (bench/clear_order.c)
 *
 * The bandwidth probe (bench/probe.h) runs once per run, before the first preset that shows
 * figures against it (rfc, v3, clear, uarch, big, and primitives of 64 MiB): every comparison
 * row then carries both sides as a share of the like-for-like limit, and every primitive of
 * 64 MiB or more its own. The probe's two buffers are kept for the large cases (big, v3's
 * 1 GiB extent). A preset that cannot measure a case it promises fails (bench_failf()).
 * rfc, v3, clear and uarch are in bench/presets.c, primitives, patterns and big in
 * bench/prims.c; what they share to build and run cases is bench/cases.h, what they
 * print bench/table.h.
 *
 * Every case records the data it reads and writes (src_pattern, dst_pattern); sources hold
 * pseudo-random bytes unless a case says otherwise.
 */
#ifndef CK_BENCH_PRESETS_H
#define CK_BENCH_PRESETS_H

#include "bench/harness.h"
#include "bench/platform.h"

enum bench_preset { PRESET_RFC, PRESET_V3, PRESET_CLEAR, PRESET_PRIMITIVES, PRESET_PATTERNS,
		    PRESET_UARCH, PRESET_BIG, PRESET_COPY_PAGES, PRESET_SEED003, NR_PRESETS };
extern const char *const bench_preset_names[NR_PRESETS];

/*
 * Run one preset; returns the number of cases run (0 when none could). A case the preset
 * promises and could not measure (no memory for it) is a failed line, counted by
 * bench_failures() (bench/harness.h): the run's status must say so.
 */
unsigned int bench_preset_run(enum bench_preset p, const struct bench_env *env,
			      const struct bench_platform *plat);

#endif
