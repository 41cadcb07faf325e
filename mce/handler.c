// SPDX-License-Identifier: GPL-2.0-only
/*
 * handler.c - handle #MC: read, grade, clear, resume or stop (see mce.h); a broadcast machine
 * check on several CPUs through Linux's rendezvous (mce/smp_logic.h).
 */
#include "kernel/arch/exit.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/extable.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
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
 * Read every bank through mce_rdmsr (real or simulated) into @r, grade each into @d, note
 * which the handler logs and which pages to offline (@queue, @nq), and clear every valid
 * bank. MCG_STATUS is the caller's.
 */
static void scan_banks(struct mce_record *r, struct mce_decision *d, const struct mce_caps *caps,
		       u64 mcg, u64 cap, u64 *queue, unsigned int *nq)
{
	struct mce_addr_src src;
	unsigned int n = MIN((unsigned int)(cap & MCG_BANKCNT_MASK), MCE_MAX_BANKS);
	u64 status;

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
			queue[(*nq)++] = l.pfn;
		mce_decision_add(d, l.rule, l.logged, (int)r->nr_valid);
		if (r->nr_banks < MCE_LOG_BANKS)
			r->banks[r->nr_banks++] = l;
		r->nr_valid++;
		/* Every valid bank is cleared, logged here or not: its state is in @l. */
		mce_wrmsr(mce_bank_msr(b, MCE_REG_STATUS), 0);
	}
}

/* The decision into the record: the rule, the grade, the deciding bank and its page. */
static void record_decision(struct mce_record *r, const struct mce_decision *d)
{
	r->rule = d->why;
	r->grade = d->why->grade;
	r->worst = d->end == MCE_END_PANIC ? d->fatal_idx : d->worst_idx;
	if (r->worst >= (int)r->nr_banks)
		r->worst = -1;		/* beyond the log: the rule still names it */
	if (r->worst >= 0) {
		r->pfn_valid = r->banks[r->worst].pfn_valid;
		r->pfn = r->banks[r->worst].pfn;
	}
}

/* ---- the rendezvous of a broadcast machine check (mce/smp_logic.h) ---- */

static u64 rv_timeout_tsc;
static unsigned int rv_callin;		/* CPUs checked in: Linux's mce_callin */
static unsigned int rv_executing;	/* Linux's mce_executing */
static u32 rv_gen;			/* the event; the Monarch moves it on when it releases */
static int rv_panic_cpu = -1;		/* the CPU that reports */

void mce_rv_setup(bool capable, u64 timeout_tsc)
{
	mce_broadcast_set(capable);
	rv_timeout_tsc = timeout_tsc;
}

/* The CPUs waited for: online ones, with a machine-check state. */
static const struct mce_view *view_of(void *ctx, unsigned int cpu)
{
	struct percpu *pc = smp_cpu(cpu);
	struct mce_cpu *mc = mce_cpu_of(cpu);

	return mc && pc->state == CPU_ONLINE ? &mc->view : NULL;
}

/* The same while the machine stops: CPUs that parked on the way out still show their view. */
static const struct mce_view *view_stopping(void *ctx, unsigned int cpu)
{
	struct percpu *pc = smp_cpu(cpu);
	struct mce_cpu *mc = mce_cpu_of(cpu);

	return mc && (pc->state == CPU_ONLINE || pc->state == CPU_STOPPED) ? &mc->view : NULL;
}

static unsigned int rv_online(void)
{
	unsigned int n = 0;

	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		n += view_of(NULL, c) != NULL;
	return n;
}

/* Another CPU reports and will stop this one: stay out of its way. */
static __noreturn void rv_park(void)
{
	__atomic_store_n(&this_cpu()->state, CPU_STOPPED, __ATOMIC_RELEASE);
	halt_forever();
}

static bool rv_wait(enum mce_rv_stage s, unsigned int order, unsigned int expected)
{
	u64 deadline = rdtsc() + rv_timeout_tsc;

	for (;;) {
		unsigned int in = __atomic_load_n(&rv_callin, __ATOMIC_ACQUIRE);
		unsigned int ex = __atomic_load_n(&rv_executing, __ATOMIC_ACQUIRE);

		switch (mce_rv_wait_step(mce_rv_stage_done(s, in, ex, order, expected), rdtsc(),
					 deadline)) {
		case MCE_RV_GO:
			return true;
		case MCE_RV_TIMEOUT:
			return false;
		case MCE_RV_WAIT:
			break;
		}
		if (__atomic_load_n(&rv_panic_cpu, __ATOMIC_ACQUIRE) >= 0)
			rv_park();
		cpu_relax();
	}
}

