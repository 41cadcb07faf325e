// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_fault.c - the soak_fault= test knobs (knob.h), there to prove the soak reports what it
 * must; nothing outside the soak looks at them, and with the knob off every hook returns at
 * once.
 *
 *   flip     the first soaking CPU after the boot CPU (the boot CPU itself when it soaks
 *            alone), once it has written its first piece of each pass that is not a copy's
 *            source, asks the boot CPU to flip one bit of a word there and waits (bounded)
 *            until it has: the read that follows must find a stored error at that word and
 *            nothing else in the piece (in every pass, so also in those whose data changes word by word,
 *            where the verify that goes on past a miscompare must resume at the right word);
 *            a bit asked for and not flipped fails the soak;
 *   stuck:N  CPU N, at its first piece, turns interrupts off and spins: the watchdog must
 *            find it silent, name it with its RIP (soak_fault_spin) and finish without it;
 *   emulate  the first soaking CPU of the first node and the first of another node, each
 *            once it has written its first source, arm emulated poison (mce/emulate.c: the
 *            page made not present, a machine-check-safe load from it a #MC on that CPU's
 *            own emulated bank) on its first page, meet in a rendezvous and
 *            leave it together into their copies: both copies consume poison at once, the
 *            verify that follows finds the page (machine-check safe), queues it to
 *            memory_failure_queue and retires it, so later passes never touch it. After
 *            the soak the pages are mapped again and disarmed (the test's poison only);
 *   mce      the boot CPU, once it has written its first source, asks the runner for a real
 *            #MC (an SRAR data load at the page in the middle of that source, through
 *            QEMU's monitor: tools/ck-run.py --inject-mce) and copies the piece again and
 *            again until the #MC has come (at most 30 s), as the mce suite's inject=qemu
 *            cases do: QEMU delivers it whenever it gets to it, so the copy loop is where it
 *            lands. The copy stops, its record goes into the ledger and the bank's page is
 *            retired (run_work.c).
 * A knob that could not do what it asked fails the soak (soak_fault_end).
 */
#include "kernel/arch/paging.h"
#include "kernel/console/fbcon.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "soak/run_int.h"

#define FLIP_WAIT_US	20000000ULL
#define FLIP_BIT	13

enum { FLIP_IDLE, FLIP_ASKED, FLIP_FLIPPING, FLIP_DONE };

/*
 * The request of the pass under way: written by the asking CPU, then by the boot CPU, in
 * turn (@state; each side takes its turn with one compare-and-swap).
 */
static struct {
	volatile u32 state;
	u64 pa;
	unsigned int by;
	u32 next_pass;		/* the first pass not yet asked for */
	u32 asked, flipped;	/* passes asked for, and bits flipped */
} flip;

static unsigned int flip_asker(void)
{
	return soak.nr_cpus > 1 ? 1 : 0;
}

static bool flip_take(u32 from, u32 to)
{
	return __atomic_compare_exchange_n(&flip.state, &from, to, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE);
}

static void flip_now(void)
{
	volatile u64 *w;
	u64 before;

	if (!flip_take(FLIP_ASKED, FLIP_FLIPPING))
		return;		/* the asker gave up waiting */
	w = (volatile u64 *)(uintptr_t)flip.pa;
	before = *w;
	*w = before ^ (1ULL << FLIP_BIT);
	__asm__ volatile("mfence; clflush (%0); mfence" : : "r"(w) : "memory");
	printk("soak: soak_fault=flip: CPU %u flipped bit %u of the word at 0x%llx (0x%llx -> "
	       "0x%llx), written by CPU %u in pass %u, before its verify\n", smp_processor_id(),
	       FLIP_BIT, (unsigned long long)flip.pa, (unsigned long long)before,
	       (unsigned long long)(before ^ (1ULL << FLIP_BIT)), flip.by, flip.next_pass);
	flip.flipped++;
	__atomic_store_n(&flip.state, FLIP_DONE, __ATOMIC_RELEASE);
}

static void emu_piece_written(unsigned int idx, u64 pa, u64 len);
static void mce_piece_written(unsigned int idx, u64 pa, u64 len);

/* flip: the asker's first written piece of each pass gets one bit flipped by the boot CPU. */
static void flip_piece_written(unsigned int idx, u64 pa, u64 len)
{
	u32 pass = soak_cpu_of(idx)->passes;	/* whole passes done: the pass under way */
	u64 end;

	if (idx != flip_asker() || pass < flip.next_pass)
		return;
	flip.next_pass = pass;
	flip.pa = pa + (len / 2 & ~7ULL);	/* a word in the middle of the run */
	flip.by = soak.cpu_of[idx];
	flip.asked++;
	__atomic_store_n(&flip.state, FLIP_ASKED, __ATOMIC_RELEASE);
	if (idx == 0) {
		printk("soak: soak_fault=flip: the boot CPU soaks alone, so it flips the bit itself\n");
		flip_now();
	}
	end = smp_now_us() + FLIP_WAIT_US;
	while (__atomic_load_n(&flip.state, __ATOMIC_ACQUIRE) != FLIP_DONE) {
		this_cpu_ptr(&soak_cpu)->beat++;
		if (smp_now_us() > end && flip_take(FLIP_ASKED, FLIP_IDLE)) {
			printk("soak: soak_fault=flip: the boot CPU did not flip the bit within "
			       "20 s\n");
			break;
		}
		cpu_relax();
	}
	flip.next_pass = pass + 1;
	__atomic_store_n(&flip.state, FLIP_IDLE, __ATOMIC_RELEASE);
}

void soak_fault_piece_written(unsigned int idx, u64 pa, u64 len, bool source)
{
	if (soak.opts.fault.kind == SOAK_KNOB_EMULATE && source)
		emu_piece_written(idx, pa, len);
	if (soak.opts.fault.kind == SOAK_KNOB_MCE && source)
		mce_piece_written(idx, pa, len);
	/* not in a copy's source: the copy would carry the flip to a second, sound word */
	if (soak.opts.fault.kind == SOAK_KNOB_FLIP && !source)
		flip_piece_written(idx, pa, len);
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

static bool mce_end(void);

bool soak_fault_end(void)
{
	bool ok = true;

	if (soak.opts.fault.kind == SOAK_KNOB_MCE)
		return mce_end();
	if (soak.opts.fault.kind == SOAK_KNOB_FLIP) {
		printk("soak: soak_fault=flip: %u bit%s flipped in %u pass%s asked\n", flip.flipped,
		       flip.flipped == 1 ? "" : "s", flip.asked, flip.asked == 1 ? "" : "es");
		return flip.asked && flip.flipped == flip.asked;
	}
	if (soak.opts.fault.kind != SOAK_KNOB_EMULATE)
		return true;
	for (int s = 0; s < EMU_CPUS; s++) {
		unsigned int cpu = soak.cpu_of[emu.idx[s]];
		struct page *pg;

		if (!emu.page[s]) {
			printk("soak: soak_fault=emulate: CPU %u armed no page\n", cpu);
			ok = false;
			continue;
		}
		ok &= emu.met[s] && emu.copy_ret[s];
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
	if (!ok)
		pr_err("soak: soak_fault=emulate: the poison was not consumed as asked: the soak "
		       "fails\n");
	return ok;
}

/* An SRAR data load (REFERENCE.md 3): VAL UC EN MISCV ADDRV S AR, MCACOD 0x134; MISC: LSB 6. */
#define QMCE_STATUS	(MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV | \
			 MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | MCACOD_DATA_LOAD)
#define QMCE_MCG	(MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP)
#define QMCE_MISC	0x86
#define QMCE_WAIT_US	30000000ULL

enum { QMCE_IDLE, QMCE_ASKED, QMCE_OVER };

/* mce: only the boot CPU (soak index 0) writes it, the report reads it after the soak. */
static struct {
	u32 state;
	u64 addr, seq, end_us;
	u32 copies;		/* copies of the piece until the #MC came */
	bool came;
} qmce;

static void mce_piece_written(unsigned int idx, u64 pa, u64 len)
{
	unsigned int cpu = smp_processor_id();
	bool bcast = smp_nr_online() > 1 && mce_broadcast_capable();

	if (idx || qmce.state != QMCE_IDLE)
		return;
	qmce.addr = pa + ((len >> PAGE_SHIFT) / 2 << PAGE_SHIFT) + 0x40;
	qmce.seq = mce_count();
	qmce.state = QMCE_ASKED;
	/* The #MC may come as soon as the line is out: no framebuffer drawing after it. */
	fbcon_pause(true);
	printk("soak: soak_fault=mce: mce-inject: request bank=1 status=0x%llx mcg=0x%llx "
	       "addr=0x%llx misc=0x%x cpu=%u broadcast=%s\n", (unsigned long long)QMCE_STATUS,
	       (unsigned long long)QMCE_MCG, (unsigned long long)qmce.addr, QMCE_MISC,
	       smp_cpu(cpu)->apic_id, bcast ? "yes" : "no");
	qmce.end_us = smp_now_us() + QMCE_WAIT_US;
}

bool soak_fault_copy_again(unsigned int idx, int ret)
{
	if (soak.opts.fault.kind != SOAK_KNOB_MCE || idx || qmce.state != QMCE_ASKED)
		return false;
	qmce.copies++;
	qmce.came = mce_count() != qmce.seq;
	if (!ret && !qmce.came && smp_now_us() < qmce.end_us) {
		this_cpu_ptr(&soak_cpu)->beat++;
		return true;
	}
	qmce.state = QMCE_OVER;
	fbcon_pause(false);
	return false;
}

static bool mce_end(void)
{
	const struct mce_record *r = qmce.came ? mce_get(qmce.seq) : NULL;
	char rip[64] = "?";

	if (qmce.state == QMCE_IDLE) {
		pr_err("soak: soak_fault=mce: the boot CPU copied nothing: no #MC asked for; the "
		       "soak fails\n");
		return false;
	}
	if (!qmce.came) {
		pr_err("soak: soak_fault=mce: no #MC came within 30 s of the request (is the runner "
		       "relaying mce-inject requests to QEMU's monitor?): the soak fails\n");
		return false;
	}
	if (r && soak.map.symbol)
		soak.map.symbol(r->rip, rip, sizeof(rip));
	printk("soak: soak_fault=mce: the #MC came during copy %u of the piece: %s on CPU %u at "
	       "RIP %s, %s, bank address 0x%llx\n", qmce.copies,
	       r && r->kind == MCE_KIND_REAL ? "a real #MC" : "not a real #MC", r ? r->cpu : 0,
	       rip,
	       r && r->recovered ? "recovered" : "not recovered",
	       r && r->worst >= 0 ? (unsigned long long)r->banks[r->worst].addr : 0ULL);
	return r && r->recovered;
}
