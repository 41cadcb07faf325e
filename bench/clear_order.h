/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clear_order.h - the seed003 preset: clearing PMD folios, in three parts.
 *
 *   1. Seed 003's table in its own layout (bench/seed003.c): N = 1, 100 and 512 PMD folios
 *      cleared by clear_highpage() page by page, by folio_zero_range() (memset style) and
 *      by folio_zero_user() (v6.17: process_huge_page()'s target-last order, a reschedule
 *      point before every page), five cache-cold runs each, in microseconds, their average
 *      and a 95% interval of the mean; the seed's own averages printed beside, labelled.
 *   2. The order (bench/clear_order.c): target-last against sequential (commit
 *      9890ecab6ad9) and against folio_zero_user() as merged in 7.0, at 2 MiB (one folio)
 *      and 1 GiB (512 folios), cache-cold, with the comparison method of bench/harness.h;
 *      upstream's Genoa figure printed beside, labelled.
 *   3. The batch curve: 1 GiB cleared by clear_pages() in extents of 4 KiB, 2 MiB, 8 MiB,
 *      32 MiB (Linux 7.0's PROCESS_PAGES_NON_PREEMPT_BATCH) and whole, cache-cold, with
 *      the largest cache CPUID describes printed beside it.
 *
 * The target is each folio's first subpage (a first touch at the folio's start faults
 * there; seed 003's fallocate path passes address 0). Every reschedule point is a call that
 * tests a flag nothing sets: what cond_resched() costs when there is nothing else to run.
 * Test mode (bench_tiny): 64 KiB folios, N = 1, 4, 16, the curve over 4 MiB.
 */
#ifndef CK_BENCH_CLEAR_ORDER_H
#define CK_BENCH_CLEAR_ORDER_H

#include "bench/harness.h"
#include "bench/platform.h"

/* A figure quoted from upstream or a seed, never measured here; values x100. */
struct bench_quoted {
	const char *what, *machine;
	u32 before_x100, after_x100;	/* after: 0 when there is one value */
	const char *unit, *source;
};
extern const struct bench_quoted clear_quoted[];
extern const unsigned int clear_quoted_count;

/* Seed 003's averages (us x10) for N = 1, 100, 512: clear_highpage, zero_range, zero_user. */
extern const u32 seed003_avg_x10[3][3];

/* The folios for part 1 and 2: @n of @folio_bytes each, from @buf; false when one fails. */
struct seed_folios {
	struct folio f[512];
	unsigned int n;
	u64 folio_bytes;
};
bool seed_folios_make(const struct bench_platform *p, u8 *buf, u64 folio_bytes,
		      unsigned int n, struct seed_folios *sf);
/* The reschedule point of this preset (tests a flag), and making a buffer cold. */
void seed_resched(void);
void seed_cold(const struct bench_env *env, void *buf, u64 bytes);

/* Part 1 over the folios of @buf; returns the measurements made. */
unsigned int seed003_table(const struct bench_env *env, const struct bench_platform *p,
			   u8 *buf);

/* Parts 2 and 3 over @bytes of @buf (bench/clear_order.c); returns the measurements made. */
unsigned int clear_order_parts(const struct bench_env *env, const struct bench_platform *p,
			       u8 *buf, u64 bytes);

unsigned int preset_seed003(const struct bench_env *env, const struct bench_platform *p);

#endif
