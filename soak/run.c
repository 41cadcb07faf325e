// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - the soak in the image (soak.h): take the free memory, plan who soaks what, start
 * every online CPU on its slices (the boot CPU too, between its monitor duties), poll every
 * CPU's banks once more when the last one is done, then fold the CPUs' ledgers, judge them
 * and print the results.
 */
#include "copy/pages.h"
#include "kernel/arch/bootmem.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/ksyms.h"
#include "kernel/lib/string.h"
#include "kernel/mm/page.h"
#include "kernel/platform/numa.h"
#include "kernel/platform/smp.h"
#include "mce/dimm_report.h"
#include "mce/mce.h"
#include "soak/handover.h"
#include "soak/report.h"
#include "soak/run_int.h"

/* What the soak took, kept for its report. */
static struct {
	struct bootmem_range free[2 * SOAK_MAX_RANGES];
	struct soak_range ranges[SOAK_MAX_RANGES];
	u8 cpu_node[SOAK_MAX_CPUS];
	u64 kept, left;
	unsigned int nr_free;
	struct soak_handover h;
} took;

static void rip_symbol(u64 rip, char *buf, size_t size)
{
	ksym_format(rip, buf, size);
}

/* The options with their defaults; false (said) when they cannot make a plan. */
static bool take_opts(const struct soak_opts *o)
{
	u32 mib = o->chunk_mib ? o->chunk_mib : (u32)(SOAK_CHUNK_DEFAULT >> 20);

	soak.opts = *o;
	if (mib & (mib - 1)) {
		while (mib & (mib - 1))
			mib &= mib - 1;
		pr_warn("soak: soak_chunk=%u is not a power of two: using %u MiB\n", o->chunk_mib,
			mib);
	}
	soak.opts.chunk_mib = mib;
	soak.opts.progress_s = o->progress_s ? o->progress_s : SOAK_PROGRESS_DEFAULT_S;
	soak.opts.watchdog_s = o->watchdog_s ? o->watchdog_s : SOAK_WATCHDOG_DEFAULT_S;
	soak.opts.poll_ms = o->poll_ms ? o->poll_ms : SOAK_POLL_DEFAULT_MS;
	soak.opts.fade_s = o->fade_s ? o->fade_s : SOAK_FADE_DEFAULT_S;
	soak.fade_us = (u64)soak.opts.fade_s * 1000000;
	soak.passes = o->limit.kind == SOAK_LIMIT_PASSES ? o->limit.passes : 0;
	return true;
}

/* All free memory but the reserve, by node, and the online CPUs: the plan. */
static bool make_plan(void)
{
	const struct numa_info *nu = numa();
	struct soak_plan_in in = { 0 };
	const char *why;

	took.nr_free = bootmem_take_all(took.free, ARRAY_SIZE(took.free), SOAK_RESERVE,
					&took.kept, &took.left);
	soak_ranges_by_node(took.free, took.nr_free, nu, took.ranges, SOAK_MAX_RANGES, &took.h);
	for (unsigned int c = 0; c < smp_nr_cpus() && soak.nr_cpus < SOAK_MAX_CPUS; c++) {
		if (!cpu_online(c))
			continue;
		took.cpu_node[soak.nr_cpus] = (u8)smp_cpu_node(c);
		soak.cpu_of[soak.nr_cpus++] = (u16)c;
	}
	in.ranges = took.ranges;
	in.nr_ranges = took.h.nr;
	in.cpu_node = took.cpu_node;
	in.nr_cpus = soak.nr_cpus;
	in.nr_nodes = nu && nu->nr_nodes ? nu->nr_nodes : 1;
	in.distance = nu && nu->have_slit ? nu->distance : NULL;
	in.chunk_bytes = (u64)soak.opts.chunk_mib << 20;
	if (soak_plan_make(&in, &soak.plan, &why)) {
		pr_err("soak: no plan: %s\n", why);
		return false;
	}
	return true;
}

