// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_smp.c - every CPU the MADT enables is ours: each one started, runs work it is given
 * on its own stack, GDT, TSS, %gs and instance of the per-CPU variables, takes faults and
 * NMIs on its own stacks (whose guard pages fault where the layout says), notes an NMI only
 * at the end of a line, meets the others at barriers, and a slow CPU is a timeout, not a
 * hang. The identity of the CPU that ran a function comes from the hardware (CPUID's APIC
 * id), not from our numbering.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/desc.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/probe.h"
#include "kernel/include/x86.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

#define MAX_SEEN	1024

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;

struct seen {
	u32 runs;
	u32 hw_apic_id;
	unsigned int self_cpu;
	u64 gs_base, rsp, gdt, idt;
	u16 tr;
};

static struct seen seen[MAX_SEEN];

/* The APIC id as the hardware says it: CPUID 0Bh's x2APIC id, else CPUID 1's 8 bits. */
static u32 hw_apic_id(void)
{
	if (cpuid(0).eax >= 0xb && cpuid_count(0xb, 0).ebx)
		return cpuid_count(0xb, 0).edx;
	return cpuid(1).ebx >> 24;
}

static void record(void *arg)
{
	struct percpu *pc = this_cpu();
	struct seen *s = &seen[pc->cpu];
	struct desc_ptr g, i;
	u64 rsp;

	__asm__ volatile("sgdt %0; sidt %1; str %2; movq %%rsp, %3"
			 : "=m"(g), "=m"(i), "=m"(s->tr), "=r"(rsp));
	s->hw_apic_id = hw_apic_id();
	s->self_cpu = pc->cpu;
	s->gs_base = rdmsr(MSR_GS_BASE);
	s->rsp = rsp;
	s->gdt = g.base;
	s->idt = i.base;
	__atomic_add_fetch(&s->runs, 1, __ATOMIC_RELAXED);
}

static bool need_ap(struct ck_test *t)
{
	if (smp_nr_online() > 1)
		return true;
	ck_skip(t, "one CPU online (%s)", smp_info()->single_why ? smp_info()->single_why :
		"the others did not start");
	return false;
}

static void cpus_started(struct ck_test *t)
{
	const struct smp_info *s = smp_info();

	ck_diag("%u CPUs numbered (%u listed in the MADT, %u not enabled, %u beyond smp=), "
		"%s mode", smp_nr_cpus(), s->nr_listed, s->nr_not_enabled, s->nr_beyond_limit,
		apic_mode_name(s->mode));
	for (unsigned int c = 0; c < smp_nr_cpus() && c < 8; c++)
		ck_diag("CPU %u: APIC id %u, node %d, %s", c, smp_cpu(c)->apic_id,
			smp_cpu_node(c), smp_cpu(c)->state == CPU_ONLINE ? "online" : "FAILED");
	report(t, s->nr_online == smp_nr_cpus(), "%u of %u CPUs online", s->nr_online,
	       smp_nr_cpus());
	for (unsigned int c = 1; c < smp_nr_cpus(); c++)
		if (smp_cpu(c)->state != CPU_ONLINE)
			report(t, false, "CPU %u (APIC id %u) did not start: %s", c,
			       smp_cpu(c)->apic_id, smp_cpu_info(c)->fail_step);
	report(t, smp_cpu(0) == this_cpu() && this_cpu()->apic_id == apic_id(),
	       "CPU 0 is this one (APIC id %u)", apic_id());
}

static void each_cpu_runs_on_its_own(struct ck_test *t)
{
	unsigned int n = MIN(smp_nr_cpus(), MAX_SEEN), late, bad_id = 0, bad_desc = 0;
	unsigned int bad_stack = 0, runs = 0;
	u64 idt0;

	for (unsigned int c = 0; c < n; c++)
		seen[c] = (struct seen){ 0 };
	late = on_each_cpu(record, NULL, 30000);
	report(t, late == 0, "%u CPUs did not finish within 30 s", late);
	idt0 = seen[0].idt;
	for (unsigned int c = 0; c < n; c++) {
		struct percpu *pc = smp_cpu(c);
		struct seen *s = &seen[c];

		if (!cpu_online(c))
			continue;
		runs += s->runs == 1;
		if (s->hw_apic_id != pc->apic_id && !bad_id++)
			report(t, false, "CPU %u: CPUID says APIC id %u, the MADT %u", c,
			       s->hw_apic_id, pc->apic_id);
		if ((s->gs_base != (u64)(uintptr_t)pc || s->gdt != (u64)(uintptr_t)pc->gdt ||
		     s->idt != idt0 || s->tr != KERNEL_TSS || s->self_cpu != c) && !bad_desc++)
			report(t, false, "CPU %u: GS base 0x%llx GDT 0x%llx IDT 0x%llx TR 0x%x", c,
			       (unsigned long long)s->gs_base, (unsigned long long)s->gdt,
			       (unsigned long long)s->idt, s->tr);
		if (c && (s->rsp >= pc->stack_top || s->rsp < pc->stack_top - SZ_4K * 16) &&
		    !bad_stack++)
			report(t, false, "CPU %u ran on RSP 0x%llx, its stack ends at 0x%llx", c,
			       (unsigned long long)s->rsp, (unsigned long long)pc->stack_top);
	}
	report(t, runs == smp_nr_online(), "%u of %u online CPUs ran the function once", runs,
	       smp_nr_online());
	report(t, !bad_id && !bad_desc && !bad_stack,
	       "every CPU is who it says (CPUID), with its own GS, GDT, TSS and stack");
}

