// SPDX-License-Identifier: GPL-2.0-only
/*
 * msr.c - real or simulated machine-check MSRs (see msr.h). The simulated file reads unknown
 * registers as zero (an empty bank) and remembers the last write, so a test can check that
 * MCG_STATUS came last. A file belongs to one CPU: nothing here is shared between CPUs.
 */
#include "mce/msr.h"

#ifdef CK_KERNEL
#include "kernel/include/x86.h"
#endif

static int sim_find(const struct mce_sim *s, u32 msr)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (s->regs[i].msr == msr)
			return (int)i;
	return -1;
}

void mce_sim_reset(struct mce_sim *s)
{
	*s = (struct mce_sim){ .vendor = SIM_VENDOR_REAL };
}

void mce_sim_set(struct mce_sim *s, u32 msr, u64 val)
{
	int i = sim_find(s, msr);

	if (i < 0) {
		if (s->n == MCE_SIM_MAX)
			return;
		i = (int)s->n++;
		s->regs[i].msr = msr;
	}
	s->regs[i].val = val;
}

u64 mce_sim_get(const struct mce_sim *s, u32 msr)
{
	int i = sim_find(s, msr);

	return i < 0 ? 0 : s->regs[i].val;
}

int mce_rdmsr(const struct mce_sim *sim, u32 msr, u64 *val)
{
	if (sim) {
		*val = mce_sim_get(sim, msr);
		return 0;
	}
#ifdef CK_KERNEL
	return rdmsr_safe(msr, val);
#else
	*val = 0;
	return -1;
#endif
}

int mce_wrmsr(struct mce_sim *sim, u32 msr, u64 val)
{
	if (sim) {
		mce_sim_set(sim, msr, val);
		sim->last_write = msr;
		return 0;
	}
#ifdef CK_KERNEL
	return wrmsr_safe(msr, val);
#else
	return -1;
#endif
}
