/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_mem.h - a simulated memory with one injectable fault, the oracle of the soak's fault
 * coverage (tests/host/test_soak_coverage.c), and the plain C reference of copy/march.asm's
 * kernel (tests/host/test_soak_march.c holds the one to the other on real memory).
 *
 * The fault model is written from the memory-test literature's definitions (van de Goor,
 * "Testing Semiconductor Memories", 1991; van de Goor and Al-Ars, "Functional memory faults:
 * a formal notation and a taxonomy", VTS 2000; Hamdioui, van de Goor and Rodgers, "March SS",
 * MTDT 2002), not from the soak's code: a fault is a rule over cells, and the memory applies
 * it as the soak's reads and writes arrive. Word-oriented: a cell is one bit of one 64-bit
 * word, every operation reads or writes a whole word; when an aggressor and its victim are
 * bits of the same word, the fault acts after the word's write (the write sets the aggressor,
 * then the fault sets the victim).
 *
 *   SAF    stuck-at x: the cell always reads x, writes cannot change it.
 *   TF     transition fault: the cell cannot go up (0 to 1) or down.
 *   CFin   inversion coupling: an up (or down) transition of the aggressor inverts the victim.
 *   CFid   idempotent coupling: an up (or down) transition of the aggressor forces the victim
 *          to x.
 *   CFst   state coupling: while the aggressor holds s, the victim is forced to x.
 *   AF     address decoder: an address reaching no cell (writes lost, reads float to 0 or
 *          all ones), two addresses reaching one cell (a word), one address reaching two
 *          cells (writes go to both, reads return their wired-AND or wired-OR).
 *   RDF    read destructive: reading the cell holding x flips it and returns the new value.
 *   DRDF   deceptive read destructive: reading it returns x and flips it.
 *   WDF    write disturb: writing x to the cell holding x flips it.
 *   DRF    data retention: the cell holding x decays to its complement T ns after it was
 *          last written (simulated time: every word access takes SIM_NS_PER_OP, an idle its
 *          length).
 *   NPSF   neighbourhood pattern sensitivity (static): while the four neighbours of the base
 *          cell (the bits either side in its word, the same bit in the words before and after
 *          it) hold a pattern, the base is forced to x; (active): a transition of one
 *          neighbour while the other three hold a pattern inverts the base.
 *
 * The memory is lazy: a page holds either the descriptor it was last written with (every
 * word a pure function of it) or its words; only pages a fault touches, or that a run wrote
 * in part, are ever made words. So a pass over megabytes costs per page, not per word, and
 * is still exact: a read of a lazy page is checked by comparing descriptors, and by words
 * where they differ.
 */
#ifndef CK_TESTS_SIM_MEM_H
#define CK_TESTS_SIM_MEM_H

#include "copy/march.h"
#include "kernel/include/types.h"

/* ---- the reference pattern and kernel ------------------------------------------------ */

/* Word @i of @d, by copy/verify.h's and copy/march.h's definitions. */
u64 ref_word(const struct soak_desc *d, u64 i);

/* A word memory the reference kernel works on. */
struct ref_mem {
	u64 (*load)(struct ref_mem *m, u64 addr);
	void (*store)(struct ref_mem *m, u64 addr, u64 v);
	void (*flush)(struct ref_mem *m, u64 addr);
	bool fault;		/* the last load or store faulted (poison) */
};

/* copy/march.h's soak_march_mc, word by word over @m: the same contract and results. */
u64 ref_march(struct ref_mem *m, u64 buf, u64 len, const struct soak_mv *mv,
	      struct soak_word_miss *miss);

/* ---- the fault model ----------------------------------------------------------------- */

enum sim_fault_kind {
	SIM_NONE,
	SIM_SAF,		/* v, vbit, x */
	SIM_TF,			/* v, vbit, up */
	SIM_CFIN,		/* a, abit, up; v, vbit */
	SIM_CFID,		/* a, abit, up; v, vbit, x */
	SIM_CFST,		/* a, abit, s; v, vbit, x */
	SIM_AF_NONE,		/* a: reaches no cell; x: reads float to 0 or ~0 */
	SIM_AF_ALIAS,		/* a and v: one cell (a's accesses reach v's word) */
	SIM_AF_MULTI,		/* a reaches its cell and v's; x: reads wired-OR (1) or AND (0) */
	SIM_RDF,		/* v, vbit, x */
	SIM_DRDF,		/* v, vbit, x */
	SIM_WDF,		/* v, vbit, x */
	SIM_DRF,		/* v, vbit, x (the charged value), t_ns */
	SIM_SNPSF,		/* v, vbit (base), pattern (N, S, W, E in bits 0..3), x */
	SIM_ANPSF,		/* v, vbit, which neighbour (0..3) transitions up, pattern of others */
	NR_SIM_FAULTS
};

struct sim_fault {
	enum sim_fault_kind kind;
	u64 a, v;		/* word addresses: aggressor (or first address), victim */
	unsigned int abit, vbit;
	bool up;		/* the transition: up (0 -> 1) or down */
	unsigned int s, x;	/* state, forced value */
	unsigned int pattern;	/* NPSF: the neighbours' values, N S W E in bits 0..3 */
	unsigned int which;	/* ANPSF: the neighbour that transitions */
	u64 t_ns;		/* DRF */
};

/* Every word access takes this much simulated time (1 GiB at 10 GB/s: 0.8 ns a word). */
#define SIM_NS_PER_OP	1

struct sim_page;

/* A simulated memory: [base, base + bytes), page granular, with one fault. */
struct sim_mem {
	u64 base, bytes;
	struct sim_page *page;
	struct sim_fault f;
	u64 now_ns;		/* simulated time */
	u64 ns_per_op;		/* SIM_NS_PER_OP, or a scale the caller sets */
	u64 last_write_ns;	/* DRF: the victim word's last write */
	u64 word_ops;		/* accesses simulated word by word (statistics) */
	bool full;		/* every page made words (a check of the lazy path) */
	struct ref_mem ref;	/* the word interface of the reference kernel */
};

/* A memory of @bytes (whole pages) at @base, fault-free, holding zeros; @full: no laziness. */
void sim_init(struct sim_mem *m, u64 base, u64 bytes, bool full);
void sim_free(struct sim_mem *m);
/* Inject @f (its words must lie inside the memory). */
void sim_set_fault(struct sim_mem *m, const struct sim_fault *f);

/* The soak's seam over the simulated memory (soak/march.h's struct soak_mem_ops). */
u64 sim_march(struct sim_mem *m, u64 pa, u64 len, const struct soak_mv *mv,
	      struct soak_word_miss *miss);
int sim_copy(struct sim_mem *m, u64 dst, u64 src, u64 pages);
void sim_clear(struct sim_mem *m, u64 pa, u64 pages);
void sim_idle(struct sim_mem *m, u64 ns);

/* One word as a read would see it now (a read: the fault acts), for tests. */
u64 sim_read_word(struct sim_mem *m, u64 addr);

const char *sim_fault_name(enum sim_fault_kind k);

#endif
