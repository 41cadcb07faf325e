// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll.c - each CPU's corrected-error poller in the image (see poll.h): its state in the
 * per-CPU section, which banks it reads alone and which under the poll lock (from the
 * ownership map of mce/smp.c), its CMCI (claimed banks, LVT entry, the interrupt), its AMD
 * threshold counters, and the calls the run and the soak make. The work itself is the pure
 * core's (poll_core.c, cmci.c, amd_thresh.c).
 *
 * Only its own CPU touches a CPU's poller state, always with interrupts held off (the CMCI
 * handler runs with them off), so a poll, a CMCI and a drain never meet. The one shared
 * thing is the poll lock of the banks whose sharing is unknown: taken with a bound, never
 * from the CMCI handler or the #MC handler.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/mm/page.h"
#include "kernel/include/x86.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "mce/cmci.h"
#include "mce/core.h"
#include "mce/poll_core.h"

/* Spins for the poll lock before a poll skips the shared-unknown banks (about a second). */
#define POLL_LOCK_SPINS		20000000UL
#define RFLAGS_IF		BIT(9)

struct mce_poll_cpu {
	struct mce_poll_state s;
	bool cmci;		/* this CPU takes CMCI for s.cmci.owned */
};

static DEFINE_PER_CPU(struct mce_poll_cpu, mce_poll_cpus);
static u32 poll_lock;

static u64 irq_save(void)
{
	u64 f = read_rflags();

	irq_disable();
	return f;
}

static void irq_restore(u64 f)
{
	if (f & RFLAGS_IF)
		__asm__ volatile("sti" ::: "memory");
}

static u64 now_ms(void)
{
	u64 hz = tsc_info()->hz;

	return hz >= 1000 ? rdtsc() / (hz / 1000) : 0;
}

