/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * migrate_calc.h - the arithmetic of the `migrate` preset (bench/migrate.c): the phases of
 * one migration, their medians over rounds, the copy's share, and Amdahl's law between the
 * copy's speed-up and the whole migration's, the CPU counts of the sweep and the order of the
 * copy forms in a round, and the parser of the sysfs lists that name NUMA nodes. Plain C,
 * integers only, host-tested.
 */
#ifndef CK_BENCH_MIGRATE_CALC_H
#define CK_BENCH_MIGRATE_CALC_H

#include "kernel/include/types.h"

/* In the order Linux's migrate_pages() runs them for a batch of folios. */
enum mig_phase { MIG_UNMAP, MIG_SHOOTDOWN, MIG_COPY, MIG_REMAP, MIG_NR_PHASES };

struct mig_round {
	u64 ns[MIG_NR_PHASES];
};

extern const char *const mig_phase_names[MIG_NR_PHASES];

/* The copy forms one migration may use: folio_copy and folio_mc_copy, per page and batched. */
enum mig_copy { MIG_FC_PER_PAGE, MIG_FC_BATCHED, MIG_MC_PER_PAGE, MIG_MC_BATCHED,
		MIG_NR_COPIES };
#define MIG_IS_MC(c)		((c) >= MIG_MC_PER_PAGE)
#define MIG_IS_BATCHED(c)	((c) & 1)
extern const char *const mig_copy_fn[MIG_NR_COPIES];	/* "folio_copy", "folio_mc_copy" */
extern const char *const mig_copy_form[MIG_NR_COPIES];	/* "per_page", "batched" */

/*
 * The form at position @k of round @i: 0, 1, 2, 3 in even rounds, 3, 2, 1, 0 in odd ones,
 * so each form runs as often early as late in a round.
 */
enum mig_copy mig_round_form(unsigned int i, unsigned int k);

/*
 * The CPU counts of the sweep over @n online CPUs: the powers of two below @n, then @n
 * (1, 2, 4, 6 for 6). At most @max are written to @out; the number written.
 */
unsigned int mig_cpu_counts(unsigned int n, unsigned int *out, unsigned int max);

u64 mig_total(const u64 ns[MIG_NR_PHASES]);
/* Phase @p's share of the total in parts per thousand, rounded; 0 when the total is 0. */
u32 mig_share_pm(const u64 ns[MIG_NR_PHASES], enum mig_phase p);
/*
 * Each phase's median over @n rounds (the upper middle one for even @n), and the median of
 * the rounds' totals in *@total (not the sum of the medians). @scratch holds @n values.
 */
void mig_medians(const struct mig_round *r, unsigned int n, u64 *scratch,
		 u64 med[MIG_NR_PHASES], u64 *total);

/*
 * Per-page against batched copy, both in parts per thousand: the copy's share of the
 * per-page migration, the copy's own speed-up, the whole migration's speed-up Amdahl's law
 * predicts when only the copy changes (T / (T - C + C'), T and C per-page, C' batched), and
 * the measured one (T / T'). 0 where a divisor is 0.
 */
struct mig_amdahl {
	u32 copy_share_pm, copy_speedup_pm, predicted_pm, measured_pm;
};
void mig_amdahl(const u64 per_page[MIG_NR_PHASES], u64 per_page_total,
		const u64 batched[MIG_NR_PHASES], u64 batched_total, struct mig_amdahl *a);
/*
 * Amdahl inverted: the copy share (per mille) at which a copy speed-up @k_pm gives a whole
 * speed-up @r_pm: s = (1 - 1/r) / (1 - 1/k). 0 when k <= 1000 or r < 1000; capped at 1000.
 */
u32 mig_share_for_pm(u32 k_pm, u32 r_pm);

/*
 * The numbers of a Linux sysfs list ("0-1,4,6-7\n", as in /sys/devices/system/node/has_memory)
 * in the order written, at most @max to @out; how many were written. Parsing stops at the
 * first character that is not part of a list (so at the newline); a range written backwards
 * ("3-1") or one more than 2^16 long ends the list there.
 */
unsigned int mig_parse_list(const char *list, unsigned int *out, unsigned int max);

#endif
