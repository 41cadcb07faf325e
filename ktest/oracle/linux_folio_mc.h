/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Independent oracle: what a folio copy does when the SOURCE holds poison, in three forms:
 * Linux v6.17's per-page folio_mc_copy(), the batched copy_mc_highpages() of the v3 patch
 * (seed 002, not merged) and a copy_pages()-based candidate. The candidate is NOT Linux: no
 * copy_pages() exists upstream; its model states the contract the project's candidate is
 * held to ("the v3 rules over a copy_pages-like primitive").
 *
 * Written from Linux's mm/util.c, include/linux/highmem.h, arch/x86/lib/copy_mc.c and
 * copy_mc_64.S and from the seed threads; see ktest/oracle/NOTES.md, section "Folio copies
 * over poison", for the source of every rule. Includes nothing of the project.
 *
 * Assumptions: x86-64 (no HIGHMEM, ARCH_HAS_COPY_MC), 4 KiB pages, page-aligned folios, one
 * poisoned 64-byte line, and a machine check that Linux recovers from at a machine-check-safe
 * fixup (ktest/oracle/linux_mce.h would say LX_END_RECOVER) when the primitive is one.
 */
#ifndef CK_KTEST_ORACLE_LINUX_FOLIO_MC_H
#define CK_KTEST_ORACLE_LINUX_FOLIO_MC_H

#include <stdbool.h>
#include <stdint.h>

#define LX_FMC_PAGE_SHIFT	12
#define LX_FMC_PAGE_SIZE	(1ULL << LX_FMC_PAGE_SHIFT)
#define LX_FMC_LINE		64ULL
#define LX_EHWPOISON		133	/* include/uapi/asm-generic/errno.h */

enum lx_fmc_form {
	LX_FMC_V617_PER_PAGE,	/* mm/util.c folio_mc_copy(), v6.17: copy_mc_highpage() per page */
	LX_FMC_V3_BATCHED,	/* seed 002: folio_mc_copy() over copy_mc_highpages() */
	LX_FMC_COPY_PAGES,	/* candidate, not Linux: the v3 rules over copy_pages() */
	LX_FMC_FORMS
};

/* What the machine-check-safe copy does when a load hits the poisoned line. */
enum lx_fmc_prim {
	LX_FMC_FRAGILE,		/* copy_mc_fragile: stops at the first poisoned 8-byte word */
	LX_FMC_REP_MOVSB,	/* copy_mc_enhanced_fast_string: RCX where the CPU stopped */
	LX_FMC_MEMCPY,		/* copy_mc_to_kernel() falling back to memcpy: not MC-safe */
	LX_FMC_REP_MOVSQ,	/* candidate only: rep movsq, the remainder in whole quadwords */
	LX_FMC_PRIMS
};

enum lx_fmc_poison {
	LX_FMC_CLEAN,		/* no poisoned page */
	LX_FMC_MC,		/* loading the poisoned line raises a (recoverable) #MC */
	LX_FMC_SW_POISON,	/* page marked PG_hwpoison, but reading it raises nothing */
	LX_FMC_POISONS
};

struct lx_fmc_in {
	enum lx_fmc_form form;
	enum lx_fmc_prim prim;
	enum lx_fmc_poison poison;
	bool preemptible;	/* CONFIG_PREEMPTION (full, lazy or RT) */
	uint64_t npages;	/* 4 KiB pages in the folio, at least 1 */
	uint64_t src_pfn;	/* pfn of the folio's first source page */
	uint64_t poison_page;	/* index of the poisoned source page (unless LX_FMC_CLEAN) */
	uint32_t poison_off;	/* byte offset of the poisoned line in it: a multiple of 64 */
	/*
	 * rep movs only: the remainder the stopping call returned, as observed on a run. The
	 * CPU may stop anywhere at or before the poisoned line. Without it (observed false)
	 * the model assumes it stopped exactly at the line, as copy_mc_fragile does.
	 */
	bool observed;
	uint64_t observed_ret;
};

enum lx_fmc_end {
	LX_FMC_OK,		/* returned 0 */
	LX_FMC_HWPOISON,	/* returned -EHWPOISON */
	LX_FMC_PANIC,		/* the #MC hit a load with no machine-check-safe fixup */
	LX_FMC_INVALID,		/* the model refuses the input (why says which field) */
};

struct lx_fmc_out {
	enum lx_fmc_end end;
	int retval;		/* 0 or -LX_EHWPOISON (0 for PANIC and INVALID) */
	uint64_t calls;		/* calls of the copy primitive made */
	uint64_t call_start;	/* folio offset where the stopping call began */
	uint64_t call_len;	/* the length that call was given (after any truncation) */
	uint64_t ret;		/* what it returned: bytes not copied (0 if none stopped) */
	bool queued;		/* memory_failure_queue() was called */
	uint64_t queued_pfn;
	bool queued_right;	/* the queued pfn is the poisoned page's */
	uint64_t dst_equal;	/* dst bytes [0, dst_equal) are guaranteed equal to the source;
				   nothing at or after the poisoned line is ever counted */
	uint64_t resched;	/* cond_resched() calls made (no-ops under full preemption) */
	bool consistent;	/* the observed remainder is possible for this primitive */
	bool silent;		/* returned 0 although a source page is poisoned */
	bool len_truncated;	/* the length lost its high bits (copy_mc_to_kernel: 32-bit) */
	const char *why;	/* one line: which rule decided */
};

/* Runs the model; every field of *out is written. */
void lx_folio_mc_copy_model(const struct lx_fmc_in *in, struct lx_fmc_out *out);

const char *lx_fmc_form_name(enum lx_fmc_form form);
const char *lx_fmc_prim_name(enum lx_fmc_prim prim);
const char *lx_fmc_end_name(enum lx_fmc_end end);

#endif /* CK_KTEST_ORACLE_LINUX_FOLIO_MC_H */
