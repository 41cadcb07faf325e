// SPDX-License-Identifier: GPL-2.0-only
/*
 * image.c - the image's side of the benchmarks: the TSC clock, buffers from the memory
 * map (2 MiB aligned for large cases, 1 GiB for 1 GiB ones), an eviction buffer three times
 * the largest cache CPUID describes (128 MiB when it describes none), output on the console,
 * interrupts off throughout (the image never enables them).
 * Buffers are placed on NUMA nodes from the SRAT (kernel/platform/numa.c); without one, one node.
 * On bare metal the noise counters (bench/noise.h) are read around every timing: Intel's
 * MSR_SMI_COUNT and APERF/MPERF (CPUID.6:ECX[0]), each through rdmsr_safe so a missing MSR
 * is found at start, not by a fault mid-run; under a hypervisor they are not read.
 */
#include "bench/image.h"
#include "bench/presets.h"
#include "copy/pages.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/fpu.h"
#include "kernel/arch/mtrr.h"
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/numa.h"
#include "kernel/platform/secureboot.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"

static u8 *evict_buf;
static u64 evict_bytes;

static u64 now_ns(void)
{
	return tsc_to_ns(rdtsc_ordered());
}

static u64 cycles(void)
{
	return rdtsc_ordered();
}

static void evict(void *ctx)
{
	(void)ctx;
	bench_evict_lines(evict_buf, evict_bytes);
}

static void flush(const void *addr, u64 bytes)
{
	bench_flush_lines(addr, bytes, cpu()->clflushopt);
}

static unsigned int noise_have;

/* The noise counters; one that fails to read (it should not: probed at start) reads 0. */
static void noise_read(struct noise_snap *s)
{
	u64 v;

	s->tsc = rdtsc_ordered();
	s->aperf = s->mperf = s->smi = 0;
	if ((noise_have & NOISE_APERF) && !rdmsr_safe(MSR_IA32_MPERF, &v))
		s->mperf = v;
	if ((noise_have & NOISE_APERF) && !rdmsr_safe(MSR_IA32_APERF, &v))
		s->aperf = v;
	if ((noise_have & NOISE_SMI) && !rdmsr_safe(MSR_SMI_COUNT, &v))
		s->smi = v;
}

/*
 * Which noise counters this machine has, and when none, why (for the output and JSON).
 * Under a hypervisor the MSRs are emulated or absent: their values would describe the
 * emulation, so they are not read at all.
 */
static const char *noise_probe(void)
{
	const struct cpu_ident *c = cpu();
	u64 v;

	noise_have = 0;
	if (c->hypervisor)
		return "under a hypervisor";
	if (c->vendor == VENDOR_INTEL && !rdmsr_safe(MSR_SMI_COUNT, &v))
		noise_have |= NOISE_SMI;
	if (cpu_has(X86_FEATURE_APERFMPERF) && !rdmsr_safe(MSR_IA32_MPERF, &v) &&
	    !rdmsr_safe(MSR_IA32_APERF, &v))
		noise_have |= NOISE_APERF;
	return noise_have ? NULL : "no MSR_SMI_COUNT and no APERF/MPERF";
}

/* Straight to the consoles: a result's JSON line is longer than printk's 512 bytes. */
static void out(const char *line)
{
	console_write(line, strlen(line));
	console_write("\n", 1);
}

static const char *cur_preset = "";

/*
 * The result for LAVA (docs/user/results.md), one line per figure ending in '>':
 *
 *   # ck-lava <bench.PRESET.API.PRIMITIVE.SRC-DST.SIZE.MODE pass MEDIAN MB/s>
 *
 * every component made an id component by ck_slug(); MEDIAN is the median in MB/s (10^6).
 */
static bool is_other_src(const struct bench_case *c)
{
	return c->src_pattern && (!strcmp(c->src_pattern, "zero") ||
				  !strcmp(c->src_pattern, "constant"));
}

