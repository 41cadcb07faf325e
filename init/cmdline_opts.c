// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmdline_opts.c - the command line's keys (see cmdline_opts.h): one row each, and the words
 * that say what a row takes. Adding a key is adding a row here and its member of struct
 * ck_config (init/config.h); the parser needs no change unless the key is of a new kind.
 */
#include "copy/dispatch.h"
#include "cores/opts.h"
#include "init/cmdline_opts.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "soak/knob.h"
#include "soak/limit.h"

/* Must match enum exit_method in kernel/arch/exit.h. */
static const char *const exit_names[] = { "auto", "qemu", "reset", "shutdown", "halt" };
static const char *const ebs_names[] = { "normal", "stale" };
/* Must match enum mce_inject and enum mce_case in ktest/lib/ctx.h. */
static const char *const inject_names[] = { "emulate", "simulate", "qemu", "einj" };
static const char *const mce_case_names[] = { "recover", "twice", "pcc", "idle", "early",
					       "ap_idle", "ap_alone", "ap_local" };
static const char *const fb_names[] = { "on", "off" };
/* Must match enum bench_sel in bench/image.h. */
static const char *const bench_names[] = { "none", "rfc", "v3", "clear", "primitives",
					   "patterns", "uarch", "big", "copy_pages", "seed003",
					   "all", "parallel", "migrate" };
static const char *const tiny_names[] = { "no", "yes" };
static const char *const cold_names[] = { "evict", "flush" };
/* Must match enum bench_migrate_size in bench/image.h. */
static const char *const migrate_size_names[] = { "all", "4k", "2m", "1g" };
static const char *const blackbox_test_names[] = { "none", "unfinished" };
/* Must match enum sweep_size in ktest/lib/ctx.h. */
static const char *const sweep_names[] = { "tiny", "quick", "full" };

const u16 cmdline_com_ports[4] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
const u32 cmdline_bauds[5] = { 9600, 19200, 38400, 57600, 115200 };

#define FIELD(f)	.field = offsetof(struct ck_config, f),				\
			.size = sizeof(((struct ck_config *)0)->f)
/* The page of docs/ that holds a key's details, as the reference links it. */
#define DOC(page)	.see = "docs/" page ".md"
#define CHOICE(k, f, names, d, text, page)						\
	{ .key = k, .kind = OPT_CHOICE, FIELD(f), .choices = names,			\
	  .nr_choices = ARRAY_SIZE(names), .def = d, .desc = text, DOC(page) }
#define IMPL(k, f, names, n, text)							\
	{ .key = k, .kind = OPT_IMPL, FIELD(f), .choices = names, .nr_choices = n,	\
	  .def = "auto", .desc = text, DOC("design/copy") }
#define NUMBER(k, f, l, h, what, d, text, page)						\
	{ .key = k, .kind = OPT_NUMBER, FIELD(f), .lo = l, .hi = h, .noun = what,	\
	  .def = d, .desc = text, DOC(page) }

/* The soak's own parsers (soak/limit.h, knob.h) behind the table's field pointers. */
static const char *parse_soak(const char *p, size_t n, void *field)
{
	return soak_parse_limit(p, n, field);
}

static size_t text_soak(const void *field, char *buf, size_t size)
{
	return soak_limit_text(field, buf, size);
}

static const char *parse_soak_fault(const char *p, size_t n, void *field)
{
	return soak_parse_fault(p, n, field);
}

static size_t text_soak_fault(const void *field, char *buf, size_t size)
{
	return soak_fault_text(field, buf, size);
}

static const char *parse_cores(const char *p, size_t n, void *field)
{
	return cores_parse_opts(p, n, field);
}

static size_t text_cores(const void *field, char *buf, size_t size)
{
	return cores_opts_text(field, buf, size);
}

#define PARSED(k, f, pf, tf, d, v, b, what, page)					\
	{ .key = k, .kind = OPT_PARSED, FIELD(f), .parse = pf, .text = tf, .def = d,	\
	  .values = v, .bounds = b, .desc = what, DOC(page) }

