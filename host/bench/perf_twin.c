// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf_twin.c - the perf twin (ck-bench --perf-twin, and the "perf" preset that runs it
 * against `perf bench mem`). It owns the like-for-like comparison with perf 6.1.
 *
 * What perf 6.1's `perf bench mem` does (tools/perf/bench/mem-functions.c, read for the
 * facts, nothing taken from it):
 *   memcpy  the destination is calloc'ed first, then the source (calloc, no alignment: a
 *           4 KiB buffer lands wherever the heap puts it, a large one is mmap'ed by glibc
 *           and starts 16 bytes into a 4 KiB page, no THP); the source is memset to zero;
 *           one untimed call; gettimeofday around the -l loops; bytes x loops / seconds,
 *           printed in binary units (GB/sec = bytes / 2^30 per second); one process per run.
 *   memset  only a destination (calloc); one untimed call writing 0xff; then call i writes
 *           the byte i (the loop index).
 * The twin does that with the project's routine, in a process of its own: memcpy_erms for
 * x86-64-movsb, memcpy_orig for x86-64-unrolled, clear_pages_erms for x86-64-stosb (it
 * writes zeros). The buffers are one of
 *   perf      perf's: calloc, destination first. A large buffer (glibc mmaps it) lands where
 *             perf's does, 16 bytes into a page; a small one comes from the heap, whose
 *             state differs between perf and this process, so it is placed where perf
 *             6.1 puts it here (seen with an LD_PRELOAD calloc logger on the CI VM): the
 *             destination 384 bytes into a page (line aligned), the source after it and
 *             its 16-byte chunk header (16 bytes off a cache line);
 *   aligned   the harness's: one THP mapping, 2 MiB aligned, source then destination, the
 *             destination at the next 4 KiB (small) or 2 MiB (2 MiB and up) boundary;
 *   perfdata  perf's buffers and perf's data for memset: a rep stosb writing the loop index
 *             (the instruction clear_pages_erms uses, with perf's byte), so the effect of
 *             writing zeros can be told from the rest.
 * The comparison runs, per routine and size, rounds of one perf process and one twin
 * process per layout, the order reversed every other round, everything on one CPU; each
 * row is the median of the per-round speed ratios twin / perf with a bootstrap 95% interval
 * (bench/stats.c), so "within its interval of 1.00" is a test, not an impression.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "bench/harness.h"
#include "copy/routines.h"
#include "host/bench/perf_twin.h"
#include "kernel/lib/json.h"

#define TWIN_MAX_PAIRS	STATS_MAX
#define TWIN_TRAFFIC	(512ULL << 20)	/* bytes per process: loops = this / size */
#define PERF_HEAP_MAX	(128u << 10)	/* glibc's default mmap threshold */
#define PERF_DST_OFF	384		/* perf 6.1's small destination, into its page */
#define PERF_CHUNK_HDR	16		/* glibc's chunk header between dst and src */

/* rep stosb of the byte @c: perf's memset data with clear_pages_erms's instruction. */
static void stosb_value(void *dst, int c, size_t n)
{
	__asm__ volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(c) : "memory");
}

/* clear_pages_erms with memset's arguments (the byte is ignored: it writes zeros). */
static void clear_value(void *dst, int c, size_t n)
{
	(void)c;
	clear_pages_erms(dst, n >> 12);
}

/*
 * perf calls the routine through a function pointer inside its timed loop; so does the
 * twin (volatile, so the compiler cannot turn it back into a direct call).
 */
typedef void *(*copy_fn)(void *dst, const void *src, size_t n);
typedef void (*set_fn)(void *dst, int c, size_t n);

