// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_knob.c - the soak_fault= parser (soak/knob.c) with every form and refusal
 * listed by hand, and the soak= value written back as the command line gives it
 * (soak_limit_text): the largest exact unit, and a parse of the text giving the same value.
 */
#include "soak/knob.h"
#include "soak/limit.h"
#include "tests/host/host_test.h"

static const char *parse(const char *s, struct soak_fault_opt *f)
{
	*f = (struct soak_fault_opt){ 0xee, 0xeeee };
	return soak_parse_fault(s, strlen(s), f);
}

static void test_fault(void)
{
	static const char *const bad[] = {
		"", "flp", "stuck", "stuck:", "stuck:0", "stuck:1024", "stuck:-1", "stuck:1x",
		"stuck:00000000001", "emulate ", "FLIP", "none:1", "mce:1", "MCE",
	};
	struct soak_fault_opt f;
	const char *why0;
	char text[32];

	CHECK(!parse("none", &f) && f.kind == SOAK_KNOB_NONE, "none");
	CHECK(!parse("flip", &f) && f.kind == SOAK_KNOB_FLIP, "flip");
	CHECK(!parse("emulate", &f) && f.kind == SOAK_KNOB_EMULATE, "emulate");
	CHECK(!parse("mce", &f) && f.kind == SOAK_KNOB_MCE, "mce");
	CHECK(soak_fault_text(&f, text, sizeof(text)) == 3 && !strcmp(text, "mce"), "text %s", text);
	CHECK(!parse("stuck:2", &f) && f.kind == SOAK_KNOB_STUCK && f.cpu == 2, "stuck:2");
	CHECK(!parse("stuck:1023", &f) && f.cpu == 1023, "stuck:1023");
	CHECK(!parse("stuck:0001", &f) && f.cpu == 1, "leading zeros");
	CHECK(soak_fault_text(&f, text, sizeof(text)) == 7 && !strcmp(text, "stuck:1"),
	      "text %s", text);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *why = parse(bad[i], &f);

		CHECK(why && f.kind == 0xee && f.cpu == 0xeeee, "'%s' accepted or @out touched",
		      bad[i]);
	}
	why0 = parse("stuck:0", &f);
	CHECK(why0 && strstr(why0, "monitor"), "stuck:0 says why");
}

static void test_limit_text(void)
{
	static const struct {
		struct soak_limit l;
		const char *text;
	} t[] = {
		{ { SOAK_LIMIT_OFF, 0, 0 }, "off" },
		{ { SOAK_LIMIT_PASSES, 0, 3 }, "passes:3" },
		{ { SOAK_LIMIT_TIME, 7200, 0 }, "2h" },
		{ { SOAK_LIMIT_TIME, 5400, 0 }, "90m" },
		{ { SOAK_LIMIT_TIME, 45, 0 }, "45s" },
		{ { SOAK_LIMIT_TIME, 3660, 0 }, "61m" },
		{ { SOAK_LIMIT_TIME, 3601, 0 }, "3601s" },
		{ { SOAK_LIMIT_TIME, 604800, 0 }, "168h" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char buf[24];
		struct soak_limit back;
		size_t n = soak_limit_text(&t[i].l, buf, sizeof(buf));

		CHECK(n == strlen(t[i].text) && !strcmp(buf, t[i].text), "%zu: '%s', want '%s'", i,
		      buf, t[i].text);
		CHECK(!soak_parse_limit(buf, n, &back) && back.kind == t[i].l.kind &&
		      back.seconds == t[i].l.seconds && back.passes == t[i].l.passes,
		      "'%s' does not parse back", buf);
	}
}

int main(void)
{
	return RUN_TESTS(test_fault, test_limit_text);
}
