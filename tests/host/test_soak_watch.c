// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_watch.c - the watchdog's judgement (soak/watch.c) over sampled heartbeats:
 * a beating CPU is never stuck, one silent for exactly the bound is not yet and one silent
 * for longer is, once; a stuck CPU stays stuck when it beats again; a CPU that finished is
 * not judged; a sample from an earlier clock restarts the silence. Each timeline is written
 * out here with the answer the rules in watch.h give.
 */
#include "soak/watch.h"
#include "tests/host/host_test.h"

#define LIMIT	5000000ULL	/* 5 s */

static void test_beating(void)
{
	struct soak_watch w;

	soak_watch_init(&w, 0, 0);
	for (u64 t = 1; t <= 60; t++)
		CHECK(!soak_watch_judge(&w, t, false, t * 1000000, LIMIT), "beat %llu judged stuck",
		      (unsigned long long)t);
	CHECK(w.state == SOAK_WATCH_ALIVE && w.since_us == 60000000, "alive since the last beat");
}

static void test_silent(void)
{
	struct soak_watch w;
	unsigned int stuck = 0;

	soak_watch_init(&w, 7, 1000);
	CHECK(!soak_watch_judge(&w, 8, false, 2000, LIMIT), "a beat at 2 ms");
	CHECK(!soak_watch_judge(&w, 8, false, 2000 + LIMIT, LIMIT), "silent for the bound: not yet");
	CHECK(soak_watch_judge(&w, 8, false, 2001 + LIMIT, LIMIT), "one microsecond more: stuck");
	CHECK(w.state == SOAK_WATCH_STUCK && w.silent_us == LIMIT + 1, "silent %llu us",
	      (unsigned long long)w.silent_us);
	for (u64 t = 0; t < 10; t++)
		stuck += soak_watch_judge(&w, 8, false, 10 * LIMIT + t, LIMIT);
	CHECK(stuck == 0, "judged stuck %u more times", stuck);
	CHECK(!soak_watch_judge(&w, 9, false, 11 * LIMIT, LIMIT) && w.state == SOAK_WATCH_STUCK &&
	      w.beat_again, "it beats again: still stuck, and that is noted");
	CHECK(!soak_watch_judge(&w, 9, true, 12 * LIMIT, LIMIT) && w.state == SOAK_WATCH_STUCK,
	      "finishing late does not undo it");
}

static void test_done(void)
{
	struct soak_watch w;

	soak_watch_init(&w, 3, 0);
	CHECK(!soak_watch_judge(&w, 3, true, 1000, LIMIT) && w.state == SOAK_WATCH_DONE, "done");
	CHECK(!soak_watch_judge(&w, 3, false, 100 * LIMIT, LIMIT) && w.state == SOAK_WATCH_DONE,
	      "a finished CPU is silent by right");
}

static void test_clock_behind(void)
{
	struct soak_watch w;

	soak_watch_init(&w, 1, 10 * LIMIT);
	CHECK(!soak_watch_judge(&w, 1, false, 2 * LIMIT, LIMIT), "an earlier clock");
	CHECK(w.since_us == 2 * LIMIT, "restarts the silence from the earlier reading");
	CHECK(!soak_watch_judge(&w, 1, false, 3 * LIMIT, LIMIT) &&
	      soak_watch_judge(&w, 1, false, 3 * LIMIT + 1, LIMIT), "then judged from there");
}

int main(void)
{
	return RUN_TESTS(test_beating, test_silent, test_done, test_clock_behind);
}
