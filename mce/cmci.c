// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmci.c - Intel's CMCI (see cmci.h): claiming banks, the LVT CMCI entry, the interrupt's
 * work and the storm history, after Linux's intel.c and threshold.c. No printing, no locks:
 * every function works on one CPU's state and that CPU's registers.
 */
#include "kernel/include/apicdef.h"
#include "kernel/include/msr-index.h"
#include "mce/cmci.h"
#include "mce/mce_regs.h"

static void set_threshold(struct mce_sim *be, unsigned int bank, u64 threshold)
{
	u64 v;

	if (mce_rdmsr(be, MSR_MC_CTL2(bank), &v))
		return;
	v &= ~MCI_CTL2_CMCI_THRESHOLD_MASK;
	mce_wrmsr(be, MSR_MC_CTL2(bank), v | (threshold & MCI_CTL2_CMCI_THRESHOLD_MASK));
}

static void storm_begin(struct mce_poll_state *s, struct mce_sim *be, unsigned int bank)
{
	struct mce_storm_bank *sb = &s->cmci.bank[bank];

	set_threshold(be, bank, MCE_CMCI_STORM_THRESHOLD);
	sb->in_storm = true;
	s->cmci.storming |= BIT(bank);
	s->st.storms++;
	/* Linux's mce_timer_kick(true): the CPU polls within the second. */
	s->next_ms = MIN(s->next_ms, sb->stamp_ms + MCE_POLL_STORM_MS);
}

static void storm_end(struct mce_poll_state *s, struct mce_sim *be, unsigned int bank)
{
	struct mce_storm_bank *sb = &s->cmci.bank[bank];

	set_threshold(be, bank, sb->threshold);
	sb->history = 0;
	sb->in_storm = false;
	s->cmci.storming &= ~BIT(bank);
	s->st.storms_ended++;
}

void mce_storm_track(struct mce_poll_state *s, struct mce_sim *be, unsigned int bank,
		     u64 status, u64 now_ms)
{
	struct mce_storm_bank *sb;
	unsigned int shift = 1;
	u64 history = 0;

	if (bank >= MCE_POLL_BANKS || !(s->cmci.owned & BIT(bank)))
		return;		/* no CMCI here: Linux's poll_only banks are not tracked */
	sb = &s->cmci.bank[bank];
	if (!sb->in_storm) {
		/* Not storming: one history bit per second since the last look, at least one. */
		u64 delta = now_ms >= sb->stamp_ms ? now_ms - sb->stamp_ms : 0;

		shift = (unsigned int)MIN((delta + 1000) / 1000, 64ULL);
	}
	if (shift < 64)
		history = sb->history << shift;
	sb->stamp_ms = now_ms;
	if ((status & MCI_STATUS_VAL) && !(status & MCI_STATUS_UC))
		history |= 1;
	sb->history = history;
	if (sb->in_storm) {
		if (!(history & (BIT(MCE_STORM_END_BIT + 1) - 1)))
			storm_end(s, be, bank);
	} else if (mce_hweight64(history) >= MCE_STORM_BEGIN) {
		storm_begin(s, be, bank);
	}
}

/* Linux's cmci_pick_threshold(): a storm left by the previous owner stays; else 1. */
static u64 pick_threshold(u64 ctl2, bool *inherited)
{
	*inherited = (ctl2 & MCI_CTL2_CMCI_THRESHOLD_MASK) == MCE_CMCI_STORM_THRESHOLD;
	if (*inherited)
		return ctl2;
	return (ctl2 & ~MCI_CTL2_CMCI_THRESHOLD_MASK) | MCE_CMCI_THRESHOLD;
}

u64 mce_cmci_claim(struct mce_poll_state *s, struct mce_sim *be, u64 banks, u64 now_ms)
{
	for (unsigned int b = 0; b < MCE_POLL_BANKS; b++) {
		struct mce_storm_bank *sb = &s->cmci.bank[b];
		bool inherited;
		u64 v;

		if (!(banks & BIT(b)) || mce_rdmsr(be, MSR_MC_CTL2(b), &v) ||
		    (v & MCI_CTL2_CMCI_EN))
			continue;	/* unreadable, or another CPU's */
		v = pick_threshold(v, &inherited) | MCI_CTL2_CMCI_EN;
		if (mce_wrmsr(be, MSR_MC_CTL2(b), v) || mce_rdmsr(be, MSR_MC_CTL2(b), &v) ||
		    !(v & MCI_CTL2_CMCI_EN))
			continue;	/* CMCI_EN does not stick: no CMCI on this bank */
		s->cmci.owned |= BIT(b);
		*sb = (struct mce_storm_bank){ .stamp_ms = now_ms,
					       .threshold = MCE_CMCI_THRESHOLD };
		if (inherited) {
			/* Linux's mce_inherit_storm(): assume the worst of the unknown past. */
			sb->history = ~0ULL;
			storm_begin(s, be, b);
		}
	}
	return s->cmci.owned;
}

bool mce_cmci_lvt_setup(const struct mce_apic_ops *a, u8 vector)
{
	u32 maxlvt = (a->read(a->ctx, APIC_VERSION) >> APIC_VERSION_MAXLVT_SHIFT) & 0xff;

	if (maxlvt < APIC_MAXLVT_CMCI)
		return false;
	a->write(a->ctx, APIC_LVT_CMCI, vector);	/* fixed delivery, unmasked */
	return true;
}