struct fault_probe {
	u64 addr;
	u64 ret, vector, frame, cr2;
};

/* A per-CPU variable of this test's own: each CPU marks its instance with its identity. */
struct pcpu_mark {
	u32 hw_apic_id;
	u32 runs;
	u64 seen_at;		/* the address this_cpu_ptr() gave the CPU */
};

static DEFINE_PER_CPU(struct pcpu_mark, pcpu_mark);

static void mark_mine(void *arg)
{
	struct pcpu_mark *m = this_cpu_ptr(&pcpu_mark);

	m->hw_apic_id = hw_apic_id();
	m->runs++;
	m->seen_at = (u64)(uintptr_t)m;
}

static void per_cpu_instances_apart(struct ck_test *t)
{
	unsigned int n = smp_nr_cpus(), fresh = 0, bad = 0, online = 0;

	for (unsigned int c = 0; c < n; c++) {
		const struct pcpu_mark *m = per_cpu_ptr(&pcpu_mark, c);

		fresh += !m->hw_apic_id && !m->runs && !m->seen_at;
	}
	report(t, fresh == n, "%u of %u CPUs' instances start zeroed", fresh, n);
	report(t, on_each_cpu(mark_mine, NULL, 30000) == 0, "every online CPU ran");
	for (unsigned int c = 0; c < n; c++) {
		const struct pcpu_mark *m = per_cpu_ptr(&pcpu_mark, c);

		if (!cpu_online(c))
			continue;
		online++;
		for (unsigned int d = 0; d < c; d++)
			if (cpu_online(d) && per_cpu_ptr(&pcpu_mark, d) == m && !bad++)
				report(t, false, "CPUs %u and %u share an instance", d, c);
		if ((m->hw_apic_id != smp_cpu(c)->apic_id || m->runs != 1 ||
		     m->seen_at != (u64)(uintptr_t)m) && !bad++)
			report(t, false, "CPU %u's instance holds APIC id %u (CPUID), %u runs, seen at "
			       "0x%llx, not 0x%llx", c, m->hw_apic_id, m->runs,
			       (unsigned long long)m->seen_at, (unsigned long long)(uintptr_t)m);
	}
	report(t, per_cpu_ptr(&pcpu_mark, 0) == &pcpu_mark,
	       "the boot CPU's instance is the section itself");
	report(t, !bad, "%u online CPUs, each wrote its own instance (CPUID's APIC id), and "
	       "per_cpu_ptr() finds it", online);
}

static void fault_here(void *arg)
{
	struct fault_probe *f = arg;
	u64 before = ex_last.count, v;

	f->ret = probe_read64(f->addr, &v);
	f->vector = ex_last.count == before + 1 ? ex_last.vector : ~0ULL;
	f->frame = ex_last.frame;
	f->cr2 = ex_last.cr2;
}

static void fault_on_ap_guard_page(struct ck_test *t)
{
	unsigned int c = smp_nr_cpus() - 1;
	struct percpu *pc;
	struct fault_probe f;

	if (!need_ap(t))
		return;
	pc = smp_cpu(c);
	/* The page just below the AP's stack is its guard. */
	f = (struct fault_probe){ .addr = pc->stack_top - 16 * SZ_4K - 8 };
	report(t, on_cpu(c, fault_here, &f, 2000) == 0, "CPU %u ran the probe", c);
	report(t, f.ret != 0 && f.vector == X86_TRAP_PF && f.cr2 == f.addr,
	       "a read of CPU %u's stack guard page faulted (#PF at 0x%llx) and was fixed up", c,
	       (unsigned long long)f.cr2);
	report(t, f.frame < pc->stack_top && f.frame >= pc->stack_top - 16 * SZ_4K,
	       "the #PF frame (0x%llx) is on CPU %u's own stack", (unsigned long long)f.frame,
	       c);
}

