// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan_core.c - one CPU's bank scan of a machine check (see scan_core.h).
 */
#include "mce/mce_regs.h"
#include "mce/poll_core.h"
#include "mce/scan_core.h"

static u32 reg(const struct mce_scan_env *e, unsigned int b, int r)
{
	return mce_poll_bank_msr(e->src.smca, b, r);
}

static unsigned int nbanks(const struct mce_scan_env *e)
{
	return MIN(e->nbanks, (unsigned int)MCE_MAX_BANKS);
}

/* A valid STATUS of bank @b, or 0. */
static u64 valid_status(const struct mce_scan_env *e, unsigned int b)
{
	u64 st = 0;

	if (mce_rdmsr(e->be, reg(e, b, MCE_REG_STATUS), &st) || !(st & MCI_STATUS_VAL))
		return 0;
	return st;
}

static struct mce_grade_in grade_in(const struct mce_scan_env *e, u64 status, unsigned int b)
{
	struct mce_grade_in in = e->in;

	in.status = status;
	in.bank = (u16)b;
	return in;
}

bool mce_scan_no_way_out(const struct mce_scan_env *e)
{
	for (unsigned int b = 0; b < nbanks(e); b++) {
		u64 st = valid_status(e, b);
		struct mce_grade_in in = grade_in(e, st, b);

		if (st && mce_grade(&in)->grade == MCE_GRADE_PANIC)
			return true;
	}
	return false;
}

/* One valid bank: its registers, its grade and fate, its page when it is to go. */
static void scan_one(struct mce_record *r, struct mce_scan *s, const struct mce_scan_env *e,
		     unsigned int b, u64 status)
{
	struct mce_bank_log l = { .bank = (u16)b, .status = status };
	struct mce_grade_in in = grade_in(e, status, b);
	struct mce_addr_src src = e->src;
	struct mce_bank_fate f;
	struct mce_addr a;

	if (status & MCI_STATUS_ADDRV)
		mce_rdmsr(e->be, reg(e, b, MCE_REG_ADDR), &l.addr);
	if (status & MCI_STATUS_MISCV)
		mce_rdmsr(e->be, reg(e, b, MCE_REG_MISC), &l.misc);
	if (e->src.smca) {
		mce_rdmsr(e->be, reg(e, b, MCE_REG_IPID), &l.ipid);
		mce_rdmsr(e->be, reg(e, b, MCE_REG_SYND), &l.synd);
	}
	l.rule = mce_grade(&in);
	mce_bank_fate(&in, l.rule, s->no_way_out, &f);
	src.bank = b;
	a = mce_decode_addr(status, l.addr, l.misc, &src);
	l.logged = f.logged;
	l.cleared = f.clear;
	l.pfn_valid = a.valid;
	l.pfn = a.phys >> 12;
	l.queued = f.queue_page && a.valid;
	if (l.queued)
		s->queue[s->nq++] = l.pfn;
	mce_decision_add(&s->d, l.rule, l.logged, (int)r->nr_valid);
	if (r->nr_banks < MCE_LOG_BANKS)
		r->banks[r->nr_banks++] = l;
	r->nr_valid++;
	r->nr_left += !f.clear;
	/* Linux's mce_clear_state(): only what was taken, and never on the way down. */
	if (f.clear)
		mce_wrmsr(e->be, reg(e, b, MCE_REG_STATUS), 0);
}

void mce_scan_run(struct mce_record *r, struct mce_scan *s, const struct mce_scan_env *e,
		  bool no_way_out)
{
	mce_decision_init(&s->d);
	s->nq = 0;
	s->amd = e->in.amd;
	s->no_way_out = no_way_out;
	for (unsigned int b = 0; b < nbanks(e); b++) {
		u64 st = valid_status(e, b);

		if (st)
			scan_one(r, s, e, b, st);
	}
}

void mce_record_decision(struct mce_record *r, const struct mce_decision *d)
{
	r->rule = d->why;
	r->grade = d->end == MCE_END_PANIC ? MCE_GRADE_PANIC : d->why->grade;
	r->worst = d->end == MCE_END_PANIC ? d->fatal_idx : d->worst_idx;
	if (r->worst >= (int)r->nr_banks)
		r->worst = -1;		/* beyond the log: the rule still names it */
	if (r->worst >= 0) {
		r->pfn_valid = r->banks[r->worst].pfn_valid;
		r->pfn = r->banks[r->worst].pfn;
	}
}
