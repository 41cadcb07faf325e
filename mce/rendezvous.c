// SPDX-License-Identifier: GPL-2.0-only
/*
 * rendezvous.c - a broadcast machine check on several CPUs, after Linux's do_machine_check()
 * with mce_start(), mce_end() and mce_reign() (the decisions are in mce/smp_logic.c): every
 * CPU checks in (saying whether a bank of its own grades panic: then no CPU clears any bank),
 * scans its banks in check-in order, the Monarch reigns over every CPU's view
 * and logs every CPU's record, everyone leaves together and goes on with its own decision.
 * Records and returns; the report comes after (or at once when the machine stops).
 *
 * The counters below are the rendezvous itself, shared by design as Linux's mce_callin and
 * mce_executing are; each CPU's part lives in its own state (mce/core.h) and the others only
 * read it.
 */
#include "kernel/arch/exit.h"
#include "kernel/arch/percpu.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/platform/smp.h"
#include "mce/core.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/smp_logic.h"

static u64 rv_timeout_tsc;
static unsigned int rv_callin;		/* CPUs checked in: Linux's mce_callin */
static unsigned int rv_executing;	/* Linux's mce_executing */
static u32 rv_gen;			/* the event; the Monarch moves it on when it releases */
static unsigned int rv_nwo;		/* CPUs with a bank graded panic: Linux's global_nwo */
static int rv_panic_cpu = -1;		/* the CPU that reports */

void mce_rv_setup(bool capable, u64 timeout_tsc)
{
	mce_broadcast_set(capable);
	rv_timeout_tsc = timeout_tsc;
}

static const struct mce_view *view_in(unsigned int cpu, bool stopping)
{
	struct percpu *pc = smp_cpu(cpu);
	struct mce_cpu *mc = mce_cpu_of(cpu);

	if (!pc || !mc)
		return NULL;
	return pc->state == CPU_ONLINE || (stopping && pc->state == CPU_STOPPED) ? &mc->view :
	       NULL;
}

/* The CPUs waited for: online ones, with a machine-check state. */
static const struct mce_view *view_of(void *ctx, unsigned int cpu)
{
	return view_in(cpu, false);
}

/* The same while the machine stops: CPUs that parked on the way out still show their view. */
static const struct mce_view *view_stopping(void *ctx, unsigned int cpu)
{
	return view_in(cpu, true);
}

unsigned int mce_rv_online(void)
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
 * and its pages in the queue. Its record waits in its scratch for the Monarch to log it.
 * @no_way_out: some CPU found a bank graded panic, so every CPU leaves its banks as they are.
 */
static void rv_scan(struct mce_cpu *mc, const struct exception_table_entry *e, bool no_way_out)
{
	struct mce_record *r = &mc->scratch;
	struct mce_view *v = &mc->view;
	struct mce_scan s;

	mce_scan_banks(r, &s, NULL, no_way_out);
	s.d.reigned = true;
	mce_decide(&s.d, r->mcg_status, false, r->fixup_mce_safe);
	mce_record_decision(r, &s.d);
	v->nr_valid = (u16)MIN(r->nr_valid, 0xffffU);
	v->grade = mce_rv_cpu_grade(&s.d);
	v->why = mce_rv_cpu_why(&s.d);
	v->end = s.d.end;
	if (r->worst >= 0 || r->nr_banks) {
		const struct mce_bank_log *b = &r->banks[r->worst >= 0 ? r->worst : 0];

		v->bank = b->bank;
		v->status = b->status;
	}
	mce_record_act(r, &s, e);
	__atomic_store_n(&v->scanned, true, __ATOMIC_RELEASE);
}

/* The facts of the reign into a record of this event. */
static void rv_annotate(struct mce_record *r, const struct mce_reign *rg)
{
	r->monarch = rg->monarch;
	r->nr_in = (u16)rg->nr_in;
	r->nr_online = (u16)rg->nr_online;
	if (rg->end == MCE_END_PANIC) {
		r->would_panic = true;
		r->recovered = false;
	}
}

/*
 * Every CPU of event @gen that scanned and found something: its record annotated and put in
 * the ring, in check-in order (each taken once: a CPU that times out while the Monarch logs
 * does not log the same record twice); reported with @report. Returns how many.
 */
