// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_noise.c - the noise accounting (bench/noise.c) with simulated counters: an SMI, a
 * change of the effective clock, a C-state and a counter running backwards disturb a
 * timing; steady counters do not; a machine without the counters is never judged. Then the
 * harness with a fake environment whose counters follow a script: the disturbed rounds, the
 * SMIs and the effective clock in the result, its JSON and its table column, and the JSON
 * of a run where the counters are unavailable.
 */
#include "bench/harness.h"
#include "tests/host/host_test.h"

#define TSC_MHZ	3000

/* A snapshot after @tsc cycles at @pm per mille of the TSC's rate, @smi SMIs so far. */
static struct noise_snap at(u64 tsc, u64 pm, u64 smi)
{
	return (struct noise_snap){ .tsc = tsc, .aperf = tsc * pm / 1000, .mperf = tsc,
				    .smi = smi };
}

static void test_steady(void)
{
	struct noise_acct a;
	struct noise_snap s0 = at(1000000, 1000, 7), s1 = at(2000000, 1000, 7);

	noise_start(&a, NOISE_SMI | NOISE_APERF, TSC_MHZ);
	CHECK(!noise_account(&a, &s0, &s1), "the reference timing is not disturbed");
	CHECK(a.ref_pm == 1000 && a.mhz_min == TSC_MHZ && a.mhz_max == TSC_MHZ,
	      "reference %llu pm, clock %llu-%llu MHz", (unsigned long long)a.ref_pm,
	      (unsigned long long)a.mhz_min, (unsigned long long)a.mhz_max);
	/* 1.5% off the reference: inside the 2% band */
	s0 = at(3000000, 1000, 7);
	s1 = (struct noise_snap){ 4000000, 3000000 + 1015000, 4000000, 7 };
	CHECK(!noise_account(&a, &s0, &s1), "1.5%% off the reference is the same clock");
	CHECK(a.smis == 0 && a.freq_changes == 0 && a.not_c0 == 0, "nothing counted");
	CHECK(a.mhz_max == TSC_MHZ * 1015 / 1000, "the clock range follows: %llu",
	      (unsigned long long)a.mhz_max);
}

static void test_smi(void)
{
	struct noise_acct a;
	struct noise_snap s0 = at(1000, 1000, 41), s1 = at(2000000, 1000, 43);

	noise_start(&a, NOISE_SMI | NOISE_APERF, TSC_MHZ);
	CHECK(noise_account(&a, &s0, &s1), "two SMIs disturb the timing");
	CHECK(a.smis == 2 && a.smi_timings == 1, "%llu SMIs in %u timings",
	      (unsigned long long)a.smis, a.smi_timings);
	s0 = at(3000000, 1000, 43);
	s1 = at(4000000, 1000, 43);
	CHECK(!noise_account(&a, &s0, &s1), "no SMI, no disturbance");
	/* Without MSR_SMI_COUNT (AMD), the field is not read: it cannot disturb. */
	noise_start(&a, NOISE_APERF, TSC_MHZ);
	s0 = at(1000, 1000, 0);
	s1 = at(2000000, 1000, 99);
	CHECK(!noise_account(&a, &s0, &s1) && a.smis == 0, "no SMI counter: not judged");
}

static void test_frequency(void)
{
	struct noise_acct a;
	struct noise_snap s0 = at(0, 1200, 0), s1 = at(1000000, 1200, 0);

	noise_start(&a, NOISE_SMI | NOISE_APERF, TSC_MHZ);
	noise_account(&a, &s0, &s1);			/* turbo at 1.2x: the reference */
	s0 = at(2000000, 1200, 0);
	s1 = (struct noise_snap){ 3000000, 2400000 + 1140000, 3000000, 0 };	/* 1.14x: -5% */
	CHECK(noise_account(&a, &s0, &s1), "a 5%% drop of the clock disturbs the timing");
	CHECK(a.freq_changes == 1, "counted: %u", a.freq_changes);
	CHECK(a.mhz_min == TSC_MHZ * 1140 / 1000 && a.mhz_max == TSC_MHZ * 1200 / 1000,
	      "clock %llu-%llu MHz", (unsigned long long)a.mhz_min,
	      (unsigned long long)a.mhz_max);
	s0 = at(4000000, 1200, 0);
	s1 = (struct noise_snap){ 5000000, 4800000 + 1260000, 5000000, 0 };	/* +5% */
	CHECK(noise_account(&a, &s0, &s1) && a.freq_changes == 2, "a 5%% rise too");
	/* Halted for 5% of the timing: MPERF stops, the TSC does not. */
	s0 = at(6000000, 1200, 0);
	s1 = (struct noise_snap){ 7000000, 7200000 + 950000 * 12 / 10, 6000000 + 950000, 0 };
	CHECK(noise_account(&a, &s0, &s1) && a.not_c0 == 1, "leaving C0 disturbs: %u",
	      a.not_c0);
	/* A counter running backwards (written, or reset) */
	s0 = at(8000000, 1200, 0);
	s1 = s0;
	s1.tsc += 1000;
	s1.mperf -= 10;
	CHECK(noise_account(&a, &s0, &s1) && a.backwards == 1, "backwards counter disturbs");
	/* A machine with neither counter is never judged. */
	noise_start(&a, 0, TSC_MHZ);
	s0 = at(0, 1000, 0);
	s1 = at(1000000, 500, 9);
	CHECK(!noise_account(&a, &s0, &s1) && !a.mhz_max, "no counters: not judged");
	noise_restart(&a);
	CHECK(a.have == 0 && a.tsc_mhz == TSC_MHZ, "restart keeps what is measured");
}

