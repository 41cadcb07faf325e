/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pattern.h - what the soak writes and reads in each pass, as data: the pass schedule (one
 * row per kind of pass, each a list of March elements), what each area of memory holds
 * before each element, the descriptor of those words for copy/march.h's kernel, and which
 * copy primitive moves a piece. Plain C, host-tested; nothing here touches memory
 * (soak/march.c walks memory through the elements).
 *
 * Areas. The plan's chunks (plan.h) are each two halves and, for an odd page count, a lone
 * last page. In pass p the source half is the first for even p, the second for odd p; the
 * other is the destination. Data is keyed by the area's first page frame number, so it
 * depends only on (run seed, pass, where it is), never on which CPU works it or when.
 *
 * Elements (van de Goor's March notation; soak/march.c runs them, every CPU over its own
 * memory, all CPUs between the same two barriers):
 *   SWEEP  every area, up or down: each word read (checked against what the area holds)
 *          and then written with the element's pattern; read-only or write-only elements
 *          too;
 *   PAIRS  up, the source and lone areas as SWEEP (or read, then cleared by Linux's clear
 *          primitive), then each source piece copied by a Linux copy primitive into the
 *          destination half at an offset that differs from pass to pass (pages, rotated
 *          inside the half; the destination words it replaces are read first);
 *   IDLE   nothing for soak_fade= seconds (data retention).
 * A pattern written as SOAK_PAT_HELD_INV is the complement of what each word holds: every
 * cell then holds both values, a copied one included.
 *
 * The schedule, memtest86+-style one row per pass kind: row 0 (pass 0, the first pass of a
 * soak, soak=passes:1) is the memory test: own address and its complement, March C- over
 * zeros and ones with a read-only element after each of its halves, and six background
 * pairs (checkerboards of 1, 2, 4, 8, 16 and 32 bits, each written, inverted and written
 * again), then a copy of address data; rows 1, 2, ... repeat for passes 1, 2, ...: random
 * data, walking ones, zeros written by the clear primitive, and the retention pass. Every
 * element after the soak's first reads what the one before left before it writes, and every
 * pass ends with a read-only element, so a flip between two passes is found by the next.
 */
#ifndef CK_SOAK_PATTERN_H
#define CK_SOAK_PATTERN_H

#include "copy/march.h"
#include "kernel/include/types.h"

/* What a word holds; each pattern's complement is the next value (soak_pat ^ 1). */
enum soak_pat {
	SOAK_PAT_ZERO,
	SOAK_PAT_ONES,
	SOAK_PAT_ADDRESS,		/* its own physical address */
	SOAK_PAT_ADDRESS_INV,
	SOAK_PAT_CHECK1,		/* 0xaaaa...: bit i is bit 0 of i */
	SOAK_PAT_CHECK1_INV,
	SOAK_PAT_CHECK2,		/* 0xcccc...: bit i is bit 1 of i */
	SOAK_PAT_CHECK2_INV,
	SOAK_PAT_CHECK4,		/* 0xf0f0... */
	SOAK_PAT_CHECK4_INV,
	SOAK_PAT_CHECK8,		/* 0xff00ff00... */
	SOAK_PAT_CHECK8_INV,
	SOAK_PAT_CHECK16,		/* 0xffff0000ffff0000 */
	SOAK_PAT_CHECK16_INV,
	SOAK_PAT_CHECK32,		/* 0xffffffff00000000 */
	SOAK_PAT_CHECK32_INV,
	SOAK_PAT_RANDOM,		/* splitmix64 keyed by (run seed, pass, area) */
	SOAK_PAT_RANDOM_INV,
	SOAK_PAT_WALK_ONES,		/* word i: 1 << ((i + s) mod 64), s from the cycle and area */
	SOAK_PAT_WALK_ZEROS,
	NR_SOAK_PAT
};
#define SOAK_PAT_NONE		0xff	/* nothing known (before the soak's first write) */
#define SOAK_PAT_HELD_INV	0xfe	/* as a write: the complement of what is held */
#define SOAK_NR_CHECK		6	/* the checkerboards: 1, 2, ..., 32 bits */