/*
 * This CPU's turn (nobody else reads banks now): scan, decide as far as this CPU goes (the
 * Monarch checks "unknown source" over all), put what it brings to the reign in its view,
 * and, when it found something, its record into the ring and its pages in the queue.
 */
static void rv_scan(struct mce_cpu *mc, const struct exception_table_entry *e)
{
	const struct mce_caps *caps = mce_caps();
	struct mce_record *r = &mc->scratch;
	struct mce_view *v = &mc->view;
	u64 queue[MCE_MAX_BANKS];
	unsigned int nq = 0;
	struct mce_decision d;

	mce_decision_init(&d);
	d.reigned = true;
	scan_banks(r, &d, caps, r->mcg_status, r->mcg_cap, queue, &nq);
	mce_decide(&d, r->mcg_status, false, r->fixup_mce_safe);
	record_decision(r, &d);
	v->nr_valid = (u16)MIN(r->nr_valid, 0xffffU);
	v->grade = mce_rv_cpu_grade(&d);
	v->why = mce_rv_cpu_why(&d);
	v->end = d.end;
	if (r->worst >= 0 || r->nr_banks) {
		const struct mce_bank_log *b = &r->banks[r->worst >= 0 ? r->worst : 0];

		v->bank = b->bank;
		v->status = b->status;
	}
	if (d.end == MCE_END_RECOVER) {
		r->resume_rip = ex_fixup_addr(e);
		r->recovered = true;
		if (r->pfn_valid)
			memory_failure_consumed(r->pfn);
	}
	if (d.end == MCE_END_PANIC)
		r->grade = MCE_GRADE_PANIC;
	for (unsigned int i = 0; i < nq; i++)
		memory_failure_queue(queue[i]);
	r->queued = nq;
	if (v->grade != MCE_GRADE_NONE)
		v->seq = (s64)mce_record_commit(r);
	__atomic_store_n(&v->scanned, true, __ATOMIC_RELEASE);
}

/* The facts of the reign into the records this event put in the ring. */
static void rv_annotate(u32 gen, const struct mce_reign *rg)
{
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		const struct mce_view *v = view_of(NULL, c);
		struct mce_record *r;

		if (!mce_rv_checked_in(v, gen) || v->seq < 0 || !(r = mce_get_rw((u64)v->seq)))
			continue;
		r->monarch = rg->monarch;
		r->nr_in = (u16)rg->nr_in;
		r->nr_online = (u16)rg->nr_online;
		if (rg->end == MCE_END_PANIC) {
			r->would_panic = true;
			r->recovered = false;
		}
	}
}

/* Stop the machine with every CPU's view; the first CPU here reports, the others park. */
static __noreturn void rv_panic(const struct mce_rule *why, u32 gen, struct mce_cpu *mine)
{
	int me = (int)smp_processor_id(), none = -1;
	unsigned int shown = 0;
	struct mce_reign rg;
	char ord[16];

	if (!__atomic_compare_exchange_n(&rv_panic_cpu, &none, me, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		rv_park();
	mce_rv_reign(view_stopping, NULL, smp_nr_cpus(), gen, &rg);
	rg.end = MCE_END_PANIC;
	printk("\nPANIC: machine check: %s\n", why->name);
	printk("  broadcast machine check (MCG_STATUS.LMCES clear): ");
	if (rg.monarch >= 0)
		printk("Monarch CPU %d", rg.monarch);
	else
		printk("no Monarch");
	printk(", %u of %u online CPUs checked in; reported by CPU %d\n", rg.nr_in, rg.nr_online,
	       me);
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		const struct mce_view *v = view_stopping(NULL, c);

		if (!v)
			continue;
		printk("  CPU %u (APIC id %u): ", c, smp_cpu(c)->apic_id);
		if (!mce_rv_checked_in(v, gen)) {
			printk("did not check in\n");
			continue;
		}
		printk("checked in %s%s, ", mce_rv_ordinal(v->order, ord, sizeof(ord)),
		       v->order == 1 ? " (Monarch)" : "");
		if (!v->scanned) {
			printk("had not scanned its banks\n");
			continue;
		}
		printk("%u valid bank%s", v->nr_valid, v->nr_valid == 1 ? "" : "s");
		if (v->bank >= 0)
			printk(", bank %d STATUS 0x%016llx", v->bank,
			       (unsigned long long)v->status);
		printk(", worst: %s (%s)\n", mce_grade_name(v->grade),
		       v->why ? v->why->name : "nothing to log");
	}
	for (unsigned int pass = 0; pass < 2 && !shown; pass++) {
		/* Nobody recorded anything (an unknown source): this CPU's banks, then. */
		if (pass && mine && mine->view.scanned && mine->view.seq < 0)
			mine->view.seq = (s64)mce_record_commit(&mine->scratch);
		for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
			const struct mce_view *v = view_stopping(NULL, c);
			struct mce_record *r;

			if (!mce_rv_checked_in(v, gen) || v->seq < 0 ||
			    !(r = mce_get_rw((u64)v->seq)))
				continue;
			r->monarch = rg.monarch;
			r->nr_in = (u16)rg.nr_in;
			r->nr_online = (u16)rg.nr_online;
			r->would_panic = true;
			r->recovered = false;
			mce_report(r, "  ");
			shown++;
		}
	}
	panic();
}

