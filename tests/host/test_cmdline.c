// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cmdline.c - the command-line parser: defaults, every key's good and bad values, the
 * wording of errors (valid choices and the default named), the describe round trip, and the
 * option table the parser and the command-line reference are made from.
 */
#include "copy/dispatch.h"
#include "init/cmdline.h"
#include "init/cmdline_opts.h"
#include "tests/host/cmdline_names.h"
#include "tests/host/host_test.h"

static char msgs[16][600], briefs[16][CMDLINE_BRIEF_MAX];
static int nmsgs;

static void collect(void *ctx, const struct cmdline_msg *m)
{
	(void)ctx;
	if (nmsgs >= 16)
		return;
	snprintf(briefs[nmsgs], sizeof(briefs[0]), "%s", m->brief ? m->brief : "");
	snprintf(msgs[nmsgs++], sizeof(msgs[0]), "%s", m->text);
}

static int parse(const char *line, struct ck_config *cfg)
{
	nmsgs = 0;
	cmdline_defaults(cfg, &host_names);
	return cmdline_parse(line, cfg, collect, NULL);
}

static bool any_msg_has(const char *needle)
{
	for (int i = 0; i < nmsgs; i++)
		if (strstr(msgs[i], needle))
			return true;
	return false;
}

static void test_defaults(void)
{
	struct ck_config c;
	char d[256];

	CHECK(parse("", &c) == 0 && nmsgs == 0, "empty line: %d messages", nmsgs);
	CHECK(c.tests == (1u << NR_HOST_SUITES) - 1, "tests default all: 0x%x", c.tests);
	CHECK(c.console_port == 0x3f8 && c.console_baud == 115200, "console default");
	CHECK(c.exit == 0 && c.crash == HC_none, "exit=auto crash=none");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(!strcmp(d, "tests=all console=ttyS0,115200 exit=auto crash=none"), "describe: %s", d);
	CHECK(parse(NULL, &c) == 0, "NULL line is empty");
	CHECK(parse("   \t  ", &c) == 0, "blank line");
}

static void test_good_values(void)
{
	struct ck_config c;
	char d[256];

	CHECK(parse("tests=none exit=qemu", &c) == 0, "%s", msgs[0]);
	CHECK(c.tests == 0 && c.exit == 1, "tests=none exit=qemu");
	CHECK(parse("tests=paging,extable", &c) == 0, "%s", msgs[0]);
	CHECK(c.tests == ((1u << HS_paging) | (1u << HS_extable)), "mask 0x%x",
	      c.tests);
	CHECK(parse("console=ttyS1,9600", &c) == 0 && c.console_port == 0x2f8 &&
	      c.console_baud == 9600, "ttyS1,9600");
	CHECK(parse("console=ttyS3", &c) == 0 && c.console_port == 0x2e8 &&
	      c.console_baud == 115200, "ttyS3 keeps the default baud");
	CHECK(parse("console=uart,io,0x3e8,57600", &c) == 0 && c.console_port == 0x3e8 &&
	      c.console_baud == 57600, "uart,io form");
	CHECK(parse("exit=halt crash=pf", &c) == 0 && c.exit == 4 && c.crash == HC_pf,
	      "exit=halt crash=pf");
	CHECK(parse("ebs=stale", &c) == 0 && c.ebs_stale == 1, "ebs=stale");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(strstr(d, " ebs=stale") != NULL, "describe keeps ebs=stale: %s", d);
	CHECK(parse("copy_page=unrolled memcpy=orig copy_mc=fragile clear_page=rep", &c) == 0 &&
	      c.copy_page == 1 + COPY_PAGE_UNROLLED && c.memcpy == 1 + MEMCPY_ORIG &&
	      c.copy_mc == 1 + COPY_MC_FRAGILE && c.clear_page == 1 + CLEAR_PAGE_REP,
	      "primitive overrides");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(strstr(d, " copy_page=unrolled memcpy=orig copy_mc=fragile clear_page=rep"),
	      "describe keeps the overrides: %s", d);
	CHECK(parse("copy_mc=auto", &c) == 0 && c.copy_mc == 0, "auto");
	CHECK(parse("fb=off exit_delay=30", &c) == 0 && c.fb_off == 1 && c.exit_delay == 30,
	      "fb and exit_delay");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(strstr(d, " fb=off exit_delay=30"), "describe: %s", d);
	CHECK(parse("exit_delay=3601", &c) == 1 && c.exit_delay == 0, "exit_delay bound");
	CHECK(parse("smp=64 smp_timeout=250 bench_cpu=0", &c) == 0 && c.smp == 64 &&
	      c.smp_timeout == 250 && c.bench_cpu == 1, "smp, smp_timeout, bench_cpu=0");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(strstr(d, " smp=64 smp_timeout=250 bench_cpu=0"), "describe keeps them: %s", d);
	CHECK(parse("smp=all", &c) == 0 && c.smp == 0, "smp=all is every CPU");
	CHECK(parse("smp=0", &c) == 1 && c.smp == 0, "smp=0 refused, default kept");
	CHECK(parse("smp=1025", &c) == 1, "smp bound");
	CHECK(parse("smp_timeout=9", &c) == 1 && c.smp_timeout == 1000,
	      "smp_timeout lower bound; the stated default 1000 applies");
	CHECK(parse("smp_timeout=60001", &c) == 1, "smp_timeout upper bound");
	CHECK(parse("bench_cpu=1023", &c) == 0 && c.bench_cpu == 1024, "bench_cpu=1023");
	CHECK(parse("bench_cpu=1024", &c) == 1 && c.bench_cpu == 1, "bench_cpu bound: CPU 0");
	CHECK(parse("mce_poll_wait=600", &c) == 0 && c.mce_poll_wait == 600, "mce_poll_wait=600");
	CHECK(parse("mce_poll_wait=601", &c) == 1 && c.mce_poll_wait == 0,
	      "mce_poll_wait bound; the stated default 0 applies");
	CHECK(parse("", &c) == 0 && c.sweep == SWEEP_TINY, "sweep= defaults to tiny");
	CHECK(parse("sweep=full", &c) == 0 && c.sweep == SWEEP_FULL, "sweep=full");
	CHECK(parse("sweep=huge", &c) == 1 && c.sweep == SWEEP_TINY, "sweep=huge: tiny kept");
	CHECK(parse("inject=qemu mce_case=twice", &c) == 0 && c.inject == INJECT_QEMU &&
	      c.mce_case == MCE_CASE_TWICE, "inject and mce_case");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(strstr(d, " inject=qemu mce_case=twice"), "describe keeps them: %s", d);
	parse("tests=tsc,cpu console=uart,io,0x2f0,38400 exit=shutdown crash=df", &c);
	cmdline_describe(&c, d, sizeof(d));
	CHECK(!strcmp(d, "tests=tsc,cpu console=uart,io,0x2f0,38400 exit=shutdown crash=df"),
	      "describe round trip: %s", d);
	CHECK(parse(d, &c) == 0, "describe output parses cleanly");
}

