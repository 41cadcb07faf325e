// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-soak-speed.c - how fast the soak's data path runs hosted: soak_verify_mc (both
 * generators), soak_compare_mc and soak_fill (copy/verify.asm, the objects the image links)
 * against glibc's memcmp and memset over the same buffers, and copy/march.asm's kernel (the
 * passes' inner loop): an element that reads and writes back zeros, and two elements of
 * random data, once as the random pass does them (each word's complement over it, which the
 * kernel folds: the written words from the read ones) against the same work from two
 * sequences (nothing to fold), and the random pass's read-only and write-only elements
 * against the zeros one, pinned to one CPU.
 *
 *	build/ck-soak-speed [--mib N]... [--rounds R] [--k K] [--cpu C]
 *
 * Each size is measured in R rounds; a round times every routine once, in an order that
 * alternates between rounds (ABBA...), each sample the minimum of K back-to-back calls. The
 * table gives the median rate in GB/s of buffer data (10^9 bytes per second: for memcmp and
 * compare, bytes of one buffer, though they read two), and each routine's speed relative to
 * memcmp (or memset, for fill) as the median of the per-round ratios with a bootstrap 95%
 * interval (bench/stats.c, docs/design/benchmark-method.md). Buffers are mmap'ed with MADV_HUGEPAGE
 * and touched before the first round. A benchmark, not a test: nothing here asserts a time.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench/stats.h"
#include "copy/march.h"
#include "copy/verify.h"

#define MAX_ROUNDS	STATS_MAX
#define NR_ROUTINES	11

static u8 *a, *b, *z;
static size_t len;
static volatile u64 sink;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static const struct soak_desc rnd = { SOAK_GEN_RANDOM, 0x0123456789abcdefULL, 0, 0 };
static const struct soak_desc walk = { SOAK_GEN_ROTATE, 1, 0, 0 };

static void run_memcmp(void) { sink += (u64)memcmp(a, b, len); }
static void run_verify_random(void)
{
	struct soak_miss m;

	sink += soak_verify_mc(a, len, &rnd, &m);
}
static void run_verify_walk(void)
{
	struct soak_miss m;

	sink += soak_verify_mc(b, len, &walk, &m);
}
static void run_compare(void)
{
	struct soak_miss m;

	sink += soak_compare_mc(a, b, len, &m);
}
/* copy/march.asm's kernel: an element that reads and writes back what each word holds. */
static void run_march(u8 *buf, const struct soak_desc *d, u64 flags)
{
	const struct soak_mv mv = { *d, *d, SOAK_MV_READ | SOAK_MV_WRITE | flags };
	struct soak_word_miss m;

	sink += soak_march_mc(buf, len, &mv, &m);
}
static const struct soak_desc zero = { SOAK_GEN_CONST, 0, 0, 0 };
/* the random pass's element: each word's complement over it (copy/march.asm folds it) */
static const struct soak_desc rnd_inv = { SOAK_GEN_RANDOM, 0x0123456789abcdefULL, ~0ULL, 0 };
/* the same work from two sequences: nothing to fold */
static const struct soak_desc rnd2 = { SOAK_GEN_RANDOM, 0x0123456789abcdeeULL, 0, 0 };
static void run_march_zero(void) { run_march(z, &zero, 0); }
static void run_march_two(void)
{
	const struct soak_mv mv = { rnd, rnd2, SOAK_MV_READ | SOAK_MV_WRITE | SOAK_MV_DOWN };
	struct soak_word_miss m;

	sink += soak_march_mc(a, len, &mv, &m);
	sink += soak_march_mc(a, len, &(struct soak_mv){ rnd2, rnd, mv.flags }, &m);
}
static void run_march_fold(void)
{
	const struct soak_mv mv = { rnd, rnd_inv, SOAK_MV_READ | SOAK_MV_WRITE | SOAK_MV_DOWN };
	struct soak_word_miss m;

	sink += soak_march_mc(a, len, &mv, &m);
	sink += soak_march_mc(a, len, &(struct soak_mv){ rnd_inv, rnd, mv.flags }, &m);
}
/* the random pass's last element (read only) and a copy's source (written only, movnti) */
static void run_march_one(u64 flags)
{
	const struct soak_mv mv = { rnd, rnd, flags };
	struct soak_word_miss m;

	sink += soak_march_mc(a, len, &mv, &m);
}
static void run_march_read(void) { run_march_one(SOAK_MV_READ); }
static void run_march_write(void) { run_march_one(SOAK_MV_WRITE); }
static void run_memset(void) { memset(b, 0x5a, len); }
static void run_fill(void) { sink += soak_fill(b, len, &walk); }

static const struct routine {
	const char *name;
	void (*run)(void);
	int base;			/* the row it is compared with */
} routines[NR_ROUTINES] = {
	{ "memcmp (glibc)", run_memcmp, 0 },
	{ "soak_verify_mc random", run_verify_random, 0 },
	{ "soak_verify_mc walking", run_verify_walk, 0 },
	{ "soak_compare_mc", run_compare, 0 },
	{ "memset (glibc)", run_memset, 4 },
	{ "soak_fill walking", run_fill, 4 },
	{ "march up(r0,w0)", run_march_zero, 6 },
	{ "march 2x down(rR,wR')", run_march_two, 7 },
	{ "march 2x down(rR,w~R)", run_march_fold, 7 },
	{ "march up(rR)", run_march_read, 6 },
	{ "march up(wR)", run_march_write, 6 },
};

static u64 sample(const struct routine *r, unsigned int k)
{
	u64 best = ~0ULL;

	for (unsigned int i = 0; i < k; i++) {
		u64 t0 = now_ns(), t;

		r->run();
		t = now_ns() - t0;
		if (t < best)
			best = t;
	}
	return best ? best : 1;
}

/* b must hold the walking pattern and a the random one, with a == b for memcmp/compare:
 * each routine reads its buffer as the others left it, so set the data up per round. */
static void prepare(void)
{
	soak_fill(a, len, &rnd);
	memcpy(b, a, len);
}

static void measure(size_t mib, unsigned int rounds, unsigned int k)
{
	static u64 t[NR_ROUTINES][MAX_ROUNDS];
	struct ratio r;

	len = mib << 20;
	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	z = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED || b == MAP_FAILED || z == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	madvise(a, len, MADV_HUGEPAGE);
	madvise(b, len, MADV_HUGEPAGE);
	madvise(z, len, MADV_HUGEPAGE);
	memset(z, 0, len);
	memset(a, 1, len);
	memset(b, 1, len);
	for (unsigned int i = 0; i < rounds; i++) {
		for (int j = 0; j < NR_ROUTINES; j++) {
			int idx = (i & 1) ? NR_ROUTINES - 1 - j : j;

			/* compare and memcmp need equal buffers; the walk verify needs b walking */
			prepare();
			if (idx == 2)
				soak_fill(b, len, &walk);
			t[idx][i] = sample(&routines[idx], k);
		}
	}
	printf("%zu MiB, %u rounds, min of %u:\n", mib, rounds, k);
	for (int j = 0; j < NR_ROUTINES; j++) {
		u64 tmp[MAX_ROUNDS];
		struct stats st;

		memcpy(tmp, t[j], rounds * sizeof(u64));
		stats_compute(tmp, rounds, &st);
		printf("  %-24s %6.2f GB/s", routines[j].name, (double)len / (double)st.median);
		if (routines[j].base != j && stats_round_ratio(t[routines[j].base], t[j], rounds,
							      STATS_BOOT_MAX, STATS_SEED, &r))
			printf("  %.3fx of %s [%.3f, %.3f]", r.ratio_pm / 1000.0,
			       routines[routines[j].base].name, r.lo_pm / 1000.0,
			       r.hi_pm / 1000.0);
		printf("\n");
	}
	munmap(a, len);
	munmap(b, len);
	munmap(z, len);
}

int main(int argc, char **argv)
{
	size_t sizes[8], nr = 0;
	unsigned int rounds = 15, k = 3;
	int cpu = -1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mib") && i + 1 < argc && nr < 8)
			sizes[nr++] = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--k") && i + 1 < argc)
			k = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			cpu = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [--mib N]... [--rounds 3..%d] [--k K] "
				"[--cpu C]\n", argv[0], MAX_ROUNDS);
			return 2;
		}
	}
	if (rounds < 3 || rounds > MAX_ROUNDS || !k) {
		fprintf(stderr, "rounds must be 3..%d and k at least 1\n", MAX_ROUNDS);
		return 2;
	}
	if (!nr) {
		sizes[nr++] = 1;
		sizes[nr++] = 512;
	}
	if (cpu < 0)
		cpu = sched_getcpu();
	{
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("sched_setaffinity");
	}
	printf("pinned to CPU %d\n", cpu);
	for (size_t i = 0; i < nr; i++) {
		if (!sizes[i] || sizes[i] > 16384) {
			fprintf(stderr, "--mib must be 1..16384\n");
			return 2;
		}
		measure(sizes[i], rounds, k);
	}
	return 0;
}
