// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-bench.c - the hosted benchmark (make bench): the same copy/ objects and bench/ harness
 * as the image, in a Linux process.
 *
 *   ck-bench [--preset rfc|v3|clear|primitives|perf|big]... [--runs N] [--json FILE]
 *            [--tiny] [--cold evict|flush]
 *
 * Buffers come from one arena (hugetlb pages when the system has them, else THP), given page
 * frames so the folio APIs work; with libnuma installed, also one arena per NUMA node.
 * Cache-cold runs stream an eviction buffer of 128 MiB or twice the last-level cache,
 * whichever is larger, or with --cold flush CLFLUSHOPT the case's source and destination.
 * The "perf" preset runs `perf bench mem` for memcpy (movsb, unrolled) and memset (stosb)
 * at 4 KiB, 2 MiB and 64 MiB and times the project's routine the same way, so a reader
 * sees what the harness adds: nothing, ideally.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "bench/presets.h"
#include "copy/ops.h"
#include "copy/routines.h"
#include "kernel/dispatch_cpu.h"
#include "kernel/platform/cpufeat.h"

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
	volatile u64 sink = 0;

	(void)ctx;
	for (size_t i = 0; i < evict_size; i += 64)
		sink += *(volatile u64 *)(evict_buf + i);
	(void)sink;
}

static void flush(const void *addr, u64 bytes)
{
	const u8 *p = (const u8 *)((uintptr_t)addr & ~(uintptr_t)63);
	const u8 *end = (const u8 *)addr + bytes;

	for (; p < end; p += 64)
		__asm__ volatile("clflushopt %0" : "+m"(*(volatile u8 *)p));
	__asm__ volatile("mfence" ::: "memory");
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

/* @bytes from @a, 2 MiB aligned for 2 MiB and larger, else 4 KiB; NULL when it is full. */
static void *arena_take(struct arena *a, size_t bytes)
{
	size_t align = bytes >= (2 << 20) ? (2 << 20) : 4096;
	size_t off = (a->used + align - 1) & ~(align - 1);

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
	id.vendor = cpufeat_vendor(vendor);
	__cpuid(1, a, b, c, d);
	id.signature = a;
	cpufeat_decode_signature(a, &id.family, &id.model, &id.stepping);
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		id.erms = b & (1u << 9);
		id.fsrm = d & (1u << 4);
	}
	cpufeat_apply_rules(&id);	/* IA32_MISC_ENABLE is not readable from here */
	dispatch_cpu_from_ident(&id, false, &in);
	dispatch_decide(&in, &dd);
	copy_ops_apply(&dd);
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

/* ---- the perf comparison ---- */

static double perf_gbps(const char *coll, const char *fn, const char *size, unsigned long loops)
{
	char cmd[256], line[256];
	double best = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "perf bench mem %s -f %s -s %s -l %lu 2>/dev/null", coll, fn,
		 size, loops);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		double v;
		char unit[16];

		if (sscanf(line, " %lf %15s", &v, unit) == 2) {
			if (!strcmp(unit, "GB/sec"))
				best = v;
			else if (!strcmp(unit, "MB/sec"))
				best = v / 1000;
			else if (!strcmp(unit, "KB/sec"))
				best = v / 1e6;
		}
	}
	pclose(p);
	return best;
}