static void lava_result(const struct bench_env *env, const struct bench_case *c,
			enum bench_mode m, const struct bench_result *r)
{
	char id[200], size[16], part[64], preset[48];
	size_t n = ck_snprintf(id, sizeof(id), "bench.");
	char prim[64];
	const char *parts[] = { preset, c->api, prim };

	/* A preset that runs cases twice (uarch) names the variant: "uarch-zen3". */
	ck_snprintf(preset, sizeof(preset), "%s%s%s", cur_preset, env->variant ? "-" : "",
		    env->variant ? env->variant : "");
	/* The patterns preset times one primitive from several sources: "memcpy_erms-zero". */
	ck_snprintf(prim, sizeof(prim), "%s%s%s", c->primitive, is_other_src(c) ? "-" : "",
		    is_other_src(c) ? c->src_pattern : "");

	for (unsigned int i = 0; i < ARRAY_SIZE(parts) && n + 2 < sizeof(id); i++) {
		ck_slug(part, sizeof(part), parts[i]);
		n += ck_snprintf(id + n, sizeof(id) - n, "%s.", part);
	}
	bench_fmt_size(c->bytes, size, sizeof(size));
	ck_slug(part, sizeof(part), size);
	if (n < sizeof(id))
		ck_snprintf(id + n, sizeof(id) - n, "%s-%s.%s.%s",
			    c->src_node ? c->src_node : "node0", c->dst_node ? c->dst_node : "node0",
			    part, m == BENCH_COLD ? "cold" : "hot");
	printk("# ck-lava <%s pass %llu MB/s>\n", id, (unsigned long long)r->mbps_median);
}

/* 1 GiB cases get 1 GiB-aligned buffers, 2 MiB and up 2 MiB-aligned: the page sizes in use. */
static u64 align_for(size_t bytes)
{
	return bytes >= SZ_1G ? SZ_1G : bytes >= SZ_2M ? SZ_2M : SZ_4K;
}

static unsigned int buffers_checked, buffers_not_wb;

/*
 * The effective memory type of a buffer: its MTRR type combined with its page attribute
 * (PAT). Benchmark figures mean "write-back memory"; a buffer that is not WB all through is
 * named, so a figure from a UC or WC range cannot pass unnoticed.
 */
static void *checked(u64 pa, size_t bytes)
{
	struct pg_leaf l;
	u8 mt;

	if (!pa)
		return NULL;
	buffers_checked++;
	mt = mtrr_range_type(mtrr_read(), pa, pa + bytes);
	if (!pg_lookup(pa, &l) || l.cache != PG_CACHE_WB || (mt != MTRR_WB && mt != MTRR_NONE)) {
		buffers_not_wb++;
		printk("bench: buffer 0x%llx..0x%llx is not write-back: MTRR %s, page type %s\n",
		       (unsigned long long)pa, (unsigned long long)(pa + bytes),
		       mtrr_type_name(mt), l.cache == PG_CACHE_WB ? "WB" : "not WB");
	}
	return (void *)(uintptr_t)pa;
}

void *bench_image_alloc(size_t bytes)
{
	return checked(bootmem_alloc(bytes, align_for(bytes)), bytes);
}

void *bench_image_alloc_node(size_t bytes, unsigned int node)
{
	const struct numa_info *n = numa();
	u64 align = align_for(bytes);

	for (unsigned int i = 0; i < n->nr_ranges; i++) {
		u64 pa;

		if (n->range[i].node != node)
			continue;
		pa = bootmem_alloc_in(bytes, align, n->range[i].start, n->range[i].end);
		if (pa)
			return checked(pa, bytes);
	}
	return NULL;
}

static bool folio(void *addr, unsigned long nr, struct folio *f)
{
	f->page = pfn_to_page((u64)(uintptr_t)addr >> PAGE_SHIFT);
	f->nr = nr;
	return f->page != NULL;
}

/* The first online CPU of @node (the calling CPU when it is on it), -1 for none. */
static int node_cpu(unsigned int node)
{
	if (smp_cpu_node(smp_processor_id()) == (int)node)
		return (int)smp_processor_id();
	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		if (cpu_online(c) && smp_cpu_node(c) == (int)node)
			return (int)c;
	return -1;
}

