// SPDX-License-Identifier: GPL-2.0-only
/*
 * amd_thresh.c - AMD's threshold counters in MISC0 (see amd_thresh.h): which blocks the OS
 * may program, the preset for a limit, and the check a poll makes. Through a register
 * backend only, so the host tests run it over simulated banks.
 */
#include "kernel/include/msr-index.h"
#include "mce/amd_thresh.h"

static u32 misc0_msr(bool smca, unsigned int bank)
{
	return smca ? MSR_SMCA_MISC(bank) : MSR_MC_MISC(bank);
}

bool mce_thresh_usable(u64 misc)
{
	return (misc & MCI_MISC_THR_VALID) && (misc & MCI_MISC_THR_CNTP) &&
	       !(misc & MCI_MISC_THR_LOCKED);
}

u64 mce_thresh_preset(u64 misc, unsigned int limit)
{
	u64 count = MCE_THRESH_MAX - limit;

	misc &= ~(MCI_MISC_THR_CNT | MCI_MISC_THR_OVRFLW | MCI_MISC_THR_INTTYPE);
	return misc | (count << MCI_MISC_THR_CNT_SHIFT) | MCI_MISC_THR_CNTEN;
}

u64 mce_thresh_setup(struct mce_thresh *t, struct mce_sim *be, bool smca, u64 banks,
		     unsigned int limit)
{
	limit = MIN(MAX(limit, 1U), MCE_THRESH_MAX);
	t->banks = 0;
	for (unsigned int b = 0; b < 64; b++) {
		u64 misc;

		if (!(banks & BIT(b)) || mce_rdmsr(be, misc0_msr(smca, b), &misc) ||
		    !mce_thresh_usable(misc))
			continue;
		if (mce_wrmsr(be, misc0_msr(smca, b), mce_thresh_preset(misc, limit)))
			continue;
		t->limit[b] = (u16)limit;
		t->banks |= BIT(b);
	}
	return t->banks;
}

bool mce_thresh_check(const struct mce_thresh *t, struct mce_sim *be, bool smca,
		      unsigned int bank, u64 *misc)
{
	u64 v;

	if (bank >= 64 || !(t->banks & BIT(bank)) || mce_rdmsr(be, misc0_msr(smca, bank), &v) ||
	    !(v & MCI_MISC_THR_OVRFLW))
		return false;
	*misc = v;
	mce_wrmsr(be, misc0_msr(smca, bank), mce_thresh_preset(v, t->limit[bank]));
	return true;
}
