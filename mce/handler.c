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
static const struct mce_rule rule_nested = {
	.name = "machine check while handling a machine check", .grade = MCE_GRADE_PANIC,
};
static const struct mce_rule rule_spurious = {
	.name = "MCIP set but no bank holds a valid error", .grade = MCE_GRADE_KEEP,
};
static const struct mce_rule rule_no_ripv = {
	.name = "cannot resume: RIPV clear", .grade = MCE_GRADE_PANIC,
};
static const struct mce_rule rule_no_fixup = {
	.name = "recoverable by its bits, but no MCE-safe fixup at RIP", .grade = MCE_GRADE_PANIC,
};

static __noreturn void mce_panic(struct mce_record *r)
{
	r->would_panic = true;
	printk("\nPANIC: machine check: %s\n", r->rule ? r->rule->name : "?");
	mce_report(r, "  ");
	panic();
}

/* The core: read through mce_rdmsr (real or simulated), grade, clear, decide. */
static bool handle(struct pt_regs *regs, enum mce_kind kind)
{
	const struct mce_caps *caps = mce_caps();
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	struct mce_record *r;
	u64 mcg = 0, cap = 0, status;
	unsigned int n;

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

	for (unsigned int b = 0; b < n; b++) {
		struct mce_grade_in in;
		struct mce_bank_log *l;

		if (mce_rdmsr(mce_bank_msr(b, MCE_REG_STATUS), &status) ||
		    !(status & MCI_STATUS_VAL))
			continue;
		if (r->nr_banks == MCE_LOG_BANKS)
			break;
		l = &r->banks[r->nr_banks++];
		*l = (struct mce_bank_log){ .bank = (u16)b, .status = status };
		if (status & MCI_STATUS_ADDRV)
			mce_rdmsr(mce_bank_msr(b, MCE_REG_ADDR), &l->addr);
		if (status & MCI_STATUS_MISCV)
			mce_rdmsr(mce_bank_msr(b, MCE_REG_MISC), &l->misc);
		if (caps->smca) {
			mce_rdmsr(mce_bank_msr(b, MCE_REG_IPID), &l->ipid);
			mce_rdmsr(mce_bank_msr(b, MCE_REG_SYND), &l->synd);
		}
		in = (struct mce_grade_in){ .status = status, .mcg_status = mcg, .amd = caps->amd,
					    .ser = caps->amd ? caps->succor : caps->ser_p,
					    .mce_safe_fixup = r->fixup_mce_safe };
		if (mce_sim.active && mce_sim.vendor != SIM_VENDOR_REAL) {
			in.amd = mce_sim.vendor == SIM_VENDOR_AMD;
			in.ser = mce_sim.ser;
		}
		l->rule = mce_grade(&in);
		if (r->worst < 0 || l->rule->grade > r->banks[r->worst].rule->grade)
			r->worst = (int)(r->nr_banks - 1);
	}

	if (r->worst >= 0) {
		const struct mce_bank_log *w = &r->banks[r->worst];
		struct mce_addr a = mce_decode_addr(w->status, w->addr, w->misc, caps->amd);

		r->rule = w->rule;
		r->grade = w->rule->grade;
		r->pfn_valid = a.valid;
		r->pfn = a.phys >> 12;
	} else if (!(mcg & MCG_STATUS_MCIP) && kind == MCE_KIND_REAL) {
		r->kind = MCE_KIND_SOFTWARE;
		r->rule = &rule_software;
		r->grade = MCE_GRADE_NONE;
		in_handler = false;
		return true;		/* nothing to clear: resume after the int instruction */
	} else {
		r->rule = &rule_spurious;
		r->grade = MCE_GRADE_KEEP;
	}
	if (r->grade == MCE_GRADE_RECOVER && !r->fixup_mce_safe) {
		r->rule = &rule_no_fixup;	/* defence in depth: the rows already require it */
		r->grade = MCE_GRADE_PANIC;
	}
	if (r->grade != MCE_GRADE_PANIC && r->grade != MCE_GRADE_RECOVER &&
	    !(mcg & MCG_STATUS_RIPV)) {
		r->rule = &rule_no_ripv;
		r->grade = MCE_GRADE_PANIC;
	}

	/* Clear what was handled, then MCG_STATUS last: MCIP off re-arms #MC. */
	for (unsigned int i = 0; i < r->nr_banks; i++)
		mce_wrmsr(mce_bank_msr(r->banks[i].bank, MCE_REG_STATUS), 0);
	mce_wrmsr(MSR_IA32_MCG_STATUS, 0);

	if (r->grade == MCE_GRADE_PANIC) {
		if (!(mce_sim.active && mce_sim.no_panic))
			mce_panic(r);
		r->would_panic = true;
		in_handler = false;
		return true;		/* a simulation: resume after the int instruction */
	}
	if (r->grade == MCE_GRADE_RECOVER) {
		r->resume_rip = ex_fixup_addr(e);
		regs->rip = r->resume_rip;
		r->recovered = true;
	}
	if ((r->grade == MCE_GRADE_RECOVER || r->grade == MCE_GRADE_AO) && r->pfn_valid)
		memory_failure_queue(r->pfn);
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
		    MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | MCACOD_DATA_LOAD);
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
	trap_set_handler(X86_TRAP_MC, mce_exception);
	prev_pf = trap_set_handler(X86_TRAP_PF, mce_emulated_pf);
}