/* The soak rows' words below name these limits. */
_Static_assert(CORES_MAX_ROUNDS == 1000 && CORES_MAX_SECONDS == 168 * 3600,
	       "the cores row's words");
_Static_assert(SOAK_MAX_SECONDS == 7 * 24 * 3600 && SOAK_MAX_PASSES == 100000 &&
	       SOAK_KNOB_MAX_CPU == 1023, "the soak and soak_fault rows' words");

static const struct cmdline_opt opts[] = {
	{ .key = "tests", .kind = OPT_SUITES, FIELD(tests), .names_of = NAMES_SUITES,
	  .def = "all", .on_bad = "only the named suites that exist, or none", .always = true,
	  .desc = "the suites to run (they run in their order)", DOC("user/qemu") },
	{ .key = "console", .kind = OPT_CONSOLE, FIELD(console_port), .def = "ttyS0,115200",
	  .always = true, .desc = "the serial console the run moves to after the takeover",
	  DOC("user/hardware") },
	{ .key = "exit", .kind = OPT_CHOICE, FIELD(exit), .choices = exit_names,
	  .nr_choices = ARRAY_SIZE(exit_names), .def = "auto", .always = true,
	  .desc = "the way out: isa-debug-exit, firmware reset, shutdown or halt (auto: qemu "
		  "under QEMU)", DOC("user/results") },
	{ .key = "crash", .kind = OPT_CHOICE, FIELD(crash), .names_of = NAMES_CRASHES,
	  .def = "none", .always = true,
	  .desc = "on purpose, before the tests: raise this exception, fail a case (fail), hang "
		  "(hang)",
	  DOC("user/results") },
	CHOICE("ebs", ebs_stale, ebs_names, "normal",
	       "stale: boot/ spoils the first ExitBootServices map key, so the retry runs",
	       "user/hardware"),
	IMPL("copy_page", copy_page, copy_page_impl_names, NR_COPY_PAGE_IMPL,
	     "copy_page's primitive instead of Linux's choice"),
	IMPL("memcpy", memcpy, memcpy_impl_names, NR_MEMCPY_IMPL,
	     "memcpy's primitive instead of Linux's choice"),
	IMPL("copy_mc", copy_mc, copy_mc_impl_names, NR_COPY_MC_IMPL,
	     "copy_mc_to_kernel's primitive instead of Linux's choice"),
	IMPL("clear_page", clear_page, clear_page_impl_names, NR_CLEAR_PAGE_IMPL,
	     "clear_page's primitive instead of Linux's choice"),
	CHOICE("inject", inject, inject_names, "emulate",
	       "the backend that raises a real machine check in the mce suite",
	       "design/machine-checks"),
	CHOICE("mce_case", mce_case, mce_case_names, "recover",
	       "with inject=qemu: what the injected machine check meets", "design/machine-checks"),
	CHOICE("fb", fb_off, fb_names, "on", "the framebuffer console and summary screen",
	       "user/hardware"),
	NUMBER("exit_delay", exit_delay, 0, 3600, "a number of seconds", "0",
	       "seconds to keep the summary up before leaving", "user/hardware"),
	CHOICE("bench", bench, bench_names, "none", "the benchmark presets run after the tests",
	       "user/benchmarks"),
	NUMBER("bench_runs", bench_runs, 3, 200, "a run count", "30",
	       "rounds per benchmark case", "user/benchmarks"),
	CHOICE("bench_tiny", bench_tiny, tiny_names, "no",
	       "yes: the benchmarks at test sizes only", "user/benchmarks"),
	CHOICE("bench_cold", bench_cold, cold_names, "evict",
	       "how a cache-cold case is made cold: an eviction buffer, or CLFLUSHOPT",
	       "user/benchmarks"),
	CHOICE("bench_migrate_size", bench_migrate_size, migrate_size_names, "all",
	       "bench=migrate's folio sizes: all (1g where it can be measured) or one, promised",
	       "user/benchmarks"),
	{ .key = "smp", .kind = OPT_NUMBER, FIELD(smp), .lo = 1, .hi = 1024,
	  .noun = "a CPU count", .word = "all", .def = "all",
	  .desc = "how many CPUs to use, the boot CPU included", DOC("design/smp") },
	NUMBER("smp_timeout", smp_timeout, 10, 60000, "a number of milliseconds per AP", "1000",
	       "how long each AP has to check in after its STARTUP IPIs", "design/smp"),
	{ .key = "bench_cpu", .kind = OPT_NUMBER, FIELD(bench_cpu), .lo = 0, .hi = 1023,
	  .bias = 1, .noun = "a CPU number", .def = "0",
	  .desc = "the CPU that runs the single-thread benchmarks", DOC("user/benchmarks") },
	PARSED("soak", soak, parse_soak, text_soak, "off",
	       "off, a duration (30s, 10m, 2h; up to a week) or passes:N (N 1..100000)",
	       "1s..168h; passes:1..passes:100000",
	       "after the suites, soak all free memory on every CPU this long", "user/soak"),
	{ .key = "soak_chunk", .kind = OPT_NUMBER, FIELD(soak_chunk), .lo = 1, .hi = 1024,
	  .pow2 = true, .noun = "a power of two of MiB", .def = "64",
	  .desc = "the soak's chunk: a pair of halves, one written and copied to the other",
	  DOC("user/soak") },
	NUMBER("soak_progress", soak_progress, 1, 3600, "a number of seconds", "10",
	       "seconds between the soak's progress lines", "user/soak"),
	NUMBER("soak_watchdog", soak_watchdog, 2, 3600, "a number of seconds", "30",
	       "a soaking CPU silent this long is stuck: sent an NMI, named, left out",
	       "user/soak"),
	NUMBER("soak_poll", soak_poll, 10, 60000, "a number of milliseconds", "1000",
	       "the longest a soaking CPU goes without polling its machine-check banks",
	       "user/soak"),
	NUMBER("soak_fade", soak_fade, 1, 86400, "a number of seconds", "240",
	       "the retention pass's idle between writing and reading (memtest86+'s bit fade)",
	       "user/soak"),
	PARSED("soak_fault", soak_fault, parse_soak_fault, text_soak_fault, "none",
	       "none, flip, stuck:N (N 1..1023), emulate or mce", "stuck:1..stuck:1023",
	       "test knob: a fault the soak must report (a flipped bit, a stuck CPU, poison)",
	       "user/soak"),
	NUMBER("mce_poll_wait", mce_poll_wait, 0, 600, "a number of seconds", "0",
	       "test knob: the final corrected-error poll first waits this long for an NMI",
	       "design/machine-checks"),
	CHOICE("blackbox_test", blackbox_test, blackbox_test_names, "none",
	       "test knob: the blackbox suite stores a crafted unfinished soak checkpoint",
	       "user/results"),
	PARSED("cores", cores, parse_cores, text_cores, "default",
	       "default, or seed:N (decimal or 0x hex), rounds:N, kernels:F+F (copy, clear, "
	       "integer, vector, x87) and time:T (seconds, or 90s, 10m, 2h) joined by commas",
	       "rounds:1..rounds:1000; time:1s..time:168h",
	       "the cores suite: its seed, rounds, kernel families, and time: passes for that long",
	       "user/cores"),
	CHOICE("sweep", sweep, sweep_names, "tiny",
	       "the sweep suite's folios: 4 pages; 16, and 6 pages of 2 MiB; every 2 MiB page",
	       "design/machine-checks"),
};

