/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmci.h - Intel's corrected machine-check interrupt (CMCI, with MCG_CAP.CMCI_P): claiming
 * a bank's CMCI (MCi_CTL2.CMCI_EN and its threshold), the LVT CMCI entry, the interrupt's
 * work, and Linux's CMCI storm logic (arch/x86/kernel/cpu/mce/threshold.c, v6.8 on):
 *
 *  - each bank this CPU owns keeps a 64-bit history; every time the bank is looked at (a
 *    poll or a CMCI) the history moves on by one bit per second since the last look (at
 *    least one), or by exactly one while the bank storms, and bit 0 is set when the bank
 *    holds a valid corrected error;
 *  - five set bits begin a storm: the bank's CMCI threshold goes to 32749 (interrupts all
 *    but stop) and the CPU polls once a second; thirty clean polls in a row (history bits
 *    29:0 clear) end it: the threshold goes back (1, Linux's CMCI_THRESHOLD) and so does the
 *    polling interval.
 *
 * Plain C through a register backend and a small APIC interface, so the host tests drive
 * the interrupt path over a fake APIC and simulated banks. Under QEMU (no CMCI_P) none of it
 * runs; it has not run on silicon either.
 */
#ifndef CK_MCE_CMCI_H
#define CK_MCE_CMCI_H

#include "kernel/include/types.h"
#include "mce/msr.h"
#include "mce/poll_state.h"

#define MCE_CMCI_THRESHOLD		1	/* Linux's CMCI_THRESHOLD */
#define MCE_CMCI_STORM_THRESHOLD	32749	/* Linux's CMCI_STORM_THRESHOLD */
#define MCE_STORM_BEGIN			5	/* Linux's STORM_BEGIN_THRESHOLD */
#define MCE_STORM_END_BIT		29	/* Linux's STORM_END_POLL_THRESHOLD: bits 29:0 */
/* Linux polls a CPU with a storming bank once per second (HZ). */
#define MCE_POLL_STORM_MS		1000

/* The local APIC as the CMCI code uses it (the image's kernel/arch/apic.h, or a fake). */
struct mce_apic_ops {
	u32 (*read)(void *ctx, u32 reg);
	void (*write)(void *ctx, u32 reg, u32 val);
	void (*eoi)(void *ctx);
	void *ctx;
};

/*
 * Claim the CMCI of each bank of @banks through @be, as Linux's cmci_discover(): a bank whose
 * CMCI_EN is already set belongs to another CPU and is left; otherwise its threshold becomes 1
 * (a bank left at the storm threshold by a previous owner keeps it and its storm goes on
 * here), CMCI_EN is set and read back: the banks where it stuck are this CPU's (@c->owned).
 * Returns them.
 */
u64 mce_cmci_claim(struct mce_poll_state *s, struct mce_sim *be, u64 banks, u64 now_ms);

/*
 * Point this CPU's LVT CMCI entry at @vector (fixed delivery); false when there is none (the
 * APIC's highest LVT index below 6: Linux's cmci_supported() says no CMCI then).
 */
bool mce_cmci_lvt_setup(const struct mce_apic_ops *a, u8 vector);

/* One look at bank @bank holding @status at @now_ms, for an owned bank: storm begin or end. */
void mce_storm_track(struct mce_poll_state *s, struct mce_sim *be, unsigned int bank,
		     u64 status, u64 now_ms);

#endif
