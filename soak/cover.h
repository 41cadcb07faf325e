/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cover.h - the soak's coverage rule, the one rule of its verdict the ledger cannot see, and
 * the words for it. Plain C over the plan (plan.h), host-tested.
 *
 * The rule: every CPU not found stuck finished a first whole pass, and touched in it every
 * page of its slices but those the soak itself retired. When one did not, the report names
 * the pages of its slices that are out of the soak and why each is out (soak_cover_out):
 *   - retired by the soak (an error it found there, PG_RETIRED);
 *   - on the poison list (PG_HWPOISON) since before the soak began: something earlier in the
 *     run queued it (a machine check, or a test that left poison behind);
 *   - on the poison list, queued while the soak ran by a machine check the soak's ledger did
 *     not take (another CPU's, say);
 *   - on the poison list, queued at a time not known (more pages were there as the soak began
 *     than it keeps by address).
 * Such pages are never touched (a poisoned page must not be), so a page out for a reason
 * other than the soak's own retiring leaves its CPU short: the soak fails, naming it.
 */
#ifndef CK_SOAK_COVER_H
#define CK_SOAK_COVER_H

#include "soak/plan.h"

enum soak_cover_state {
	SOAK_COVER_OK,
	SOAK_COVER_STUCK,	/* found stuck: its pages are counted apart, not judged here */
	SOAK_COVER_UNFINISHED,	/* no whole pass (a timed soak that ended inside the first) */
	SOAK_COVER_SHORT,	/* a whole pass left pages the soak did not retire */
};

/* One CPU's pass, as it counted it. */
struct soak_cover_cpu {
	u64 want;		/* pages of its slices (soak_cover_want) */
	u64 touched;		/* pages touched in its first whole pass (none: the pass under way) */
	u64 retired;		/* pages its ledger retired */
	u32 passes;		/* whole passes */
	bool stuck;
};

enum soak_cover_state soak_cover_judge(const struct soak_cover_cpu *c);
/* The pages of CPU @cpu's slices. */
u64 soak_cover_want(const struct soak_plan *p, unsigned int cpu);
/* The nodes whose memory CPU @cpu works, bit n for node n (those a shortfall of it fails). */
u32 soak_cover_nodes(const struct soak_plan *p, unsigned int cpu);

enum soak_out {
	SOAK_OUT_NONE,		/* in the soak */
	SOAK_OUT_RETIRED,
	SOAK_OUT_POISON_BEFORE,
	SOAK_OUT_POISON,
	SOAK_OUT_POISON_UNTOLD,	/* on the list, when not known (too many were there before) */
	NR_SOAK_OUT
};

struct soak_out_page {
	u64 pa;
	enum soak_out why;
};

/*
 * The pages of CPU @cpu's slices that @why (a page's physical address, @ctx) says are out, in
 * address order: the first @max go to @out; returns how many there are.
 */
u64 soak_cover_out(const struct soak_plan *p, unsigned int cpu,
		   enum soak_out (*why)(u64 pa, void *ctx), void *ctx, struct soak_out_page *out,
		   unsigned int max);
/* "retired by the soak (an error it found there)", ... */
const char *soak_out_text(enum soak_out why);

#endif
