// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_peer.c - host/soak/twin_peer.c: stressapptest's summary parsed from its own output
 * (tests/data/stressapptest/, captured from Debian's stressapptest 1.0.6: README.md there
 * says how), what each side's rates count, the twin's result line, and the ratio of
 * interleaved rounds.
 *
 * Expected values: the numbers the captured logs print (read off the files by eye), and
 * stressapptest's own definitions (src/worker.h: a copy thread's data is twice its pages;
 * src/sattypes.h: kMegabyte is 2^20) for the conversion; the accounting and ratio cases are
 * worked by hand.
 */
#include <math.h>

#include "host/soak/twin_peer.h"
#include "tests/host/host_test.h"

#define DATA	"tests/data/stressapptest/"
#define MIB	1048576.0

/* Parse a whole captured log; false when it cannot be read (run from the tree's top). */
static bool parse_file(const char *name, struct sat_summary *s)
{
	char line[1024];
	FILE *f = fopen(name, "r");

	sat_summary_init(s);
	if (!f) {
		printf("# cannot open %s (run the test from the top of the tree)\n", name);
		return false;
	}
	while (fgets(line, sizeof(line), f))
		sat_parse_line(s, line);
	fclose(f);
	return true;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-6;
}

static void test_default_run(void)
{
	struct sat_summary s;

	CHECK(parse_file(DATA "default-2t.log", &s), "default-2t.log");
	CHECK(s.have_copy && s.copy_mib == 32678.0 && near(s.copy_mibps, 6530.35),
	      "Memory Copy %.2f M at %.2f", s.copy_mib, s.copy_mibps);
	CHECK(s.have_completed && s.total_mib == 32678.0 && near(s.seconds, 5.0) &&
	      near(s.total_mibps, 6530.18) && !s.incidents && !s.errors,
	      "Completed %.2f in %.2f", s.total_mib, s.seconds);
	CHECK(s.have_status && s.pass, "Status: PASS");
	CHECK(!strcmp(s.revision, "1.0.6_autoconf"), "revision '%s'", s.revision);
	CHECK(!strcmp(s.memory, "memaligned allocation"), "memory '%s'", s.memory);
	CHECK(!sat_summary_unusable(&s), "usable: %s", sat_summary_unusable(&s));
	/* its own figures agree: the data over the run's time is the rate it prints */
	CHECK(fabs(s.copy_mib / s.seconds - s.copy_mibps) < 0.01 * s.copy_mibps, "consistent");
}

static void test_warm_and_failing_runs(void)
{
	struct sat_summary w, f;

	CHECK(parse_file(DATA "warm-2t.log", &w), "warm-2t.log");
	CHECK(w.have_copy && w.copy_mib == 27962.0 && near(w.copy_mibps, 5596.18) && w.pass,
	      "warm: %.2f M at %.2f", w.copy_mib, w.copy_mibps);
	CHECK(parse_file(DATA "force-errors.log", &f), "force-errors.log");
	CHECK(f.have_status && !f.pass, "--force_errors: Status: FAIL");
	CHECK(f.incidents == 1 && f.miscompare_lines == 1 && f.errors == 0,
	      "incidents %llu, miscompare lines %llu", (unsigned long long)f.incidents,
	      (unsigned long long)f.miscompare_lines);
	CHECK(f.have_copy && near(f.copy_mibps, 8481.69), "a rate still: %.2f", f.copy_mibps);
}

static void test_unusable(void)
{
	struct sat_summary s;

	sat_summary_init(&s);
	sat_parse_line(&s, "Stats: SAT revision 1.0.6_autoconf, 64 bit binary\n");
	CHECK(sat_summary_unusable(&s) != NULL, "no Memory Copy line");
	sat_parse_line(&s, "Stats: Memory Copy: 100.00M at 20.00MB/s\n");
	CHECK(sat_summary_unusable(&s) && strstr(sat_summary_unusable(&s), "Status"),
	      "killed before its Status line: %s", sat_summary_unusable(&s));
	sat_parse_line(&s, "Status: PASS - please verify no corrected errors");
	CHECK(!sat_summary_unusable(&s), "now usable");
	sat_summary_init(&s);
	sat_parse_line(&s, "Stats: Memory Copy: 0.00M at 0.00MB/s");
	sat_parse_line(&s, "Status: PASS - please verify no corrected errors");
	CHECK(sat_summary_unusable(&s) != NULL, "a zero rate is no figure");
	sat_parse_line(&s, "Stats: Memory Copy: garbage");
	CHECK(s.copy_mibps == 0, "a garbled line changes nothing");
}

/* stressapptest's rates: its MB are 2^20 bytes and count every copied byte twice. */
static void test_sat_rates(void)
{
	struct sat_summary s;

	sat_summary_init(&s);
	sat_parse_line(&s, "Stats: Memory Copy: 40000.00M at 8000.00MB/s");
	sat_parse_line(&s, "Status: PASS - please verify no corrected errors");
	CHECK(near(sat_rate(&s, SOAK_RATE_CHECKED), 4000.0 * MIB), "checked %.0f",
	      sat_rate(&s, SOAK_RATE_CHECKED));
	CHECK(near(sat_rate(&s, SOAK_RATE_COPIED), 4000.0 * MIB), "copied %.0f",
	      sat_rate(&s, SOAK_RATE_COPIED));
	CHECK(near(sat_rate(&s, SOAK_RATE_TRAFFIC), 8000.0 * MIB), "traffic %.0f",
	      sat_rate(&s, SOAK_RATE_TRAFFIC));
}

