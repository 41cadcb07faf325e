/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * amd_thresh.h - AMD's corrected-error threshold counters: the counter block in a bank's
 * MISC register (MCi_MISC0 on legacy banks, MCA_MISC0 on SMCA), as Linux's amd.c reads it.
 *
 * A block is usable when its Valid, CntP (counter present) bits are set and Locked is clear.
 * The 12-bit ErrCnt counts corrected errors up; preset to 0xfff - limit, it reaches the top
 * after @limit errors and the hardware then sets Ovrflw. The poller presets every usable
 * block of its banks with interrupts off (IntType 0: it polls instead of taking the
 * threshold APIC interrupt), finds Ovrflw set, logs one threshold event and presets again
 * (Linux's threshold_restart_bank with reset). Only block 0 (MISC0) is used: the further
 * blocks (legacy BlkPtr, SMCA MISC1-4) are not. Plain C through a register backend.
 */
#ifndef CK_MCE_AMD_THRESH_H
#define CK_MCE_AMD_THRESH_H

#include "kernel/include/types.h"
#include "mce/msr.h"

/* MISC0's threshold fields (Linux's MASK_*_HI in amd.c, here as 64-bit bits). */
#define MCI_MISC_THR_VALID	BIT(63)
#define MCI_MISC_THR_CNTP	BIT(62)		/* counter present */
#define MCI_MISC_THR_LOCKED	BIT(61)		/* firmware owns it */
#define MCI_MISC_THR_INTP	BIT(60)		/* can raise the threshold interrupt */
#define MCI_MISC_THR_CNTEN	BIT(51)		/* counting enabled */
#define MCI_MISC_THR_INTTYPE	(3ULL << 49)	/* 0 none, 1 APIC (LVT), 2 SMI */
#define MCI_MISC_THR_OVRFLW	BIT(48)
#define MCI_MISC_THR_CNT_SHIFT	32
#define MCI_MISC_THR_CNT	(0xfffULL << MCI_MISC_THR_CNT_SHIFT)
/* Linux's THRESHOLD_MAX: the counter's top and the default limit. */
#define MCE_THRESH_MAX		0xfffU

/* One CPU's counters: which banks have one, and each one's limit. */
struct mce_thresh {
	u64 banks;			/* banks whose MISC0 block is set up */
	u16 limit[64];
};

/* Whether the MISC0 value @misc holds a block the OS may program. */
bool mce_thresh_usable(u64 misc);
/* @misc with its counter preset for @limit (1 .. 0xfff), Ovrflw and IntType clear, CntEn set. */
u64 mce_thresh_preset(u64 misc, unsigned int limit);

/*
 * Set up the counter of each bank of @banks through @be (@smca: the register layout) that
 * has a usable block, with @limit (clamped to 1 .. 0xfff, as Linux clamps threshold_limit);
 * returns the banks set up.
 */
u64 mce_thresh_setup(struct mce_thresh *t, struct mce_sim *be, bool smca, u64 banks,
		     unsigned int limit);

/*
 * Bank @bank's counter: when it overflowed, the MISC0 value read (with Ovrflw) goes to @misc,
 * the counter is preset again and true is returned.
 */
bool mce_thresh_check(const struct mce_thresh *t, struct mce_sim *be, bool smca,
		      unsigned int bank, u64 *misc);

#endif
