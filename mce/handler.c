// SPDX-License-Identifier: GPL-2.0-only
/*
 * handler.c - the local #MC path (see mce.h): this CPU alone reads and grades every bank,
 * clears those it takes (mce/scan_core.h: the rest stay for the poller, and all stay when
 * the machine stops), writes MCG_STATUS last, then resumes at an *_MCE_SAFE fixup,
 * continues, or stops the machine with a decoded report. A nested #MC stops the machine; a broadcast one on several
 * CPUs goes to the rendezvous (rendezvous.c); a simulated one reads this CPU's simulated
 * registers, an emulated one (emulate.c) the bank its #PF path made.
 */
#include "kernel/arch/exit.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "mce/core.h"
#include "mce/decode.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/msr.h"

/*
 * Before mce_init gives the boot CPU its state (an early #MC) there is one CPU and no other
 * place to keep this; every CPU has its own flag afterwards.
 */
static bool early_in_handler;

static const struct mce_rule rule_software = {
	.name = "software int $18: MCIP clear and no valid bank", .grade = MCE_GRADE_NONE,
};
static const struct mce_rule rule_early = {
	.name = "machine check before the image set up MCA: decoded, not recovered",
	.grade = MCE_GRADE_PANIC,
};
static const struct mce_rule rule_nested = {
	.name = "machine check while handling a machine check", .grade = MCE_GRADE_PANIC,
};

static __noreturn void mce_panic(struct mce_record *r)
{
	r->would_panic = true;
	mce_record_commit(r);
	printk("\nPANIC: machine check: %s\n", r->rule ? r->rule->name : "?");
	mce_report(r, "  ");
	panic();
}

static bool no_panic(const struct mce_sim *be)
{
	return be && be->no_panic;
}

/* A #MC inside the handler: recorded, then the machine stops (a simulation resumes). */
static bool handle_nested(struct pt_regs *regs, struct mce_sim *be)
{
	struct mce_record r;
	u64 mcg = 0;

	mce_rdmsr(be, MSR_IA32_MCG_STATUS, &mcg);
	mce_record_init(&r, regs, MCE_KIND_NESTED, mcg, 0, NULL);
	r.rule = &rule_nested;
	r.grade = MCE_GRADE_PANIC;
	if (!no_panic(be))
		mce_panic(&r);
	r.would_panic = true;
	mce_record_commit(&r);
	return true;
}

/*
 * This CPU alone: scan (with Linux's no_way_out: a bank graded panic leaves every bank as it
 * is), decide (mce_decide: Linux's order, docs/design/machine-checks.md), clear MCG_STATUS,
 * then act. The record goes into the ring once it is whole.
 */
static void handle_local(struct pt_regs *regs, enum mce_kind kind, struct mce_sim *be, u64 mcg,
			 u64 cap, const struct exception_table_entry *e)
{
	const struct mce_caps *caps = mce_caps();
	struct mce_record r;
	struct mce_scan s;

	mce_record_init(&r, regs, kind, mcg, cap, e);
	mce_scan_banks(&r, &s, be, mce_scan_banks_nwo(&r, be));
	if (!r.nr_valid && !(mcg & MCG_STATUS_MCIP) && kind == MCE_KIND_REAL) {
		r.kind = MCE_KIND_SOFTWARE;
		r.rule = &rule_software;
		r.grade = MCE_GRADE_NONE;
		mce_record_commit(&r);
		return;			/* nothing to clear: resume after the int instruction */
	}
	mce_decide(&s.d, mcg, s.amd, r.fixup_mce_safe);
	if (!caps->enabled && kind == MCE_KIND_REAL) {
		s.d.end = MCE_END_PANIC;
		s.d.why = &rule_early;
	}
	mce_record_decision(&r, &s.d);
	/* MCG_STATUS last: MCIP off re-arms #MC. */
	mce_wrmsr(be, MSR_IA32_MCG_STATUS, 0);
	if (s.d.end == MCE_END_PANIC) {
		if (!no_panic(be))
			mce_panic(&r);
		r.would_panic = true;	/* a simulation: resume after the int instruction */
		mce_record_commit(&r);
		return;
	}
	mce_record_act(&r, &s, e);
	if (s.d.end == MCE_END_RECOVER)
		regs->rip = r.resume_rip;
	mce_record_commit(&r);
}

bool mce_handle(struct pt_regs *regs, enum mce_kind kind, struct mce_sim *be)
{
	const struct mce_caps *caps = mce_caps();
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	struct mce_cpu *mc = mce_cpu_this();
	bool *busy = mc ? &mc->in_handler : &early_in_handler;
	u64 mcg = 0, cap = 0;

	if (*busy || (be && be->nested))
		return handle_nested(regs, be);
	if (kind == MCE_KIND_REAL && this_cpu()->state != CPU_ONLINE) {
		/* A parked CPU (stopped, or started too late): Linux's offline-CPU rule. */
		rdmsr_safe(MSR_IA32_MCG_STATUS, &mcg);
		if (mcg & MCG_STATUS_RIPV) {
			wrmsr_safe(MSR_IA32_MCG_STATUS, 0);
			return true;
		}
	}
	*busy = true;
	mce_rdmsr(be, MSR_IA32_MCG_STATUS, &mcg);
	mce_rdmsr(be, MSR_IA32_MCG_CAP, &cap);
	if (kind == MCE_KIND_REAL && caps->enabled && mc &&
	    mce_rv_needed(caps->amd, mce_broadcast_capable(), mcg, mce_rv_online()))
		return mce_rv_handle(regs, mc, mcg, cap, e);
	handle_local(regs, kind, be, mcg, cap, e);
	*busy = false;
	return true;
}

/* A real #MC says so in the real MCG_STATUS (MCIP); "int $18" never sets it. */
static bool real_mc_in_progress(void)
{
	u64 mcg;

	return mce_caps()->mca && !rdmsr_safe(MSR_IA32_MCG_STATUS, &mcg) &&
	       (mcg & MCG_STATUS_MCIP);
}

/*
 * Vector 18: through the backend this CPU chose (a simulation routed with mce_sim_route), but
 * a real #MC always through the real MSRs, and never another CPU's registers.
 */
static bool mce_exception(struct pt_regs *regs)
{
	struct mce_cpu *mc = mce_cpu_this();
	struct mce_sim *be = mc ? mc->backend : NULL;

	if (be && real_mc_in_progress())
		be = NULL;
	return mce_handle(regs, be ? MCE_KIND_SIMULATED : MCE_KIND_REAL, be);
}

void mce_mc_install(void)
{
	trap_set_handler(X86_TRAP_MC, mce_exception);
}