/*
 * The hardware's answer against the layout's: every page of the last AP's block (from its
 * percpu up to the top of its #MC stack) faults exactly when smp_is_guard_page() says it is
 * a guard, and there are four; below each of the boot CPU's IST stacks is a guard too.
 */
static void guard_pages_fault_where_said(struct ck_test *t)
{
	unsigned int c = smp_nr_cpus() - 1, guards = 0, wrong = 0;
	const struct percpu *pc = smp_cpu(c), *bsp = smp_cpu(0);
	u64 v;

	for (unsigned int i = 0; i < 3; i++) {
		u64 g = bsp->ist_top[i] - IST_STACK_SIZE - SZ_4K;

		report(t, probe_read64(g, &v) != 0 && smp_is_guard_page(g) &&
		       probe_read64(g + SZ_4K, &v) == 0 && !smp_is_guard_page(g + SZ_4K),
		       "the page below the boot CPU's IST stack %u faults and is a guard", i + 1);
	}
	if (!c || !cpu_online(c)) {
		ck_diag("no AP online: only the boot CPU's guard pages checked");
		return;
	}
	for (u64 a = (u64)(uintptr_t)pc; a < pc->ist_top[2]; a += SZ_4K) {
		bool faults = probe_read64(a, &v) != 0;

		guards += faults;
		if (faults != smp_is_guard_page(a) && !wrong++)
			report(t, false, "CPU %u: page 0x%llx %s, smp_is_guard_page() says %s", c,
			       (unsigned long long)a, faults ? "faults" : "reads",
			       smp_is_guard_page(a) ? "guard" : "not a guard");
	}
	report(t, guards == 4 && !wrong, "CPU %u's block: %u pages fault, each one a guard page "
	       "(want 4: below its stack and each IST stack)", c, guards);
}

static void nmi_on_ap_uses_its_ist(struct ck_test *t)
{
	unsigned int c = smp_nr_cpus() - 1;
	const struct nmi_record *r;
	struct percpu *pc;
	u64 before, end;

	if (!need_ap(t))
		return;
	pc = smp_cpu(c);
	r = nmi_record_of(c);
	before = __atomic_load_n(&r->count, __ATOMIC_ACQUIRE);
	apic_send_nmi(pc->apic_id);
	end = smp_now_us() + 2000000;
	while (__atomic_load_n(&r->count, __ATOMIC_ACQUIRE) == before && smp_now_us() < end)
		cpu_relax();
	/* More than one when an NMI from outside came too (tests/qemu: --nmi). */
	report(t, r->count > before, "the NMI sent to CPU %u was taken and survived", c);
	report(t, r->frame < pc->ist_top[IST_NMI - 1] &&
	       r->frame >= pc->ist_top[IST_NMI - 1] - IST_STACK_SIZE,
	       "its frame (0x%llx) is on CPU %u's NMI IST stack (top 0x%llx)",
	       (unsigned long long)r->frame, c, (unsigned long long)pc->ist_top[IST_NMI - 1]);
	report(t, on_cpu(c, record, NULL, 2000) == 0, "CPU %u still takes work afterwards", c);
}

/*
 * An NMI while this CPU's console line is half written (a line printed in pieces, as
 * smp_report() prints its APIC ids): its note must wait for the end of the line. The
 * serial log shows where it went (tests/qemu/smp_tests.py, t_smp_nmi_notes, checks that
 * the next line is the note).
 */
static void nmi_note_waits_for_line_end(struct ck_test *t)
{
	const struct nmi_record *r = nmi_record_of(smp_processor_id());
	u64 before = __atomic_load_n(&r->count, __ATOMIC_ACQUIRE), end;

	if (apic_mode() == APIC_MODE_OFF) {
		ck_skip(t, "no local APIC to send this CPU an NMI");
		return;
	}
	printk("    # half a line, then an NMI, ");
	apic_send_nmi(apic_id());
	end = smp_now_us() + 2000000;
	while (__atomic_load_n(&r->count, __ATOMIC_ACQUIRE) == before && smp_now_us() < end)
		cpu_relax();
	printk("then the rest of the line\n");
	report(t, r->count > before, "the NMI was taken before the line ended");
}

/* Fewer rounds with many CPUs: under an emulator every round needs every vCPU scheduled. */
#define ROUNDS_TOTAL	400

struct barrier_run {
	struct smp_barrier b;
	u32 rounds, timeout_ms;
	volatile u32 counter;
	u32 bad, timeouts;
};

