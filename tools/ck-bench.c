// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-bench.c - the hosted benchmark (make bench): the same copy/ objects and bench/ harness
 * as the image, in a Linux process.
 *
 *   ck-bench [--preset rfc|v3|clear|primitives|patterns|perf|big|uarch|parallel]...
 *            [--rounds N]
 *            [--json FILE] [--tiny] [--cold evict|flush] [--cpu N] [--memcpy erms|orig]
 *            [--copy-page rep|unrolled] [--copy-mc NAME] [--clear-page NAME]
 *
 * The dispatch overrides take the image's names (copy_page=, memcpy=, ...); the uarch
 * preset runs rfc as Linux resolves on Zen 3 (no FSRM) and on Zen 4/5 or Intel (FSRM).
 * The process pins itself to one CPU (the last one it may run on, or --cpu N) and says so;
 * an involuntary context switch during a round marks the round disturbed. Buffers come from
 * one arena (hugetlb pages when the system has them, else THP; 1 GiB aligned for 1 GiB
 * cases when the system has 1 GiB pages), given page frames so the folio APIs work; with
 * libnuma installed, also one arena per NUMA node. Cache-cold runs stream an eviction buffer
 * three times the largest cache CPUID describes for this core (leaf 4, or 8000001Dh on AMD;
 * 128 MiB when CPUID says nothing), or with --cold flush CLFLUSHOPT (CLFLUSH where CPUID
 * lacks it) the case's source and destination.
 * The "perf" preset runs the perf twin (tools/perf_twin.c): `perf bench mem` for memcpy
 * (movsb, unrolled) and memset (stosb) at 4 KiB, 2 MiB and 64 MiB, interleaved in
 * --perf-pairs rounds (15) with `ck-bench --perf-twin`, a fresh process timing the project's
 * routine perf's way, with perf's buffers and with aligned ones.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "bench/presets.h"
#include "copy/ops.h"
#include "copy/routines.h"
#include "kernel/dispatch_cpu.h"
#include "kernel/platform/cpufeat.h"
#include "tools/ck-bench-par.h"
#include "tools/perf_twin.h"

static FILE *json_out;
/* Buffers are bump-allocated from arenas, reset between presets. */
struct arena {
	u8 *base;
	size_t size, used;
};

static struct arena arena;
static u8 *evict_buf;
static size_t evict_size;
static char machine[160];
static char features[160];
static char microcode[32] = "null";

/* The microcode revision Linux reports ("microcode : 0x2b000603"), as a JSON string. */
static void read_microcode(void)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char rev[24];

		if (sscanf(line, "microcode : %23s", rev) == 1) {
			snprintf(microcode, sizeof(microcode), "\"%s\"", rev);
			break;
		}
	}
	if (f)
		fclose(f);
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static u64 cycles(void)
{
	return __rdtsc();
}

static void out(const char *line)
{
	if (line[0] == '{') {
		if (json_out)
			fprintf(json_out, "%s\n", line);
		return;		/* JSON goes to the file; tables to the terminal */
	}
	printf("%s\n", line);
}

static void evict(void *ctx)
{
	(void)ctx;
	bench_evict_lines(evict_buf, evict_size);
}

static bool has_clflushopt;	/* CPUID leaf 7 */

static void flush(const void *addr, u64 bytes)
{
	bench_flush_lines(addr, bytes, has_clflushopt);
}

/* Involuntary context switches of this thread: a round with one is disturbed. */
static u64 nivcsw(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (u64)ru.ru_nivcsw;
}

/*
 * The largest cache this core sees, from CPUID's deterministic cache parameters (leaf 4 on
 * Intel, 8000001Dh on AMD with TOPOEXT): ways x partitions x line size x sets. A hypervisor
 * may report the host socket's L3 through sysconf; CPUID is what the guest was given.
 */