static void test_errors(void)
{
	struct ck_config c;

	CHECK(parse("bogus=1", &c) == 1, "unknown key counts");
	CHECK(any_msg_has("unknown key 'bogus'") && any_msg_has("valid keys: tests, console"),
	      "unknown key message: %s", msgs[0]);
	CHECK(parse("exit=later", &c) == 1 && c.exit == 0, "bad exit keeps default");
	CHECK(any_msg_has("bad value 'later' for exit=") &&
	      any_msg_has("valid: auto, qemu, reset, shutdown, halt") &&
	      any_msg_has("using the default 'auto'"), "exit message: %s", msgs[0]);
	CHECK(parse("tests=paging,nosuch", &c) == 1 && c.tests == 1u << HS_paging,
	      "an unknown suite: only the known one runs (mask 0x%x)", c.tests);
	CHECK(any_msg_has("extable") && any_msg_has("(unknown suite 'nosuch'; valid: ") &&
	      any_msg_has("); running only the named suites that exist, or none: paging"),
	      "the suite list and what runs named: %s", msgs[0]);
	CHECK(!strcmp(briefs[0], "'tests=paging,nosuch': bad value (unknown suite 'nosuch'); "
		      "running only the named suites that exist, or none: paging"), "brief: %s",
	      briefs[0]);
	CHECK(parse("tests=nosuch,cpu,bogus,tsc", &c) == 1 &&
	      c.tests == ((1u << HS_cpu) | (1u << HS_tsc)) &&
	      any_msg_has("(unknown suite 'nosuch' and 1 more;") &&
	      any_msg_has("exist, or none: tsc,cpu"), "two unknown, two known in run order "
	      "(mask 0x%x): %s", c.tests, msgs[0]);
	CHECK(parse("tests=nosuch", &c) == 1 && c.tests == 0 &&
	      any_msg_has("exist, or none: none"), "no known suite: none runs, never all");
	CHECK(parse("tests=", &c) == 1 && c.tests == 0 && any_msg_has("an empty suite name"),
	      "empty value: none");
	CHECK(parse("tests=paging,,cpu", &c) == 1 &&
	      c.tests == ((1u << HS_paging) | (1u << HS_cpu)), "empty list item");
	CHECK(parse("tests=all,cpu", &c) == 1 && c.tests == 1u << HS_cpu,
	      "'all' is no suite in a list");
	/* The other rows' briefs name the word and the default taken. */
	CHECK(parse("soak=15q bogus=1 lonely", &c) == 3 && nmsgs == 3, "three errors");
	CHECK(!strncmp(briefs[0], "'soak=15q': bad value (", 23) &&
	      strstr(briefs[0], "); using the default 'off'") &&
	      !strcmp(briefs[1], "'bogus=1': unknown key; ignored") &&
	      !strcmp(briefs[2], "'lonely': not key=value; ignored"), "briefs: %s | %s | %s",
	      briefs[0], briefs[1], briefs[2]);
	CHECK(parse("console=ttyS4", &c) == 1 && c.console_port == 0x3f8, "ttyS4");
	CHECK(parse("console=ttyS0,12345", &c) == 1 && c.console_baud == 115200, "odd baud");
	CHECK(parse("console=uart,io,0x0", &c) == 1, "port 0");
	CHECK(parse("console=uart,io,zz", &c) == 1, "port not a number");
	CHECK(parse("console=uart,mmio,0x1000", &c) == 1, "mmio not supported");
	CHECK(parse("console=ttyS0,99999999999", &c) == 1, "baud overflow");
	CHECK(parse("justaword", &c) == 1 && any_msg_has("is not key=value"), "no '='");
	CHECK(parse("=value", &c) == 1, "empty key");
	CHECK(parse("crash=everything", &c) == 1 && c.crash == HC_none, "bad crash");
	CHECK(parse("ebs=sometimes", &c) == 1 && c.ebs_stale == 0, "bad ebs");
	CHECK(parse("copy_mc=avx9", &c) == 1 && c.copy_mc == 0 &&
	      any_msg_has("valid: auto or fragile, erms, memcpy"), "bad copy_mc: %s", msgs[0]);
	CHECK(parse("clear_page=stosd", &c) == 1 && c.clear_page == 0, "bad clear_page");
}

