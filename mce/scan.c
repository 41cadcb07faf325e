// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan.c - what the local #MC path and the broadcast rendezvous do alike: set up the record
 * of one #MC, read and grade every bank into it on this CPU (mce/scan_core.c: the banks Linux
 * takes are cleared, the others left for the poller) and carry out what lets the machine go
 * on. Never prints, locks or allocates.
 */
#include "kernel/arch/percpu.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "kernel/platform/cpu.h"
#include "mce/core.h"
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
 * The CPU this scan grades for: its vendor tables, recovery features, identity and bank
 * layout, or those a simulation chose.
 */
static void scan_env(const struct mce_record *r, struct mce_sim *be, struct mce_scan_env *e)
{
	const struct mce_caps *caps = mce_caps();
	const struct cpu_ident *id = cpu();
	struct mce_grade_in *in = &e->in;

	*e = (struct mce_scan_env){ .be = be,
				    .nbanks = MIN((unsigned int)(r->mcg_cap & MCG_BANKCNT_MASK),
						  MCE_MAX_BANKS) };
	*in = (struct mce_grade_in){ .mcg_status = r->mcg_status, .amd = caps->amd,
				     .ser = caps->amd ? caps->succor : caps->ser_p,
				     .ovf_recov = caps->ovf_recov,
				     .mce_safe_fixup = r->fixup_mce_safe,
				     .family = (u8)MIN(id->family, 0xffU), .model = (u8)id->model,
				     .stepping = (u8)id->stepping };
	if (be && be->vendor != SIM_VENDOR_REAL) {
		in->amd = be->vendor == SIM_VENDOR_AMD;
		in->ser = be->ser;
		in->ovf_recov = false;
	}
	if (be && be->ident) {
		in->family = be->family;
		in->model = be->model;
		in->stepping = be->stepping;
	}
	e->src = (struct mce_addr_src){ .amd = in->amd, .smca = in->amd && caps->smca,
					.hygon = in->amd && caps->hygon,
					.ser_p = !!(r->mcg_cap & MCG_SER_P) };
}

bool mce_scan_banks_nwo(const struct mce_record *r, struct mce_sim *be)
{
	struct mce_scan_env e;

	scan_env(r, be, &e);
	return mce_scan_no_way_out(&e);
}

void mce_scan_banks(struct mce_record *r, struct mce_scan *s, struct mce_sim *be,
		    bool no_way_out)
{
	struct mce_scan_env e;

	scan_env(r, be, &e);
	mce_scan_run(r, s, &e, no_way_out);
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
