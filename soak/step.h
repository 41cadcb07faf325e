/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * step.h - the order a CPU works its memory in during one pass, as pieces. Plain C over the
 * plan (plan.h), host-tested.
 *
 * A CPU's slices are cut into the plan's chunks (soak_chunk_end); each chunk is a pair of
 * halves: the source half is written (filled, or cleared on the zero pass), copied to the
 * destination half, the destination compared with the source and the source verified
 * against its pattern. The halves swap every pass, so each page is written by the pattern's
 * writer in one pass and by a copy in the next. A chunk of an odd number of pages ends in a
 * lone page: written and verified, never copied. The halves are walked in pieces of at most
 * SOAK_PIECE_MAX bytes (one 2 MiB folio), between which the CPU beats its heartbeat and
 * polls, and the boot CPU does its monitor duties.
 *
 * The source half's data is the pattern of key = its first pfn (pattern.h), word 0 at the
 * half's first byte, wherever the piece lies in it; so a piece's words can be regenerated
 * from (key, first) alone. Every page of every slice is in exactly one piece per pass.
 *
 * Retired pages (a miscompare, poison) are never touched again: soak_piece_seg() cuts a
 * piece into runs whose pages are all usable on both sides (copied), usable on one side only
 * (that side written and verified alone, under its own half's key), or on neither (skipped).
 */
#ifndef CK_SOAK_STEP_H
#define CK_SOAK_STEP_H

#include "soak/plan.h"

#define SOAK_PIECE_MAX	(2ULL << 20)

struct soak_piece {
	u64 src, dst;		/* physical; dst == src for a lone page */
	u64 len;		/* bytes, whole pages */
	u64 key;		/* the pfn of the source half's first page: the pattern's key */
	u64 first;		/* pattern index of the word at src (its offset in the half / 8) */
	u64 pair;		/* 0, 1, ... over the CPU's copied pieces this pass (soak_copy_op) */
	u8 node;		/* whose memory */
	bool lone;
};

/* Where a CPU is in its pass; soak_cursor_init() before the first piece. */
struct soak_cursor {
	unsigned int slice;
	bool have_slice, have_chunk, lone_done, done;
	struct soak_slice s;
	u64 at;			/* the next chunk's base inside the slice */
	u64 cbase, cend;	/* the chunk being walked */
	u64 off;		/* bytes of its halves done */
	u64 pairs;
};

void soak_cursor_init(struct soak_cursor *c);
/* The next piece of CPU @cpu in @pass; false once the pass is done. */
bool soak_step_next(const struct soak_plan *p, unsigned int cpu, u32 pass,
		    struct soak_cursor *c, struct soak_piece *out);

enum soak_seg_kind {
	SOAK_SEG_PAIR,		/* both sides usable: write, copy, compare, verify */
	SOAK_SEG_SRC,		/* the destination side retired: the source alone */
	SOAK_SEG_DST,		/* the source side retired: the destination alone */
	SOAK_SEG_NONE,		/* both retired: skipped */
};

struct soak_seg {
	enum soak_seg_kind kind;
	u64 page, nr;		/* pages [page, page + nr) of the piece */
};

/*
 * The run of pages of @pc that starts at page @from (< its page count) and shares one kind,
 * as @retired (a physical page address, @ctx) says; false when @from is past the end.
 */
bool soak_piece_seg(const struct soak_piece *pc, u64 from, bool (*retired)(u64 pa, void *ctx),
		    void *ctx, struct soak_seg *out);
/* The key of the destination half, for a run written alone (its index at dst is @first). */
u64 soak_piece_dst_key(const struct soak_piece *pc);

#endif
