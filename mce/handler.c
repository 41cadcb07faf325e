// SPDX-License-Identifier: GPL-2.0-only
/*
 * handler.c - set up MCA and handle #MC: read, grade, clear, resume or stop. See mce.h.
 */
#include "copy/pages.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/extable.h"
#include "kernel/printk.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "mce/decode.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/msr.h"

#define MCE_RING	16
#define MCE_MAX_BANKS	64

static struct mce_caps caps;
static struct mce_record ring[MCE_RING];
static u64 nr_records;
static bool in_handler;

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

const struct mce_caps *mce_caps(void)
{
	return &caps;
}

bool mce_can_recover(void)
{
	return caps.enabled && (caps.amd ? caps.succor : caps.ser_p);
}

u64 mce_count(void)
{
	return nr_records;
}

const struct mce_record *mce_get(u64 seq)
{
	if (seq >= nr_records || nr_records - seq > MCE_RING)
		return NULL;
	return &ring[seq % MCE_RING];
}

const struct mce_record *mce_last(void)
{
	return nr_records ? mce_get(nr_records - 1) : NULL;
}

u32 mce_bank_msr(unsigned int bank, int reg)
{
	if (caps.smca) {
		static const u32 off[] = { 0, 1, 2, 3, 5, 6 };

		return MSR_SMCA_CTL(bank) + off[reg];
	}
	return MSR_MC_CTL(bank) + (u32)reg;
}


static struct mce_record *new_record(struct pt_regs *regs, enum mce_kind kind)
{
	struct mce_record *r = &ring[nr_records % MCE_RING];

	*r = (struct mce_record){ .seq = nr_records, .tsc = rdtsc(), .kind = kind,
				  .rip = regs->rip, .frame = (u64)(uintptr_t)regs, .worst = -1 };
	nr_records++;
	return r;
}

static __noreturn void mce_panic(struct mce_record *r)
{
	r->would_panic = true;
	printk("\nPANIC: machine check: %s\n", r->rule ? r->rule->name : "?");
	mce_report(r, "  ");
	ck_exit(CK_STATUS_PANIC);
}