static void barrier_rounds(void *arg)
{
	struct barrier_run *r = arg;
	u32 n = r->b.n;

	for (u32 round = 1; round <= r->rounds; round++) {
		__atomic_add_fetch(&r->counter, 1, __ATOMIC_ACQ_REL);
		if (smp_barrier_wait(&r->b, r->timeout_ms)) {
			__atomic_add_fetch(&r->timeouts, 1, __ATOMIC_RELAXED);
			return;
		}
		/* Past the barrier every CPU has added its round's 1, and none the next. */
		if (__atomic_load_n(&r->counter, __ATOMIC_ACQUIRE) < round * n)
			__atomic_add_fetch(&r->bad, 1, __ATOMIC_RELAXED);
		if (smp_barrier_wait(&r->b, r->timeout_ms)) {
			__atomic_add_fetch(&r->timeouts, 1, __ATOMIC_RELAXED);
			return;
		}
		if (__atomic_load_n(&r->counter, __ATOMIC_ACQUIRE) > round * n + n)
			__atomic_add_fetch(&r->bad, 1, __ATOMIC_RELAXED);
	}
}

static void barriers_hold(struct ck_test *t)
{
	static struct barrier_run r;

	if (!need_ap(t))
		return;
	/*
	 * The bound is for liveness, not speed: under TCG on two host cores one round of 255
	 * spinning vCPUs has taken over 10 s while another emulator ran beside it.
	 */
	r = (struct barrier_run){ .rounds = MAX(4, ROUNDS_TOTAL / smp_nr_online()),
				  .timeout_ms = MAX(10000, 400 * smp_nr_online()) };
	smp_barrier_init(&r.b, smp_nr_online());
	report(t, on_each_cpu(barrier_rounds, &r, 2 * r.rounds * r.timeout_ms) == 0,
	       "all CPUs finished %u rounds", r.rounds);
	report(t, r.timeouts == 0 && r.bad == 0,
	       "%u CPUs x %u rounds: counter %u (want %u), %u early, %u timeouts",
	       smp_nr_online(), r.rounds, r.counter, r.rounds * smp_nr_online(), r.bad,
	       r.timeouts);
}

static volatile u32 release;

static void spin_until_released(void *arg)
{
	u64 end = smp_now_us() + 5000000;

	while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE) && smp_now_us() < end)
		cpu_relax();
}

static void slow_cpu_is_a_timeout(struct ck_test *t)
{
	unsigned int c = smp_nr_cpus() - 1;
	int rc;

	if (!need_ap(t))
		return;
	release = 0;
	rc = on_cpu(c, spin_until_released, NULL, 20);
	report(t, rc == -ETIMEDOUT, "on_cpu() on a busy CPU gave up after 20 ms (%d)", rc);
	report(t, on_cpu_async(c, record, NULL) == -EBUSY, "new work is refused while busy");
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	report(t, on_cpu_wait(c, 5000) == 0, "released, CPU %u finished", c);
	report(t, on_cpu(c, record, NULL, 2000) == 0, "and takes work again");
}

static volatile u64 shared;

static void add_many(void *arg)
{
	for (int i = 0; i < 10000; i++)
		__atomic_add_fetch(&shared, 1, __ATOMIC_RELAXED);
}

static void atomics_across_cpus(struct ck_test *t)
{
	if (!need_ap(t))
		return;
	shared = 0;
	report(t, on_each_cpu(add_many, NULL, 120000) == 0, "all CPUs finished");
	report(t, shared == 10000ULL * smp_nr_online(), "locked adds: %llu, want %llu",
	       (unsigned long long)shared, 10000ULL * smp_nr_online());
}

static void tsc_in_step(struct ck_test *t)
{
	u32 loops = MAX(50, 20000 / smp_nr_online());
	u64 warps = 0, max_warp = 0;

	if (!need_ap(t))
		return;
	report(t, smp_tsc_warp(loops, &warps, &max_warp) == 0, "every CPU took its turns");
	ck_diag("%u CPUs x %u TSC reads in turn: %llu warps, largest %llu ns", smp_nr_online(),
		loops, (unsigned long long)warps, (unsigned long long)tsc_to_ns(max_warp));
	report(t, warps == 0, "the TSC never ran backwards from one CPU to the next (%llu "
	       "warps, largest %llu ns): one clock for timings that span CPUs",
	       (unsigned long long)warps, (unsigned long long)tsc_to_ns(max_warp));
}

CK_SUITE(smp, 35,
	 CK_CASE(cpus_started),
	 CK_CASE(each_cpu_runs_on_its_own),
	 CK_CASE(per_cpu_instances_apart),
	 CK_CASE(fault_on_ap_guard_page),
	 CK_CASE(guard_pages_fault_where_said),
	 CK_CASE(nmi_on_ap_uses_its_ist),
	 CK_CASE(nmi_note_waits_for_line_end),
	 CK_CASE(barriers_hold),
	 CK_CASE(slow_cpu_is_a_timeout),
	 CK_CASE(atomics_across_cpus),
	 CK_CASE(tsc_in_step));
