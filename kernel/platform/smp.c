// SPDX-License-Identifier: GPL-2.0-only
/*
 * smp.c - the CPUs once they run: who is online, running functions on them (a work slot
 * per CPU and a wakeup IPI), barriers, the idle loop, and stopping them on the way out.
 * Bringing them up is smpboot.c's.
 *
 * The work slot is this file's per-CPU state: the poster writes fn and arg, then bumps seq;
 * the CPU runs fn(arg) and sets done to seq. One poster at a time fills a slot (posting);
 * in_work says the CPU is inside its slot's function, so a wait on this CPU does not run it
 * a second time.
 */
#include "kernel/arch/apic.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/platform/madt.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/smp_internal.h"
#include "kernel/platform/tsc.h"

struct smp_work {
	void (*volatile fn)(void *arg);
	void *volatile arg;
	volatile u64 seq, done;
	volatile u32 posting;
	bool in_work;
};

struct smp_info smp_state;
DEFINE_PER_CPU(struct smp_cpu_info, smp_cpu_infos);
static DEFINE_PER_CPU(struct smp_work, smp_work);

u64 smp_now_us(void)
{
	return tsc_to_ns(rdtsc()) / 1000;
}

void smp_udelay(u64 us)
{
	u64 hz = tsc_info()->hz, end;

	if (!hz || !us)
		return;
	end = rdtsc() + mul_div_u64(us, hz, 1000000ULL);
	while (rdtsc() < end)
		cpu_relax();
}

const struct smp_info *smp_info(void)
{
	return &smp_state;
}

unsigned int smp_nr_cpus(void)
{
	return smp_state.nr_cpus ? smp_state.nr_cpus : 1;
}

unsigned int smp_nr_online(void)
{
	return smp_state.nr_online ? smp_state.nr_online : 1;
}

struct percpu *smp_cpu(unsigned int cpu)
{
	if (!smp_state.nr_cpus)
		return cpu == 0 ? boot_cpu() : NULL;
	return cpu < smp_state.nr_cpus ? percpu_of(cpu) : NULL;
}

const struct smp_cpu_info *smp_cpu_info(unsigned int cpu)
{
	return smp_cpu(cpu) ? per_cpu_ptr(&smp_cpu_infos, cpu) : NULL;
}

int smp_cpu_node(unsigned int cpu)
{
	const struct smp_cpu_info *ci = smp_cpu_info(cpu);

	return ci ? ci->node : 0;
}

/* @cpu's work slot, or NULL when @cpu is not numbered. */
static struct smp_work *work_of(unsigned int cpu)
{
	return smp_cpu(cpu) ? per_cpu_ptr(&smp_work, cpu) : NULL;
}

/* An AP's life after its entry: run what is posted to it, halt in between. */
__noreturn void smp_ap_idle(struct percpu *pc)
{
	struct smp_work *w = this_cpu_ptr(&smp_work);

	for (;;) {
		u64 seq = __atomic_load_n(&w->seq, __ATOMIC_ACQUIRE);

		if (seq != w->done) {
			write_cr3(read_cr3());
			w->in_work = true;
			w->fn(w->arg);
			w->in_work = false;
			__atomic_store_n(&w->done, seq, __ATOMIC_RELEASE);
			continue;
		}
		/* The IPI that posts work ends the halt; "sti" holds it off until "hlt". */
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	}
}

/* ---- running functions ------------------------------------------------------------- */

int on_cpu_async(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct percpu *pc = smp_cpu(cpu);
	struct smp_work *w;

	if (!pc || pc->state != CPU_ONLINE || pc == this_cpu())
		return -ENODEV;
	w = work_of(cpu);
	/* One poster at a time fills the slot; the CPU itself only reads it. */
	if (__atomic_exchange_n(&w->posting, 1, __ATOMIC_ACQUIRE))
		return -EBUSY;
	if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) != w->seq) {
		__atomic_store_n(&w->posting, 0, __ATOMIC_RELEASE);
		return -EBUSY;
	}
	w->fn = fn;
	w->arg = arg;
	__atomic_store_n(&w->seq, w->seq + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&w->posting, 0, __ATOMIC_RELEASE);
	apic_send_ipi(pc->apic_id, VECTOR_WAKEUP);
	return 0;
}

static bool work_done(const struct smp_work *w)
{
	return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE) == w->seq;
}

/*
 * Run what was posted to this CPU while it waits for another: the boot CPU waits in on_cpu()
 * for a benchmark on an AP, which may post a row back to it (a CPU of its node).
 */
static void poll_self(void)
{
	struct smp_work *me = this_cpu_ptr(&smp_work);
	u64 seq = __atomic_load_n(&me->seq, __ATOMIC_ACQUIRE);

	/* Not the function this CPU is running now: its slot stays behind until it returns. */
	if (seq != me->done && !me->in_work) {
		me->in_work = true;
		me->fn(me->arg);
		me->in_work = false;
		__atomic_store_n(&me->done, seq, __ATOMIC_RELEASE);
	}
}

