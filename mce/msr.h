/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msr.h - how the machine-check code reaches its MSRs: the real registers, or a simulated
 * register file that tests fill in (inject=simulate and the emulated-poison backend). The
 * handler only ever goes through mce_rdmsr/mce_wrmsr.
 */
#ifndef CK_MCE_MSR_H
#define CK_MCE_MSR_H

#include "kernel/include/types.h"

#define MCE_SIM_MAX	96

enum mce_sim_vendor { SIM_VENDOR_REAL, SIM_VENDOR_INTEL, SIM_VENDOR_AMD };

struct mce_sim {
	bool active;		/* route mce_rdmsr/mce_wrmsr to the table below */
	bool no_panic;		/* tests: record what would panic, then resume */
	enum mce_sim_vendor vendor;	/* grade with this vendor's table instead of the CPU's */
	bool ser;		/* with vendor set: SER_P (Intel) or SUCCOR (AMD) */
	u32 last_write;		/* MSR of the last write */
	bool nested;		/* pretend a #MC handler is already running */
	unsigned int n;
	struct {
		u32 msr;
		u64 val;
	} regs[MCE_SIM_MAX];
	unsigned long writes;
};

extern struct mce_sim mce_sim;

int mce_rdmsr(u32 msr, u64 *val);
int mce_wrmsr(u32 msr, u64 val);

void mce_sim_reset(void);
void mce_sim_set(u32 msr, u64 val);
u64 mce_sim_get(u32 msr);

#endif