static u64 cpuid_largest_cache(const char **source)
{
	unsigned int a, b, c, d, max, leaf = 4;
	u64 best = 0;

	__cpuid(0x80000000, max, b, c, d);
	if (max >= 0x8000001d) {
		__cpuid(0x80000001, a, b, c, d);
		if (c & (1u << 22))		/* TOPOEXT */
			leaf = 0x8000001d;
	}
	__cpuid(0, max, b, c, d);
	if (leaf == 4 && max < 4)
		return 0;
	for (unsigned int i = 0; i < 16; i++) {
		u64 size;

		__cpuid_count(leaf, i, a, b, c, d);
		if (!(a & 0x1f))
			break;
		size = (u64)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) *
		       ((u64)c + 1);
		best = MAX(best, size);
	}
	*source = leaf == 4 ? "CPUID leaf 4" : "CPUID 8000001Dh";
	return best;
}

/* Pin to @cpu, or (-1) the highest-numbered CPU this process may run on. */
static int pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0) {
		if (sched_getaffinity(0, sizeof(set), &set))
			return -1;
		for (int i = CPU_SETSIZE - 1; i >= 0; i--)
			if (CPU_ISSET(i, &set)) {
				cpu = i;
				break;
			}
	}
	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -1 : cpu;
}

static bool hypervisor(void)
{
	unsigned int a, b, c, d;

	__cpuid(1, a, b, c, d);
	return c & (1u << 31);
}

static bool have_1g_pages(void)
{
	unsigned int a, b, c, d, max;

	__cpuid(0x80000000, max, b, c, d);
	if (max < 0x80000001)
		return false;
	__cpuid(0x80000001, a, b, c, d);
	return d & (1u << 26);		/* PDPE1GB */
}