/* ---- the harness with scripted counters ---- */

static u64 fake_now, fake_tsc, fake_aperf, fake_smi, timings;
static u64 smi_at = ~0ULL, slow_at = ~0ULL;	/* timing index that gets an SMI / low clock */

static u64 now(void)
{
	return fake_now;
}

static u64 cyc(void)
{
	return fake_tsc;
}

static void out(const char *l)
{
	(void)l;
}

/* 20 us per call, at 3 GHz: the TSC and MPERF advance 60000, APERF as the script says. */
static void run(void *p)
{
	(void)p;
	fake_now += 20000;
	fake_tsc += 60000;
	fake_aperf += timings == slow_at ? 60000 * 9 / 10 : 60000;
	if (timings == smi_at)
		fake_smi++;
	timings++;
}

static void read_counters(struct noise_snap *s)
{
	*s = (struct noise_snap){ fake_tsc, fake_aperf, fake_tsc, fake_smi };
}

static struct bench_env env = { .now_ns = now, .cycles = cyc, .cycles_per_us = TSC_MHZ,
				 .out = out, .machine = "test", .noise_read = read_counters,
				 .noise_have = NOISE_SMI | NOISE_APERF };

static void test_harness_counts(void)
{
	static struct bench_result r;
	struct bench_case c = { .api = "x", .primitive = "p", .bytes = 1 << 20, .fn = run };
	char buf[1024], col[64];

	/* warm-up 2, calibration 3 (not accounted), then rounds of k = 5 timings */
	timings = 0;
	smi_at = 2 + 3 + 5 * 1 + 2;	/* round 1 */
	slow_at = 2 + 3 + 5 * 3;	/* round 3 */
	bench_run(&env, &c, BENCH_HOT, 4, &r);
	CHECK(r.runs == 4 && r.disturbed == 2, "rounds 1 and 3 disturbed: %u", r.disturbed);
	CHECK(r.noise.smis == 1 && r.noise.freq_changes == 1, "one SMI (%llu), one clock change "
	      "(%u)", (unsigned long long)r.noise.smis, r.noise.freq_changes);
	CHECK(r.noise.mhz_min == 2700 && r.noise.mhz_max == 3000, "clock %llu-%llu MHz",
	      (unsigned long long)r.noise.mhz_min, (unsigned long long)r.noise.mhz_max);
	bench_json(&env, &c, BENCH_HOT, &r, buf, sizeof(buf));
	CHECK(strstr(buf, "\"smi\":1,\"eff_mhz_min\":2700,\"eff_mhz_max\":3000,"
			  "\"freq_changes\":1,\"not_c0\":0,\"noise\":\"measured\"}") != NULL,
	      "JSON: %s", buf);
	bench_fmt_noise(&r, col, sizeof(col));
	CHECK(!strcmp(col, " smi=1 clk=2700-3000MHz"), "column: '%s'", col);

	/* An SMI in a warm-up is not the run's: it is not counted. */
	timings = 0;
	smi_at = 0;
	slow_at = ~0ULL;
	bench_run(&env, &c, BENCH_HOT, 4, &r);
	CHECK(r.disturbed == 0 && r.noise.smis == 0, "warm-up SMI ignored: %u, %llu",
	      r.disturbed, (unsigned long long)r.noise.smis);

	/* Under a hypervisor: nothing read, the JSON says why. */
	env.noise_have = 0;
	env.noise_why = "under a hypervisor";
	timings = 0;
	smi_at = 2 + 3 + 1;
	bench_run(&env, &c, BENCH_HOT, 4, &r);
	CHECK(r.disturbed == 0, "no counters, no judgement: %u", r.disturbed);
	bench_json(&env, &c, BENCH_HOT, &r, buf, sizeof(buf));
	CHECK(strstr(buf, "\"smi\":null,\"eff_mhz_min\":null,\"eff_mhz_max\":null,"
			  "\"freq_changes\":null,\"not_c0\":null,"
			  "\"noise\":\"unavailable: under a hypervisor\"}") != NULL, "JSON: %s", buf);
	bench_fmt_noise(&r, col, sizeof(col));
	CHECK(col[0] == 0, "no column: '%s'", col);
	env.noise_have = NOISE_SMI | NOISE_APERF;
	env.noise_why = NULL;
}

static void test_compare_counts(void)
{
	static struct bench_result ra, rb;
	struct ratio q;
	struct bench_case a = { .api = "x", .primitive = "a", .bytes = 1 << 20, .fn = run };
	struct bench_case b = a;

	/* warm-ups 2 x 2, calibration 3 + 3, then per round 5 of A and 5 of B (or B, A) */
	timings = 0;
	smi_at = 4 + 6 + 10 * 2 + 7;	/* round 2 (A B): B's third timing */
	slow_at = ~0ULL;
	b.primitive = "b";
	bench_compare(&env, &a, &b, BENCH_HOT, 4, &ra, &rb, &q);
	CHECK(ra.disturbed == 1 && rb.disturbed == 1, "the round is disturbed for both: %u %u",
	      ra.disturbed, rb.disturbed);
	CHECK(ra.noise.smis == 0 && rb.noise.smis == 1, "the SMI is B's: %llu %llu",
	      (unsigned long long)ra.noise.smis, (unsigned long long)rb.noise.smis);
}

int main(void)
{
	return RUN_TESTS(test_steady, test_smi, test_frequency, test_harness_counts,
			 test_compare_counts);
}
