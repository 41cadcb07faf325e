// SPDX-License-Identifier: GPL-2.0-only
/*
 * msr.c - real or simulated machine-check MSRs. The simulated file reads unknown registers
 * as zero (an empty bank) and records every write, so a test can check what was cleared.
 */
#include "mce/msr.h"

#ifdef CK_KERNEL
#include "kernel/include/x86.h"
#endif

struct mce_sim mce_sim;

static int sim_find(u32 msr)
{
	for (unsigned int i = 0; i < mce_sim.n; i++)
		if (mce_sim.regs[i].msr == msr)
			return (int)i;
	return -1;
}

void mce_sim_reset(void)
{
	mce_sim.n = 0;
	mce_sim.writes = 0;
}

void mce_sim_set(u32 msr, u64 val)
{
	int i = sim_find(msr);

	if (i < 0) {
		if (mce_sim.n == MCE_SIM_MAX)
			return;
		i = (int)mce_sim.n++;
		mce_sim.regs[i].msr = msr;
	}
	mce_sim.regs[i].val = val;
}

u64 mce_sim_get(u32 msr)
{
	int i = sim_find(msr);

	return i < 0 ? 0 : mce_sim.regs[i].val;
}

int mce_rdmsr(u32 msr, u64 *val)
{
	if (mce_sim.active) {
		*val = mce_sim_get(msr);
		return 0;
	}
#ifdef CK_KERNEL
	return rdmsr_safe(msr, val);
#else
	*val = 0;
	return -1;
#endif
}

int mce_wrmsr(u32 msr, u64 val)
{
	if (mce_sim.active) {
		mce_sim_set(msr, val);
		mce_sim.writes++;
		mce_sim.last_write = msr;
		return 0;
	}
#ifdef CK_KERNEL
	return wrmsr_safe(msr, val);
#else
	return -1;
#endif
}
