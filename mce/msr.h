/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msr.h - how the machine-check code reaches its MSRs: a backend, which is either the real
 * registers (a NULL backend) or a simulated register file. Each CPU's machine-check state
 * (mce/core.h) owns two files, one for inject=simulate and one for the emulated poison of
 * inject=emulate, and its handler reads only the backend it chose for this #MC: a CPU never
 * sees another CPU's simulated registers. The handler only ever goes through mce_rdmsr and
 * mce_wrmsr.
 */
#ifndef CK_MCE_MSR_H
#define CK_MCE_MSR_H

#include "kernel/include/types.h"

#define MCE_SIM_MAX	96

enum mce_sim_vendor { SIM_VENDOR_REAL, SIM_VENDOR_INTEL, SIM_VENDOR_AMD };

/* A simulated register file: unknown registers read as zero (an empty bank). */
struct mce_sim {
	bool no_panic;		/* tests: record what would panic, then resume */
	enum mce_sim_vendor vendor;	/* grade with this vendor's table instead of the CPU's */
	bool ser;		/* with vendor set: SER_P (Intel) or SUCCOR (AMD) */
	bool nested;		/* pretend a #MC handler is already running */
	bool ident;		/* grade as the CPU below, not this one (model-specific rows) */
	u8 family, model, stepping;
	u32 last_write;		/* MSR of the last write */
	unsigned int n;
	struct {
		u32 msr;
		u64 val;
	} regs[MCE_SIM_MAX];
};

/* Through @sim, or the real MSR when @sim is NULL (0, or -1 when the MSR faults). */
int mce_rdmsr(const struct mce_sim *sim, u32 msr, u64 *val);
int mce_wrmsr(struct mce_sim *sim, u32 msr, u64 val);

/* Empty @s: no register set, every option off. */
void mce_sim_reset(struct mce_sim *s);
void mce_sim_set(struct mce_sim *s, u32 msr, u64 val);
u64 mce_sim_get(const struct mce_sim *s, u32 msr);

/*
 * This CPU's inject=simulate file (NULL before its machine-check state exists), and routing
 * this CPU's #MC handler to it (@on) or back to the real MSRs. A real #MC (MCIP set in the
 * real MCG_STATUS) is always read from the real MSRs, routed or not. Kernel only (core.c).
 */
struct mce_sim *mce_sim_this(void);
void mce_sim_route(bool on);

#endif