static void *map_big(size_t bytes, bool *huge)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	*huge = p != MAP_FAILED;
	if (p == MAP_FAILED) {
		/* No hugetlb pages: 2 MiB-aligned anonymous memory with THP. */
		u8 *q = mmap(NULL, bytes + (2 << 20), PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (q == MAP_FAILED)
			return NULL;
		p = (void *)(((uintptr_t)q + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
		madvise(p, bytes, MADV_HUGEPAGE);
	}
	memset(p, 0x5a, bytes);		/* fault everything in before timing */
	return p;
}

static bool gbpages;

/*
 * @bytes from @a, aligned to the page size a kernel would use: 1 GiB for 1 GiB and larger
 * when the CPU has 1 GiB pages, 2 MiB for 2 MiB and larger, else 4 KiB; NULL when full.
 */
static void *arena_take(struct arena *a, size_t bytes)
{
	size_t align = bytes >= (1u << 30) && gbpages ? (1u << 30) :
		       bytes >= (2 << 20) ? (2 << 20) : 4096;
	uintptr_t at = ((uintptr_t)a->base + a->used + align - 1) & ~(uintptr_t)(align - 1);
	size_t off = at - (uintptr_t)a->base;

	if (!a->base || off + bytes > a->size)
		return NULL;
	a->used = off + bytes;
	return a->base + off;
}

static void *arena_alloc(size_t bytes)
{
	return arena_take(&arena, bytes);
}

/*
 * NUMA placement through libnuma, loaded at run time so the build does not depend on it:
 * one arena per node (numa_alloc_onnode), each given page frames, bump-allocated per case.
 */
#define MAX_NODES	BENCH_MAX_NODES

static struct arena node_arena[MAX_NODES];
static unsigned int nr_nodes;

static void *alloc_on(size_t bytes, unsigned int node)
{
	return node < nr_nodes ? arena_take(&node_arena[node], bytes) : NULL;
}

static void numa_setup(size_t per_node)
{
	void *h = dlopen("libnuma.so.1", RTLD_NOW);
	int (*available)(void);
	int (*max_node)(void);
	void *(*alloc_onnode)(size_t, int);

	nr_nodes = 0;
	if (!h) {
		printf("# NUMA: libnuma.so.1 not installed (Debian: libnuma1): one node\n");
		return;
	}
	available = (int (*)(void))dlsym(h, "numa_available");
	max_node = (int (*)(void))dlsym(h, "numa_max_node");
	alloc_onnode = (void *(*)(size_t, int))dlsym(h, "numa_alloc_onnode");
	if (!available || !max_node || !alloc_onnode || available() < 0) {
		printf("# NUMA: libnuma reports no NUMA support: one node\n");
		return;
	}
	for (int n = 0; n <= max_node() && n < MAX_NODES; n++) {
		u8 *p = alloc_onnode(per_node, n);
		struct page *frames;

		if (!p)
			break;
		memset(p, 0x5a, per_node);	/* fault in on that node */
		frames = calloc(per_node >> PAGE_SHIFT, sizeof(*frames));
		if (!frames || pgmap_add((uintptr_t)p >> PAGE_SHIFT, per_node >> PAGE_SHIFT, frames,
					 (u16)n))
			break;
		node_arena[n].base = p;
		node_arena[n].size = per_node;
		nr_nodes++;
	}
	printf("# NUMA: libnuma found %u node%s%s\n", nr_nodes, nr_nodes == 1 ? "" : "s",
	       nr_nodes > 1 ? ": the rfc preset runs every node pair" : "");
}

static bool make_folio(void *addr, unsigned long nr, struct folio *f)
{
	f->page = pfn_to_page((uintptr_t)addr >> PAGE_SHIFT);
	f->nr = nr;
	return f->page != NULL;
}

/* Linux's inputs and choice on this CPU, and the choice in effect (after any override). */
static struct dispatch_cpu host_in;
static struct copy_dispatch host_dd;

static void host_dispatch(struct dispatch_caps *caps)
{
	unsigned int a, b, c, d, max;
	struct cpu_ident id;
	struct dispatch_cpu in;
	struct copy_dispatch dd;
	char vendor[13];

	memset(&id, 0, sizeof(id));
	__cpuid(0, max, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	id.vendor = cpuid_vendor(vendor);
	__cpuid(1, a, b, c, d);
	id.signature = a;
	cpuid_decode_signature(a, &id.family, &id.model, &id.stepping);
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		id.erms = b & (1u << 9);
		id.fsrm = d & (1u << 4);
	}
	cpufeat_apply_rules(&id);	/* IA32_MISC_ENABLE is not readable from here */
	dispatch_cpu_from_ident(&id, false, &in);
	dispatch_decide(&in, &dd);
	copy_ops_apply(&dd);
	host_in = in;
	host_dd = dd;
	__builtin_cpu_init();
	caps->avx2 = __builtin_cpu_supports("avx2");
	caps->avx512f = __builtin_cpu_supports("avx512f");
	__cpuid(0x80000000, max, b, c, d);
	caps->clzero = false;
	if (max >= 0x80000008) {
		__cpuid(0x80000008, a, b, c, d);
		caps->clzero = b & 1;
	}
	snprintf(machine, sizeof(machine), "hosted %s family 0x%x model 0x%x", vendor,
		 id.family, id.model);
	snprintf(features, sizeof(features), "%s%s%s%s%s%s", id.erms ? "erms," : "",
		 id.fsrm ? "fsrm," : "", id.rep_good ? "rep_good," : "",
		 caps->avx2 ? "avx2," : "", caps->avx512f ? "avx512f," : "",
		 caps->clzero ? "clzero" : "");
	printf("# %s: ERMS %s FSRM %s REP_GOOD %s; AVX2 %s AVX-512F %s CLZERO %s\n", machine,
	       id.erms ? "yes" : "no", id.fsrm ? "yes" : "no", id.rep_good ? "yes" : "no",
	       caps->avx2 ? "yes" : "no", caps->avx512f ? "yes" : "no",
	       caps->clzero ? "yes" : "no");
	printf("# dispatch: copy_page=%s memcpy=%s copy_mc=%s clear_page=%s\n",
	       copy_page_impl_names[dd.copy_page], memcpy_impl_names[dd.memcpy],
	       copy_mc_impl_names[dd.copy_mc], clear_page_impl_names[dd.clear_page]);
}

/* ---- dispatch overrides, as the image's copy_page=, memcpy=, copy_mc=, clear_page= ---- */

static int find_name(const char *const *names, int n, const char *want)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], want))
			return i;
	return -1;
}

struct overrides {
	int copy_page, memcpy, copy_mc, clear_page;	/* -1: Linux's choice */
};

