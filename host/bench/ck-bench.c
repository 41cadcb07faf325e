// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-bench.c - the hosted benchmark (make bench): the same copy/ objects and bench/ harness
 * as the image, in a Linux process.
 *
 *   ck-bench [--preset rfc|v3|clear|primitives|patterns|perf|big|uarch|parallel|
 *                      copy_pages|seed003|migrate]...
 *            [--rounds N] [--replicas N] [--placements N] [--json FILE] [--tiny] [--list]
 *            [--cold evict|flush] [--cpu N] ...
 *
 * (the options: host/bench/opts.c; the machine, CPUID and dispatch: host/lib/machine.c).
 * The dispatch overrides take the image's names (copy_page=, memcpy=, ...); the uarch
 * preset runs rfc as Linux resolves on Zen 3 (no FSRM) and on Zen 4/5 or Intel (FSRM).
 * The process pins itself to one CPU (the last one it may run on, or --cpu N) and says so;
 * a timing that lost more than 1% of itself off the CPU marks its round disturbed.
 * Buffers come from one arena reset between presets (hugetlb pages when the system has them,
 * else THP), given page frames so the folio APIs work; with libnuma installed, also one arena
 * per NUMA node. The run's two large buffers (the bandwidth probe's, which big and v3's
 * 1 GiB extent then use; bench/probe.h) are a THP mapping of their own, kept the whole run
 * and 1 GiB aligned when the CPU has 1 GiB pages. With --replicas N (6; 1 with --tiny),
 * the comparisons of the presets ck_rep_preset() names are first measured in N fresh
 * processes of this program, one after another (host/bench/rep.c), and their intervals
 * are over them. A comparison the replicas did not measure re-places its buffers between
 * its blocks of rounds (--placements, 6): a fresh mapping moved over them (place()), so the
 * same addresses get other physical pages. --list says what a command line would run.
 * Cache-cold runs stream an eviction buffer three times the largest cache CPUID describes
 * for this core (leaf 4, or 8000001Dh on AMD; 128 MiB when CPUID says nothing), or with
 * --cold flush CLFLUSHOPT (CLFLUSH where CPUID lacks it) the case's source and destination.
 * The "perf" preset runs the perf twin (host/bench/perf_twin.c): `perf bench mem` for memcpy
 * (movsb, unrolled) and memset (stosb) at 4 KiB, 2 MiB and 64 MiB, interleaved in
 * --perf-pairs rounds (15) with `ck-bench --perf-twin`, a fresh process timing the project's
 * routine perf's way, with perf's buffers and with aligned ones. The "migrate" preset
 * (host/bench/mig.c) times munmap, the copy and the remap over pinned threads.
 * Exit status: 0 every case measured; 1 the buffers cannot be mapped; 2 a usage error; 3 a
 * case a preset promises could not be measured (a "bench: FAILED" line says why).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "bench/presets.h"
#include "host/bench/mig.h"
#include "host/bench/opts.h"
#include "host/bench/par.h"
#include "host/bench/perf_twin.h"
#include "host/bench/rep.h"
#include "host/lib/machine.h"
#include "kernel/lib/json.h"

static FILE *json_out;
/* Buffers are bump-allocated from arenas, reset between presets. */
struct arena {
	u8 *base;
	size_t size, used;
};

#define ARENA_LARGEST	(64u << 20)	/* the largest case the arena holds */

static struct arena arena;
static u8 *evict_buf;
static size_t evict_size;
static struct ck_host host;
static struct ck_bench_opts opt;
static int pinned_cpu = -1;

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

static void flush(const void *addr, u64 bytes)
{
	bench_flush_lines(addr, bytes, host.clflushopt);
}

/*
 * The time this thread has not been running: wall time less its CPU time (both unslewed
 * clocks). A timing that lost more than 1% of itself this way disturbs its round; a VM's
 * steal time is not seen (the guest counts it as running).
 */
