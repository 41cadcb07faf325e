// SPDX-License-Identifier: GPL-2.0-only
/*
 * handler.c - set up MCA and handle #MC: read, grade, clear, resume or stop. See mce.h.
 */
#include "kernel/arch/exit.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/extable.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "kernel/platform/cpu.h"
#include "mce/core.h"
#include "mce/decode.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/msr.h"

static bool in_handler;
static trap_handler_t prev_pf;

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
	printk("\nPANIC: machine check: %s\n", r->rule ? r->rule->name : "?");
	mce_report(r, "  ");
	panic();
}

/* The grading inputs for one bank, from the CPU or from the simulation's chosen vendor. */
static struct mce_grade_in grade_in(const struct mce_caps *caps, u64 status, u64 mcg,
				    bool fixup)
{
	struct mce_grade_in in = { .status = status, .mcg_status = mcg, .amd = caps->amd,
				   .ser = caps->amd ? caps->succor : caps->ser_p,
				   .ovf_recov = caps->ovf_recov, .mce_safe_fixup = fixup };

	if (mce_sim.active && mce_sim.vendor != SIM_VENDOR_REAL) {
		in.amd = mce_sim.vendor == SIM_VENDOR_AMD;
		in.ser = mce_sim.ser;
		in.ovf_recov = false;
	}
	return in;
}

/*
 * The core: read every bank through mce_rdmsr (real or simulated), grade each, note which
 * the handler logs and which pages to offline, clear every valid bank and then MCG_STATUS,
 * and decide (mce_decide: Linux's order, README "Machine checks"). No printing, locking or
 * allocation unless the machine stops.
 */
static bool handle(struct pt_regs *regs, enum mce_kind kind)
{
	const struct mce_caps *caps = mce_caps();
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	struct mce_addr_src src;
	u64 queue[MCE_MAX_BANKS], mcg = 0, cap = 0, status;
	unsigned int n, nq = 0;
	struct mce_decision d;
	struct mce_record *r;
	bool amd;

	if (in_handler || (mce_sim.active && mce_sim.nested)) {
		r = mce_record_new(regs->rip, (u64)(uintptr_t)regs, MCE_KIND_NESTED);
		r->rule = &rule_nested;
		r->grade = MCE_GRADE_PANIC;
		mce_rdmsr(MSR_IA32_MCG_STATUS, &r->mcg_status);
		if (!(mce_sim.active && mce_sim.no_panic))
			mce_panic(r);
		r->would_panic = true;
		return true;
	}
	in_handler = true;
	r = mce_record_new(regs->rip, (u64)(uintptr_t)regs, kind);
	mce_rdmsr(MSR_IA32_MCG_STATUS, &mcg);
	mce_rdmsr(MSR_IA32_MCG_CAP, &cap);
	r->mcg_status = mcg;
	r->mcg_cap = cap;
	r->fixup_found = e != NULL;
	r->fixup_mce_safe = e && ex_type_mce_safe(ex_type(e));
	n = MIN((unsigned int)(cap & MCG_BANKCNT_MASK), MCE_MAX_BANKS);
	amd = grade_in(caps, 0, mcg, false).amd;
	mce_decision_init(&d);

	for (unsigned int b = 0; b < n; b++) {
		struct mce_grade_in in;
		struct mce_bank_log l = { .bank = (u16)b };
		struct mce_bank_fate f;
		struct mce_addr a;

		if (mce_rdmsr(mce_bank_msr(b, MCE_REG_STATUS), &status) ||
		    !(status & MCI_STATUS_VAL))
			continue;
		l.status = status;
		if (status & MCI_STATUS_ADDRV)
			mce_rdmsr(mce_bank_msr(b, MCE_REG_ADDR), &l.addr);
		if (status & MCI_STATUS_MISCV)
			mce_rdmsr(mce_bank_msr(b, MCE_REG_MISC), &l.misc);
		if (caps->smca) {
			mce_rdmsr(mce_bank_msr(b, MCE_REG_IPID), &l.ipid);
			mce_rdmsr(mce_bank_msr(b, MCE_REG_SYND), &l.synd);
		}
		in = grade_in(caps, status, mcg, r->fixup_mce_safe);
		l.rule = mce_grade(&in);
		mce_bank_fate(&in, l.rule, &f);
		src.amd = in.amd;	/* a simulation may grade as the other vendor */
		src.smca = in.amd && caps->smca;
		src.hygon = in.amd && caps->hygon;
		src.bank = b;
		a = mce_decode_addr(status, l.addr, l.misc, &src);
		l.logged = f.logged;
		l.pfn_valid = a.valid;
		l.pfn = a.phys >> 12;
		l.queued = f.queue_page && a.valid;
		if (l.queued)
			queue[nq++] = l.pfn;
		mce_decision_add(&d, l.rule, l.logged, (int)r->nr_valid);
		if (r->nr_banks < MCE_LOG_BANKS)
			r->banks[r->nr_banks++] = l;
		r->nr_valid++;
		/* Every valid bank is cleared, logged here or not: its state is in @l. */
		mce_wrmsr(mce_bank_msr(b, MCE_REG_STATUS), 0);
	}

	if (!r->nr_valid && !(mcg & MCG_STATUS_MCIP) && kind == MCE_KIND_REAL) {
		r->kind = MCE_KIND_SOFTWARE;
		r->rule = &rule_software;
		r->grade = MCE_GRADE_NONE;
		in_handler = false;
		return true;		/* nothing to clear: resume after the int instruction */
	}
	mce_decide(&d, mcg, amd, r->fixup_mce_safe);
	if (!caps->enabled && kind == MCE_KIND_REAL) {
		d.end = MCE_END_PANIC;
		d.why = &rule_early;
	}
	r->rule = d.why;
	r->grade = d.why->grade;
	r->worst = d.end == MCE_END_PANIC ? d.fatal_idx : d.worst_idx;
	if (r->worst >= (int)r->nr_banks)
		r->worst = -1;		/* beyond the log: the rule still names it */
	if (r->worst >= 0) {
		r->pfn_valid = r->banks[r->worst].pfn_valid;
		r->pfn = r->banks[r->worst].pfn;
	}
	/* MCG_STATUS last: MCIP off re-arms #MC. */
	mce_wrmsr(MSR_IA32_MCG_STATUS, 0);

	if (d.end == MCE_END_PANIC) {
		r->grade = MCE_GRADE_PANIC;
		if (!(mce_sim.active && mce_sim.no_panic))
			mce_panic(r);
		r->would_panic = true;
		in_handler = false;
		return true;		/* a simulation: resume after the int instruction */
	}
	if (d.end == MCE_END_RECOVER) {
		r->resume_rip = ex_fixup_addr(e);
		regs->rip = r->resume_rip;
		r->recovered = true;
		/*
		 * The copy that consumed the poison queues its page (Linux's callers do); tell
		 * it which page the bank names, so it can keep the true one.
		 */
		if (r->pfn_valid)
			memory_failure_consumed(r->pfn);
	}
	for (unsigned int i = 0; i < nq; i++)
		memory_failure_queue(queue[i]);
	r->queued = nq;
	in_handler = false;
	return true;
}

