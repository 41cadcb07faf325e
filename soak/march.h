/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * march.h - the soak's elements run over memory: which pieces a CPU works in an element and
 * in what order, what each word is expected to hold and what is written, what a copy
 * replaces, and what happens after a wrong word, all through one seam (struct soak_mem_ops)
 * that the image (soak/run_work.c), the hosted twin (host/soak/) and the host tests'
 * simulated memory each fill in. Plain C over the plan and the schedule (plan.h,
 * pattern.h); the memory is touched only through the seam.
 *
 * The engine runs, on every CPU, the elements of each pass in order with a barrier between
 * two elements (all CPUs finish one before any starts the next): for each element it walks
 * its pieces (soak_walk_*) and does each one (soak_el_piece). A piece is at most
 * SOAK_PIECE_MAX bytes of one area (pattern.h), never across a chunk; between pieces the
 * engine beats its heartbeat and polls.
 *
 * Order. A SWEEP up walks the CPU's slices, chunks, areas (first half, second half, lone
 * page) and words in ascending address order, down in exactly the reverse: between two words
 * of one CPU's memory, March's order holds. Between two CPUs' memories it does not (they run
 * at once); the barriers give each element's reads the writes of the elements before it.
 * A PAIRS element walks the source halves and lone pages up; each source piece is written,
 * then the destination words it will land on (a rotation of the half by soak_rotation(),
 * at most two runs) are read, then copied over.
 *
 * After a wrong word (or poison) the engine's @found reports it and the run goes on past it:
 * from the next line, or from the next page when the engine has taken the page out (@out).
 * Pages out are never touched again: a source page out leaves its copy to be written by the
 * kernel with what the copy would have put there, a destination page out gets nothing.
 */
#ifndef CK_SOAK_MARCH_H
#define CK_SOAK_MARCH_H

#include "soak/ledger.h"
#include "soak/pattern.h"
#include "soak/plan.h"

#define SOAK_PIECE_MAX	(2ULL << 20)

/* A wrong word, or poison, as the sequencer hands it to the engine. */
struct soak_found {
	bool poison;			/* a load (or store) faulted: @pa is its line */
	bool store;			/* ... a store */
	u64 pa;				/* the word */
	u64 expected, actual, reread;
	u64 more;			/* other wrong words in its line */
	struct soak_writer w;		/* what put the expected word there */
	u32 pass;
	u16 el;
};

/* The seam: how an engine's memory is touched. Every function gets @ctx. */
struct soak_mem_ops {
	void *ctx;
	/* copy/march.h's soak_march_mc over [pa, pa + len) */
	u64 (*march)(void *ctx, u64 pa, u64 len, const struct soak_mv *mv,
		     struct soak_word_miss *m);
	/* Linux's copy primitive @op over @pages pages: 0, or nonzero when it stopped on poison */
	int (*copy)(void *ctx, int op, u64 dst, u64 src, u64 pages);
	/* Linux's clear primitive over @pages pages */
	void (*clear)(void *ctx, u64 pa, u64 pages);
	/* whether the page at @pa is out (retired, poisoned): never touched again */
	bool (*out)(void *ctx, u64 pa);
	/* a wrong word or poison: report it (and take its page out, or not) */
	void (*found)(void *ctx, const struct soak_found *f);
	/* a run written; @source: a copy's source, before its copy (the image's test knobs) */
	void (*written)(void *ctx, u64 pa, u64 len, bool source);
};

/* A soak's facts the elements need (shared, read-only while CPUs work). */
struct soak_prog {
	const struct soak_plan *plan;
	u64 seed;			/* the run's seed: random data */
	u32 copy_mask;			/* copy primitives to rotate through (pattern.h) */
};

/* One piece of an area. */
struct soak_piece {
	struct soak_area a;		/* its area */
	u64 pa, len;			/* bytes, whole pages, inside the area */
	u8 node;			/* whose memory */
};

/* Where a CPU is in an element's walk; soak_walk_init() before the first piece. */
struct soak_walk {
	const struct soak_plan *p;
	unsigned int cpu, nr_slices, slice;
	bool down, pairs, done, have_slice;
	u32 pass;
	struct soak_slice s;
	u64 at;				/* the next chunk starts (up) or ends (down) here */
	u64 cbase, cend;		/* the chunk being walked */
	int area;			/* its area being walked, in walk order (0..2); 3: none */
	struct soak_area a;		/* that area */
	u64 lo, hi;			/* what is left of it */
};

void soak_walk_init(struct soak_walk *w, const struct soak_plan *p, unsigned int cpu,
		    const struct soak_el *e, u32 pass);
/* The next piece; false once the CPU's memory is walked. */
bool soak_walk_next(struct soak_walk *w, struct soak_piece *out);

/* One CPU's element under way: what it counted. */
struct soak_el_run {
	const struct soak_prog *prog;
	const struct soak_mem_ops *ops;
	u32 pass;
	u16 el;
	const struct soak_el *e;
	struct soak_content before[NR_SOAK_AREAS], after[NR_SOAK_AREAS];
	u64 pages;			/* pages touched */
	u64 bytes_read;			/* bytes read and checked */
	u64 bytes_written;		/* bytes written by the kernel and the clear primitive */
	u64 bytes_copied;		/* bytes copied by a copy primitive (read once, written once) */
};

/* Element @el of @pass on the CPU that runs @r. */
void soak_el_begin(struct soak_el_run *r, const struct soak_prog *prog,
		   const struct soak_mem_ops *ops, u32 pass, unsigned int el);
/* Do one piece of it (soak_walk_next's, for this element). */
void soak_el_piece(struct soak_el_run *r, const struct soak_piece *pc);

#endif