/* Apply @o over Linux's choice; false (and a message) when the CPU cannot run one. */
static bool apply_overrides(const struct overrides *o, const struct dispatch_caps *caps)
{
	struct copy_dispatch dd = host_dd;
	const char *why;

	if (o->copy_page >= 0)
		dd.copy_page = (enum copy_page_impl)o->copy_page;
	if (o->memcpy >= 0)
		dd.memcpy = (enum memcpy_impl)o->memcpy;
	if (o->copy_mc >= 0) {
		dd.copy_mc = (enum copy_mc_impl)o->copy_mc;
		why = copy_mc_cannot_run(dd.copy_mc, caps);
		if (why) {
			fprintf(stderr, "ck-bench: --copy-mc %s: %s\n",
				copy_mc_impl_names[dd.copy_mc], why);
			return false;
		}
	}
	if (o->clear_page >= 0) {
		dd.clear_page = (enum clear_page_impl)o->clear_page;
		why = clear_page_cannot_run(dd.clear_page, caps);
		if (why) {
			fprintf(stderr, "ck-bench: --clear-page %s: %s\n",
				clear_page_impl_names[dd.clear_page], why);
			return false;
		}
	}
	if (o->copy_page >= 0 || o->memcpy >= 0 || o->copy_mc >= 0 || o->clear_page >= 0)
		printf("# dispatch overridden: copy_page=%s memcpy=%s copy_mc=%s clear_page=%s\n",
		       copy_page_impl_names[dd.copy_page], memcpy_impl_names[dd.memcpy],
		       copy_mc_impl_names[dd.copy_mc], clear_page_impl_names[dd.clear_page]);
	copy_ops_apply(&dd);
	host_dd = dd;
	return true;
}

/* uarch: rfc as Linux resolves on Zen 3 and with FSRM (bench/presets.c), on one arena. */
static void preset_uarch(struct bench_env *env, const struct bench_platform *p)
{
	arena.used = 0;
	bench_preset_run(PRESET_UARCH, env, p);
}

/* ---- the perf comparison: the perf twin (tools/perf_twin.c) ---- */

static unsigned int perf_pairs = 15;
static int pinned_cpu = -1;

