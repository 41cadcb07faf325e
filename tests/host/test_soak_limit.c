// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_limit.c - the soak= value parser (soak/limit.c): every accepted form with
 * its value worked out by hand (seconds, minutes, hours, passes, the bounds), and every
 * refusal with its reason.
 */
#include "soak/limit.h"
#include "tests/host/host_test.h"

static void test_accepted(void)
{
	static const struct {
		const char *in;
		enum soak_limit_kind kind;
		u64 seconds;
		u32 passes;
	} ok[] = {
		{ "off", SOAK_LIMIT_OFF, 0, 0 },
		{ "30s", SOAK_LIMIT_TIME, 30, 0 },
		{ "1s", SOAK_LIMIT_TIME, 1, 0 },
		{ "10m", SOAK_LIMIT_TIME, 600, 0 },
		{ "2h", SOAK_LIMIT_TIME, 7200, 0 },
		{ "90m", SOAK_LIMIT_TIME, 5400, 0 },
		{ "168h", SOAK_LIMIT_TIME, 604800, 0 },
		{ "604800s", SOAK_LIMIT_TIME, 604800, 0 },
		{ "010m", SOAK_LIMIT_TIME, 600, 0 },
		{ "passes:1", SOAK_LIMIT_PASSES, 0, 1 },
		{ "passes:100000", SOAK_LIMIT_PASSES, 0, 100000 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		struct soak_limit l = { SOAK_LIMIT_TIME, 12345, 678 };
		const char *why = soak_parse_limit(ok[i].in, strlen(ok[i].in), &l);

		CHECK(!why && l.kind == ok[i].kind && l.seconds == ok[i].seconds &&
		      l.passes == ok[i].passes, "%s: %s kind %d seconds %llu passes %u", ok[i].in,
		      why ? why : "ok", l.kind, (unsigned long long)l.seconds, l.passes);
	}
}

static void test_refused(void)
{
	static const struct {
		const char *in, *why;
	} bad[] = {
		{ "", "not off, a duration (30s, 10m, 2h) or passes:N" },
		{ "forever", "not off, a duration (30s, 10m, 2h) or passes:N" },
		{ "-5s", "not off, a duration (30s, 10m, 2h) or passes:N" },
		{ "30", "a duration needs its unit: s, m or h (30s, 10m, 2h)" },
		{ "1h30m", "one number and one unit (say 90m, not 1h30m)" },
		{ "30sec", "one number and one unit (say 90m, not 1h30m)" },
		{ "3d", "unknown unit: a duration is in s, m or h (30s, 10m, 2h)" },
		{ "30S", "unknown unit: a duration is in s, m or h (30s, 10m, 2h)" },
		{ "169h", "longer than a week (168h)" },
		{ "604801s", "longer than a week (168h)" },
		{ "9999999999s", "longer than a week (168h)" },
		{ "0s", "a soak of no time: at least 1s" },
		{ "passes:0", "passes:N wants N from 1 to 100000" },
		{ "passes:100001", "passes:N wants N from 1 to 100000" },
		{ "passes:", "passes:N wants N from 1 to 100000" },
		{ "passes:3x", "passes:N wants N from 1 to 100000" },
		{ "offf", "not off, a duration (30s, 10m, 2h) or passes:N" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct soak_limit l = { SOAK_LIMIT_PASSES, 1, 2 };
		const char *why = soak_parse_limit(bad[i].in, strlen(bad[i].in), &l);

		CHECK(why && !strcmp(why, bad[i].why), "%s: %s", bad[i].in, why ? why : "accepted");
		CHECK(l.kind == SOAK_LIMIT_PASSES && l.seconds == 1 && l.passes == 2,
		      "%s: refused but changed the output", bad[i].in);
	}
	/* the length counts, not a NUL: "30s" in "30sXYZ" with n = 3 is 30 seconds */
	{
		struct soak_limit l;

		CHECK(!soak_parse_limit("30sXYZ", 3, &l) && l.seconds == 30, "span");
	}
}

int main(void)
{
	return RUN_TESTS(test_accepted, test_refused);
}