_Static_assert(ARRAY_SIZE(opts) <= CMDLINE_OPTS_MAX, "CMDLINE_OPTS_MAX");

const struct cmdline_opt *cmdline_opts(unsigned int *n)
{
	*n = ARRAY_SIZE(opts);
	return opts;
}

const struct cmdline_opt *cmdline_opt_find(const char *key, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (strlen(opts[i].key) == len && !memcmp(opts[i].key, key, len))
			return &opts[i];
	return NULL;
}

const char *const *cmdline_opt_names(const struct cmdline_opt *o,
				     const struct cmdline_names *names, unsigned int *n)
{
	switch (o->names_of) {
	case NAMES_SUITES:
		*n = names->nr_suites;
		return names->suites;
	case NAMES_CRASHES:
		*n = names->nr_crashes;
		return names->crashes;
	default:
		*n = o->nr_choices;
		return o->choices;
	}
}

size_t cmdline_opt_values(const struct cmdline_opt *o, const struct cmdline_names *names,
			  char *buf, size_t size)
{
	const char *const *list;
	unsigned int n;
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	switch (o->kind) {
	case OPT_NUMBER:
		ck_appendf(buf, size, &len, "%s%s%s, %u..%u", o->word ? o->word : "",
			   o->word ? " or " : "", o->noun, o->lo, o->hi);
		return len;
	case OPT_PARSED:
		ck_appendf(buf, size, &len, "%s", o->values);
		return len;
	case OPT_CONSOLE:
		ck_appendf(buf, size, &len, "ttyS0..ttyS3[,baud] or uart,io,<port>[,baud]; baud");
		for (size_t i = 0; i < ARRAY_SIZE(cmdline_bauds); i++)
			ck_appendf(buf, size, &len, "%s %u", i ? "," : "", cmdline_bauds[i]);
		return len;
	case OPT_SUITES:
		ck_appendf(buf, size, &len, "all, none, or a comma-separated list of %s",
			   names ? "" : CMDLINE_SUITES_WORDS);
		break;
	case OPT_IMPL:
		ck_appendf(buf, size, &len, "auto or ");
		break;
	default:
		if (!names && o->names_of == NAMES_CRASHES)
			ck_appendf(buf, size, &len, "%s", CMDLINE_CRASHES_WORDS);
		break;
	}
	if (!names && o->names_of != NAMES_FIXED)
		return len;
	list = cmdline_opt_names(o, names, &n);
	for (unsigned int i = 0; i < n; i++)
		ck_appendf(buf, size, &len, "%s%s", i ? ", " : "", list[i]);
	return len;
}