static double ours_gbps(int which, u8 *dst, u8 *src, size_t size, unsigned long loops)
{
	u64 t0, t1;

	for (int w = 0; w < 2; w++) {
		t0 = now_ns();
		for (unsigned long i = 0; i < loops; i++) {
			if (which == 0)
				memcpy_erms(dst, src, size);
			else if (which == 1)
				memcpy_orig(dst, src, size);
			else
				clear_pages_erms(dst, size >> 12);
		}
		t1 = now_ns();
	}
	/* perf prints "GB/sec" as bytes / 2^30 per second: use the same unit. */
	return (double)size * loops / (double)(t1 - t0) * 1e9 / (1024.0 * 1024 * 1024);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void preset_perf(void)
{
	static const struct { const char *coll, *fn, *ours; int which; } r[] = {
		{ "memcpy", "x86-64-movsb", "memcpy_erms", 0 },
		{ "memcpy", "x86-64-unrolled", "memcpy_orig", 1 },
		{ "memset", "x86-64-stosb", "clear_pages_erms", 2 },
	};
	static const struct { const char *name; size_t bytes; } sz[] = {
		{ "4KB", 4096 }, { "2MB", 2 << 20 }, { "64MB", 64 << 20 },
	};
	u8 *src = arena_alloc(64 << 20), *dst = arena_alloc(64 << 20);

	if (!src || !dst || system("perf --version >/dev/null 2>&1") != 0) {
		printf("# perf comparison skipped: %s\n", src && dst ?
		       "perf is not installed (Debian: linux-perf)" : "not enough memory");
		return;
	}
	printf("\nthe project's routines against perf bench mem (median of 5 interleaved runs, "
	       "GiB/s as perf prints them)\n");
	printf("%-18s %-17s %-6s %10s %10s %8s\n", "ours", "perf -f", "size", "ours GiB/s",
	       "perf GiB/s", "ratio");
	for (size_t i = 0; i < 3; i++)
		for (size_t s = 0; s < 3; s++) {
			unsigned long loops = (unsigned long)((512ULL << 20) / sz[s].bytes);
			double o[5], q[5];

			for (int k = 0; k < 5; k++) {
				o[k] = ours_gbps(r[i].which, dst, src, sz[s].bytes, loops);
				q[k] = perf_gbps(r[i].coll, r[i].fn, sz[s].name, loops);
			}
			qsort(o, 5, sizeof(double), cmp_double);
			qsort(q, 5, sizeof(double), cmp_double);
			printf("%-18s %-17s %-6s %10.2f %10.2f %7.3fx\n", r[i].ours, r[i].fn,
			       sz[s].name, o[2], q[2], q[2] > 0 ? o[2] / q[2] : 0.0);
			if (json_out)
				fprintf(json_out, "{\"schema\":1,\"kind\":\"perf-compare\","
					"\"machine\":\"%s\",\"primitive\":\"%s\","
					"\"perf_function\":\"%s\",\"size\":%zu,"
					"\"ours_gibps\":%.3f,\"perf_gibps\":%.3f}\n", machine,
					r[i].ours, r[i].fn, sz[s].bytes, o[2], q[2]);
		}
}

/* The goal: the best non-temporal copy against rep movsb, 1 GiB, cache-cold. */
struct big_ctx {
	int which;
	u8 *dst, *src;
};

static void run_big(void *p)
{
	struct big_ctx *c = p;

	if (c->which == 0)
		memcpy_erms(c->dst, c->src, 1ULL << 30);
	else if (c->which == 1)
		copy_mc_avx2_nt(c->dst, c->src, 1ULL << 30);
	else
		copy_mc_avx512_nt(c->dst, c->src, 1ULL << 30);
}

static void preset_big(struct bench_env *env, const struct bench_platform *p)
{
	static struct bench_result ra, rb;
	static struct big_ctx a, b;
	u8 *src = arena_alloc(1ULL << 30), *dst = arena_alloc(1ULL << 30);
	struct bench_case ca, cb;
	struct ratio q;
	char ga[40], gb[40], rr[48];

	if (!src || !dst || !(p->caps.avx2 || p->caps.avx512f)) {
		printf("# big: skipped (%s)\n", src && dst ? "no AVX2" : "needs 2 GiB of buffers");
		return;
	}
	a = (struct big_ctx){ 0, dst, src };
	b = (struct big_ctx){ p->caps.avx512f ? 2 : 1, dst, src };
	ca = (struct bench_case){ .api = "copy 1 GiB", .primitive = "memcpy_erms",
				  .bytes = 1ULL << 30, .fn = run_big, .ctx = &a };
	cb = (struct bench_case){ .api = "copy 1 GiB", .bytes = 1ULL << 30, .fn = run_big,
				  .ctx = &b,
				  .primitive = b.which == 2 ? "copy_mc_avx512_nt" :
					       "copy_mc_avx2_nt" };
	bench_compare(env, &ca, &cb, BENCH_COLD, p->runs, &ra, &rb, &q);
	bench_fmt_gbps(&ra, ga, sizeof(ga));
	bench_fmt_gbps(&rb, gb, sizeof(gb));
	bench_fmt_ratio(&q, rr, sizeof(rr));
	printf("%-20s %-16s %-22s %-16s %s\n", "1 GiB cache-cold", "rep movsb GB/s",
	       "", "NT GB/s", "NT / rep movsb [95% CI]");
	printf("%-20s %-16s %-22s %-16s %s\n", "", ga, cb.primitive, gb, rr);
	if (json_out) {
		char line[512];

		bench_json(env, &ca, BENCH_COLD, &ra, line, sizeof(line));
		fprintf(json_out, "%s\n", line);
		bench_json(env, &cb, BENCH_COLD, &rb, line, sizeof(line));
		fprintf(json_out, "%s\n", line);
	}
}

int main(int argc, char **argv)
{
	struct bench_env env = { .now_ns = now_ns, .cycles = cycles, .evict = evict,
				 .out = out, .machine = machine, .flush = flush };
	struct bench_platform plat = { .alloc = arena_alloc, .folio = make_folio,
				       .runs = BENCH_DEFAULT_RUNS, .max_bytes = 64ULL << 20 };
	const char *presets[8];
	int np = 0;
	bool huge;
	long llc;
	u64 t0, c0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--preset") && i + 1 < argc && np < 8)
			presets[np++] = argv[++i];
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			plat.runs = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--json") && i + 1 < argc)
			json_out = fopen(argv[++i], "w");
		else if (!strcmp(argv[i], "--tiny"))
			plat.tiny = true;
		else if (!strcmp(argv[i], "--cold") && i + 1 < argc &&
			 (!strcmp(argv[i + 1], "flush") || !strcmp(argv[i + 1], "evict")))
			env.cold_flush = !strcmp(argv[++i], "flush");
		else {
			fprintf(stderr, "usage: %s [--preset rfc|v3|clear|primitives|perf|big]... "
				"[--runs N] [--json FILE] [--tiny] [--cold evict|flush]\n",
				argv[0]);
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

	t0 = now_ns();
	c0 = cycles();
	usleep(100000);
	env.cycles_per_us = (cycles() - c0) * 1000 / (now_ns() - t0);
	host_dispatch(&plat.caps);
	read_microcode();
	llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
	evict_size = (size_t)(llc > 0 && 2 * (size_t)llc > (128u << 20) ? 2 * (size_t)llc :
			      128u << 20);
	evict_buf = map_big(evict_size, &huge);
	arena.size = (size_t)(2 * plat.max_bytes + (256u << 20));
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
	}
	printf("# TSC %llu MHz; buffers %s; eviction buffer %zu MiB (LLC %ld KiB); %u runs each "
	       "after %d warm-up runs\n", (unsigned long long)env.cycles_per_us,
	       huge ? "on hugetlb pages" : "on THP (no hugetlb pages reserved)",
	       evict_size >> 20, llc > 0 ? llc >> 10 : -1, plat.runs, BENCH_WARMUP);
	if (json_out)
		fprintf(json_out, "{\"schema\":1,\"kind\":\"machine\",\"machine\":\"%s\","
			"\"features\":\"%s\",\"microcode\":%s,\"tsc_mhz\":%llu,\"nodes\":%u,"
			"\"page_sizes\":\"%s\",\"evict_bytes\":%zu}\n", machine, features,
			microcode, (unsigned long long)env.cycles_per_us,
			nr_nodes ? nr_nodes : 1, huge ? "4K,2M (hugetlb)" : "4K,2M (THP)",
			evict_size);
	for (int i = 0; i < np; i++) {
		int k;

		printf("\n== preset %s ==\n", presets[i]);
		if (!strcmp(presets[i], "perf")) {
			preset_perf();
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
