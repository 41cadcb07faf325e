/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.h - what the presets print: a result's JSON record, and the comparison
 * table in the seed's layout, each row followed by its "comparison" record:
 *
 *   fn=folio_copy mode=cache-cold
 *   direction      folio   baseline GB/s    optimized GB/s   speedup [95% CI] width  %lim ...
 *   limit: copy 28.39 GB/s of traffic (14.20 GB/s of data): the best of ...
 *   node0->node0   256K    15.63 +- 0.55    30.81 +- 2.10    1.97x [1.90, 2.05] w=7.6% 55/108%
 *
 * "%lim b/c" is each side as a share of the like-for-like limit the bandwidth probe measured
 * (bench/probe.h), which the line after the header names once the probe has run ("-": not
 * probed); the last column is rounds/disturbed/discarded, the repetitions a timing and the
 * placements: "P=4" when the rounds ran on four placements of the buffers and the interval
 * is the replication interval (where another run's estimate lies 95% of the time), "P=1
 * (rounds' CI only)" when they ran on one and it is the rounds' bootstrap interval.
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
/* A measured comparison: both results' records, the row, its record. */
void table_row(const struct bench_env *env, const struct bench_case *a,
	       const struct bench_case *b, enum bench_mode m, const struct bench_result *ra,
	       const struct bench_result *rb, const struct ratio *q);

#endif