static void run_on(int cpu, void (*fn)(void *arg), void *arg)
{
	/* An hour bounds a row; a fault there reports on its own CPU. */
	if (on_cpu((unsigned int)cpu, fn, arg, 3600U * 1000))
		printk("bench: CPU %d did not run its row within an hour\n", cpu);
}

/* A node the SRAT names whose ranges hold no RAM of the memory map has none. */
static bool node_has_memory(unsigned int node)
{
	const struct numa_info *n = numa();

	for (unsigned int i = 0; i < n->nr_ranges; i++)
		if (n->range[i].node == node)
			return true;
	return false;
}

void bench_image_env(struct bench_env *env, struct bench_platform *plat,
		     const struct dispatch_caps *caps)
{
	*env = (struct bench_env){ .now_ns = now_ns, .cycles = cycles, .evict = evict,
				   .out = out, .machine = cpu()->vendor_str, .flush = flush,
				   .cycles_per_us = tsc_info()->hz / 1000000 };
	*plat = (struct bench_platform){ .alloc = bench_image_alloc, .folio = folio,
					 .alloc_node = bench_image_alloc_node,
					 .node_has_memory = node_has_memory,
					 .nr_nodes = numa()->from_srat ? numa()->nr_nodes : 1,
					 .runs = BENCH_DEFAULT_RUNS, .dispatch_known = true,
					 .node_cpu = node_cpu, .run_on = run_on };
	/* Linux's rule inputs, as init/dispatch_cpu.h builds them (no fragile quirk). */
	plat->dispatch_in = (struct dispatch_cpu){ .rep_good = cpu()->rep_good,
						   .erms = cpu()->erms_effective,
						   .fsrm = cpu()->fsrm };
	plat->caps = *caps;
	plat->llc_bytes = cpu_llc_size();
	plat->llc_source = cpu_caches()->source;
}

/* The run's "machine" record: the CPU, its clock and the settings every figure used. */
static void machine_record(const struct bench_env *env, const struct bench_platform *plat)
{
	const struct cpu_ident *c = cpu();
	struct json_writer w;
	char line[700], feat[96];

	ck_snprintf(feat, sizeof(feat), "%s%s%s%s%s%s%s%s", c->erms_effective ? "erms," : "",
		    c->fsrm ? "fsrm," : "", c->rep_good ? "rep_good," : "", c->avx2 ? "avx2," : "",
		    c->avx512f ? "avx512f," : "", c->clflushopt ? "clflushopt," : "",
		    c->clzero ? "clzero," : "", c->invtsc ? "invariant_tsc" : "");
	json_record(&w, line, sizeof(line), "machine");
	json_str(&w, "machine", c->vendor_str);
	json_u64(&w, "family", c->family);
	json_u64(&w, "model", c->model);
	json_u64(&w, "stepping", c->stepping);
	json_u64(&w, "microcode", c->ucode_rev);
	json_str(&w, "features", feat);
	json_u64(&w, "tsc_hz", tsc_info()->hz);
	json_bool(&w, "invariant_tsc", tsc_info()->invariant);
	json_u64(&w, "nodes", plat->nr_nodes);
	json_str(&w, "page_sizes", pg_gbpages() ? "4K,2M,1G" : "4K,2M");
	json_u64(&w, "evict_bytes", evict_bytes);
	json_u64(&w, "runs", plat->runs);
	json_bool(&w, "hypervisor", c->hypervisor);
	json_str(&w, "cold_method", env->cold_flush ? "clflushopt" : "evict");
	sb_json(&w, "secure_boot", secure_boot());
	json_end(&w);
	out(line);
}