static void print_plan(void)
{
	const struct soak_plan *p = &soak.plan;
	char line[160], lim[32];

	soak_limit_text(&soak.opts.limit, lim, sizeof(lim));
	printk("soak: soak=%s on %u CPUs, %llu MiB chunks; %llu MiB kept back for the run "
	       "(bootmem_take_all reserve %llu MiB); banks polled every %u ms\n", lim,
	       soak.nr_cpus, (unsigned long long)p->chunk_bytes >> 20,
	       (unsigned long long)took.kept >> 20, (unsigned long long)SOAK_RESERVE >> 20,
	       soak.opts.poll_ms);
	printk("soak: passes: %s (%u elements) first, then %s, %s, %s and %s (soak_fade=%u s) "
	       "over and over; a barrier between two elements\n", soak_schedule[0].name,
	       soak_schedule[0].nr_el, soak_schedule[1].name, soak_schedule[2].name,
	       soak_schedule[3].name, soak_schedule[4].name, soak.opts.fade_s);
	printk("soak: copies rotate through %s\n", soak.copy_mask & (1u << SOAK_COPY_NT) ?
	       "copy_mc_highpages, copy_mc_highpage, folio_mc_copy batched and per page, and "
	       "copy_mc_avx2_nt (AVX2 non-temporal)" :
	       "copy_mc_highpages, copy_mc_highpage, folio_mc_copy batched and per page "
	       "(no AVX2: no non-temporal copy)");
	printk("soak: free memory to soak: %llu pages (%llu bytes) in %u ranges; covered by the "
	       "plan: %llu pages (%llu bytes)\n", (unsigned long long)p->free_pages,
	       (unsigned long long)p->free_bytes, p->nr_ranges,
	       (unsigned long long)p->covered_pages, (unsigned long long)p->covered_bytes);
	if (took.left || took.h.dropped_bytes)
		printk("soak: %llu bytes in ranges past the soak's %u not soaked\n",
		       (unsigned long long)(took.left + took.h.dropped_bytes), SOAK_MAX_RANGES);
	if (took.h.no_node_bytes)
		printk("soak: %llu bytes in no SRAT range: soaked as node 0's\n",
		       (unsigned long long)took.h.no_node_bytes);
	for (unsigned int n = 0; n < p->nr_nodes; n++)
		printk("soak: node %u: %llu pages, %u CPUs\n", n,
		       (unsigned long long)p->node[n].pages, p->node[n].nr_cpus);
	for (unsigned int i = 0; i < p->nr_notes; i++) {
		soak_plan_note_text(p, i, line, sizeof(line));
		printk("soak: %s\n", line);
	}
}

/*
 * Pages of the plan already on the poison list (PG_HWPOISON) as the soak begins: never
 * touched (a poisoned page must not be), so their CPU falls short and the soak fails; said
 * now, by page, from the frames themselves (the list's log may have been cleared by a test).
 */
static void note_poisoned(void)
{
	const struct soak_plan *p = &soak.plan;

	for (unsigned int i = 0; i < p->nr_ranges; i++)
		for (u64 pa = p->range[i].base; pa < p->range[i].base + p->range[i].size;
		     pa += PAGE_SIZE) {
			struct page *pg = pfn_to_page(pa >> PAGE_SHIFT);

			if (!pg || !page_hwpoison(pg))
				continue;
			if (soak.nr_out_before < SOAK_OUT_KEPT) {
				soak.out_before[soak.nr_out_before] = pa;
				printk("soak: page 0x%llx is on the poison list from before the soak: "
				       "it is never touched, so its CPU falls short of its pages and "
				       "the soak fails\n", (unsigned long long)pa);
			}
			soak.nr_out_before++;
		}
	if (soak.nr_out_before > SOAK_OUT_KEPT)
		printk("soak: and %llu more pages of the plan on the poison list\n",
		       (unsigned long long)(soak.nr_out_before - SOAK_OUT_KEPT));
}

/* A knob this soak cannot do fails it: a test that asked for a fault must not pass without. */
static bool knob_doable(void)
{
	const struct soak_fault_opt *f = &soak.opts.fault;
	const char *why;

	if (f->kind == SOAK_KNOB_MCE && !mce_can_recover()) {
		pr_err("soak: soak_fault=mce cannot be done here: this CPU cannot recover from "
		       "poison (no MCA, or no SER_P / SUCCOR); the soak does not run\n");
		return false;
	}
	if (f->kind == SOAK_KNOB_EMULATE) {
		why = soak_fault_emulate_setup();
		if (why)
			pr_err("soak: soak_fault=emulate cannot be done here: %s; the soak does not "
			       "run\n", why);
		return !why;
	}
	if (f->kind != SOAK_KNOB_STUCK)
		return true;
	for (unsigned int i = 1; i < soak.nr_cpus; i++)
		if (soak.cpu_of[i] == f->cpu)
			return true;
	pr_err("soak: soak_fault=stuck:%u names no soaking CPU (%u soak, CPU 0 is the monitor): "
	       "the soak does not run\n", f->cpu, soak.nr_cpus);
	return false;
}