/* The core: read through mce_rdmsr (real or simulated), grade, clear, decide. */
static bool handle(struct pt_regs *regs, enum mce_kind kind)
{
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	struct mce_record *r;
	u64 mcg = 0, cap = 0, status;
	unsigned int n;

	if (in_handler || (mce_sim.active && mce_sim.nested)) {
		r = new_record(regs, MCE_KIND_NESTED);
		r->rule = &rule_nested;
		r->grade = MCE_GRADE_PANIC;
		mce_rdmsr(MSR_IA32_MCG_STATUS, &r->mcg_status);
		if (!(mce_sim.active && mce_sim.no_panic))
			mce_panic(r);
		r->would_panic = true;
		return true;
	}
	in_handler = true;
	r = new_record(regs, kind);
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
		if (caps.smca) {
			mce_rdmsr(mce_bank_msr(b, MCE_REG_IPID), &l->ipid);
			mce_rdmsr(mce_bank_msr(b, MCE_REG_SYND), &l->synd);
		}
		in = (struct mce_grade_in){ .status = status, .mcg_status = mcg, .amd = caps.amd,
					    .ser = caps.amd ? caps.succor : caps.ser_p,
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
		struct mce_addr a = mce_decode_addr(w->status, w->addr, w->misc, caps.amd);

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
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	u64 cr2 = read_cr2();
	struct mce_sim saved;
	bool armed = false, ret;

	for (int i = 0; i < EMU_MAX && !armed; i++)
		armed = emu_pages[i] && (cr2 & ~0xfffULL) == emu_pages[i];
	if (!armed || !e || !ex_type_mce_safe(ex_type(e)))
		return false;
	/* What a memory controller would report for poison in that line, on bank 1. */
	saved = mce_sim;
	mce_sim_reset();
	mce_sim.active = true;
	mce_sim.no_panic = false;
	mce_sim_set(MSR_IA32_MCG_CAP, (caps.mcg_cap & ~MCG_BANKCNT_MASK) | 2);
	mce_sim_set(MSR_IA32_MCG_STATUS, MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP);
	mce_sim_set(mce_bank_msr(1, MCE_REG_STATUS),
		    MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
		    MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | MCACOD_DATA_LOAD);
	mce_sim_set(mce_bank_msr(1, MCE_REG_ADDR),
		    caps.amd ? (cr2 & ~0x3fULL) | (6ULL << 56) : cr2 & ~0x3fULL);
	mce_sim_set(mce_bank_msr(1, MCE_REG_MISC),
		    (MCI_MISC_MODE_PHYS << 6) | 6);
	ret = handle(regs, MCE_KIND_EMULATED);
	mce_sim = saved;
	return ret;
}

/* ---- setup ---- */

bool mce_init(void)
{
	const struct cpu_ident *c = cpu();
	u64 v;

	caps = (struct mce_caps){ .mce = c->mce, .mca = c->mca };
	trap_mce_hook = mce_exception;
	trap_pf_hook = mce_emulated_pf;
	if (!c->mce || !c->mca || rdmsr_safe(MSR_IA32_MCG_CAP, &v)) {
		printk("MCE: no machine-check architecture on this CPU: #MC handling only\n");
		if (c->mce)
			write_cr4(read_cr4() | CR4_MCE);
		return false;
	}
	caps.mcg_cap = v;
	caps.nbanks = MIN((unsigned int)(v & MCG_BANKCNT_MASK), MCE_MAX_BANKS);
	caps.ctl_p = v & MCG_CTL_P;
	caps.ser_p = v & MCG_SER_P;
	caps.lmce_p = v & MCG_LMCE_P;
	caps.amd = c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON;
	caps.smca = caps.amd && c->smca;
	caps.succor = caps.amd && c->succor;
	if (caps.ctl_p)
		wrmsr_safe(MSR_IA32_MCG_CTL, ~0ULL);
	for (unsigned int b = 0; b < caps.nbanks; b++) {
		u64 status = 0, addr = 0, misc = 0;

		if (!rdmsr_safe(mce_bank_msr(b, MCE_REG_STATUS), &status) &&
		    (status & MCI_STATUS_VAL)) {
			char bits[96];

			rdmsr_safe(mce_bank_msr(b, MCE_REG_ADDR), &addr);
			rdmsr_safe(mce_bank_msr(b, MCE_REG_MISC), &misc);
			mce_status_bits(status, caps.amd, bits, sizeof(bits));
			printk("MCE: bank %u left by firmware: STATUS 0x%016llx (%s) ADDR 0x%llx "
			       "MISC 0x%llx; cleared\n", b, (unsigned long long)status, bits,
			       (unsigned long long)addr, (unsigned long long)misc);
			caps.stale++;
		}
		wrmsr_safe(mce_bank_msr(b, MCE_REG_CTL), ~0ULL);
		wrmsr_safe(mce_bank_msr(b, MCE_REG_STATUS), 0);
	}
	write_cr4(read_cr4() | CR4_MCE);
	caps.enabled = true;
	printk("MCE: enabled: %u banks (%s), MCG_CAP 0x%llx, MCG_CTL %s, SER_P %s, LMCE_P %s%s%s, "
	       "%u stale bank%s cleared\n", caps.nbanks, caps.smca ? "SMCA" : "legacy",
	       (unsigned long long)v, caps.ctl_p ? "set" : "absent", caps.ser_p ? "yes" : "no",
	       caps.lmce_p ? "yes" : "no", caps.amd ? ", SUCCOR " : "",
	       caps.amd ? (caps.succor ? "yes" : "no") : "", caps.stale,
	       caps.stale == 1 ? "" : "s");
	return true;
}
