// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan.c - what the local #MC path and the broadcast rendezvous do alike: set up the record
 * of one #MC, read and grade every bank into it (mce/grade.c), clear the banks, put the
 * decision into the record and carry out what lets the machine go on. Never prints, locks
 * or allocates.
 */
#include "kernel/arch/percpu.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "kernel/platform/cpu.h"
#include "mce/core.h"
#include "mce/decode.h"
#include "mce/mce_regs.h"

void mce_record_init(struct mce_record *r, const struct pt_regs *regs, enum mce_kind kind,
		     u64 mcg, u64 cap, const struct exception_table_entry *e)
{
	*r = (struct mce_record){ .tsc = rdtsc(), .kind = kind, .rip = regs->rip,
				  .frame = (u64)(uintptr_t)regs, .worst = -1, .mcg_status = mcg,
				  .mcg_cap = cap, .fixup_found = e != NULL,
				  .fixup_mce_safe = e && ex_type_mce_safe(ex_type(e)),
				  .cpu = smp_processor_id(), .monarch = -1 };
}

/*
 * The grading inputs for one bank: the CPU's vendor tables, recovery features and identity,
 * or those a simulation chose.
 */
static struct mce_grade_in grade_in(const struct mce_record *r, const struct mce_sim *be,
				    u64 status, unsigned int bank)
{
	const struct mce_caps *caps = mce_caps();
	const struct cpu_ident *id = cpu();
	struct mce_grade_in in = { .status = status, .mcg_status = r->mcg_status,
				   .amd = caps->amd, .ser = caps->amd ? caps->succor : caps->ser_p,
				   .ovf_recov = caps->ovf_recov,
				   .mce_safe_fixup = r->fixup_mce_safe,
				   .family = (u8)MIN(id->family, 0xffU), .model = (u8)id->model,
				   .stepping = (u8)id->stepping, .bank = (u16)bank };

	if (be && be->vendor != SIM_VENDOR_REAL) {
		in.amd = be->vendor == SIM_VENDOR_AMD;
		in.ser = be->ser;
		in.ovf_recov = false;
	}
	if (be && be->ident) {
		in.family = be->family;
		in.model = be->model;
		in.stepping = be->stepping;
	}
	return in;
}

/* One valid bank: its registers, its grade and fate, and its page when it is to go. */
static void scan_one(struct mce_record *r, struct mce_scan *s, struct mce_sim *be,
		     unsigned int b, u64 status)
{
	const struct mce_caps *caps = mce_caps();
	struct mce_bank_log l = { .bank = (u16)b, .status = status };
	struct mce_grade_in in;
	struct mce_addr_src src;
	struct mce_bank_fate f;
	struct mce_addr a;

	if (status & MCI_STATUS_ADDRV)
		mce_rdmsr(be, mce_bank_msr(b, MCE_REG_ADDR), &l.addr);
	if (status & MCI_STATUS_MISCV)
		mce_rdmsr(be, mce_bank_msr(b, MCE_REG_MISC), &l.misc);
	if (caps->smca) {
		mce_rdmsr(be, mce_bank_msr(b, MCE_REG_IPID), &l.ipid);
		mce_rdmsr(be, mce_bank_msr(b, MCE_REG_SYND), &l.synd);
	}
	in = grade_in(r, be, status, b);
	l.rule = mce_grade(&in);
	mce_bank_fate(&in, l.rule, &f);
	src = (struct mce_addr_src){ .amd = in.amd, .smca = in.amd && caps->smca,
				     .hygon = in.amd && caps->hygon, .bank = b };
	a = mce_decode_addr(status, l.addr, l.misc, &src);
	l.logged = f.logged;
	l.pfn_valid = a.valid;
	l.pfn = a.phys >> 12;
	l.queued = f.queue_page && a.valid;
	if (l.queued)
		s->queue[s->nq++] = l.pfn;
	mce_decision_add(&s->d, l.rule, l.logged, (int)r->nr_valid);
	if (r->nr_banks < MCE_LOG_BANKS)
		r->banks[r->nr_banks++] = l;
	r->nr_valid++;
}

void mce_scan_banks(struct mce_record *r, struct mce_scan *s, struct mce_sim *be)
{
	unsigned int n = MIN((unsigned int)(r->mcg_cap & MCG_BANKCNT_MASK), MCE_MAX_BANKS);
	u64 status;

	mce_decision_init(&s->d);
	s->nq = 0;
	s->amd = grade_in(r, be, 0, 0).amd;
	for (unsigned int b = 0; b < n; b++) {
		if (mce_rdmsr(be, mce_bank_msr(b, MCE_REG_STATUS), &status) ||
		    !(status & MCI_STATUS_VAL))
			continue;
		scan_one(r, s, be, b, status);
		/* Every valid bank is cleared, logged here or not: its state is in the record. */
		mce_wrmsr(be, mce_bank_msr(b, MCE_REG_STATUS), 0);
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

void mce_record_act(struct mce_record *r, const struct mce_scan *s,
		    const struct exception_table_entry *e)
{
	if (s->d.end == MCE_END_RECOVER) {
		r->resume_rip = ex_fixup_addr(e);
		r->recovered = true;
		/*
		 * The copy that consumed the poison queues its page (Linux's callers do); tell
		 * it which page the bank names, so it can keep the true one.
		 */
		if (r->pfn_valid)
			memory_failure_consumed(r->pfn);
	}
	for (unsigned int i = 0; i < s->nq; i++)
		memory_failure_queue(s->queue[i]);
	r->queued = s->nq;
}