static bool lock_take(void *ctx)
{
	for (unsigned long i = 0; i < POLL_LOCK_SPINS; i++) {
		if (!__atomic_exchange_n(&poll_lock, 1, __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
	}
	return false;
}

static void lock_drop(void *ctx)
{
	__atomic_store_n(&poll_lock, 0, __ATOMIC_RELEASE);
}

static const struct mce_poll_lock poll_lock_ops = { .take = lock_take, .drop = lock_drop };

/* This CPU as a scan sees it, through @be (the real MSRs, or the simulated file routed). */
static void env_of(struct mce_poll_env *e, const struct mce_cpu *mc, struct mce_sim *be)
{
	const struct mce_caps *caps = mce_caps();
	const struct cpu_ident *id = cpu();
	u64 cap;

	*e = (struct mce_poll_env){ .be = be, .amd = caps->amd, .smca = caps->smca,
				    .hygon = caps->hygon,
				    .ser = caps->amd ? caps->succor : caps->ser_p,
				    .ser_p = caps->ser_p, .offline = memory_failure_queue,
				    .ovf_recov = caps->ovf_recov,
				    .family = (u8)MIN(id->family, 0xffU), .model = (u8)id->model,
				    .stepping = (u8)id->stepping, .nbanks = mc->facts.nbanks,
				    .tsc = rdtsc(), .now_ms = now_ms() };
	if (!be)
		return;
	/* A simulation: its own bank count, and the vendor and CPU it chose (the layout stays). */
	if (!mce_rdmsr(be, MSR_IA32_MCG_CAP, &cap)) {
		e->nbanks = MCG_CAP_COUNT(cap);
		e->ser_p = cap & MCG_SER_P;
	}
	if (be->vendor != SIM_VENDOR_REAL) {
		e->amd = be->vendor == SIM_VENDOR_AMD;
		e->hygon = false;
		e->ser = be->ser;
		e->ovf_recov = false;
	}
	if (be->ident) {
		e->family = be->family;
		e->model = be->model;
		e->stepping = be->stepping;
	}
}

/* SMCA: the banks of CPU @cpu whose IPID a lower-numbered CPU also has (that CPU owns them). */
static u64 ipid_owned_below(const struct mce_cpu *mc, unsigned int cpu)
{
	u64 below = 0;

	for (unsigned int d = 0; d < cpu; d++) {
		const struct mce_cpu *o = mce_cpu_of(d);

		if (o && o->facts.started && o->facts.mca)
			below |= mce_ipid_shared(mc->ipid, mc->facts.nbanks, o->ipid,
						 o->facts.nbanks);
	}
	return below;
}

/* Which banks this CPU reads alone, and which every CPU reads under the lock. */
static void ownership(struct mce_poll_state *s, const struct mce_cpu *mc, unsigned int cpu)
{
	struct mce_poll_share in = { .share = mc->facts.share, .nbanks = mc->facts.nbanks,
				     .cmci_mine = mc->cmci_mine,
				     .cmci_none = mc->facts.cmci_none };

	if (in.share == MCE_SHARE_IPID)
		in.ipid_below = mc->facts.shared & ipid_owned_below(mc, cpu);
	mce_poll_ownership(&in, &s->owned, &s->unknown);
}

static u32 k_apic_read(void *ctx, u32 reg)
{
	return apic_read(reg);
}

static void k_apic_write(void *ctx, u32 reg, u32 val)
{
	apic_write(reg, val);
}

static void k_apic_eoi(void *ctx)
{
	apic_eoi();
}

static const struct mce_apic_ops apic_ops = {
	.read = k_apic_read, .write = k_apic_write, .eoi = k_apic_eoi,
};

/* VECTOR_CMCI on this CPU (interrupts off): the banks it owns, through the real MSRs. */
static void cmci_irq(void)
{
	struct mce_poll_cpu *pc = this_cpu_ptr(&mce_poll_cpus);
	struct mce_cpu *mc = mce_cpu_this();
	struct mce_poll_env e;

	if (!pc->cmci || !mc) {
		apic_eoi();
		return;
	}
	env_of(&e, mc, NULL);
	mce_cmci_interrupt(&pc->s, &e, &apic_ops);
}

/* Intel with CMCI_P and a probe done: this CPU's LVT entry, then its banks' CMCI. */
static void cmci_start(struct mce_poll_cpu *pc, const struct mce_cpu *mc, u64 now)
{
	const struct mce_caps *caps = mce_caps();

	if (caps->amd || !(caps->mcg_cap & MCG_CMCI_P) || mc->facts.share != MCE_SHARE_CMCI ||
	    apic_mode() == APIC_MODE_OFF || !mc->cmci_mine)
		return;
	if (!mce_cmci_lvt_setup(&apic_ops, VECTOR_CMCI))
		return;
	pc->cmci = mce_cmci_claim(&pc->s, NULL, mc->cmci_mine, now) != 0;
	if (!pc->cmci)
		apic_write(APIC_LVT_CMCI, APIC_LVT_MASKED);
}

void mce_poll_init_cpu(unsigned int interval_ms)
{
	struct mce_poll_cpu *pc = this_cpu_ptr(&mce_poll_cpus);
	struct mce_cpu *mc = mce_cpu_this();
	u64 f = irq_save(), now = now_ms();

	if (pc->s.started) {
		pc->s.max_ms = interval_ms ? interval_ms : MCE_POLL_DEFAULT_MS;
		pc->s.iv_ms = MIN(pc->s.iv_ms, pc->s.max_ms);
		pc->s.next_ms = MIN(pc->s.next_ms, now + pc->s.iv_ms);
	} else if (mc && mc->facts.mca && mce_caps()->enabled) {
		mce_poll_state_init(&pc->s, interval_ms, now);
		ownership(&pc->s, mc, smp_processor_id());
		irq_set_cmci_handler(cmci_irq);
		cmci_start(pc, mc, now);
		if (mce_caps()->amd)
			mce_thresh_setup(&pc->s.thr, NULL, mce_caps()->smca,
					 pc->s.owned | pc->s.unknown, MCE_THRESH_MAX);
	}
	irq_restore(f);
}

/* One poll of this CPU's banks (interrupts off); returns the events it logged. */
static unsigned int poll_here(struct mce_poll_cpu *pc)
{
	struct mce_cpu *mc = mce_cpu_this();
	struct mce_poll_env e;

	env_of(&e, mc, mc->backend);
	return mce_poll_once(&pc->s, &e, &poll_lock_ops);
}

void mce_poll_cpu(void)
{
	struct mce_poll_cpu *pc = this_cpu_ptr(&mce_poll_cpus);
	u64 f;

	if (!pc->s.started || !mce_cpu_this())
		return;
	f = irq_save();
	poll_here(pc);
	irq_restore(f);
}

unsigned int mce_poll_take(struct mce_poll_event *out, unsigned int max)
{
	struct mce_poll_cpu *pc = this_cpu_ptr(&mce_poll_cpus);
	u64 f = irq_save();
	unsigned int n = mce_poll_queue_take(&pc->s.q, out, max);

	irq_restore(f);
	return n;
}

void mce_poll_stats_this(struct mce_poll_stats *out)
{
	struct mce_poll_cpu *pc = this_cpu_ptr(&mce_poll_cpus);
	u64 f = irq_save();

	*out = pc->s.st;
	irq_restore(f);
}

const char *mce_poll_kind_name(unsigned int kind)
{
	static const char *const names[] = {
		[MCE_POLL_CORRECTED] = "corrected", [MCE_POLL_DEFERRED] = "deferred",
		[MCE_POLL_UCNA] = "UCNA", [MCE_POLL_THRESHOLD] = "threshold",
	};

	return kind < MCE_POLL_NR_KINDS ? names[kind] : "?";
}

/* What mce_cpus_init says of the pollers it started. */
struct start_tally {
	u32 cpus, cmci_cpus, unknown_cpus, thresh_banks;
};

static void start_fn(void *arg)
{
	struct mce_poll_cpu *pc = this_cpu_ptr(&mce_poll_cpus);
	struct start_tally *t = arg;

	mce_poll_init_cpu(0);
	if (!pc->s.started)
		return;
	__atomic_add_fetch(&t->cpus, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->cmci_cpus, pc->cmci, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->unknown_cpus, pc->s.unknown != 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->thresh_banks, mce_hweight64(pc->s.thr.banks),
			   __ATOMIC_RELAXED);
}

void mce_poll_start_all(void)
{
	const struct mce_caps *caps = mce_caps();
	struct start_tally t = { 0 };
	unsigned int late;

	if (!caps->enabled)
		return;
	late = on_each_cpu(start_fn, &t, 1000);
	printk("MCE: corrected-error pollers on %u CPU%s%s; CMCI %s; %s; AMD threshold counters: "
	       "%u bank%s\n", t.cpus, t.cpus == 1 ? "" : "s", late ? " (some did not answer)" : "",
	       t.cmci_cpus ? "on" : caps->amd ? "none (AMD)" :
	       (caps->mcg_cap & MCG_CMCI_P) ? "not set up (no LVT CMCI entry)" :
	       "absent (MCG_CAP.CMCI_P clear): polling only",
	       t.unknown_cpus ? "banks whose sharing is unknown are polled by every CPU in turn "
	       "(a shared one is logged once, by the first CPU to poll it)" :
	       "each shared bank is polled by its owner", t.thresh_banks,
	       t.thresh_banks == 1 ? "" : "s");
}