size_t cmdline_opt_bounds(const struct cmdline_opt *o, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	if (o->kind == OPT_NUMBER)
		ck_appendf(buf, size, &len, "%u..%u", o->lo, o->hi);
	else if (o->kind == OPT_CONSOLE)
		ck_appendf(buf, size, &len, "port 0x1..0x%x", CMDLINE_UART_PORT_MAX);
	else if (o->kind == OPT_PARSED && o->bounds)
		ck_appendf(buf, size, &len, "%s", o->bounds);
	return len;
}

static bool blank(const char *s)
{
	return !s || !*s;
}

const char *cmdline_opt_undocumented(const struct cmdline_opt *o)
{
	if (blank(o->desc))
		return "no description (.desc)";
	if (strlen(o->desc) > CMDLINE_DESC_MAX)
		return "a description (.desc) longer than CMDLINE_DESC_MAX characters";
	if (blank(o->def))
		return "no default (.def)";
	if (blank(o->see) || strncmp(o->see, "docs/", 5))
		return "no docs/ page for the details (.see)";
	if (o->kind == OPT_NUMBER && blank(o->noun))
		return "no words for what the number counts (.noun)";
	if (o->kind == OPT_PARSED && (blank(o->values) || blank(o->bounds)))
		return "no values or no bounds in words (.values, .bounds)";
	if ((o->kind == OPT_CHOICE || o->kind == OPT_IMPL) && o->names_of == NAMES_FIXED &&
	    !o->nr_choices)
		return "no choices";
	return NULL;
}