/* Elements of B: read-write (R B, W B), a copy (R B, W B, C B), read-only (R B). */
static void test_twin_accounting(void)
{
	struct soak_twin_count t[2] = { { .ns = 2000000000ULL }, { .ns = 1000000000ULL } };
	const u64 b = 1 << 20;

	soak_twin_count_add(&t[0], b, b, 0);
	soak_twin_count_add(&t[0], 3 * b, b, b);
	CHECK(t[0].elements == 2 && t[0].copied == b && t[0].checked == 4 * b &&
	      t[0].written == 3 * b && t[0].read == 5 * b, "two elements: %llu %llu %llu %llu",
	      (unsigned long long)t[0].copied, (unsigned long long)t[0].checked,
	      (unsigned long long)t[0].written, (unsigned long long)t[0].read);
	soak_twin_count_add(&t[1], b, 0, 0);
	CHECK(t[1].copied == 0 && t[1].checked == b && t[1].written == 0 && t[1].read == b,
	      "read-only: %llu %llu %llu %llu", (unsigned long long)t[1].copied,
	      (unsigned long long)t[1].checked, (unsigned long long)t[1].written,
	      (unsigned long long)t[1].read);
	/* rates: each thread's bytes over its own time, summed (4b/2s + b/1s = 3b/s) */
	CHECK(near(soak_twin_rate(t, 2, SOAK_RATE_CHECKED), 3.0 * b), "checked rate %.0f",
	      soak_twin_rate(t, 2, SOAK_RATE_CHECKED));
	CHECK(near(soak_twin_rate(t, 2, SOAK_RATE_COPIED), 0.5 * b), "copied rate %.0f",
	      soak_twin_rate(t, 2, SOAK_RATE_COPIED));
	CHECK(near(soak_twin_rate(t, 2, SOAK_RATE_TRAFFIC), 4.0 * b + 1.0 * b),
	      "traffic rate %.0f", soak_twin_rate(t, 2, SOAK_RATE_TRAFFIC));
	t[1].ns = 0;
	CHECK(near(soak_twin_rate(t, 2, SOAK_RATE_CHECKED), 2.0 * b), "a thread with no time");
}

static void test_result_line(void)
{
	struct twin_result r = { .rate = { 2.5e9, 1.25e9, 6.25e9 }, .threads = 2,
				 .elapsed_ns = 5000123456ULL, .miscompares = 3, .pass = false };
	struct twin_result back;
	char line[512];

	twin_format_result(line, sizeof(line), &r);
	CHECK(twin_parse_result(line, &back), "parses its own line: %s", line);
	CHECK(back.rate[SOAK_RATE_CHECKED] == 2.5e9 && back.rate[SOAK_RATE_COPIED] == 1.25e9 &&
	      back.rate[SOAK_RATE_TRAFFIC] == 6.25e9, "rates back");
	CHECK(back.threads == 2 && back.elapsed_ns == 5000123456ULL && back.miscompares == 3 &&
	      !back.pass, "fields back");
	CHECK(!twin_parse_result("# soak-twin-result: threads=2 checked_bps=1", &back),
	      "a line without every rate is refused");
	CHECK(!twin_parse_result("Stats: Memory Copy: 1.00M at 1.00MB/s", &back), "not ours");
	CHECK(twin_parse_result("# soak-twin-result: checked_bps=1 copied_bps=2 traffic_bps=3 "
				"result=PASS", &back) && back.pass && back.rate[2] == 3,
	      "the minimal line");
}

/* The median of per-round ratios, not the ratio of medians; failed rounds left out. */
static void test_round_ratio(void)
{
	const double a[] = { 10e9, 20e9, 30e9, 0, 7e9 }, b[] = { 10e9, 5e9, 60e9, 1e9, 0 };
	const double two_a[] = { 2e9, 4e9, 6e9, 8e9 }, two_b[] = { 1e9, 2e9, 3e9, 4e9 };
	struct ratio q;
	unsigned int used;

	/* per round 1, 4, 0.5: median 1.000 (the medians' ratio would be 20/10 = 2) */
	CHECK(soak_rate_ratio(a, b, 5, &q, &used) && used == 3, "3 usable rounds of 5: %u",
	      used);
	CHECK(q.ratio_pm == 1000, "median of per-round ratios: %u", q.ratio_pm);
	CHECK(q.lo_pm <= 1000 && q.hi_pm >= 1000 && !q.significant, "[%u, %u]", q.lo_pm,
	      q.hi_pm);
	CHECK(soak_rate_ratio(two_a, two_b, 4, &q, &used) && q.ratio_pm == 2000 &&
	      q.lo_pm == 2000 && q.hi_pm == 2000 && q.significant, "twice in every round");
	CHECK(!soak_rate_ratio(a, b, 2, &q, &used), "fewer than 3 rounds: no figure");
}

int main(void)
{
	return RUN_TESTS(test_default_run, test_warm_and_failing_runs, test_unusable,
			 test_sat_rates, test_twin_accounting, test_result_line,
			 test_round_ratio);
}