void bench_image_run(const struct bench_image_opts *opts)
{
	const struct cpu_ident *c = cpu();
	struct bench_env env;
	struct bench_platform plat;
	u64 free = bootmem_free_bytes();

	bench_image_env(&env, &plat, &opts->caps);
	env.cold_flush = opts->cold_flush;
	env.result = lava_result;
	if (opts->runs)
		plat.runs = opts->runs;
	plat.tiny = opts->tiny;
	env.noise_why = noise_probe();
	env.noise_have = noise_have;
	env.noise_read = noise_read;

	if (!tsc_info()->hz) {
		pr_err("bench: no TSC frequency: cannot time anything\n");
		return;
	}
	evict_bytes = plat.tiny ? 4ULL << 20 : cpu_llc_size() ?
		      (3 * cpu_llc_size() + SZ_2M - 1) & ~(u64)(SZ_2M - 1) : 128ULL << 20;
	evict_buf = bench_image_alloc(evict_bytes);
	if (!evict_buf) {
		pr_warn("bench: no room for a %llu MiB eviction buffer: cache-cold runs are warm\n",
			(unsigned long long)evict_bytes >> 20);
		env.evict = NULL;
	}
	/* Each case needs source and destination; leave a quarter of memory alone. */
	plat.max_bytes = free / 2 > evict_bytes ? (free - evict_bytes) / 3 : 0;
	machine_record(&env, &plat);
	printk("bench: %u NUMA node%s%s; %u rounds per case after %d warm-up runs, interrupts off; "
	       "cache-cold by %s%s\n", plat.nr_nodes, plat.nr_nodes == 1 ? "" : "s",
	       numa()->from_srat ? " from the SRAT" : " (no SRAT)", plat.runs, BENCH_WARMUP,
	       env.cold_flush ? (c->clflushopt ? "CLFLUSHOPT of source and destination" :
				 "CLFLUSH of source and destination (no CLFLUSHOPT)") :
	       "an eviction buffer", plat.tiny ? " (bench_tiny: test sizes)" : "");
	if (!env.cold_flush)
		printk("bench: eviction buffer %llu MiB (3 x the largest cache CPUID describes, "
		       "%llu KiB)\n", (unsigned long long)evict_bytes >> 20,
		       (unsigned long long)cpu_llc_size() >> 10);
	printk("bench: method: rounds alternating AB/BA, a sample = min of %d (hot) or %d (cold, "
	       "each after its own eviction) timings, hot cases repeated to >= %d us a timing; "
	       "ratio = median of per-round ratios, %d-resample bootstrap 95%% CI\n",
	       BENCH_K_HOT, BENCH_K_COLD, BENCH_MIN_SAMPLE_NS / 1000, BENCH_BOOT_ITERS);
	printk("bench: the CI is over this run's rounds on one placement of the buffers (P=1 in "
	       "every row: the image does not move a case's buffers): it does not hold the change "
	       "from one boot to the next\n");
	if (c->hypervisor)
		printk("bench: running under a hypervisor: figures describe the emulation, not "
		       "the hardware\n");
	if (noise_have)
		printk("bench: noise counters read around every timing: SMI count %s, "
		       "APERF/MPERF %s; a timing with an SMI, a clock %d%% off the case's "
		       "reference or a C-state disturbs its round\n",
		       noise_have & NOISE_SMI ? "yes (MSR 0x34)" : "no (not Intel or no MSR)",
		       noise_have & NOISE_APERF ? "yes" : "no", NOISE_FREQ_TOL_PM / 10);
	else
		printk("bench: SMI count and APERF/MPERF effective clock unavailable: %s\n",
		       env.noise_why);
	for (int p = 0; p < NR_PRESETS; p++) {
		if (opts->sel != BENCH_ALL && opts->sel != (enum bench_sel)(p + 1))
			continue;
		printk("\n== preset %s ==\n", bench_preset_names[p]);
		cur_preset = bench_preset_names[p];
		if (!bench_preset_run((enum bench_preset)p, &env, &plat))
			printk("bench: preset %s ran no case (memory?)\n", bench_preset_names[p]);
	}
	printk("bench: memory type: %u of %u buffers write-back in the MTRRs and the page tables"
	       "%s\n", buffers_checked - buffers_not_wb, buffers_checked,
	       buffers_not_wb ? " (the others are named above: their figures are not WB's)" : "");
}