int on_cpu_wait(unsigned int cpu, u32 timeout_ms)
{
	struct smp_work *w = work_of(cpu);
	u64 end;

	if (!w)
		return -ENODEV;
	end = smp_now_us() + (u64)timeout_ms * 1000;
	while (!work_done(w)) {
		if (smp_now_us() > end)
			return -ETIMEDOUT;
		poll_self();
		cpu_relax();
	}
	return 0;
}

int on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg, u32 timeout_ms)
{
	int rc;

	if (smp_cpu(cpu) == this_cpu()) {
		fn(arg);
		return 0;
	}
	rc = on_cpu_async(cpu, fn, arg);
	return rc ? rc : on_cpu_wait(cpu, timeout_ms);
}

unsigned int on_each_cpu(void (*fn)(void *arg), void *arg, u32 timeout_ms)
{
	static bool posted[MADT_MAX_CPUS];
	unsigned int late = 0, self = smp_processor_id();
	u64 end;

	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		posted[c] = c != self && cpu_online(c) && !on_cpu_async(c, fn, arg);
		if (c != self && cpu_online(c) && !posted[c])
			late++;		/* busy with something else: did not get it */
	}
	fn(arg);
	end = smp_now_us() + (u64)timeout_ms * 1000;
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		struct smp_work *w = work_of(c);

		if (!posted[c])
			continue;
		while (!work_done(w) && smp_now_us() <= end) {
			poll_self();
			cpu_relax();
		}
		if (!work_done(w))
			late++;
	}
	return late;
}

void smp_barrier_init(struct smp_barrier *b, unsigned int n)
{
	b->n = n;
	b->count = 0;
	b->gen = 0;
}

int smp_barrier_wait(struct smp_barrier *b, u32 timeout_ms)
{
	unsigned int gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
	u64 end;

	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
		return 0;
	}
	end = smp_now_us() + (u64)timeout_ms * 1000;
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen) {
		if (smp_now_us() > end)
			return -ETIMEDOUT;
		cpu_relax();
	}
	return 0;
}

/* ---- stopping (the exit path) ------------------------------------------------------ */

void smp_stop_others(void)
{
	struct percpu *me = this_cpu();
	u64 end;
	unsigned int left = 0;

	for (unsigned int c = 0; c < smp_state.nr_cpus; c++) {
		struct percpu *pc = smp_cpu(c);

		/* Only CPUs running our code: one still in firmware has the firmware's IDT. */
		if (pc != me && pc->state == CPU_ONLINE)
			apic_send_nmi(pc->apic_id);
	}
	if (!smp_state.nr_online || smp_state.nr_online == 1)
		return;
	end = smp_now_us() + 100000;
	do {
		left = 0;
		for (unsigned int c = 0; c < smp_state.nr_cpus; c++)
			if (smp_cpu(c) != me && smp_cpu(c)->state == CPU_ONLINE)
				left++;
	} while (left && smp_now_us() < end);
	if (left)
		printk("smp: %u CPU%s did not stop on NMI within 100 ms\n", left,
		       left == 1 ? "" : "s");
	else
		printk("smp: the other %u online CPU%s stopped (NMI)\n", smp_state.nr_online - 1,
		       smp_state.nr_online == 2 ? "" : "s");
}

/* ---- are the TSCs in step? --------------------------------------------------------- */

struct warp_run {
	volatile u32 lock;
	u32 loops;
	u64 last, warps, max_warp;
};

/*
 * Each CPU in turn (under a lock) reads its TSC and compares it with the last value any CPU
 * read: a smaller value is a warp, time going backwards from one CPU to another (the check
 * Linux's tsc_sync.c makes before it trusts the TSC as one clock).
 */
static void warp_fn(void *arg)
{
	struct warp_run *w = arg;

	for (u32 i = 0; i < w->loops; i++) {
		u64 now;

		while (__atomic_exchange_n(&w->lock, 1, __ATOMIC_ACQUIRE))
			cpu_relax();
		now = rdtsc_ordered();
		if (now < w->last) {
			w->warps++;
			w->max_warp = MAX(w->max_warp, w->last - now);
		}
		w->last = now;
		__atomic_store_n(&w->lock, 0, __ATOMIC_RELEASE);
		cpu_relax();
	}
}

int smp_tsc_warp(u32 loops, u64 *warps, u64 *max_warp_ticks)
{
	static struct warp_run w;

	w = (struct warp_run){ .loops = loops };
	if (on_each_cpu(warp_fn, &w, 60000))
		return -ETIMEDOUT;
	*warps = w.warps;
	*max_warp_ticks = w.max_warp;
	return 0;
}
