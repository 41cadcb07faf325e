/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pattern.h - what the soak writes in each pass, as data: the pass schedule, the pattern
 * descriptor of a chunk in a pass (for copy/verify.h's fill and verify), and which copy
 * primitive moves a chunk pair. Plain C, host-tested; nothing here touches memory.
 *
 * A chunk is keyed by its first page frame number, so its data depends only on (run seed,
 * pass, where it is), not on which CPU works it or in which order: a re-planned soak (a CPU
 * lost) or the hosted twin regenerates the same words.
 *
 * The schedule, memtest86+-style one row per pass kind: pass 0 is zeros written by the clear
 * primitives (the caller clears; the descriptor is "expected zero"); passes 1, 2, ... cycle
 * through random data, the same random data inverted (every cell sees both values), walking
 * ones and walking zeros (a one, or a zero, moving one bit per word).
 */
#ifndef CK_SOAK_PATTERN_H
#define CK_SOAK_PATTERN_H

#include "copy/verify.h"
#include "kernel/include/types.h"

enum soak_pat {
	SOAK_PAT_ZERO,		/* written by the clear primitives */
	SOAK_PAT_RANDOM,	/* splitmix64 keyed by (run seed, pass, chunk) */
	SOAK_PAT_RANDOM_INV,	/* the previous pass's random data, every bit inverted */
	SOAK_PAT_WALK_ONES,	/* word i: 1 << ((i + s) mod 64) */
	SOAK_PAT_WALK_ZEROS,	/* the same, inverted */
	NR_SOAK_PAT
};

/* How the data a chunk holds got there (a miscompare names it). */
enum soak_how {
	SOAK_HOW_CLEAR,		/* a clear primitive (pass 0) */
	SOAK_HOW_FILL,		/* soak_fill */
	SOAK_HOW_COPY,		/* a copy primitive, from a chunk written by one of the above */
	NR_SOAK_HOW
};

/* The copy primitives a pass rotates through (Linux's, over the page and folio APIs). */
enum soak_copy_op {
	SOAK_COPY_MC_BATCHED,		/* copy_mc_highpages: the v3 batched form */
	SOAK_COPY_MC_PER_PAGE,		/* copy_mc_highpage, page by page */
	SOAK_FOLIO_COPY_BATCHED,	/* folio_mc_copy, batched */
	SOAK_FOLIO_COPY_PER_PAGE,	/* folio_mc_copy, page by page */
	SOAK_COPY_NT,			/* the non-temporal copy, where the CPU has it */
	NR_SOAK_COPY_OPS
};
#define SOAK_COPY_ALL	((1u << NR_SOAK_COPY_OPS) - 1)

struct soak_pass_row {
	const char *name;
	enum soak_pat pat;
};

/* Row 0 is pass 0 alone; rows 1..N-1 repeat for passes 1, 2, ... */
extern const struct soak_pass_row soak_schedule[];
extern const unsigned int soak_schedule_rows;

/* The row of @pass and how many times the repeating rows went round before it. */
const struct soak_pass_row *soak_pass_row(u32 pass, u32 *cycle);

/* Descriptor of chunk @key (its first pfn) in @pass; word 0 of the chunk is index 0. */
void soak_pattern_desc(u64 run_seed, u32 pass, u64 key, struct soak_desc *d);
/* How @pass writes its source chunks: SOAK_HOW_CLEAR for zeros, else SOAK_HOW_FILL. */
enum soak_how soak_pass_how(u32 pass);

/*
 * The copy primitive for the @pair-th chunk pair a CPU works in @pass: consecutive pairs
 * rotate through the primitives in @available (a mask of 1 << SOAK_COPY_*), starting one
 * further each pass, so every pass exercises all of them. -1 when @available is empty.
 */
int soak_copy_op(u32 pass, u64 pair, u32 available);

const char *soak_pat_name(enum soak_pat p);
const char *soak_how_name(enum soak_how h);
const char *soak_copy_op_name(int op);

#endif
