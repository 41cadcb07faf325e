/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * migrate_out.h - what the `migrate` preset (bench/migrate.c) prints and records: per folio
 * size a table with one row per CPU count and copy form, a summary with one row per CPU
 * count, a JSON line per row, and the sizes it did not measure with the reason.
 */
#ifndef CK_BENCH_MIGRATE_OUT_H
#define CK_BENCH_MIGRATE_OUT_H

#include "bench/harness.h"
#include "bench/migrate_calc.h"
#include "bench/stats.h"

/* One copy form at one CPU count: medians over the rounds and what was checked. */
struct mig_row {
	u64 med[MIG_NR_PHASES], total;
	u64 shootdowns, acks, verified;
};

/* One CPU count of one folio size. */
struct mig_count {
	unsigned int cpus, rounds;
	struct mig_row row[MIG_NR_COPIES];
	struct ratio ratio[2];		/* batched against per page: folio_copy, folio_mc_copy */
	bool have_ratio[2];
};

/* The table's head for @nr folios of @leaf bytes. */
void mig_out_head(const struct bench_env *env, u64 leaf, unsigned int nr, unsigned int rounds);
/* One CPU count's rows, JSON lines and checks. */
void mig_out_count(const struct bench_env *env, u64 leaf, unsigned int nr,
		   const struct mig_count *c);
/* The summary: one row per CPU count measured, and the LAVA lines. */
void mig_out_sweep(const struct bench_env *env, u64 leaf, const struct mig_count *c,
		   unsigned int k);
/*
 * A folio size not measured: the reason printed and recorded; counted as a failure
 * (bench_failf) when @fail, i.e. the run promised the size.
 */
void mig_out_not_measured(const struct bench_env *env, u64 leaf, const char *why, bool fail);
/* Seed 000's figures, by Amdahl inverted. */
void mig_out_seeds(const struct bench_env *env);

#endif