static bool mce_exception(struct pt_regs *regs)
{
	return handle(regs, mce_sim.active ? MCE_KIND_SIMULATED : MCE_KIND_REAL);
}

/* ---- inject=emulate: a #PF on an armed page becomes a synthesized SRAR data-load #MC. ---- */

#define EMU_MAX	8
static u64 emu_pages[EMU_MAX];

bool mce_emulate_arm(u64 page)
{
	for (int i = 0; i < EMU_MAX; i++) {
		if (!emu_pages[i]) {
			emu_pages[i] = page & ~0xfffULL;
			return true;
		}
	}
	return false;
}

void mce_emulate_disarm(u64 page)
{
	for (int i = 0; i < EMU_MAX; i++)
		if (emu_pages[i] == (page & ~0xfffULL))
			emu_pages[i] = 0;
}

/*
 * Only loads consume poison: a #PF on an armed page is turned into a #MC when the faulting
 * instruction is a machine-check-safe load (its exception-table entry says so). Any other
 * access (a store, code without an entry) takes the ordinary #PF path.
 */
static bool mce_emulated_pf(struct pt_regs *regs)
{
	const struct mce_caps *caps = mce_caps();
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	u64 cr2 = read_cr2();
	struct mce_sim saved;
	bool armed = false, ret;

	for (int i = 0; i < EMU_MAX && !armed; i++)
		armed = emu_pages[i] && (cr2 & ~0xfffULL) == emu_pages[i];
	if (!armed || !e || !ex_type_mce_safe(ex_type(e)))
		return prev_pf && prev_pf(regs);
	/* What a memory controller would report for poison in that line, on bank 1. */
	saved = mce_sim;
	mce_sim_reset();
	mce_sim.active = true;
	mce_sim.no_panic = false;
	mce_sim_set(MSR_IA32_MCG_CAP, (caps->mcg_cap & ~MCG_BANKCNT_MASK) | 2);
	mce_sim_set(MSR_IA32_MCG_STATUS, MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP);
	mce_sim_set(mce_bank_msr(1, MCE_REG_STATUS),
		    MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
		    MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | MCACOD_DATA_LOAD |
		    (caps->amd ? MCI_STATUS_POISON : 0));
	mce_sim_set(mce_bank_msr(1, MCE_REG_ADDR),
		    caps->amd ? (cr2 & ~0x3fULL) | (6ULL << 56) : cr2 & ~0x3fULL);
	mce_sim_set(mce_bank_msr(1, MCE_REG_MISC),
		    (MCI_MISC_MODE_PHYS << 6) | 6);
	ret = handle(regs, MCE_KIND_EMULATED);
	mce_sim = saved;
	return ret;
}

void mce_handler_install(void)
{
	static bool installed;

	if (installed)
		return;
	installed = true;
	trap_set_handler(X86_TRAP_MC, mce_exception);
	prev_pf = trap_set_handler(X86_TRAP_PF, mce_emulated_pf);
}