/* The rfc preset's rows from a CPU of the source node: move there, run, move back. */
static void run_on(int cpu, void (*fn)(void *arg), void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		printf("# could not move to CPU %d: row runs on CPU %d\n", cpu, pinned_cpu);
	fn(arg);
	if (pinned_cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(pinned_cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
}

static void preset_perf(void)
{
	perf_twin_compare(NULL, perf_pairs, pinned_cpu, machine, json_out);
}

/*
 * big: the bandwidth probe (once per run: primitives may have run it already) and rep movsb
 * against the best non-temporal copy at 1 GiB, cache-cold, as % of it (bench/presets.c).
 */
static void preset_big(struct bench_env *env, const struct bench_platform *p)
{
	bench_preset_run(PRESET_BIG, env, p);
}

int main(int argc, char **argv)
{
	struct bench_env env = { .now_ns = now_ns, .cycles = cycles, .evict = evict,
				 .out = out, .machine = machine, .flush = flush,
				 .disturbances = nivcsw };
	struct bench_platform plat = { .alloc = arena_alloc, .folio = make_folio,
				       .runs = BENCH_DEFAULT_RUNS, .max_bytes = 64ULL << 20 };
	const char *presets[8];
	int np = 0;
	bool huge;
	long llc;
	u64 t0, c0, cache;
	const char *cache_src = "sysconf";
	int want_cpu = -1, cpu;
	struct overrides ov = { -1, -1, -1, -1 };
	unsigned int a, b, c, d;

	/* One twin run, a fresh process as perf's: none of the setup below. */
	if (argc > 1 && !strcmp(argv[1], "--perf-twin"))
		return perf_twin_main(argc, argv);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--preset") && i + 1 < argc && np < 8)
			presets[np++] = argv[++i];
		else if ((!strcmp(argv[i], "--rounds") || !strcmp(argv[i], "--runs")) &&
			 i + 1 < argc)
			plat.runs = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			want_cpu = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--perf-pairs") && i + 1 < argc)
			perf_pairs = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--memcpy") && i + 1 < argc &&
			 (ov.memcpy = find_name(memcpy_impl_names, NR_MEMCPY_IMPL,
						argv[i + 1])) >= 0)
			i++;
		else if (!strcmp(argv[i], "--copy-page") && i + 1 < argc &&
			 (ov.copy_page = find_name(copy_page_impl_names, NR_COPY_PAGE_IMPL,
						   argv[i + 1])) >= 0)
			i++;
		else if (!strcmp(argv[i], "--copy-mc") && i + 1 < argc &&
			 (ov.copy_mc = find_name(copy_mc_impl_names, NR_COPY_MC_IMPL,
						 argv[i + 1])) >= 0)
			i++;
		else if (!strcmp(argv[i], "--clear-page") && i + 1 < argc &&
			 (ov.clear_page = find_name(clear_page_impl_names, NR_CLEAR_PAGE_IMPL,
						    argv[i + 1])) >= 0)
			i++;
		else if (!strcmp(argv[i], "--json") && i + 1 < argc)
			json_out = fopen(argv[++i], "w");
		else if (!strcmp(argv[i], "--tiny"))
			plat.tiny = true;
		else if (!strcmp(argv[i], "--cold") && i + 1 < argc &&
			 (!strcmp(argv[i + 1], "flush") || !strcmp(argv[i + 1], "evict")))
			env.cold_flush = !strcmp(argv[++i], "flush");
		else {
			fprintf(stderr, "usage: %s [--preset rfc|v3|clear|primitives|patterns|perf|"
				"big|uarch|parallel]... [--rounds N] [--json FILE] [--tiny] "
				"[--cold evict|flush] "
				"[--cpu N] [--perf-pairs N] [--memcpy erms|orig] "
				"[--copy-page rep|unrolled] "
				"[--copy-mc fragile|erms|memcpy|avx2nt|avx512nt] "
				"[--clear-page erms|rep|unrolled|nt|clzero]\n", argv[0]);
			return 2;
		}
	}
	if (!np) {
		presets[np++] = "rfc";
		presets[np++] = "perf";
	}
	for (int i = 0; i < np; i++)
		if (!strcmp(presets[i], "v3") || !strcmp(presets[i], "big"))
			plat.max_bytes = 1ULL << 30;
	if (plat.runs < 3 || plat.runs > STATS_MAX)
		plat.runs = BENCH_DEFAULT_RUNS;

	cpu = pin_self(want_cpu);
	pinned_cpu = cpu;
	if (cpu < 0)
		printf("# NOT pinned: sched_setaffinity failed; rounds may migrate between CPUs\n");
	else
		printf("# pinned to CPU %d (sched_setaffinity)\n", cpu);
	__cpuid(0, a, b, c, d);
	if (a >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		has_clflushopt = b & (1u << 23);
	}
	gbpages = have_1g_pages();
	t0 = now_ns();
	c0 = cycles();
	usleep(100000);
	env.cycles_per_us = (cycles() - c0) * 1000 / (now_ns() - t0);
	/* SMI count and APERF/MPERF are MSRs: the image reads them on bare metal, a process not. */
	env.noise_why = hypervisor() ? "under a hypervisor" : "hosted: MSRs are not read";
	host_dispatch(&plat.caps);
	plat.dispatch_in = host_in;
	plat.dispatch_known = true;
	if (!apply_overrides(&ov, &plat.caps))
		return 2;
	read_microcode();
	llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
	cache = cpuid_largest_cache(&cache_src);
	if (!cache && llc > 0) {
		cache = (u64)llc;
		cache_src = "sysconf (CPUID describes no cache)";
	}
	/* Three times the largest cache, in whole 2 MiB pages; 128 MiB when nothing is known. */
	evict_size = cache ? (size_t)((3 * cache + (2 << 20) - 1) & ~(u64)((2 << 20) - 1)) :
		     128u << 20;
	evict_buf = map_big(evict_size, &huge);
	arena.size = (size_t)(2 * plat.max_bytes + (256u << 20));
	if (plat.max_bytes >= (1u << 30) && gbpages)
		arena.size += 1u << 30;		/* room to align 1 GiB cases to 1 GiB */
	arena.base = map_big(arena.size, &huge);
	if (!arena.base || !evict_buf) {
		fprintf(stderr, "ck-bench: cannot map %zu MiB of buffers\n", arena.size >> 20);
		return 1;
	}
	{
		size_t n = arena.size >> PAGE_SHIFT;
		struct page *frames = calloc(n, sizeof(*frames));

		if (!frames || pgmap_add((uintptr_t)arena.base >> PAGE_SHIFT, n, frames, 0))
			return 1;
	}
	numa_setup(64u << 20);
	if (nr_nodes > 1) {
		plat.alloc_node = alloc_on;
		plat.nr_nodes = nr_nodes;
		plat.node_cpu = ck_bench_node_cpu;
		plat.run_on = run_on;
	}
	printf("# TSC %llu MHz; buffers %s; 1 GiB cases %s\n",
	       (unsigned long long)env.cycles_per_us,
	       huge ? "on hugetlb pages" : "on THP (no hugetlb pages reserved)",
	       gbpages ? "1 GiB aligned (the CPU has 1 GiB pages)" :
	       "2 MiB aligned (no 1 GiB pages)");
	printf("# cache-cold by %s; eviction buffer %zu MiB = 3 x the largest cache, %llu KiB "
	       "from %s (sysconf's L3: %ld KiB)\n", env.cold_flush ? (has_clflushopt ?
	       "CLFLUSHOPT of source and destination" : "CLFLUSH (CPUID: no CLFLUSHOPT)") :
	       "an eviction buffer", evict_size >> 20, (unsigned long long)cache >> 10,
	       cache_src, llc > 0 ? llc >> 10 : -1);
	printf("# method: %u rounds alternating AB/BA, a sample = min of %d (hot) or %d (cold, "
	       "each after its own eviction) timings, hot cases repeated to >= %d us a timing; "
	       "ratio = median of per-round ratios, %d-resample bootstrap 95%% CI\n", plat.runs,
	       BENCH_K_HOT, BENCH_K_COLD, BENCH_MIN_SAMPLE_NS / 1000, BENCH_BOOT_ITERS);
	if (json_out)
		fprintf(json_out, "{\"schema\":1,\"kind\":\"machine\",\"machine\":\"%s\","
			"\"features\":\"%s\",\"microcode\":%s,\"tsc_mhz\":%llu,\"nodes\":%u,"
			"\"page_sizes\":\"%s\",\"evict_bytes\":%zu,\"rounds\":%u,"
			"\"pinned_cpu\":%d,\"hypervisor\":%s,\"cold_method\":\"%s\"}\n", machine,
			features, microcode, (unsigned long long)env.cycles_per_us,
			nr_nodes ? nr_nodes : 1, huge ? "4K,2M (hugetlb)" : "4K,2M (THP)",
			evict_size, plat.runs, cpu, hypervisor() ? "true" : "false",
			env.cold_flush ? "clflushopt" : "evict");
	for (int i = 0; i < np; i++) {
		int k;

		printf("\n== preset %s ==\n", presets[i]);
		if (!strcmp(presets[i], "perf")) {
			preset_perf();
			continue;
		}
		if (!strcmp(presets[i], "uarch")) {
			preset_uarch(&env, &plat);
			continue;
		}
		if (!strcmp(presets[i], "parallel")) {	/* tools/ck-bench-par.c */
			ck_bench_parallel(&env, plat.runs, plat.tiny);
			continue;
		}
		if (!strcmp(presets[i], "big")) {
			arena.used = 0;
			preset_big(&env, &plat);
			continue;
		}
		for (k = 0; k < NR_PRESETS; k++)
			if (!strcmp(presets[i], bench_preset_names[k]))
				break;
		if (k == NR_PRESETS) {
			fprintf(stderr, "ck-bench: unknown preset '%s'\n", presets[i]);
			return 2;
		}
		arena.used = 0;
		for (unsigned int n = 0; n < nr_nodes; n++)
			node_arena[n].used = 0;
		bench_preset_run((enum bench_preset)k, &env, &plat);
	}
	if (json_out)
		fclose(json_out);
	return 0;
}
