/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.h - what the presets print: a result's JSON record, and the comparison
 * table in the seed's layout, each row followed by its "comparison" record:
 *
 *   fn=folio_copy mode=cache-cold
 *   direction      folio   baseline GB/s    optimized GB/s   speedup [95% CI] width  ...
 *   node0->node0   256K    15.63 +- 0.55    30.81 +- 2.10    1.97x [1.90, 2.05] w=7.6% ...
 *
 * The last column is rounds/disturbed/discarded and the repetitions a timing; a large case
 * adds a line with both sides as a share of the bandwidth probe (bench/probe.h).
 */
#ifndef CK_BENCH_TABLE_H
#define CK_BENCH_TABLE_H

#include "bench/harness.h"

/* A result's JSON record, then the environment's own hook (the image's LAVA line). */
void table_emit(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		const struct bench_result *r);
/* The header of a comparison table: @what names the size column, then the three figures'. */
void table_header(const struct bench_env *env, const char *what, const char *base,
		  const char *cand, const char *ratio);
/* A measured comparison: both results' records, the row, its record, the share line. */
void table_row(const struct bench_env *env, const struct bench_case *a,
	       const struct bench_case *b, enum bench_mode m, const struct bench_result *ra,
	       const struct bench_result *rb, const struct ratio *q);

#endif