static u64 off_cpu_ns(void)
{
	struct timespec ts;
	u64 cpu;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	cpu = (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
	return now_ns() - cpu;
}

static void *map_big(size_t bytes, bool *huge)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	*huge = p != MAP_FAILED;
	if (!*huge)	/* no hugetlb pages: 2 MiB-aligned anonymous memory with THP */
		return ck_host_map_thp(bytes, SZ_2M, 0x5a, NULL);
	memset(p, 0x5a, bytes);		/* fault everything in before timing */
	return p;
}

/*
 * @bytes from @a, aligned to the page size a kernel would use: 1 GiB for 1 GiB and larger
 * when the CPU has 1 GiB pages, 2 MiB for 2 MiB and larger, else 4 KiB; NULL when full.
 */
static void *arena_take(struct arena *a, size_t bytes)
{
	size_t align = bytes >= (1u << 30) && host.gbpages ? (1u << 30) :
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

/* The mappings whose pages place() may move: the arena and the run's large buffers. */
struct region {
	u8 *base;
	size_t size;
	bool hugetlb;
};

static struct region movable[4];
static unsigned int nr_movable;

static void movable_add(u8 *base, size_t size, bool hugetlb)
{
	if (nr_movable < ARRAY_SIZE(movable))
		movable[nr_movable++] = (struct region){ base, size, hugetlb };
}

/* A fresh mapping of @span bytes like @r's (2 MiB aligned, THP or hugetlb): *@q, *@len. */
static u8 *map_like(const struct region *r, size_t span, u8 **q, size_t *len)
{
	int huge = r->hugetlb ? MAP_HUGETLB : 0;
	u8 *p;

	*len = r->hugetlb ? span : span + (size_t)SZ_2M;
	*q = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | huge, -1, 0);
	if (*q == MAP_FAILED)
		return NULL;
	p = (u8 *)ALIGN_UP((uintptr_t)*q, SZ_2M);
	if (!r->hugetlb)
		madvise(p, span, MADV_HUGEPAGE);
	return p;
}

/*
 * bench_env.place: [@addr, @addr + @bytes), widened to whole 2 MiB pages inside its
 * mapping, is copied into a fresh mapping of the same kind, which mremap then moves over
 * it. The addresses and their page frames (pgmap is by address) stay, the physical pages
 * are new: they were faulted in while the old ones were still held, so none is reused.
 * False outside the movable mappings (a NUMA node's arena: its pages must stay on the node)
 * or when the memory or the move fails (the old pages stay).
 */
static bool place(const void *addr, u64 bytes)
{
	uintptr_t a = (uintptr_t)addr, lo, hi;
	const struct region *r = NULL;
	size_t span, len;
	u8 *p, *q;

	for (unsigned int i = 0; i < nr_movable; i++)
		if (a >= (uintptr_t)movable[i].base &&
		    a + bytes <= (uintptr_t)movable[i].base + movable[i].size)
			r = &movable[i];
	if (!r)
		return false;
	lo = MAX(ALIGN_DOWN(a, SZ_2M), (uintptr_t)r->base);
	hi = MIN(ALIGN_UP(a + bytes, SZ_2M), (uintptr_t)r->base + r->size);
	span = hi - lo;
	p = map_like(r, span, &q, &len);
	if (!p)
		return false;
	memcpy(p, (void *)lo, span);
	if (mremap(p, span, span, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)lo) == MAP_FAILED) {
		munmap(q, len);
		return false;
	}
	if (p > q)
		munmap(q, (size_t)(p - q));
	if (q + len > p + span)
		munmap(p + span, (size_t)(q + len - (p + span)));
	return true;
}

/*
 * Memory kept the whole run (the probe's two large buffers, bench/probe.h): a mapping of
 * its own, THP, 1 GiB aligned for 1 GiB when the CPU has 1 GiB pages (else 2 MiB), faulted
 * in and given page frames. NULL when the system has not got it.
 */
