// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_probe.c - the soak's all-core probe (soak/speed.h says what it measures): before the
 * first pass, every soaking CPU streams over a window of its own memory (the start of its
 * first slice, on its own node), every CPU released into each stream at once behind a
 * barrier, so the limits are of the whole machine, measured in the same run as the passes
 * they are set against.
 *
 * Short by construction: on hardware each stream repeats its window until PROBE_HW_NS has
 * passed (at most PROBE_HW_REPEATS windows), so the probe takes a few tenths of a second at
 * most; under a hypervisor (CPUID) it streams PROBE_HV_WINDOW once (rep movsb a sixteenth of
 * it: TCG runs it a byte at a time) and is bounded in bytes, not time, so an emulator's soak
 * is not held up by it.
 *
 * Safety: the window is memory the soak is about to write anyway (its first element writes
 * before it reads), with no page out of the soak in it. The write comes first and writes
 * whole lines with non-temporal stores (no read); every load after it is machine-check safe:
 * the read is the soak's own read kernel (copy/march.asm, each word checked against the
 * zeros the write left), the copies copy_mc_*. A read that meets a wrong word or poison
 * stops that CPU's probe and says where (the soak's passes then read that memory). A barrier a CPU waits at
 * for PROBE_WAIT_US in vain lets it skip the stream: the line says how many CPUs counted.
 */
#include "copy/march.h"
#include "copy/routines.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/tsc.h"
#include "soak/run_int.h"

#define PROBE_HW_WINDOW		(64ULL << 20)
#define PROBE_HV_WINDOW		(8ULL << 20)
#define PROBE_MIN_WINDOW	(256ULL << 10)
#define PROBE_HW_NS		(40ULL * 1000 * 1000)
#define PROBE_HW_REPEATS	16
#define PROBE_HV_MOVSB_DIV	16	/* under a hypervisor, rep movsb copies window / 16 */
#define PROBE_WAIT_US		2000000ULL
/* How long the boot CPU waits for a CPU's probe to end (an emulator's CPUs may crawl). */
#define PROBE_DONE_MS		60000

enum { PS_NT_WRITE, PS_READ, PS_COPY_NT, PS_COPY_MOVSB, NR_PS };

static struct {
	volatile u32 arrived[NR_PS];
	volatile u32 nr;		/* CPUs that took the probe */
	bool hv, nt;
	u64 window[SOAK_MAX_CPUS];	/* 0: this CPU does not probe */
	u64 base[SOAK_MAX_CPUS];
	u64 bad[SOAK_MAX_CPUS];		/* where a read stopped (bad_stream: which, + 1) */
	u8 bad_stream[SOAK_MAX_CPUS];
	struct { u64 bytes, ns; } st[SOAK_MAX_CPUS][NR_PS];
} pr;

static bool page_clean(u64 pa)
{
	struct page *p = pfn_to_page(pa >> PAGE_SHIFT);

	return !p || !(__atomic_load_n(&p->flags, __ATOMIC_ACQUIRE) & (PG_HWPOISON | PG_RETIRED));
}

/* The first run of up to @want bytes of CPU @idx's first slice with every page in the soak. */
static void find_window(unsigned int idx, u64 want)
{
	struct soak_slice s;
	u64 run = 0, at;

	if (!soak_plan_slice(&soak.plan, idx, 0, &s))
		return;
	for (at = s.base; at < s.base + s.size && run < want; at += PAGE_SIZE) {
		if (page_clean(at)) {
			run += PAGE_SIZE;
			continue;
		}
		run = 0;
	}
	run &= ~(PROBE_MIN_WINDOW - 1);
	if (run < PROBE_MIN_WINDOW)
		return;
	pr.base[idx] = at - run;
	pr.window[idx] = run;
}

/* One go over the window; the traffic it moved. */
/*
 * One go over the window; the traffic it moved, 0 when a read met a wrong word or poison
 * (machine-check safe: the stream stops there, and *@bad says where).
 */
static u64 stream_once(int s, u8 *w, u64 len, u64 *bad)
{
	static const struct soak_mv zeros = { { SOAK_GEN_CONST, 0, 0, 0 }, { 0 }, SOAK_MV_READ };
	struct soak_word_miss m;
	size_t left;

	switch (s) {
	case PS_NT_WRITE:
		clear_pages_nt(w, len >> PAGE_SHIFT);
		return len;
	case PS_READ:
		/* the soak's read kernel over the zeros the write left: each word loaded once */
		if (soak_march_mc(w, len, &zeros, &m) == SOAK_OK)
			return len;
		*bad = (u64)(uintptr_t)w + m.offset;
		return 0;
	case PS_COPY_NT:
		left = copy_mc_avx2_nt(w + len / 2, w, len / 2);
		break;
	default:
		left = copy_mc_fast_string(w + len / 2, w, len / 2);
		break;
	}
	if (!left)
		return len;
	*bad = (u64)(uintptr_t)w + len / 2 - left;
	return 0;
}

/* Every CPU here (or the wait over): true when this CPU is to stream. */
static bool meet(int s)
{
	u64 end = smp_now_us() + PROBE_WAIT_US;

	__atomic_add_fetch(&pr.arrived[s], 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&pr.arrived[s], __ATOMIC_ACQUIRE) < pr.nr)
		if (smp_now_us() > end)
			return false;
		else
			cpu_relax();
	return true;
}

