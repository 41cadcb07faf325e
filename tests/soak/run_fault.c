// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_fault.c - the soak_fault= test knobs (knob.h), there to prove the soak reports what it
 * must; nothing outside the soak looks at them, and with the knob off every hook returns at
 * once.
 *
 *   flip     the first soaking CPU after the boot CPU (the boot CPU itself when it soaks
 *            alone), once it has written its first piece, asks the boot CPU to flip one bit
 *            of a word there and waits (bounded) until it has: the verify that follows must
 *            find a stored error at that word;
 *   stuck:N  CPU N, at its first piece, turns interrupts off and spins: the watchdog must
 *            find it silent, name it with its RIP (soak_fault_spin) and finish without it;
 *   emulate  the first soaking CPU of the first node and the first of another node, each
 *            once it has written its first source, arm emulated poison (mce/emulate.c: the
 *            page made not present, a machine-check-safe load from it a #MC on that CPU's
 *            own emulated bank) on its first page, meet in a rendezvous and
 *            leave it together into their copies: both copies consume poison at once, the
 *            verify that follows finds the page (machine-check safe), queues it to
 *            memory_failure_queue and retires it, so later passes never touch it. After
 *            the soak the pages are mapped again and disarmed (the test's poison only).
 */
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "mce/mce.h"
#include "tests/soak/run_int.h"

#define FLIP_WAIT_US	5000000ULL
#define FLIP_BIT	13

enum { FLIP_IDLE, FLIP_ASKED, FLIP_DONE, FLIP_OVER };

/* The one request: written by the asking CPU, then by the boot CPU, in turn (@state). */
static struct {
	volatile u32 state;
	u64 pa;
	unsigned int by;
} flip;

static unsigned int flip_asker(void)
{
	return soak.nr_cpus > 1 ? 1 : 0;
}

static void flip_now(void)
{
	volatile u64 *w = (volatile u64 *)(uintptr_t)flip.pa;
	u64 before = *w;

	*w = before ^ (1ULL << FLIP_BIT);
	__asm__ volatile("mfence; clflush (%0); mfence" : : "r"(w) : "memory");
	printk("soak: soak_fault=flip: CPU %u flipped bit %u of the word at 0x%llx (0x%llx -> "
	       "0x%llx), written by CPU %u, before its verify\n", smp_processor_id(), FLIP_BIT,
	       (unsigned long long)flip.pa, (unsigned long long)before,
	       (unsigned long long)(before ^ (1ULL << FLIP_BIT)), flip.by);
	__atomic_store_n(&flip.state, FLIP_DONE, __ATOMIC_RELEASE);
}

static void emu_piece_written(unsigned int idx, u64 pa, u64 len);

void soak_fault_piece_written(unsigned int idx, u64 pa, u64 len)
{
	u64 end;

	if (soak.opts.fault.kind == SOAK_KNOB_EMULATE)
		emu_piece_written(idx, pa, len);
	if (soak.opts.fault.kind != SOAK_KNOB_FLIP || idx != flip_asker() ||
	    flip.state != FLIP_IDLE)
		return;
	flip.pa = pa + (len / 2 & ~7ULL);	/* a word in the middle of the run */
	flip.by = soak.cpu_of[idx];
	__atomic_store_n(&flip.state, FLIP_ASKED, __ATOMIC_RELEASE);
	if (idx == 0) {
		printk("soak: soak_fault=flip: the boot CPU soaks alone, so it flips the bit itself\n");
		flip_now();
	}
	end = smp_now_us() + FLIP_WAIT_US;
	while (__atomic_load_n(&flip.state, __ATOMIC_ACQUIRE) != FLIP_DONE) {
		this_cpu_ptr(&soak_cpu)->beat++;
		if (smp_now_us() > end) {
			printk("soak: soak_fault=flip: the boot CPU did not flip the bit within 5 s\n");
			break;
		}
		cpu_relax();
	}
	flip.state = FLIP_OVER;
}

void soak_fault_serve(void)
{
	if (soak.opts.fault.kind == SOAK_KNOB_FLIP &&
	    __atomic_load_n(&flip.state, __ATOMIC_ACQUIRE) == FLIP_ASKED)
		flip_now();
}

/* Where stuck:N leaves its CPU: interrupts off, spinning; only an NMI gets in. */
static __attribute__((noinline)) __noreturn void soak_fault_spin(void)
{
	irq_disable();
	for (;;)
		cpu_relax();
}

void soak_fault_stuck_check(unsigned int idx)
{
	if (soak.opts.fault.kind == SOAK_KNOB_STUCK && soak.cpu_of[idx] == soak.opts.fault.cpu &&
	    idx)
		soak_fault_spin();
}

#define EMU_CPUS	2
#define EMU_WAIT_US	10000000ULL

/*
 * emulate: the two soak indexes (set before the workers start); each slot's other fields are
 * written only by its own CPU until the soak ends, @arrived and @lock by both, atomically.
 */
static struct {
	unsigned int idx[EMU_CPUS];
	int node[EMU_CPUS];
	u64 page[EMU_CPUS];		/* the armed page, 0 before */
	int copy_ret[EMU_CPUS];		/* what the copy after the rendezvous returned */
	u64 go_us[EMU_CPUS], back_us[EMU_CPUS];	/* left the rendezvous; the copy returned */
	bool met[EMU_CPUS];		/* both were at the rendezvous */
	volatile u32 state[EMU_CPUS];	/* 0, 1 armed, 2 copied */
	volatile u32 arrived, lock;
} emu;

const char *soak_fault_emulate_setup(void)
{
	unsigned int n = 0;

	if (!mce_can_recover())
		return "this CPU cannot recover from poison (no MCA, or no SER_P / SUCCOR)";
	for (unsigned int i = 0; i < soak.nr_cpus && n < EMU_CPUS; i++) {
		int node = smp_cpu_node(soak.cpu_of[i]);

		if (n && node == emu.node[0])
			continue;
		emu.idx[n] = i;
		emu.node[n++] = node;
	}
	if (n < EMU_CPUS)
		return "it needs soaking CPUs on two NUMA nodes (an SRAT with two nodes with CPUs)";
	return NULL;
}

static int emu_slot(unsigned int idx)
{
	for (int s = 0; s < EMU_CPUS; s++)
		if (emu.idx[s] == idx)
			return s;
	return -1;
}

/* Arm the page (one CPU at a time: page-table splits are not for two CPUs at once). */
static bool emu_arm(u64 page)
{
	bool ok;

	while (__atomic_exchange_n(&emu.lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	ok = mce_emulate_arm(page);
	if (ok && pg_set_attr(page, page + PAGE_SIZE, PG_CACHE(PG_CACHE_WB))) {
		mce_emulate_disarm(page);
		ok = false;
	}
	__atomic_store_n(&emu.lock, 0, __ATOMIC_RELEASE);
	return ok;
}

static void emu_piece_written(unsigned int idx, u64 pa, u64 len)
{
	int s = emu_slot(idx);
	u64 page = pa, end;	/* the first page: both copies meet poison right away */

	if (s < 0 || emu.state[s])
		return;
	emu.state[s] = 1;
	if (!emu_arm(page)) {
		printk("soak: soak_fault=emulate: CPU %u could not arm the page at 0x%llx\n",
		       smp_processor_id(), (unsigned long long)page);
		return;
	}
	emu.page[s] = page;
	printk("soak: soak_fault=emulate: CPU %u (node %d) armed emulated poison on the page at "
	       "0x%llx of the source it copies next\n", smp_processor_id(), emu.node[s],
	       (unsigned long long)page);
	__atomic_add_fetch(&emu.arrived, 1, __ATOMIC_ACQ_REL);
	end = smp_now_us() + EMU_WAIT_US;
	while (!(emu.met[s] = __atomic_load_n(&emu.arrived, __ATOMIC_ACQUIRE) == EMU_CPUS) &&
	       smp_now_us() < end) {
		this_cpu_ptr(&soak_cpu)->beat++;
		cpu_relax();
	}
	emu.go_us[s] = smp_now_us();
}

void soak_fault_copied(unsigned int idx, int ret)
{
	int s = emu_slot(idx);

	if (soak.opts.fault.kind != SOAK_KNOB_EMULATE || s < 0 || emu.state[s] != 1)
		return;
	emu.back_us[s] = smp_now_us();
	emu.copy_ret[s] = ret;
	emu.state[s] = 2;
}

void soak_fault_end(void)
{
	if (soak.opts.fault.kind != SOAK_KNOB_EMULATE)
		return;
	for (int s = 0; s < EMU_CPUS; s++) {
		unsigned int cpu = soak.cpu_of[emu.idx[s]];
		struct page *pg;

		if (!emu.page[s]) {
			printk("soak: soak_fault=emulate: CPU %u armed no page\n", cpu);
			continue;
		}
		pg = pfn_to_page(emu.page[s] >> PAGE_SHIFT);
		printk("soak: soak_fault=emulate: CPU %u %s the rendezvous; its copy over the page "
		       "at 0x%llx returned %d (%s) %llu us after it; the page is %son the poison "
		       "list (memory_failure_queue)\n", cpu, emu.met[s] ? "left together from" :
		       "timed out in", (unsigned long long)emu.page[s], emu.copy_ret[s],
		       emu.copy_ret[s] ? "stopped by the poison" : "no poison met",
		       (unsigned long long)(emu.back_us[s] - emu.go_us[s]),
		       pg && page_hwpoison(pg) ? "" : "not ");
		pg_set_attr(emu.page[s], emu.page[s] + PAGE_SIZE, PG_RAM);
		mce_emulate_disarm(emu.page[s]);
	}
	printk("soak: soak_fault=emulate: the armed pages are mapped again and disarmed\n");
}
