// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sort.c - sort_u64 against the C library's qsort (another algorithm, written
 * elsewhere) on random arrays of every length up to past the largest gap, with few and
 * many distinct values, sorted and reversed input, and the values at the ends of u64.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/sort.h"
#include "tests/host/host_test.h"

static u64 rng = 0x2545f4914f6cdd1dULL;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sort @v[0..@n) both ways and compare; true when they agree. */
static bool agrees(const u64 *v, unsigned int n)
{
	static u64 a[4096], b[4096];

	memcpy(a, v, n * sizeof(*v));
	memcpy(b, v, n * sizeof(*v));
	sort_u64(a, n);
	qsort(b, n, sizeof(*b), cmp_u64);
	return !memcmp(a, b, n * sizeof(*a));
}

static void test_random(void)
{
	static u64 v[4096];
	unsigned int bad = 0;

	for (unsigned int n = 0; n <= 4096; n += n < 64 ? 1 : 61) {
		for (unsigned int k = 0; k < 3; k++) {
			/* k = 0: any value; 1: four distinct values; 2: the ends of u64. */
			for (unsigned int i = 0; i < n; i++) {
				u64 r = next();

				v[i] = k == 0 ? r : k == 1 ? r % 4 : r & 1 ? ~0ULL - (r >> 60) : r >> 60;
			}
			bad += !agrees(v, n);
		}
	}
	CHECK(bad == 0, "%u random arrays sorted unlike qsort", bad);
}

static void test_ordered(void)
{
	static u64 up[3000], down[3000];

	for (unsigned int i = 0; i < 3000; i++) {
		up[i] = i * 7;
		down[i] = (3000 - i) * 7;
	}
	CHECK(agrees(up, 3000), "sorted input");
	CHECK(agrees(down, 3000), "reversed input");
	sort_u64(down, 3000);
	CHECK(down[0] == 7 && down[2999] == 21000, "reversed input: ends %llu %llu",
	      (unsigned long long)down[0], (unsigned long long)down[2999]);
}

int main(void)
{
	return RUN_TESTS(test_random, test_ordered);
}
