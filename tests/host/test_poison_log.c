// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_poison_log.c - memory_failure_queue()'s poison list (kernel/mm/page.c) as several CPUs
 * use it at once: the first POISON_LOG_MAX pages kept in order, every page counted once in
 * total, a page queued twice (by the #MC handler and the copy API, or by two CPUs) kept
 * once, and four threads queueing the same pages in different orders leaving each page
 * queued exactly once. The expectations are the contract page.h states, counted here.
 */
#include <pthread.h>

#include "kernel/mm/page.h"
#include "tests/host/host_test.h"

#define NFRAMES		200
#define NTHREADS	4
#define ROUNDS		2000

static struct page frames[NFRAMES];
static const u64 base_pfn = 0x100000;

static void reset(void)
{
	memset(&poison_log, 0, sizeof(poison_log));
	for (int i = 0; i < NFRAMES; i++)
		frames[i].flags = 0;
}

static void test_order_and_bound(void)
{
	reset();
	/* Frameless pfns (above the section): looked up in the log. */
	for (u64 i = 0; i < 70; i++)
		memory_failure_queue(0x900000 + i);
	CHECK(poison_log.n == POISON_LOG_MAX, "%u kept, want %d", poison_log.n, POISON_LOG_MAX);
	CHECK(poison_log.total == 70, "total %llu, want 70", (unsigned long long)poison_log.total);
	for (unsigned int i = 0; i < poison_log.n; i++)
		CHECK(poison_log.pfn[i] == 0x900000 + i, "slot %u holds %#llx", i,
		      (unsigned long long)poison_log.pfn[i]);
	memory_failure_queue(0x900003);
	CHECK(poison_log.total == 70 && poison_log.n == POISON_LOG_MAX,
	      "a page on the log is not queued again");
}

static void test_frame_flag(void)
{
	reset();
	memory_failure_queue(base_pfn + 7);
	memory_failure_queue(base_pfn + 7);
	CHECK(page_hwpoison(&frames[7]), "the frame is marked");
	CHECK(poison_log.n == 1 && poison_log.total == 1 && poison_log.pfn[0] == base_pfn + 7,
	      "queued once: n %u total %llu", poison_log.n, (unsigned long long)poison_log.total);
	/* A test that clears the flag again: the log still knows the page. */
	frames[7].flags = 0;
	memory_failure_queue(base_pfn + 7);
	CHECK(poison_log.n == 1 && poison_log.total == 1, "the log keeps it from a second entry");
}

static pthread_barrier_t start, finish;

/* Each round every thread queues all pages, in its own order, from the same moment. */
static void *queue_all(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;

	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&start);
		for (unsigned int i = 0; i < NFRAMES; i++) {
			unsigned int k = id & 1 ? NFRAMES - 1 - i : (i * 7 + id) % NFRAMES;

			memory_failure_queue(base_pfn + k);
		}
		pthread_barrier_wait(&finish);
	}
	return NULL;
}

/* One round's outcome: every page queued once, the log the first 64 of them, no repeats. */
static bool round_ok(int r)
{
	bool seen[NFRAMES] = { false };
	unsigned int dups = 0, stray = 0, unmarked = 0;

	for (unsigned int i = 0; i < poison_log.n; i++) {
		u64 k = poison_log.pfn[i] - base_pfn;

		if (k >= NFRAMES) {
			stray++;
			continue;
		}
		dups += seen[k];
		seen[k] = true;
	}
	for (unsigned int i = 0; i < NFRAMES; i++)
		unmarked += !page_hwpoison(&frames[i]);
	if (poison_log.total == NFRAMES && poison_log.n == POISON_LOG_MAX &&
	    poison_log.reserved == NFRAMES && !dups && !stray && !unmarked)
		return true;
	printf("# round %d: total %llu (want %d), n %u, reserved %u, %u logged twice, %u strays, "
	      "%u unmarked\n", r, (unsigned long long)poison_log.total, NFRAMES, poison_log.n,
	      poison_log.reserved, dups, stray, unmarked);
	return false;
}

static void test_threads(void)
{
	pthread_t th[NTHREADS];
	int bad = 0;

	pthread_barrier_init(&start, NULL, NTHREADS + 1);
	pthread_barrier_init(&finish, NULL, NTHREADS + 1);
	for (unsigned int t = 0; t < NTHREADS; t++)
		pthread_create(&th[t], NULL, queue_all, (void *)(uintptr_t)t);
	for (int r = 0; r < ROUNDS; r++) {
		reset();
		pthread_barrier_wait(&start);
		pthread_barrier_wait(&finish);
		bad += !round_ok(r);
	}
	CHECK(!bad, "%d of %d rounds wrong", bad, ROUNDS);
	for (unsigned int t = 0; t < NTHREADS; t++)
		pthread_join(th[t], NULL);
}

int main(void)
{
	pgmap_add(base_pfn, NFRAMES, frames, 0);
	return RUN_TESTS(test_order_and_bound, test_frame_flag, test_threads);
}