static void test_edge_cases(void)
{
	struct ck_config c;
	char longword[400];

	CHECK(parse("exit=qemu exit=halt", &c) == 0 && c.exit == 4, "last one counts");
	CHECK(any_msg_has("given more than once"), "duplicate noted");
	/* A suite named twice runs once, and is noted as a repeated key is (not an error). */
	CHECK(parse("tests=tsc,tsc,tsc", &c) == 0 && c.tests == 1u << HS_tsc,
	      "tests=tsc,tsc,tsc: tsc once (mask 0x%x)", c.tests);
	CHECK(nmsgs == 1 && strstr(msgs[0], "cmdline: note: ") && strstr(msgs[0], "tsc") &&
	      strstr(msgs[0], "more than once"), "the repeated suite is noted once: %d: %s",
	      nmsgs, msgs[0]);
	CHECK(parse("tests=paging,cpu,paging,cpu", &c) == 0 && nmsgs == 2 &&
	      strstr(msgs[0], "paging") && strstr(msgs[1], "cpu"), "each repeated suite noted");
	memset(longword, 'a', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	CHECK(parse(longword, &c) == 1 && any_msg_has("longer than"), "long word");
	CHECK(parse("  exit=qemu\t\ttests=none  ", &c) == 0 && c.exit == 1 && c.tests == 0,
	      "tabs and runs of spaces");
	CHECK(parse("a b c d=e exit=qemu", &c) == 4 && c.exit == 1, "errors do not stop parsing");
	CHECK(parse("tests=all=1", &c) == 1, "value with '='");
}

/* @o's values in the words the reference and the error messages use. */
static const char *values_of(const struct cmdline_opt *o)
{
	static char buf[400];

	cmdline_opt_values(o, &host_names, buf, sizeof(buf));
	return buf;
}

/*
 * Every row of the table is complete (a description of one short line, a default that parses
 * cleanly), and every value it says it takes parses and comes back from describe.
 */
static void test_option_table(void)
{
	unsigned int nr;
	const struct cmdline_opt *o = cmdline_opts(&nr);
	struct ck_config c;
	char line[96], d[512];

	CHECK(nr >= 20 && nr <= CMDLINE_OPTS_MAX, "%u rows", nr);
	for (unsigned int i = 0; i < nr; i++) {
		const char *const *names;
		unsigned int n;

		CHECK(o[i].desc && o[i].desc[0] && strlen(o[i].desc) <= 90 &&
		      !strchr(o[i].desc, '\n'), "%s=: a one-line description", o[i].key);
		CHECK(cmdline_opt_find(o[i].key, strlen(o[i].key)) == &o[i], "%s found", o[i].key);
		snprintf(line, sizeof(line), "%s=%s", o[i].key, o[i].def);
		CHECK(parse(line, &c) == 0 && nmsgs == 0, "the stated default %s parses: %s", line,
		      msgs[0]);
		CHECK(values_of(&o[i])[0], "%s=: its values in words", o[i].key);
		if (o[i].kind == OPT_NUMBER) {
			CHECK(o[i].lo <= o[i].hi && strstr(values_of(&o[i]), ".."), "%s: %s",
			      o[i].key, values_of(&o[i]));
			snprintf(line, sizeof(line), "%s=%u %s=%u", o[i].key, o[i].lo, o[i].key,
				 o[i].hi);
			CHECK(parse(line, &c) == 0, "%s: both bounds taken", line);
			snprintf(line, sizeof(line), "%s=%u", o[i].key, o[i].hi + 1);
			CHECK(parse(line, &c) == 1 && any_msg_has(values_of(&o[i])),
			      "%s refused, the bounds named: %s", line, msgs[0]);
			continue;
		}
		if (o[i].kind != OPT_CHOICE && o[i].kind != OPT_IMPL)
			continue;
		names = cmdline_opt_names(&o[i], &host_names, &n);
		for (unsigned int v = 0; v < n; v++) {
			snprintf(line, sizeof(line), "%s=%s", o[i].key, names[v]);
			CHECK(parse(line, &c) == 0, "%s", line);
			cmdline_describe(&c, d, sizeof(d));
			CHECK(!strcmp(names[v], o[i].def) || strstr(d, line), "%s: described %s",
			      line, d);
		}
	}
}

/*
 * The soak's keys: soak= and soak_fault= through their own parsers (values from
 * soak/limit.h and knob.h's header comments), written back by describe, refused with
 * what they take and the default applied; the numeric ones at their bounds.
 */
static void test_soak_keys(void)
{
	struct ck_config c;
	char d[512];

	CHECK(parse("soak=passes:1 soak_fault=stuck:2", &c) == 0 &&
	      c.soak.kind == SOAK_LIMIT_PASSES && c.soak.passes == 1 &&
	      c.soak_fault.kind == SOAK_KNOB_STUCK && c.soak_fault.cpu == 2, "passes:1 stuck:2");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(strstr(d, " soak=passes:1") && strstr(d, " soak_fault=stuck:2"), "%s", d);
	CHECK(parse("soak=90m soak_fault=flip", &c) == 0 && c.soak.kind == SOAK_LIMIT_TIME &&
	      c.soak.seconds == 5400 && c.soak_fault.kind == SOAK_KNOB_FLIP, "90m flip");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(strstr(d, " soak=90m") && strstr(d, " soak_fault=flip"), "%s", d);
	CHECK(parse("", &c) == 0 && c.soak.kind == SOAK_LIMIT_OFF &&
	      c.soak_fault.kind == SOAK_KNOB_NONE, "off by default");
	cmdline_describe(&c, d, sizeof(d));
	CHECK(!strstr(d, "soak"), "the defaults are not described: %s", d);
	CHECK(parse("soak=3x", &c) == 1 && c.soak.kind == SOAK_LIMIT_OFF &&
	      any_msg_has("for soak=") && any_msg_has("passes:N") &&
	      any_msg_has("using the default 'off'"), "soak=3x refused: %s", msgs[0]);
	CHECK(parse("soak=passes:2 soak_fault=stuck:0", &c) == 1 && c.soak.passes == 2 &&
	      c.soak_fault.kind == SOAK_KNOB_NONE && any_msg_has("stuck:N"),
	      "stuck:0 refused (CPU 0 is the monitor): %s", msgs[0]);
	CHECK(parse("soak_chunk=1 soak_chunk=1024 soak_watchdog=2 soak_progress=3600", &c) == 0 &&
	      c.soak_chunk == 1024 && c.soak_watchdog == 2 && c.soak_progress == 3600, "bounds");
	CHECK(parse("soak_chunk=48", &c) == 1 && c.soak_chunk == 64 &&
	      any_msg_has("(not a power of two of MiB from 1 to 1024; valid: ") &&
	      any_msg_has("using the default '64'"), "soak_chunk=48 is no power of two: %s",
	      msgs[0]);
	CHECK(parse("soak_chunk=2048", &c) == 1 && parse("soak_watchdog=1", &c) == 1 &&
	      parse("soak_poll=9", &c) == 1 && parse("soak_poll=60000", &c) == 0 &&
	      parse("soak_progress=0", &c) == 1, "out of bounds refused");
}

static const struct cmdline_opt *row_of(const char *key)
{
	return cmdline_opt_find(key, strlen(key));
}

/*
 * The reference's words (host/ck-cmdline-doc.c): every row is documented, a row missing a
 * piece is named, and the bounds in words are the ones the parser keeps.
 */
static void test_reference_words(void)
{
	char b[128], line[96], long_desc[CMDLINE_DESC_MAX + 2];
	unsigned int nr, lo, hi;
	const struct cmdline_opt *o = cmdline_opts(&nr);
	struct cmdline_opt r;
	struct ck_config c;

	for (unsigned int i = 0; i < nr; i++)
		CHECK(!cmdline_opt_undocumented(&o[i]), "%s: %s", o[i].key,
		      cmdline_opt_undocumented(&o[i]));
	memset(long_desc, 'x', CMDLINE_DESC_MAX + 1);
	long_desc[CMDLINE_DESC_MAX + 1] = '\0';
	r = *row_of("exit");
	r.desc = NULL;
	CHECK(cmdline_opt_undocumented(&r) && strstr(cmdline_opt_undocumented(&r), ".desc"),
	      "no description");
	r.desc = long_desc;
	CHECK(cmdline_opt_undocumented(&r) && strstr(cmdline_opt_undocumented(&r), "longer"),
	      "a long description");
	r = *row_of("exit");
	r.see = "README.md";
	CHECK(cmdline_opt_undocumented(&r) && strstr(cmdline_opt_undocumented(&r), ".see"),
	      "a page outside docs/");
	r = *row_of("soak");
	r.bounds = NULL;
	CHECK(cmdline_opt_undocumented(&r) != NULL, "a parsed row without bounds");
	r = *row_of("soak_poll");
	r.noun = "";
	CHECK(cmdline_opt_undocumented(&r) != NULL, "a number without its noun");
	r = *row_of("fb");
	r.def = NULL;
	CHECK(cmdline_opt_undocumented(&r) != NULL, "a row without its default");

	for (unsigned int i = 0; i < nr; i++) {
		if (o[i].kind != OPT_NUMBER)
			continue;
		cmdline_opt_bounds(&o[i], b, sizeof(b));
		CHECK(sscanf(b, "%u..%u", &lo, &hi) == 2 && lo == o[i].lo && hi == o[i].hi,
		      "%s: bounds '%s'", o[i].key, b);
		snprintf(line, sizeof(line), "%s=%u", o[i].key, lo - 1);
		CHECK(lo == 0 || parse(line, &c) == 1, "%s refused", line);
	}
	cmdline_opt_bounds(row_of("console"), b, sizeof(b));
	CHECK(sscanf(b, "port 0x%x..0x%x", &lo, &hi) == 2 && lo == 1, "console: '%s'", b);
	snprintf(line, sizeof(line), "console=uart,io,0x%x", hi);
	CHECK(parse(line, &c) == 0 && c.console_port == hi, "%s taken", line);
	snprintf(line, sizeof(line), "console=uart,io,0x%x", hi + 1);
	CHECK(parse(line, &c) == 1, "%s refused", line);
	CHECK(parse("console=uart,io,0x0", &c) == 1, "port 0 refused");
	cmdline_opt_bounds(row_of("exit"), b, sizeof(b));
	CHECK(!b[0], "a list has no bounds: '%s'", b);

	cmdline_opt_values(row_of("tests"), NULL, b, sizeof(b));
	CHECK(strstr(b, CMDLINE_SUITES_WORDS) && !strstr(b, "paging"), "tests= unnamed: %s", b);
	cmdline_opt_values(row_of("tests"), &host_names, b, sizeof(b));
	CHECK(!strstr(b, CMDLINE_SUITES_WORDS) && strstr(b, "paging"), "tests= named: %s", b);
	cmdline_opt_values(row_of("crash"), NULL, b, sizeof(b));
	CHECK(!strcmp(b, CMDLINE_CRASHES_WORDS), "crash= unnamed: %s", b);
	cmdline_opt_values(row_of("crash"), &host_names, b, sizeof(b));
	CHECK(!strncmp(b, "none, ud, gp", 12), "crash= named: %s", b);
}

int main(void)
{
	return RUN_TESTS(test_defaults, test_good_values, test_errors, test_edge_cases,
			 test_option_table, test_soak_keys, test_reference_words);
}