static void *alloc_run(size_t bytes)
{
	size_t align = bytes >= (1u << 30) && host.gbpages ? 1u << 30 : 2u << 20;
	void *q;
	u8 *p = ck_host_map_thp(bytes, align, 0x5a, &q);	/* faulted in before timing */
	struct page *frames;

	if (!p)
		return NULL;
	frames = calloc(bytes >> PAGE_SHIFT, sizeof(*frames));
	if (!frames || pgmap_add((uintptr_t)p >> PAGE_SHIFT, bytes >> PAGE_SHIFT, frames, 0)) {
		free(frames);
		munmap(q, bytes + align);
		return NULL;
	}
	movable_add(p, bytes, false);
	return p;
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
		char list[256];

		if (!ck_host_read_line("/sys/devices/system/node/has_memory", list, sizeof(list)))
			snprintf(list, sizeof(list), "(unknown)");
		printf("# NUMA: libnuma.so.1 not installed (Debian: libnuma1): one node arena, the "
		       "rfc preset on one node; the kernel lists nodes %s with memory (the migrate "
		       "preset's move_pages part uses them)\n", list);
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

/* The caches, for the eviction buffer: CPUID's, sysconf's where CPUID says nothing. */
struct cache_facts {
	u64 bytes;
	const char *source;
	long llc;			/* sysconf's L3, -1: none */
};

/* The eviction buffer and the arena (with page frames), then libnuma's node arenas. */
static bool setup_buffers(const struct bench_platform *plat, struct cache_facts *cf,
			  bool *huge)
{
	size_t n;
	struct page *frames;

	cf->llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
	cf->source = "sysconf";
	cf->bytes = ck_host_largest_cache(&cf->source);
	if (!cf->bytes && cf->llc > 0) {
		cf->bytes = (u64)cf->llc;
		cf->source = "sysconf (CPUID describes no cache)";
	}
	/* Three times the largest cache, in whole 2 MiB pages; 128 MiB when nothing is known. */
	evict_size = cf->bytes ? (size_t)((3 * cf->bytes + (2 << 20) - 1) &
					  ~(u64)((2 << 20) - 1)) : 128u << 20;
	evict_buf = map_big(evict_size, huge);
	/*
	 * A preset's own buffers: two of the largest (64 MiB) and room for the small ones. The
	 * 1 GiB cases run on the run's two large buffers (alloc_run), not from here.
	 */
	arena.size = (size_t)(2 * ARENA_LARGEST + (256u << 20));
	arena.base = map_big(arena.size, huge);
	if (arena.base)
		movable_add(arena.base, arena.size, *huge);
	if (!arena.base || !evict_buf) {
		fprintf(stderr, "ck-bench: cannot map %zu MiB of buffers\n", arena.size >> 20);
		return false;
	}
	n = arena.size >> PAGE_SHIFT;
	frames = calloc(n, sizeof(*frames));
	if (!frames || pgmap_add((uintptr_t)arena.base >> PAGE_SHIFT, n, frames, 0))
		return false;
	numa_setup(64u << 20);
	return true;
}

static u32 width_floor[BENCH_NR_MODES];
static unsigned int width_rows[BENCH_NR_MODES];

/* How the run's replication intervals are widened (the machine record's "widths"). */
static const char *widths_kind(const struct bench_env *env)
{
	if (env->width_floor_ppm)
		return "pooled";
	return opt.own_widths ? "own" : "own (nothing to pool)";
}

/* Mode @m's pooled half-width as "+-8.29%", or "none" where it had no row. */
static void pct_or_none(char *buf, size_t size, enum bench_mode m)
{
	size_t n = 2;

	if (!width_rows[m]) {
		snprintf(buf, size, "none");
		return;
	}
	snprintf(buf, size, "+-");
	n += (size_t)bench_fmt_fixed(buf + n, size - n, width_floor[m], 10000, 2);
	snprintf(buf + n, size - n, "%%");
}

/* The pooled widths the run holds its replication intervals to (ck_rep_pool), or none. */
static void widths_line(const struct bench_env *env)
{
	char hot[24], cold[24];

	if (!env->width_floor_ppm) {
		printf("# widths: each row's own (%s)\n", opt.own_widths ? "--widths own" :
		       "nothing to pool");
		return;
	}
	pct_or_none(hot, sizeof(hot), BENCH_HOT);
	pct_or_none(cold, sizeof(cold), BENCH_COLD);
	printf("# widths: pooled: cache-hot %s (%u rows), cache-cold %s (%u rows): "
	       "every replication interval is held to at least the run's root-mean-square "
	       "relative half-width of its mode over the replicas' comparisons; a row so widened "
	       "says R=N+ (P=N+) (JSON: width_floor_ppm, ci_lo_own_ppm/ci_hi_own_ppm; --widths "
	       "own: each row's own)\n", hot, width_rows[BENCH_HOT], cold,
	       width_rows[BENCH_COLD]);
}

/* The run's "machine" record, first in the JSON-lines file. */
static void machine_record(const struct bench_env *env, const struct bench_platform *plat,
			   bool huge)
{
	struct json_writer w;
	char line[1024];

	json_record(&w, line, sizeof(line), "machine");
	json_str(&w, "machine", host.machine);
	json_str(&w, "features", host.features);
	json_str(&w, "microcode", host.microcode[0] ? host.microcode : NULL);
	json_u64(&w, "tsc_mhz", env->cycles_per_us);
	json_u64(&w, "nodes", nr_nodes ? nr_nodes : 1);
	json_str(&w, "page_sizes", huge ? "4K,2M (hugetlb)" : "4K,2M (THP)");
	json_u64(&w, "evict_bytes", evict_size);
	json_u64(&w, "rounds", plat->runs);
	json_u64(&w, "placements", env->placements);
	if (env->replay)
		json_u64(&w, "replicas", opt.replicas);
	if (env->replay)
		json_str(&w, "widths", widths_kind(env));
	json_s64(&w, "pinned_cpu", pinned_cpu);
	json_bool(&w, "hypervisor", host.hypervisor);
	json_str(&w, "cold_method", env->cold_flush ? "clflushopt" : "evict");
	json_end(&w);
	out(line);
}

/* What a row's interval is over: the replicas (R=), else placements here (P=). */
static void interval_line(const struct bench_env *env, const struct bench_platform *plat)
{
	if (env->replay) {
		printf("# interval: a comparison's rounds ran in %u fresh processes (replicas) one "
		       "after another, %u rounds each (R=%u in a row); [lo, hi] is where another "
		       "run's estimate (as many rounds and replicas) should lie 95%% of the time "
		       "(a replication interval: the "
		       "row's ratio is the mean of the replicas' medians, +- Student's t for "
		       "R - 1 degrees of freedom times their standard deviation times "
		       "sqrt(2 / R)); a comparison no replica measured runs here over %u "
		       "placements (P=), the same way\n", opt.replicas,
		       ck_rep_rounds(plat->runs, opt.replicas), opt.replicas, env->placements);
		widths_line(env);
		return;
	}
	printf("# interval: a comparison's rounds run in %u blocks (at most one per two "
	       "rounds), each on its buffers moved to fresh memory (P=%u in a row); [lo, hi] "
	       "is where another run's estimate (as many rounds and blocks) should lie 95%% "
	       "of the time (a replication "
	       "interval: the row's ratio is the mean of the blocks' medians, +- Student's t "
	       "for P - 1 degrees of freedom times their standard deviation times "
	       "sqrt(2 / P)); a row that could not move says P=1 and gives its rounds' median "
	       "and their %d-resample bootstrap 95%% CI only (JSON: \"interval\", "
	       "\"placements\"; the rounds' CI is ci_lo_round/ci_hi_round; "
	       "tools/bench-coverage.py counts how often it holds)\n",
	       env->placements, env->placements, BENCH_BOOT_ITERS);
}

/* What the run is about to do, and how: the header lines and the machine record. */
static void header(const struct bench_env *env, const struct bench_platform *plat,
		   const struct cache_facts *cf, bool huge)
{
	printf("# TSC %llu MHz; buffers %s; 1 GiB cases %s\n",
	       (unsigned long long)env->cycles_per_us,
	       huge ? "on hugetlb pages" : "on THP (no hugetlb pages reserved)",
	       host.gbpages ? "1 GiB aligned (the CPU has 1 GiB pages)" :
	       "2 MiB aligned (no 1 GiB pages)");
	printf("# cache-cold by %s; eviction buffer %zu MiB = 3 x the largest cache, %llu KiB "
	       "from %s (sysconf's L3: %ld KiB)\n", env->cold_flush ? (host.clflushopt ?
	       "CLFLUSHOPT of source and destination" : "CLFLUSH (CPUID: no CLFLUSHOPT)") :
	       "an eviction buffer", evict_size >> 20, (unsigned long long)cf->bytes >> 10,
	       cf->source, cf->llc > 0 ? cf->llc >> 10 : -1);
	printf("# method: %u rounds alternating AB/BA, a sample = min of %d (hot) or %d (cold, "
	       "each after its own eviction) timings, hot cases repeated to >= %d us a timing; "
	       "a block's ratio = median of its per-round ratios\n", plat->runs, BENCH_K_HOT,
	       BENCH_K_COLD, BENCH_MIN_SAMPLE_NS / 1000);
	interval_line(env, plat);
	machine_record(env, plat, huge);
}

/* One preset; the arenas start empty for each (uarch's two resolutions share one). */
static void run_preset(const char *name, struct bench_env *env,
		       const struct bench_platform *plat)
{
	if (plat->replica && !ck_rep_preset(name))
		return;
	ck_rep_preset_begin(name);
	printf("\n== preset %s ==\n", name);
	if (!strcmp(name, "perf")) {		/* host/bench/perf_twin.c */
		perf_twin_compare(NULL, opt.perf_pairs, pinned_cpu, host.machine, json_out);
		return;
	}
	if (!strcmp(name, "parallel")) {	/* host/bench/par.c */
		ck_bench_parallel(env, plat->runs, plat->tiny);
		return;
	}
	if (!strcmp(name, "migrate")) {		/* host/bench/mig.c, -movep.c */
		ck_bench_migrate(env, plat->runs, plat->tiny);
		ck_bench_movepages(env, plat->runs, plat->tiny);
		return;
	}
	arena.used = 0;
	if (strcmp(name, "uarch") && strcmp(name, "big"))
		for (unsigned int n = 0; n < nr_nodes; n++)
			node_arena[n].used = 0;
	for (int k = 0; k < NR_PRESETS; k++)
		if (!strcmp(name, bench_preset_names[k]))
			bench_preset_run((enum bench_preset)k, env, plat);
}

/* --list: what this command line runs and how, one line each; nothing is measured. */
static int list_run(const struct bench_platform *plat)
{
	bool reps = opt.replicas > 1;

	for (unsigned int i = 0; i < opt.np; i++)
		printf("preset %s: %s\n", opt.presets[i], reps && ck_rep_preset(opt.presets[i]) ?
		       "comparisons in the replicas" : "measured in this process");
	printf("rounds %u, placements %u, replicas %u", plat->runs, opt.placements,
	       opt.replicas);
	if (reps)
		printf(" (%u rounds each)", ck_rep_rounds(plat->runs, opt.replicas));
	printf("%s%s\n", opt.tiny ? ", tiny" : "", opt.json ? ", JSON lines" : "");
	return 0;
}

/* Pin, calibrate the TSC against the clock, learn the CPU and apply the overrides. */
static bool setup_host(struct bench_env *env, struct bench_platform *plat)
{
	u64 t0, c0;

	pinned_cpu = ck_host_pin(opt.cpu);
	if (pinned_cpu < 0)
		printf("# NOT pinned: sched_setaffinity failed; rounds may migrate between CPUs\n");
	else
		printf("# pinned to CPU %d (sched_setaffinity)\n", pinned_cpu);
	t0 = now_ns();
	c0 = cycles();
	usleep(100000);
	env->cycles_per_us = (cycles() - c0) * 1000 / (now_ns() - t0);
	ck_host_probe(&host);
	/* SMI count and APERF/MPERF are MSRs: the image reads them on bare metal, a process not. */
	env->noise_why = host.hypervisor ? "under a hypervisor" : "hosted: MSRs are not read";
	plat->caps = host.caps;
	plat->dispatch_in = host.in;
	plat->dispatch_known = true;
	return ck_host_apply_overrides(&host, &opt.ov);
}

int main(int argc, char **argv)
{
	struct bench_env env = { .now_ns = now_ns, .cycles = cycles, .evict = evict,
				 .out = out, .machine = host.machine, .flush = flush,
				 .off_cpu_ns = off_cpu_ns };
	struct bench_platform plat = { .alloc = arena_alloc, .folio = make_folio,
				       .alloc_run = alloc_run, .runs = BENCH_DEFAULT_RUNS,
				       .max_bytes = 1ULL << 30 };
	struct cache_facts cf;
	bool huge;
	int err;

	/* One twin run, a fresh process as perf's: none of the setup below. */
	if (argc > 1 && !strcmp(argv[1], "--perf-twin"))
		return perf_twin_main(argc, argv);
	err = ck_bench_parse(argc, argv, &opt);
	if (err)
		return err;
	plat.runs = opt.rounds;
	plat.tiny = opt.tiny;
	env.placements = opt.placements;
	env.place = place;
	env.cold_flush = opt.cold_flush;
	if (opt.list)
		return list_run(&plat);
	if (opt.replica_fd >= 0) {	/* a replica: its records, nothing printed or kept */
		ck_rep_record_to(opt.replica_fd);
		env.record = ck_rep_record;
		plat.replica = true;
		opt.json = NULL;
		opt.replicas = 1;
	}
	if (opt.json && !(json_out = fopen(opt.json, "w"))) {
		fprintf(stderr, "ck-bench: --json %s: %s\n", opt.json, strerror(errno));
		return 2;
	}
	if (!setup_host(&env, &plat))
		return 2;
	/* Replicas first, before this process takes its own buffers. */
	if (opt.replicas > 1 &&
	    !ck_rep_spawn(argc, argv, opt.replicas, ck_rep_rounds(plat.runs, opt.replicas)))
		env.replay = ck_rep_replay;
	if (env.replay && !opt.own_widths && ck_rep_pool(width_floor, width_rows))
		env.width_floor_ppm = width_floor;
	if (opt.replica_fd >= 0)
		ck_rep_spread(opt.replica_spread_mib);	/* other physical pages than the last's */
	if (!setup_buffers(&plat, &cf, &huge))
		return 1;
	plat.llc_bytes = cf.bytes;
	plat.llc_source = cf.source;
	if (nr_nodes > 1) {
		plat.alloc_node = alloc_on;
		plat.nr_nodes = nr_nodes;
		plat.node_cpu = ck_bench_node_cpu;
		plat.run_on = run_on;
	}
	header(&env, &plat, &cf, huge);
	for (unsigned int i = 0; i < opt.np; i++)
		run_preset(opt.presets[i], &env, &plat);
	if (json_out)
		fclose(json_out);
	if (bench_failures()) {
		fprintf(stderr, "ck-bench: %u case%s could not be measured (the 'bench: FAILED' "
			"lines say why): status 3\n", bench_failures(),
			bench_failures() == 1 ? "" : "s");
		return 3;
	}
	return 0;
}
