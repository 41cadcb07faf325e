/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * march.h - the memory test's inner kernel (copy/march.asm): one March element over one run
 * of memory, ascending or descending, each word read and checked against one pattern and
 * then written with another, every load machine-check safe. Which runs, in which order, what
 * to expect and what to write is soak/march.c's; this is only the loop over one run, so that
 * a simulated memory can stand in for it word for word (the host tests' sim_mem.c).
 *
 * Order: word by word, as the memory-test literature's word-oriented memory is accessed (van
 * de Goor): the word is read (and checked) and then written before the next word is touched.
 * An element that only writes uses non-temporal stores (no read for ownership); one that reads
 * and writes uses ordinary stores to the line its read just brought in. (Through the caches
 * DRAM sees whole lines: soak/march.h says what the fault model takes from that.)
 *
 * Patterns are copy/verify.h's descriptors (word i of the run's chunk is index i; @first is
 * the index of the run's first word), with two more generators:
 *
 *   SOAK_GEN_ADDRESS  word i is (seed + 8 i) ^ invert: with seed the address of word 0, every
 *                     word holds its own address (or its complement);
 *   SOAK_GEN_CONST    every word is seed ^ invert: zeros, ones, the backgrounds.
 *
 * The run must be whole 64-byte lines (@buf and @len multiples of 64) and @first a multiple of
 * 8 (its chunk's word 0 starts a line), else SOAK_BAD_ARGS and nothing is touched.
 *
 * soak_march_mc returns:
 *   SOAK_OK          every word done;
 *   SOAK_MISCOMPARE  a line held a word other than @rd says: @miss->offset is the first such
 *                    word in the element's order, which read @miss->actual where @rd says
 *                    @miss->expected and was read again after its line was flushed
 *                    (@miss->reread); @miss->more counts the line's other wrong words. The
 *                    line was done as any other (each word read, then written), and the
 *                    kernel stopped after it: every line before it in the element's order is
 *                    done, none after it touched. The caller reports it and goes on from the
 *                    next line (or leaves the page);
 *   SOAK_POISONED    a load (@miss->store 0) or a store (1) in the line at @miss->offset (its
 *                    first word) faulted: #MC on poison, or #PF; that line's words from there
 *                    on in the element's order are not done;
 *   SOAK_BAD_ARGS    as above, or an element that neither reads nor writes.
 */
#ifndef CK_COPY_MARCH_H
#define CK_COPY_MARCH_H

#include "copy/verify.h"

#define SOAK_GEN_ADDRESS	2
#define SOAK_GEN_CONST		3
#define NR_SOAK_GEN		4

#define SOAK_LINE		64
#define SOAK_LINE_WORDS		8
#define SOAK_TABLE_WORDS	64	/* a rotation repeats every 64 words */

/* What an element does to each word. */
#define SOAK_MV_READ		1	/* check it against @rd */
#define SOAK_MV_WRITE		2	/* then write @wr's word */
#define SOAK_MV_DOWN		4	/* last word first */

#ifndef __ASSEMBLER__
struct soak_mv {
	struct soak_desc rd, wr;
	u64 flags;			/* SOAK_MV_* */
};

struct soak_word_miss {
	u64 offset;			/* bytes from buf */
	u64 expected, actual;		/* SOAK_POISONED: 0 */
	u64 reread;			/* the word again, its line flushed first */
	u64 more;			/* the line's other wrong words */
	u64 store;			/* SOAK_POISONED: 1 a store faulted, 0 a load */
};

u64 soak_march_mc(void *buf, size_t len, const struct soak_mv *mv, struct soak_word_miss *miss);
#endif

#endif