static void *thp_arena(size_t bytes)
{
	u8 *q = mmap(NULL, bytes + (2 << 20), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	u8 *p;

	if (q == MAP_FAILED)
		return NULL;
	p = (u8 *)(((uintptr_t)q + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
	madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

static u64 tv_ns(const struct timeval *a, const struct timeval *b)
{
	return ((u64)(b->tv_sec - a->tv_sec) * 1000000 + (u64)b->tv_usec - (u64)a->tv_usec) *
	       1000;
}

/*
 * The buffers of one twin run as the layout asks (see the top of this file): *@dst, and
 * *@src for a copy (NULL for memset). False when there is no memory for them.
 */
static bool twin_buffers(bool copy, const char *layout, size_t size, u8 **dst, u8 **src)
{
	*src = NULL;
	if (!strcmp(layout, "aligned")) {
		size_t gap = size >= (2 << 20) ? (size + (2 << 20) - 1) & ~(size_t)((2 << 20) - 1) :
			     (size + 4095) & ~(size_t)4095;
		u8 *a = thp_arena(2 * gap);

		if (!a)
			return false;
		*src = copy ? a : NULL;
		*dst = copy ? a + gap : a;
		memset(a, 0, 2 * gap);		/* fault it in: perf's calloc does not */
	} else if (size < PERF_HEAP_MAX) {
		u8 *heap = aligned_alloc(4096, PERF_DST_OFF + 2 * (size + PERF_CHUNK_HDR) + 4096);

		if (!heap)
			return false;
		*dst = heap + PERF_DST_OFF;
		*src = copy ? *dst + size + PERF_CHUNK_HDR : NULL;
		memset(*dst, 0, size);		/* calloc's zeroing */
		if (*src)
			memset(*src, 0, size);
	} else {
		*dst = calloc(1, size);
		if (copy)
			*src = calloc(1, size);
		if (!*dst || (copy && !*src))
			return false;
	}
	return true;
}

int perf_twin_main(int argc, char **argv)
{
	struct timeval t0, t1;
	bool copy, orig, perfdata;
	unsigned long loops;
	size_t size;
	u8 *dst, *src;

	if (argc != 7) {
		fprintf(stderr, "usage: %s --perf-twin memcpy|memset movsb|unrolled|stosb SIZE "
			"LOOPS perf|aligned|perfdata\n", argv[0]);
		return 2;
	}
	copy = !strcmp(argv[2], "memcpy");
	orig = !strcmp(argv[3], "unrolled");
	size = strtoull(argv[4], NULL, 0);
	loops = strtoul(argv[5], NULL, 0);
	perfdata = !strcmp(argv[6], "perfdata");
	if (!size || !loops || (!copy && (size & 4095))) {
		fprintf(stderr, "perf-twin: bad size or loops\n");
		return 2;
	}
	if (!twin_buffers(copy, argv[6], size, &dst, &src))
		return 1;
	if (copy) {
		copy_fn volatile fn = orig ? memcpy_orig : memcpy_erms;

		memset(src, 0, size);
		fn(dst, src, size);
		gettimeofday(&t0, NULL);
		for (unsigned long i = 0; i < loops; i++)
			fn(dst, src, size);
		gettimeofday(&t1, NULL);
	} else {
		set_fn volatile fn = perfdata ? stosb_value : clear_value;

		fn(dst, -1, size);
		gettimeofday(&t0, NULL);
		for (unsigned long i = 0; i < loops; i++)
			fn(dst, (int)i, size);
		gettimeofday(&t1, NULL);
	}
	printf("twin_ns=%llu dst_off=%lu src_off=%lu\n", (unsigned long long)tv_ns(&t0, &t1),
	       (unsigned long)((uintptr_t)dst & 4095),
	       src ? (unsigned long)((uintptr_t)src & 4095) : 0UL);
	return 0;
}

/* ---- the comparison ---- */

/* perf's figure for one run, as the duration of its loops in ns; 0 when it failed. */
static u64 perf_run_ns(const char *coll, const char *fn, const char *size_name, u64 size,
		       unsigned long loops)
{
	char cmd[256], line[256];
	double gib = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "perf bench mem %s -f %s -s %s -l %lu 2>/dev/null", coll, fn,
		 size_name, loops);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		double v;
		char unit[16];

		/* perf 6.1 prints "%14lf GB/sec", "MB/sec", and "%14lfd KB/sec" (sic). */
		if (sscanf(line, " %lf%15s", &v, unit) != 2)
			continue;
		if (!strcmp(unit, "d"))
			sscanf(line, " %lfd %15s", &v, unit);
		if (!strcmp(unit, "GB/sec"))
			gib = v;
		else if (!strcmp(unit, "MB/sec"))
			gib = v / 1024;
		else if (!strcmp(unit, "KB/sec"))
			gib = v / (1024.0 * 1024);
	}
	pclose(p);
	return gib > 0 ? (u64)((double)size * loops / (gib * 1073741824.0) * 1e9) : 0;
}

/* One twin process; its loops' duration in ns (0: failed) and the buffers' page offsets. */
static u64 twin_run_ns(const char *self, const char *coll, const char *fn, u64 size,
		       unsigned long loops, const char *layout, unsigned long off[2])
{
	char cmd[PATH_MAX + 128], line[256];
	unsigned long long ns = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s' --perf-twin %s %s %llu %lu %s", self, coll, fn,
		 (unsigned long long)size, loops, layout);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		sscanf(line, "twin_ns=%llu dst_off=%lu src_off=%lu", &ns, &off[0], &off[1]);
	pclose(p);
	return ns;
}

static double gibps(u64 bytes, u64 ns)
{
	return ns ? (double)bytes / ns * 1e9 / 1073741824.0 : 0;
}

static const struct twin_row {
	const char *coll, *perf_fn, *arg, *ours;
} rows[] = {
	{ "memcpy", "x86-64-movsb", "movsb", "memcpy_erms" },
	{ "memcpy", "x86-64-unrolled", "unrolled", "memcpy_orig" },
	{ "memset", "x86-64-stosb", "stosb", "clear_pages_erms" },
};

static const struct twin_size {
	const char *name;
	u64 bytes;
} sizes[] = {
	{ "4KB", 4096 }, { "2MB", 2 << 20 }, { "64MB", 64 << 20 },
};

static const char *const layouts[] = { "perf", "aligned", "perfdata" };
static const char *const layout_names[] = { "perf's buffers", "aligned buffers",
					    "perf's bufs+data" };

/* The rounds of one row and size: perf's loop times and each layout's twin's. */
struct twin_rounds {
	u64 perf[TWIN_MAX_PAIRS], twin[3][TWIN_MAX_PAIRS];
	unsigned long off[3][2];	/* each layout's dst/src page offsets */
	unsigned int n, layouts;	/* good rounds; layouts compared (memset: 3) */
	unsigned long loops;
	u64 bytes;			/* moved by the loops of one process */
};

/*
 * @pairs rounds of one perf process and one twin per layout, in that order, reversed every
 * other round; a round with a failed run is left out.
 */
static void run_rounds(const char *self, const struct twin_row *row, const struct twin_size *sz,
		       unsigned int pairs, struct twin_rounds *tr)
{
	unsigned int nl = strcmp(row->coll, "memset") ? 2 : 3;

	memset(tr, 0, sizeof(*tr));
	tr->layouts = nl;
	tr->loops = (unsigned long)MAX(TWIN_TRAFFIC / sz->bytes, 2ULL);
	tr->bytes = sz->bytes * tr->loops;
	for (unsigned int p = 0; p < pairs; p++) {
		u64 t[4] = { 0 };

		for (unsigned int j = 0; j <= nl; j++) {
			unsigned int k = p & 1 ? nl - j : j;

			if (!k)
				t[0] = perf_run_ns(row->coll, row->perf_fn, sz->name, sz->bytes,
						   tr->loops);
			else
				t[k] = twin_run_ns(self, row->coll, row->arg, sz->bytes, tr->loops,
						   layouts[k - 1], tr->off[k - 1]);
		}
		if (!t[0] || !t[1] || !t[2] || (nl == 3 && !t[3]))
			continue;	/* a run failed: the round is left out */
		tr->perf[tr->n] = t[0];
		for (unsigned int k = 0; k < nl; k++)
			tr->twin[k][tr->n] = t[k + 1];
		tr->n++;
	}
}

static void twin_record(FILE *json, const char *machine, const struct twin_row *row,
			const struct twin_size *sz, unsigned int k, const struct twin_rounds *tr,
			const struct ratio *q)
{
	struct json_writer w;
	char line[512];

	json_record(&w, line, sizeof(line), "perf-twin");
	json_str(&w, "machine", machine);
	json_str(&w, "primitive", k == 2 ? "rep stosb of i" : row->ours);
	json_str(&w, "perf_function", row->perf_fn);
	json_u64(&w, "size", sz->bytes);
	json_str(&w, "buffers", layouts[k]);
	json_u64(&w, "rounds", tr->n);
	json_double(&w, "twin_gibps", gibps(tr->bytes, stats_median(tr->twin[k], tr->n)), 3);
	json_double(&w, "perf_gibps", gibps(tr->bytes, stats_median(tr->perf, tr->n)), 3);
	json_u64(&w, "ratio_x1000", q->ratio_pm);
	json_u64(&w, "ci_lo_x1000", q->lo_pm);
	json_u64(&w, "ci_hi_x1000", q->hi_pm);
	json_bool(&w, "significant", q->significant);
	json_end(&w);
	fprintf(json, "%s\n", line);
}

/* Each layout's row of the table (and its record): twin / perf with its interval. */
static void report(const char *machine, FILE *json, const struct twin_row *row,
		   const struct twin_size *sz, const struct twin_rounds *tr)
{
	for (unsigned int k = 0; k < tr->layouts; k++) {
		struct ratio q = { 0 };
		char rr[64], offs[24];

		if (tr->n < 3) {
			printf("%-17s %-16s %-5s %-17s only %u good rounds: no figure\n", row->ours,
			       row->perf_fn, sz->name, layout_names[k], tr->n);
			continue;
		}
		stats_round_ratio(tr->perf, tr->twin[k], tr->n, BENCH_BOOT_ITERS, STATS_SEED, &q);
		bench_fmt_ratio(&q, rr, sizeof(rr));
		if (strcmp(row->coll, "memset"))
			snprintf(offs, sizeof(offs), "%lu/%lu", tr->off[k][1], tr->off[k][0]);
		else
			snprintf(offs, sizeof(offs), "-/%lu", tr->off[k][0]);
		printf("%-17s %-16s %-5s %-17s %-11s %10.2f %10.2f  %s\n",
		       k == 2 ? "rep stosb of i" : row->ours, row->perf_fn, sz->name,
		       layout_names[k], offs, gibps(tr->bytes, stats_median(tr->twin[k], tr->n)),
		       gibps(tr->bytes, stats_median(tr->perf, tr->n)), rr);
		if (json)
			twin_record(json, machine, row, sz, k, tr, &q);
	}
}

/* perf runs here, and this program's path (for the twins); false after saying why not. */
static bool can_compare(const char **self, char *exe, size_t size)
{
	ssize_t len;

	if (system("perf bench mem memcpy -s 4KB -l 1 >/dev/null 2>&1") != 0) {
		printf("# perf twin skipped: perf is not installed or cannot run `perf bench mem` "
		       "(Debian: linux-perf); nothing compared\n");
		return false;
	}
	if (*self)
		return true;
	len = readlink("/proc/self/exe", exe, size - 1);
	if (len <= 0) {
		printf("# perf twin skipped: cannot find this program's path\n");
		return false;
	}
	exe[len] = 0;
	*self = exe;
	return true;
}

void perf_twin_compare(const char *self, unsigned int pairs, int cpu, const char *machine,
		       FILE *json)
{
	static struct twin_rounds tr;
	char exe[PATH_MAX];
	unsigned int asked = pairs;

	if (!can_compare(&self, exe, sizeof(exe)))
		return;
	pairs = MIN(MAX(pairs, 3u), (unsigned int)TWIN_MAX_PAIRS);
	if (pairs != asked)
		printf("# perf twin: --perf-pairs %u is outside 3 .. %u: %u rounds\n", asked,
		       TWIN_MAX_PAIRS, pairs);
	printf("\nperf twin: the project's routine timed as perf 6.1 times its own (a fresh "
	       "process, calloc destination then source, memset of the source, one untimed "
	       "call, gettimeofday around the loops), %u rounds each of one `perf bench mem` "
	       "and one twin per layout, order reversed every other round, all on CPU %d; "
	       "GiB/s = 2^30 bytes/s as perf prints; twin/perf = median of per-round speed "
	       "ratios, 2000-resample bootstrap 95%% CI\n", pairs, cpu);
	printf("%-17s %-16s %-5s %-17s %-11s %10s %10s  %s\n", "ours", "perf -f", "size",
	       "buffers", "src/dst %4K", "twin GiB/s", "perf GiB/s", "twin/perf [95% CI] width");
	for (size_t r = 0; r < ARRAY_SIZE(rows); r++)
		for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
			run_rounds(self, &rows[r], &sizes[s], pairs, &tr);
			report(machine, json, &rows[r], &sizes[s], &tr);
			fflush(stdout);
		}
}