/* A wait ran out: name the CPUs that did not come, with this CPU's own banks read. */
static __noreturn void rv_timeout(enum mce_rv_stage s, struct mce_cpu *mc, u32 gen,
				  const struct exception_table_entry *e)
{
	if (!mc->view.scanned && __atomic_load_n(&rv_panic_cpu, __ATOMIC_ACQUIRE) < 0)
		rv_scan(mc, e);
	rv_panic(mce_rv_timeout_rule(s), gen, mc);
}

/*
 * Linux's do_machine_check() for a broadcast: check in, scan in check-in order, the Monarch
 * reigns, everyone leaves together and goes on with its own decision. Records and returns;
 * the report comes after (or at once when the machine stops).
 */
static bool handle_broadcast(struct pt_regs *regs, struct mce_cpu *mc, u64 mcg, u64 cap,
			     const struct exception_table_entry *e)
{
	struct mce_record *r = &mc->scratch;
	struct mce_view *v = &mc->view;
	unsigned int expected = rv_online(), order;
	u32 gen = __atomic_load_n(&rv_gen, __ATOMIC_ACQUIRE);

	*r = (struct mce_record){ .tsc = rdtsc(), .kind = MCE_KIND_REAL, .rip = regs->rip,
				  .frame = (u64)(uintptr_t)regs, .worst = -1, .mcg_status = mcg,
				  .mcg_cap = cap, .fixup_found = e != NULL,
				  .fixup_mce_safe = e && ex_type_mce_safe(ex_type(e)),
				  .cpu = smp_processor_id(), .broadcast = true, .monarch = -1 };
	*v = (struct mce_view){ .gen = gen, .bank = -1, .seq = -1 };
	order = __atomic_add_fetch(&rv_callin, 1, __ATOMIC_ACQ_REL);
	r->order = (u16)order;
	__atomic_store_n(&v->order, (u16)order, __ATOMIC_RELEASE);

	if (!rv_wait(MCE_RV_CALLIN, order, expected))
		rv_timeout(MCE_RV_CALLIN, mc, gen, e);
	if (order == 1)
		__atomic_store_n(&rv_executing, 1, __ATOMIC_RELEASE);
	else if (!rv_wait(MCE_RV_TURN, order, expected))
		rv_timeout(MCE_RV_TURN, mc, gen, e);
	rv_scan(mc, e);
	__atomic_add_fetch(&rv_executing, 1, __ATOMIC_ACQ_REL);

	if (order == 1) {
		struct mce_reign rg;

		if (!rv_wait(MCE_RV_SUBJECTS, order, expected))
			rv_timeout(MCE_RV_SUBJECTS, mc, gen, e);
		mce_rv_reign(view_of, NULL, smp_nr_cpus(), gen, &rg);
		if (rg.end == MCE_END_PANIC)
			rv_panic(rg.why, gen, mc);
		rv_annotate(gen, &rg);
		/* Release: the next broadcast starts from zero. */
		__atomic_store_n(&rv_callin, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&rv_gen, gen + 1, __ATOMIC_RELEASE);
		__atomic_store_n(&rv_executing, 0, __ATOMIC_RELEASE);
	} else if (!rv_wait(MCE_RV_MONARCH, order, expected)) {
		rv_timeout(MCE_RV_MONARCH, mc, gen, e);
	}
	/* MCG_STATUS last: MCIP off re-arms #MC. */
	mce_wrmsr(MSR_IA32_MCG_STATUS, 0);
	if (v->end == MCE_END_RECOVER)
		regs->rip = r->resume_rip;
	mc->in_handler = false;
	return true;
}