/* The all-core probe before the first pass (run_probe.c), its line and record. */
static void probe(void)
{
	static char line[512];

	soak_probe_run(&soak.probe);
	soak_probe_text(&soak.probe, line, sizeof(line));
	printk("%s\n", line);
	soak_probe_json(&soak.probe, line, sizeof(line));
	printk("%s\n", line);
}

static void ap_work(void *arg)
{
	soak_work((unsigned int)(uintptr_t)arg, NULL);
}

static void ap_poll(void *arg)
{
	(void)arg;
	soak_poll_now(this_cpu_ptr(&soak_cpu));
}

/*
 * Every CPU's banks once more after the last CPU's last piece: an error latched on a CPU
 * after its own last poll, while the others still soaked, is the soak's too. Counted once:
 * a poll clears what it logs.
 */
static void poll_all_once_more(void)
{
	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		if (soak_is_stuck(i))
			continue;
		if (!i)
			soak_poll_now(this_cpu_ptr(&soak_cpu));
		else if (on_cpu(soak.cpu_of[i], ap_poll, NULL, SMP_DEFAULT_TIMEOUT_MS))
			pr_err("soak: CPU %u did not poll its banks a last time: an error it "
			       "latched after its own last poll is not counted\n", soak.cpu_of[i]);
	}
}

/* The boot CPU between its pieces and after them: watch the others, then the black box. */
static void boot_tick(void)
{
	soak_monitor_tick();
	soak_checkpoint_tick();
}

/* Every CPU's passes; the boot CPU watches the others between its pieces and after them. */
static void run_cpus(void)
{
	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		struct soak_cpu *sc = soak_cpu_of(i);

		memset(sc, 0, sizeof(*sc));
		sc->idx = i;
		soak_ledger_init(&sc->ledger, sc->ev, SOAK_LEDGER_CAP, &soak.map);
	}
	soak.seed = rdtsc();
	soak.prog = (struct soak_prog){ &soak.plan, soak.seed, soak.copy_mask };
	soak.t0_us = smp_now_us();
	if (soak.opts.limit.kind == SOAK_LIMIT_TIME)
		soak.deadline_us = soak.t0_us + soak.opts.limit.seconds * 1000000;
	soak_monitor_begin();
	for (unsigned int i = 1; i < soak.nr_cpus; i++)
		if (on_cpu_async(soak.cpu_of[i], ap_work, (void *)(uintptr_t)i))
			pr_err("soak: CPU %u would not take its work\n", soak.cpu_of[i]);
	soak_work(0, boot_tick);
	soak_monitor_finish(boot_tick);
	for (unsigned int i = 1; i < soak.nr_cpus; i++)
		if (!soak_is_stuck(i))
			on_cpu_wait(soak.cpu_of[i], SMP_DEFAULT_TIMEOUT_MS);
	poll_all_once_more();
}

bool soak_run(const struct soak_opts *o, const struct smbios_dimms *dimms)
{
	bool page_batched = page_api_cfg.preemptible, ok;

	if (o->limit.kind == SOAK_LIMIT_OFF)
		return true;
	if (!take_opts(o) || !make_plan() || !knob_doable())
		return false;
	soak.map = (struct soak_where_map){ .plan = &soak.plan, .numa = numa(), .dimms = dimms,
					    .symbol = rip_symbol, .dimm_label = mce_dimm_label };
	/* The non-temporal copy joins the rotation where the CPUs have it (AVX2). */
	soak.copy_mask = SOAK_COPY_ALL & ~(o->nt_copy ? 0 : 1u << SOAK_COPY_NT);
	print_plan();
	note_poisoned();
	probe();
	/* copy_mc_highpages as the v3 patch with a preemptible kernel: one batched copy. */
	page_api_cfg.preemptible = true;
	run_cpus();
	ok = soak_fault_end();
	page_api_cfg.preemptible = page_batched;
	ok = soak_report(ok);
	return ok;
}