/* How the data an area holds got there (a miscompare names it). */
enum soak_how {
	SOAK_HOW_CLEAR,		/* a clear primitive */
	SOAK_HOW_FILL,		/* the soak's kernel, soak_march_mc */
	SOAK_HOW_COPY,		/* a copy primitive, from the other half */
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

enum soak_el_kind { SOAK_EL_SWEEP, SOAK_EL_PAIRS, SOAK_EL_IDLE };

/* One element of a pass. */
struct soak_el {
	u8 kind;		/* enum soak_el_kind */
	bool down;		/* SWEEP: last word first */
	bool read;		/* check what each word holds first */
	u8 write;		/* enum soak_pat, SOAK_PAT_HELD_INV, or SOAK_PAT_NONE (read only) */
	bool clear;		/* PAIRS: the source and lone areas zeroed by the clear primitive */
};

struct soak_pass_row {
	const char *name;
	const struct soak_el *el;
	unsigned int nr_el;
};

/* Row 0 is pass 0 alone; rows 1..N-1 repeat for passes 1, 2, ... */
extern const struct soak_pass_row soak_schedule[];
extern const unsigned int soak_schedule_rows;

/* The row of @pass and how many times the repeating rows went round before it. */
const struct soak_pass_row *soak_pass_row(u32 pass, u32 *cycle);

/* The areas of a chunk. */
enum soak_area_kind { SOAK_AREA_H0, SOAK_AREA_H1, SOAK_AREA_LONE, NR_SOAK_AREAS };

/* What an area holds: a pattern keyed by the pass that wrote it, or a copy of the other half's. */
struct soak_content {
	u8 pat;			/* enum soak_pat, or SOAK_PAT_NONE */
	u8 how;			/* enum soak_how */
	bool copied;		/* the other half's words, rotated by soak_rotation(pass, half) */
	u32 pass;		/* the pass that wrote it (a copy: the pass that copied it) */
};

/* Where the words of an area are: its chunk's halves (0 pages: none) and lone page. */
struct soak_area {
	u8 kind;		/* enum soak_area_kind */
	u64 base, pages;
	u64 other;		/* a half: the other half's base */
};

/*
 * Each area's content before element @el of @pass (@el = nr_el: after the pass), the areas
 * in enum soak_area_kind order. Before the soak's first write it is SOAK_PAT_NONE.
 */
void soak_contents(u32 pass, unsigned int el, struct soak_content out[NR_SOAK_AREAS]);
/* Which half is the source in @pass (SOAK_AREA_H0 or SOAK_AREA_H1). */
enum soak_area_kind soak_src_half(u32 pass);
/* How many pages a copy in @pass rotates a half of @half_pages by: 0 < r < half, or 0. */
u64 soak_rotation(u32 pass, u64 half_pages);

/*
 * The descriptor of @c for the word at index @i of area @a (word 0 at a->base); returns how
 * many words from @i on it describes (to the end of the area, or of a copy's rotated part).
 * d->first is a multiple of 8 when @i is. @c must not be SOAK_PAT_NONE.
 */
u64 soak_content_desc(u64 run_seed, const struct soak_content *c, const struct soak_area *a,
		      u64 i, struct soak_desc *d);

/*
 * The copy primitive for the piece of a source half at physical @src_pa in @pass: pieces
 * rotate through the primitives in @available (a mask of 1 << SOAK_COPY_*) by their 2 MiB
 * index, starting one further each pass, so consecutive pieces, and every pass, exercise all
 * of them. -1 when @available is empty.
 */
int soak_copy_op(u32 pass, u64 src_pa, u32 available);

const char *soak_pat_name(enum soak_pat p);
const char *soak_how_name(enum soak_how h);
const char *soak_copy_op_name(int op);
/* The background word of checkerboard @k (0..5: 1, 2, ..., 32 bits): bit i is bit k of i. */
u64 soak_check_word(unsigned int k);

#endif