/*
 * The core: a nested #MC stops the machine; a broadcast one on several CPUs goes through the
 * rendezvous; otherwise this CPU alone reads, grades and clears every bank, then MCG_STATUS,
 * and decides (mce_decide: Linux's order, README "Machine checks"). No printing, locking or
 * allocation unless the machine stops.
 */
static bool handle(struct pt_regs *regs, enum mce_kind kind)
{
	const struct mce_caps *caps = mce_caps();
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	struct mce_cpu *mc = mce_cpu_this();
	bool *busy = mc ? &mc->in_handler : &in_handler;
	u64 queue[MCE_MAX_BANKS], mcg = 0, cap = 0;
	unsigned int nq = 0;
	struct mce_decision d;
	struct mce_record *r;
	bool amd;

	if (*busy || (mce_sim.active && mce_sim.nested)) {
		r = mce_record_new(regs->rip, (u64)(uintptr_t)regs, MCE_KIND_NESTED);
		r->rule = &rule_nested;
		r->grade = MCE_GRADE_PANIC;
		r->cpu = smp_processor_id();
		mce_rdmsr(MSR_IA32_MCG_STATUS, &r->mcg_status);
		if (!(mce_sim.active && mce_sim.no_panic))
			mce_panic(r);
		r->would_panic = true;
		return true;
	}
	if (kind == MCE_KIND_REAL && this_cpu()->state != CPU_ONLINE) {
		/* A parked CPU (stopped, or started too late): Linux's offline-CPU rule. */
		rdmsr_safe(MSR_IA32_MCG_STATUS, &mcg);
		if (mcg & MCG_STATUS_RIPV) {
			wrmsr_safe(MSR_IA32_MCG_STATUS, 0);
			return true;
		}
	}
	*busy = true;
	mce_rdmsr(MSR_IA32_MCG_STATUS, &mcg);
	mce_rdmsr(MSR_IA32_MCG_CAP, &cap);
	if (kind == MCE_KIND_REAL && caps->enabled && mc &&
	    mce_rv_needed(caps->amd, mce_broadcast_capable(), mcg, rv_online()))
		return handle_broadcast(regs, mc, mcg, cap, e);

	r = mce_record_new(regs->rip, (u64)(uintptr_t)regs, kind);
	r->cpu = smp_processor_id();
	r->monarch = -1;
	r->mcg_status = mcg;
	r->mcg_cap = cap;
	r->fixup_found = e != NULL;
	r->fixup_mce_safe = e && ex_type_mce_safe(ex_type(e));
	amd = grade_in(caps, 0, mcg, false).amd;
	mce_decision_init(&d);
	scan_banks(r, &d, caps, mcg, cap, queue, &nq);

	if (!r->nr_valid && !(mcg & MCG_STATUS_MCIP) && kind == MCE_KIND_REAL) {
		r->kind = MCE_KIND_SOFTWARE;
		r->rule = &rule_software;
		r->grade = MCE_GRADE_NONE;
		*busy = false;
		return true;		/* nothing to clear: resume after the int instruction */
	}
	mce_decide(&d, mcg, amd, r->fixup_mce_safe);
	if (!caps->enabled && kind == MCE_KIND_REAL) {
		d.end = MCE_END_PANIC;
		d.why = &rule_early;
	}
	record_decision(r, &d);
	/* MCG_STATUS last: MCIP off re-arms #MC. */
	mce_wrmsr(MSR_IA32_MCG_STATUS, 0);

	if (d.end == MCE_END_PANIC) {
		r->grade = MCE_GRADE_PANIC;
		if (!(mce_sim.active && mce_sim.no_panic))
			mce_panic(r);
		r->would_panic = true;
		*busy = false;
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
	*busy = false;
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