static void probe_cpu(unsigned int idx)
{
	u8 *w = (u8 *)(uintptr_t)pr.base[idx];
	u64 len = pr.window[idx];

	for (int s = 0; s < NR_PS; s++) {
		u64 t0, ns, bytes = 0, l = len;
		unsigned int n = 0;

		/* an emulator's rep movsb goes byte by byte (TCG: tens of MB/s): a sixteenth */
		if (pr.hv && s == PS_COPY_MOVSB)
			l = MAX(len / PROBE_HV_MOVSB_DIV & ~(PAGE_SIZE - 1), 2 * PAGE_SIZE);
		wbinvd();
		if (!meet(s) || !len || (s == PS_COPY_NT && !pr.nt))
			continue;
		t0 = tsc_to_ns(rdtsc());
		do {
			u64 b = stream_once(s, w, l, &pr.bad[idx]);

			if (!b) {
				pr.bad_stream[idx] = s + 1;
				return;		/* bad memory: no more streams here */
			}
			bytes += b;
			ns = tsc_to_ns(rdtsc()) - t0;
		} while (!pr.hv && ++n < PROBE_HW_REPEATS && ns < PROBE_HW_NS);
		pr.st[idx][s].bytes = bytes;
		pr.st[idx][s].ns = ns ? ns : 1;
	}
}

static void ap_probe(void *arg)
{
	probe_cpu((unsigned int)(uintptr_t)arg);
}

/* The streams folded: the copy is the better of the two. */
static void fold(struct soak_probe *p)
{
	struct soak_probe nt = { 0 }, movsb = { 0 };

	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		soak_probe_add(p, SOAK_PROBE_NT_WRITE, pr.st[i][PS_NT_WRITE].bytes,
			       pr.st[i][PS_NT_WRITE].ns);
		soak_probe_add(p, SOAK_PROBE_READ, pr.st[i][PS_READ].bytes, pr.st[i][PS_READ].ns);
		soak_probe_add(&nt, SOAK_PROBE_COPY, pr.st[i][PS_COPY_NT].bytes,
			       pr.st[i][PS_COPY_NT].ns);
		soak_probe_add(&movsb, SOAK_PROBE_COPY, pr.st[i][PS_COPY_MOVSB].bytes,
			       pr.st[i][PS_COPY_MOVSB].ns);
		p->window = MAX(p->window, pr.window[i]);
	}
	if (nt.mbps[SOAK_PROBE_COPY] > movsb.mbps[SOAK_PROBE_COPY]) {
		movsb = nt;
		p->copy = "copy_mc_avx2_nt";
	} else {
		p->copy = "copy_mc_fast_string (rep movsb)";
	}
	p->mbps[SOAK_PROBE_COPY] = movsb.mbps[SOAK_PROBE_COPY];
	p->bytes[SOAK_PROBE_COPY] = movsb.bytes[SOAK_PROBE_COPY];
	p->cpus[SOAK_PROBE_COPY] = movsb.cpus[SOAK_PROBE_COPY];
}

void soak_probe_run(struct soak_probe *p)
{
	unsigned int started = 1;
	u64 t0 = tsc_to_ns(rdtsc());

	*p = (struct soak_probe){ .nr_cpus = soak.nr_cpus, .hypervisor = cpu()->hypervisor };
	pr.hv = p->hypervisor;
	pr.nt = soak.copy_mask & (1u << SOAK_COPY_NT);
	pr.nr = soak.nr_cpus;
	for (unsigned int i = 0; i < soak.nr_cpus; i++)
		find_window(i, pr.hv ? PROBE_HV_WINDOW : PROBE_HW_WINDOW);
	for (unsigned int i = 1; i < soak.nr_cpus; i++) {
		if (!on_cpu_async(soak.cpu_of[i], ap_probe, (void *)(uintptr_t)i)) {
			started++;
			continue;
		}
		__atomic_sub_fetch(&pr.nr, 1, __ATOMIC_ACQ_REL);	/* nobody waits for it */
		printk("soak: probe: CPU %u would not take the probe\n", soak.cpu_of[i]);
	}
	probe_cpu(0);
	for (unsigned int i = 1; i < soak.nr_cpus; i++)
		if (on_cpu_wait(soak.cpu_of[i], PROBE_DONE_MS))
			printk("soak: probe: CPU %u has not finished its probe after %u s\n",
			       soak.cpu_of[i], PROBE_DONE_MS / 1000);
	fold(p);
	p->took_ns = tsc_to_ns(rdtsc()) - t0;
	for (unsigned int i = 0; i < soak.nr_cpus; i++)
		if (pr.bad_stream[i])
			printk("soak: probe: CPU %u's read stopped at 0x%llx (a wrong word or poison, "
			       "in its %s stream): it probed no further; the soak's passes will "
			       "read that memory\n", soak.cpu_of[i], (unsigned long long)pr.bad[i],
			       pr.bad_stream[i] == PS_READ + 1 ? "read" : "copy");
}
