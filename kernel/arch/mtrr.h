/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mtrr.h - the memory-type range registers as firmware left them, read once, and the
 * memory type they give an address range (Intel SDM vol. 3, "Memory Type Range Registers";
 * the same on AMD). Paging asks whether a large page would cover more than one MTRR type
 * (the SDM leaves such a page's type undefined; Linux refuses the large page) and splits it;
 * the benchmarks give each buffer's effective type. The lookup is plain C, host-tested.
 */
#ifndef CK_MTRR_H
#define CK_MTRR_H

#include "kernel/include/types.h"

#define MTRR_UC		0
#define MTRR_WC		1
#define MTRR_WT		4
#define MTRR_WP		5
#define MTRR_WB		6
#define MTRR_MIXED	0xfe	/* a range that holds more than one type */
#define MTRR_NONE	0xff	/* no MTRRs (or disabled): the page tables alone decide */

#define MTRR_MAX_VAR	32

struct mtrr_state {
	bool present;		/* CPUID 1 EDX[12] and MTRRcap readable */
	bool enabled;		/* MTRRdefType E */
	bool fixed_enabled;	/* MTRRdefType FE (and MTRRcap FIX) */
	u8 def_type;
	u8 fixed[88];		/* 0-512 KiB in 64 KiB, to 768 KiB in 16 KiB, to 1 MiB in 4 KiB */
	unsigned int nr_var;
	struct {
		u64 base, mask;	/* PHYSBASE/PHYSMASK with the type and valid bits removed */
		u8 type;
		bool valid;
	} var[MTRR_MAX_VAR];
	u64 phys_mask;		/* (1 << MAXPHYADDR) - 1: the address bits the CPU implements */
};

/* The MTRR type of [@start, @end), or MTRR_MIXED, or MTRR_NONE when MTRRs are off. */
u8 mtrr_range_type(const struct mtrr_state *s, u64 start, u64 end);
const char *mtrr_type_name(u8 type);

#ifdef CK_KERNEL
/* Read the MSRs (once, before paging is built); later calls return the same state. */
const struct mtrr_state *mtrr_read(void);
/* One line per range of the map, for the boot report. */
void mtrr_report(void);
#endif

#endif
