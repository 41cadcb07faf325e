/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * migrate_out.h - what the `migrate` preset (bench/migrate.c) prints and records: what it
 * is about to do, then, for each folio size once it is measured whole, a table with one row
 * per CPU count and copy form, a summary with one row per CPU count, a JSON line per row,
 * or the reason it was not measured. The measuring calls the report, never the other way.
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

#define MIG_MAX_COUNTS	16	/* CPU counts of one folio size (mig_cpu_counts) */

/*
 * One folio size as bench/migrate.c measured it: either not measured (@measured false: why
 * in @why, a failure when @fail; "": said already), or its CPU counts, @done of @k of them
 * measured whole (fewer: a failure stopped it at @cpus[@done]).
 */
struct mig_size {
	u64 leaf;
	unsigned int nr, rounds;	/* folios of @leaf bytes; rounds at each CPU count */
	bool measured;
	char why[128];
	bool fail;
	unsigned int k, done;
	unsigned int cpus[MIG_MAX_COUNTS];
	struct mig_count count[MIG_MAX_COUNTS];
};

/*
 * What the preset is about to do: @online CPUs, the @k CPU counts @cnt it measures at,
 * @rounds rounds, the sequence it times, seed 000's figures, and (@hypervisor) what the
 * times under one are worth.
 */
void mig_out_intro(const struct bench_env *env, unsigned int online, const unsigned int *cnt,
		   unsigned int k, unsigned int rounds, bool hypervisor);
/*
 * One folio size: the table (a row per CPU count and copy form, JSON lines, checks), the
 * summary with one row per CPU count, the LAVA lines; or why it was not measured (counted
 * as a failure, bench_failf, when the run promised the size).
 */
void mig_out_size(const struct bench_env *env, const struct mig_size *s);

#endif
