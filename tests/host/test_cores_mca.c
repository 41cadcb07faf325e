// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cores_mca.c - the cores suite's machine checks (cores/mca.h) on the host: findings
 * attributed to slices against a simulated timeline (CPUs running slices, errors landing in
 * their banks at known times, banks read before and after each slice as the image reads
 * them: the oracle is the time each error landed, not the code's rule), #MC records placed
 * by CPU and TSC, the grading (the soak's rule for corrected errors: more than the threshold
 * in one bucket fails, once; anything deferred or uncorrected fails), and the JSON record's
 * mca members.
 */
#include <stdlib.h>

#include "cores/mca.h"
#include "cores/record.h"
#include "tests/host/host_test.h"
#include "tests/host/json_check.h"

#define SIM_CPUS	4
#define SIM_SLICES	40

/* A landed error: its CPU, bank and time; where the timeline says it happened. */
struct landed {
	unsigned int cpu, bank;
	u64 at;
	int slice;		/* the slice it landed in on its CPU, -1 between slices */
};

static u64 rnd_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/*
 * Each CPU runs SIM_SLICES slices one after the other with gaps; errors land at random
 * times. The image's readings are simulated: a bank holds what landed until the next
 * reading (before or after a slice) takes it. Each finding must be in_slice exactly when
 * the error landed within that slice's time on that CPU.
 */
static void test_attribution_timeline(void)
{
	unsigned int wrong = 0, found = 0, landed_n = 0;

	for (unsigned int trial = 0; trial < 200; trial++) {
		u64 t0[SIM_CPUS][SIM_SLICES], t1[SIM_CPUS][SIM_SLICES];
		struct landed err[64];
		unsigned int nerr = rnd() % 64;

		for (unsigned int c = 0; c < SIM_CPUS; c++) {
			u64 t = rnd() % 50;

			for (unsigned int s = 0; s < SIM_SLICES; s++) {
				t0[c][s] = t + 1 + rnd() % 20;		/* the reading before */
				t1[c][s] = t0[c][s] + 1 + rnd() % 100;	/* the reading after */
				t = t1[c][s];
			}
		}
		for (unsigned int e = 0; e < nerr; e++) {
			err[e].cpu = rnd() % SIM_CPUS;
			err[e].bank = rnd() % 10;
			/* a reading at time T sees what landed before T */
			err[e].at = rnd() % t1[err[e].cpu][SIM_SLICES - 1];
			err[e].slice = -1;
			for (unsigned int s = 0; s < SIM_SLICES; s++)
				if (err[e].at >= t0[err[e].cpu][s] && err[e].at < t1[err[e].cpu][s])
					err[e].slice = (int)s;
		}
		landed_n += nerr;
		/* The readings, in time order per CPU: before slice s at t0, after it at t1. */
		for (unsigned int c = 0; c < SIM_CPUS; c++) {
			u64 last = 0;

			for (unsigned int s = 0; s < SIM_SLICES; s++) {
				for (int after = 0; after < 2; after++) {
					u64 now = after ? t1[c][s] : t0[c][s];

					for (unsigned int e = 0; e < nerr; e++) {
						enum cores_mca_when w;

						if (err[e].cpu != c || err[e].at < last ||
						    err[e].at >= now)
							continue;
						w = cores_mca_read_when(after);
						found++;
						if ((w == CORES_MCA_IN_SLICE) !=
						    (err[e].slice == (int)s))
							wrong++;
					}
					last = now;
				}
			}
		}
	}
	CHECK(found == landed_n, "%u of %u landed errors found by a reading", found, landed_n);
	CHECK(wrong == 0, "%u of %u findings attributed against the timeline", wrong, found);
}

/* #MC records: inside the slice of their own CPU, ends included; an open slice; others. */
static void test_mc_in_slice(void)
{
	unsigned int wrong = 0;

	CHECK(cores_mca_mc_in_slice(2, 150, 2, 100, 200), "inside");
	CHECK(cores_mca_mc_in_slice(2, 100, 2, 100, 200) &&
	      cores_mca_mc_in_slice(2, 200, 2, 100, 200), "both ends belong to the slice");
	CHECK(!cores_mca_mc_in_slice(2, 99, 2, 100, 200) &&
	      !cores_mca_mc_in_slice(2, 201, 2, 100, 200), "just outside");
	CHECK(!cores_mca_mc_in_slice(1, 150, 2, 100, 200), "another CPU's record");
	CHECK(cores_mca_mc_in_slice(2, 5000, 2, 100, 0), "a slice that never ended is open");
	CHECK(!cores_mca_mc_in_slice(2, 50, 2, 100, 0), "... from its start");
	CHECK(!cores_mca_mc_in_slice(0, 0, 0, 0, 0) && !cores_mca_mc_in_slice(0, 5, 0, 0, 0),
	      "a CPU that ran no slice (both stamps 0) has nothing in it");
	for (unsigned int i = 0; i < 100000; i++) {
		u64 a = rnd() % 1000, b = rnd() % 1000, t = rnd() % 1000;
		unsigned int rc = rnd() % 3, c = rnd() % 3;
		bool want = rc == c && a != 0 && t >= a && (b < a || t <= b);

		wrong += cores_mca_mc_in_slice(rc, t, c, a, b) != want;
	}
	CHECK(wrong == 0, "%u random records placed wrongly", wrong);
}

static struct cores_mca_hit hit(unsigned int cpu, unsigned int bank, u8 sev, u8 when)
{
	return (struct cores_mca_hit){ .cpu = (u16)cpu, .bank = (u16)bank, .sev = sev,
				       .when = when, .kernel = "muldiv", .part = "run" };
}

static void test_grading(void)
{
	struct cores_mca_ledger l;
	struct cores_mca_hit h = hit(3, 2, CORES_MCA_CORRECTED, CORES_MCA_IN_SLICE);
	unsigned int fails = 0;

	cores_mca_init(&l, 10);
	for (unsigned int i = 0; i < 10; i++)
		fails += cores_mca_add(&l, &h);
	CHECK(fails == 0 && !cores_mca_fails(&l), "10 corrected on one bank: within the rule");
	CHECK(cores_mca_corrected_of(&l, 3, 2) == 10, "counted: %u",
	      cores_mca_corrected_of(&l, 3, 2));
	h.bank = 4;
	CHECK(!cores_mca_add(&l, &h) && cores_mca_corrected_of(&l, 3, 4) == 1,
	      "another bank of the CPU is its own bucket");
	h = hit(2, 2, CORES_MCA_CORRECTED, CORES_MCA_BETWEEN);
	CHECK(!cores_mca_add(&l, &h) && cores_mca_corrected_of(&l, 2, 2) == 1,
	      "the same bank of another CPU is its own bucket");
	h = hit(3, 2, CORES_MCA_CORRECTED, CORES_MCA_IN_SLICE);
	CHECK(cores_mca_add(&l, &h) && cores_mca_fails(&l), "the 11th on one bank fails");
	CHECK(!cores_mca_add(&l, &h), "the 12th does not fail a case again");
	CHECK(cores_mca_total(&l, CORES_MCA_CORRECTED) == 14 &&
	      l.count[CORES_MCA_CORRECTED][CORES_MCA_BETWEEN] == 1, "counts by when: %u, %u",
	      cores_mca_total(&l, CORES_MCA_CORRECTED),
	      l.count[CORES_MCA_CORRECTED][CORES_MCA_BETWEEN]);
	CHECK(l.n == 14 && l.hit[13].cpu == 3 && l.hit[13].bank == 2 && l.hit[11].cpu == 2,
	      "each finding kept in order");

	cores_mca_init(&l, 10);
	h = hit(0, 1, CORES_MCA_DEFERRED, CORES_MCA_BETWEEN);
	CHECK(cores_mca_add(&l, &h) && cores_mca_fails(&l), "a deferred error fails, between too");
	cores_mca_init(&l, 10);
	h = hit(0, 1, CORES_MCA_UNCORRECTED, CORES_MCA_IN_SLICE);
	CHECK(cores_mca_add(&l, &h) && cores_mca_fails(&l) &&
	      cores_mca_total(&l, CORES_MCA_UNCORRECTED) == 1 &&
	      cores_mca_corrected_of(&l, 0, 1) == 0, "an uncorrected error fails, no bucket");
	cores_mca_init(&l, 0);
	h = hit(0, 1, CORES_MCA_CORRECTED, CORES_MCA_IN_SLICE);
	CHECK(cores_mca_add(&l, &h), "threshold 0: the first corrected error fails");

	cores_mca_init(&l, 10);
	for (unsigned int b = 0; b < CORES_MCA_BUCKETS + 5; b++) {
		h = hit(b / 8, b % 8, CORES_MCA_CORRECTED, CORES_MCA_IN_SLICE);
		cores_mca_add(&l, &h);
	}
	CHECK(l.nr_buckets == CORES_MCA_BUCKETS && l.other_corrected == 5,
	      "buckets beyond %d go together: %u", CORES_MCA_BUCKETS, l.other_corrected);
	CHECK(l.n == CORES_MCA_BUCKETS + 5 && l.hit[CORES_MCA_KEEP - 1].cpu == 1 &&
	      l.hit[CORES_MCA_KEEP - 1].bank == 7, "the first %d kept, all %u counted",
	      CORES_MCA_KEEP, l.n);
	CHECK(!strcmp(cores_mca_sev_name(CORES_MCA_DEFERRED), "deferred") &&
	      !strcmp(cores_mca_when_name(CORES_MCA_BETWEEN), "between") &&
	      !strcmp(cores_mca_sev_name(9), "?"), "the words");
}

static void test_record_mca(void)
{
	const u64 d[2] = { 7, 7 };
	struct cores_vote v;
	u64 s[2];
	char buf[2048];
	struct cores_mca_hit h[2] = {
		{ .slice = 3, .kernel = "muldiv", .part = "run", .cpu = 1, .apic = 2, .bank = 3,
		  .sev = CORES_MCA_CORRECTED, .when = CORES_MCA_IN_SLICE,
		  .status = 0x9c0000000000009fULL, .ucode_ok = true, .ucode = 0x1000065 },
		{ .slice = 4, .kernel = "muldiv", .part = "replay", .cpu = 0, .apic = 0,
		  .bank = 1, .sev = CORES_MCA_UNCORRECTED, .when = CORES_MCA_BETWEEN,
		  .from_mc = true, .status = 0xbd80000000000134ULL, .ppin_ok = true,
		  .ppin = 0x12345678abcdULL },
	};
	struct cores_result r = { .kernel = "muldiv", .family = "integer", .seed = 1,
				  .rounds = 1, .known = 7, .vote = &v, .mca = h,
				  .mca_total = 5 };

	cores_vote(d, 2, 7, s, &v);
	r.mca_total = 2;
	cores_record_json(&r, buf, sizeof(buf));
	CHECK(jc_valid(buf) && strstr(buf, "\"named\":[],\"mca_total\":2,\"mca\":["
		"{\"slice\":3,\"part\":\"run\",\"cpu\":1,\"apic\":2,\"bank\":3,"
		"\"severity\":\"corrected\",\"when\":\"in_slice\",\"source\":\"poll\","
		"\"status\":\"0x9c0000000000009f\",\"microcode\":\"0x1000065\"},"
		"{\"slice\":4,\"part\":\"replay\",\"cpu\":0,\"apic\":0,\"bank\":1,"
		"\"severity\":\"uncorrected\",\"when\":\"between\",\"source\":\"mc\","
		"\"status\":\"0xbd80000000000134\",\"ppin\":\"0x12345678abcd\"}]}"),
	      "the record's machine checks: %s", buf);
	r.mca_total = 0;
	cores_record_json(&r, buf, sizeof(buf));
	CHECK(jc_valid(buf) && !strstr(buf, "mca"), "none: no mca members: %s", buf);
}

int main(void)
{
	return RUN_TESTS(test_attribution_timeline, test_mc_in_slice, test_grading,
			 test_record_mca);
}