static unsigned int rv_log(u32 gen, const struct mce_reign *rg, mce_view_fn view, bool report)
{
	unsigned int n = smp_nr_cpus(), logged = 0;

	for (unsigned int order = 1; order <= n; order++) {
		for (unsigned int c = 0; c < n; c++) {
			struct mce_cpu *mc = mce_cpu_of(c);
			const struct mce_view *v = view(NULL, c);
			s64 none = -1;

			if (!mce_rv_checked_in(v, gen) || v->order != order ||
			    !__atomic_load_n(&v->scanned, __ATOMIC_ACQUIRE) ||
			    v->grade == MCE_GRADE_NONE ||
			    !__atomic_compare_exchange_n(&mc->view.seq, &none, -2, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue;
			rv_annotate(&mc->scratch, rg);
			__atomic_store_n(&mc->view.seq, (s64)mce_record_commit(&mc->scratch),
					 __ATOMIC_RELEASE);
			if (report)
				mce_report(&mc->scratch, "  ");
			logged++;
		}
	}
	return logged;
}

/* How the machine stops: the rendezvous' line and one line per CPU's view. */
static void rv_print_views(u32 gen, const struct mce_reign *rg, int me)
{
	char ord[16];

	printk("  broadcast machine check (MCG_STATUS.LMCES clear): ");
	if (rg->monarch >= 0)
		printk("Monarch CPU %d", rg->monarch);
	else
		printk("no Monarch");
	printk(", %u of %u online CPUs checked in; reported by CPU %d\n", rg->nr_in,
	       rg->nr_online, me);
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
}

/* Stop the machine with every CPU's view; the first CPU here reports, the others park. */
static __noreturn void rv_panic(const struct mce_rule *why, u32 gen, struct mce_cpu *mine)
{
	int me = (int)smp_processor_id(), none = -1;
	struct mce_reign rg;

	if (!__atomic_compare_exchange_n(&rv_panic_cpu, &none, me, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		rv_park();
	mce_rv_reign(view_stopping, NULL, smp_nr_cpus(), gen, &rg);
	rg.end = MCE_END_PANIC;
	printk("\nPANIC: machine check: %s\n", why->name);
	rv_print_views(gen, &rg, me);
	/* Nobody recorded anything (an unknown source): this CPU's banks, then. */
	if (!rv_log(gen, &rg, view_stopping, true) && mine && mine->view.scanned &&
	    mine->view.seq == -1) {
		rv_annotate(&mine->scratch, &rg);
		mine->view.seq = (s64)mce_record_commit(&mine->scratch);
		mce_report(&mine->scratch, "  ");
	}
	panic();
}

/* A wait ran out: name the CPUs that did not come, with this CPU's own banks read. */
static __noreturn void rv_timeout(enum mce_rv_stage s, struct mce_cpu *mc, u32 gen,
				  const struct exception_table_entry *e)
{
	if (!mc->view.scanned && __atomic_load_n(&rv_panic_cpu, __ATOMIC_ACQUIRE) < 0)
		rv_scan(mc, e, true);		/* the machine stops: its banks stay */
	rv_panic(mce_rv_timeout_rule(s), gen, mc);
}

/* The Monarch, once every Subject scanned: reign, log every record, release everyone. */
static void rv_reign(struct mce_cpu *mc, u32 gen, unsigned int expected,
		     const struct exception_table_entry *e)
{
	struct mce_reign rg;

	if (!rv_wait(MCE_RV_SUBJECTS, 1, expected))
		rv_timeout(MCE_RV_SUBJECTS, mc, gen, e);
	mce_rv_reign(view_of, NULL, smp_nr_cpus(), gen, &rg);
	if (rg.end == MCE_END_PANIC)
		rv_panic(rg.why, gen, mc);
	rv_log(gen, &rg, view_of, false);
	/* Release: the next broadcast starts from zero. */
	__atomic_store_n(&rv_nwo, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rv_callin, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rv_gen, gen + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&rv_executing, 0, __ATOMIC_RELEASE);
}

bool mce_rv_handle(struct pt_regs *regs, struct mce_cpu *mc, u64 mcg, u64 cap,
		   const struct exception_table_entry *e)
{
	struct mce_record *r = &mc->scratch;
	struct mce_view *v = &mc->view;
	unsigned int expected = mce_rv_online(), order;
	bool nwo;
	u32 gen = __atomic_load_n(&rv_gen, __ATOMIC_ACQUIRE);

	mce_record_init(r, regs, MCE_KIND_REAL, mcg, cap, e);
	r->broadcast = true;
	*v = (struct mce_view){ .gen = gen, .bank = -1, .seq = -1 };
	/* Linux's mce_no_way_out() before mce_start(): counted before this CPU checks in. */
	if (mce_scan_banks_nwo(r, NULL))
		__atomic_add_fetch(&rv_nwo, 1, __ATOMIC_RELAXED);
	order = __atomic_add_fetch(&rv_callin, 1, __ATOMIC_ACQ_REL);
	r->order = (u16)order;
	__atomic_store_n(&v->order, (u16)order, __ATOMIC_RELEASE);

	if (!rv_wait(MCE_RV_CALLIN, order, expected))
		rv_timeout(MCE_RV_CALLIN, mc, gen, e);
	/* Every CPU is in: whether any of them has no way out (global_nwo). */
	nwo = __atomic_load_n(&rv_nwo, __ATOMIC_ACQUIRE) != 0;
	if (order == 1)
		__atomic_store_n(&rv_executing, 1, __ATOMIC_RELEASE);
	else if (!rv_wait(MCE_RV_TURN, order, expected))
		rv_timeout(MCE_RV_TURN, mc, gen, e);
	rv_scan(mc, e, nwo);
	__atomic_add_fetch(&rv_executing, 1, __ATOMIC_ACQ_REL);

	if (order == 1)
		rv_reign(mc, gen, expected, e);
	else if (!rv_wait(MCE_RV_MONARCH, order, expected))
		rv_timeout(MCE_RV_MONARCH, mc, gen, e);
	/* MCG_STATUS last: MCIP off re-arms #MC. */
	mce_wrmsr(NULL, MSR_IA32_MCG_STATUS, 0);
	if (v->end == MCE_END_RECOVER)
		regs->rip = r->resume_rip;
	mc->in_handler = false;
	return true;
}
