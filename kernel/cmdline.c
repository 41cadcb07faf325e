// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmdline.c - parse the command line into struct ck_config.
 *
 * Each key has a parser that either sets its field or returns an error message; the caller
 * adds the valid choices and the default. Unknown keys, words without '=', over-long words
 * and bad values are errors; a key given twice is a note (the last one counts).
 */
#include "copy/dispatch.h"
#include "kernel/cmdline.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"

/* Must match enum exit_method in kernel/arch/exit.h. */
static const char *const exit_names[] = { "auto", "qemu", "reset", "shutdown", "halt" };
static const char *const ebs_names[] = { "normal", "stale" };
static const char *const inject_names[] = { "emulate", "simulate", "qemu", "einj" };
static const char *const mce_case_names[] = { "recover", "twice", "pcc", "idle", "early",
					       "ap_idle", "ap_alone", "ap_local" };
static const char *const fb_names[] = { "on", "off" };
static const char *const bench_names[] = { "none", "rfc", "v3", "clear", "primitives",
					   "patterns", "uarch", "big", "all", "parallel" };
static const char *const tiny_names[] = { "no", "yes" };
static const char *const cold_names[] = { "evict", "flush" };
static const u16 com_ports[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
static const u32 bauds[] = { 9600, 19200, 38400, 57600, 115200 };

struct span {
	const char *p;
	size_t n;
};

static bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && !memcmp(s.p, lit, n);
}

static int choice_index(struct span v, const char *const *names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (span_eq(v, names[i]))
			return (int)i;
	return -1;
}

/* Decimal or 0x-hex number of at most 8 digits; false on anything else. */
static bool parse_u32(struct span v, u32 *out)
{
	unsigned int base = 10;
	u64 val = 0;
	size_t i = 0;

	if (v.n > 2 && v.p[0] == '0' && (v.p[1] == 'x' || v.p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == v.n || v.n - i > 10)
		return false;
	for (; i < v.n; i++) {
		char c = v.p[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (base == 16 && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (unsigned int)((c | 0x20) - 'a' + 10);
		else
			return false;
		val = val * base + d;
		if (val > 0xffffffffULL)
			return false;
	}
	*out = (u32)val;
	return true;
}

static void list_choices(char *buf, size_t size, const char *const *names, size_t count)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < count && len < size; i++)
		len += (size_t)ck_snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i]);
}

/* Each parser returns NULL on success or a short reason; it only writes @cfg on success. */

static u32 all_suites(const struct ck_config *cfg)
{
	unsigned int n = cfg->names->nr_suites;

	return n >= 32 ? ~0u : (1u << n) - 1;
}

static const char *parse_tests(struct span v, struct ck_config *cfg)
{
	u32 mask = 0;
	size_t i = 0;

	if (span_eq(v, "all")) {
		cfg->tests = all_suites(cfg);
		return NULL;
	}
	if (span_eq(v, "none")) {
		cfg->tests = 0;
		return NULL;
	}
	while (i <= v.n) {
		struct span item = { v.p + i, 0 };
		int idx;

		while (i + item.n < v.n && v.p[i + item.n] != ',')
			item.n++;
		idx = choice_index(item, cfg->names->suites, cfg->names->nr_suites);
		if (idx < 0)
			return "unknown suite";
		mask |= 1u << idx;
		i += item.n + 1;
	}
	cfg->tests = mask;
	return NULL;
}

static const char *parse_console(struct span v, struct ck_config *cfg)
{
	struct span dev = v, baud = { NULL, 0 };
	u32 port = 0, rate = SERIAL_BAUD_DEFAULT;
	size_t i;

	for (i = 0; i < v.n; i++) {
		if (v.p[i] == ',')
			break;
	}
	dev.n = i;
	/* "uart,io,0x3f8[,baud]" names the port directly. */
	if (span_eq(dev, "uart")) {
		struct span rest = { v.p + i + 1, i < v.n ? v.n - i - 1 : 0 };
		size_t j;

		if (rest.n < 3 || memcmp(rest.p, "io,", 3))
			return "expected uart,io,<port>[,<baud>]";
		rest.p += 3;
		rest.n -= 3;
		for (j = 0; j < rest.n && rest.p[j] != ','; j++)
			;
		if (!parse_u32((struct span){ rest.p, j }, &port) || port == 0 || port > 0xfff8)
			return "bad I/O port";
		if (j < rest.n)
			baud = (struct span){ rest.p + j + 1, rest.n - j - 1 };
	} else {
		if (dev.n != 5 || memcmp(dev.p, "ttyS", 4) || dev.p[4] < '0' || dev.p[4] > '3')
			return "unknown device";
		port = com_ports[dev.p[4] - '0'];
		if (i < v.n)
			baud = (struct span){ v.p + i + 1, v.n - i - 1 };
	}
	if (baud.p) {
		bool ok = false;

		if (!parse_u32(baud, &rate))
			return "bad baud rate";
		for (i = 0; i < ARRAY_SIZE(bauds); i++)
			ok |= bauds[i] == rate;
		if (!ok)
			return "unsupported baud rate";
	}
	cfg->console_port = (u16)port;
	cfg->console_baud = rate;
	return NULL;
}

/* @v as a decimal number in [@lo, @hi]. */
static bool parse_in(struct span v, u32 lo, u32 hi, u32 *out)
{
	return parse_u32(v, out) && *out >= lo && *out <= hi;
}

static const char *parse_exit_delay(struct span v, struct ck_config *cfg)
{
	u32 s;

	if (!parse_in(v, 0, 3600, &s))
		return "not a number of seconds up to 3600";
	cfg->exit_delay = (u16)s;
	return NULL;
}

static const char *parse_bench_runs(struct span v, struct ck_config *cfg)
{
	u32 n;

	if (!parse_in(v, 3, 200, &n))
		return "not a run count from 3 to 200";
	cfg->bench_runs = (u8)n;
	return NULL;
}

static const char *parse_smp(struct span v, struct ck_config *cfg)
{
	u32 n;

	if (span_eq(v, "all")) {
		cfg->smp = 0;
		return NULL;
	}
	if (!parse_in(v, 1, 1024, &n))
		return "not all or a CPU count from 1 to 1024";
	cfg->smp = (u16)n;
	return NULL;
}

static const char *parse_smp_timeout(struct span v, struct ck_config *cfg)
{
	u32 n;

	if (!parse_in(v, 10, 60000, &n))
		return "not a number of milliseconds from 10 to 60000";
	cfg->smp_timeout = (u16)n;
	return NULL;
}

static const char *parse_bench_cpu(struct span v, struct ck_config *cfg)
{
	u32 n;

	if (!parse_in(v, 0, 1023, &n))
		return "not a CPU number from 0 to 1023";
	cfg->bench_cpu = (u16)(n + 1);
	return NULL;
}

/*
 * One row per key. Most keys pick one of a list of names into a u8 of struct ck_config:
 *   OPT_CHOICE  the field holds the index of the name;
 *   OPT_IMPL    "auto" or a name: the field holds 0 or 1 + the index (copy/ overrides);
 *   OPT_CUSTOM  @parse does the work (tests=, console=).
 * A row with @names_of takes its choices from the names the run registered (the suites and
 * the crash kinds of tests/), so the parser itself knows no test.
 */
enum opt_kind { OPT_CHOICE, OPT_IMPL, OPT_CUSTOM };

struct opt {
	const char *key;
	enum opt_kind kind;
	size_t field;			/* offsetof(struct ck_config, ...) for CHOICE and IMPL */
	const char *const *choices;	/* for the message, and the names CHOICE/IMPL accept */
	size_t nr_choices;
	const char *(*parse)(struct span v, struct ck_config *cfg);	/* OPT_CUSTOM */
	enum { NAMES_FIXED, NAMES_SUITES, NAMES_CRASHES } names_of;
	const char *syntax;		/* words before the list in the message, or the whole */
	const char *def;
};

#define CHOICE(k, f, names, d)						\
	{ .key = k, .kind = OPT_CHOICE, .field = offsetof(struct ck_config, f),	\
	  .choices = names, .nr_choices = ARRAY_SIZE(names), .def = d }
#define IMPL(k, f, names, n)						\
	{ .key = k, .kind = OPT_IMPL, .field = offsetof(struct ck_config, f),	\
	  .choices = names, .nr_choices = n, .syntax = "auto or", .def = "auto" }

static const struct opt opts[] = {
	{ .key = "tests", .kind = OPT_CUSTOM, .parse = parse_tests, .names_of = NAMES_SUITES,
	  .syntax = "all, none, or a comma-separated list of", .def = "all" },
	{ .key = "console", .kind = OPT_CUSTOM, .parse = parse_console,
	  .syntax = "ttyS0..ttyS3[,baud] or uart,io,<port>[,baud]; "
		    "baud 9600, 19200, 38400, 57600, 115200", .def = "ttyS0,115200" },
	CHOICE("exit", exit, exit_names, "auto"),
	{ .key = "crash", .kind = OPT_CHOICE, .field = offsetof(struct ck_config, crash),
	  .names_of = NAMES_CRASHES, .def = "none" },
	CHOICE("ebs", ebs_stale, ebs_names, "normal"),
	IMPL("copy_page", copy_page, copy_page_impl_names, NR_COPY_PAGE_IMPL),
	IMPL("memcpy", memcpy, memcpy_impl_names, NR_MEMCPY_IMPL),
	IMPL("copy_mc", copy_mc, copy_mc_impl_names, NR_COPY_MC_IMPL),
	IMPL("clear_page", clear_page, clear_page_impl_names, NR_CLEAR_PAGE_IMPL),
	CHOICE("inject", inject, inject_names, "emulate"),
	CHOICE("mce_case", mce_case, mce_case_names, "recover"),
	CHOICE("fb", fb_off, fb_names, "on"),
	{ .key = "exit_delay", .kind = OPT_CUSTOM, .parse = parse_exit_delay,
	  .syntax = "seconds, 0..3600", .def = "0" },
	CHOICE("bench", bench, bench_names, "none"),
	{ .key = "bench_runs", .kind = OPT_CUSTOM, .parse = parse_bench_runs,
	  .syntax = "3..200", .def = "30" },
	CHOICE("bench_tiny", bench_tiny, tiny_names, "no"),
	CHOICE("bench_cold", bench_cold, cold_names, "evict"),
	{ .key = "smp", .kind = OPT_CUSTOM, .parse = parse_smp,
	  .syntax = "all or a CPU count, 1..1024", .def = "all" },
	{ .key = "smp_timeout", .kind = OPT_CUSTOM, .parse = parse_smp_timeout,
	  .syntax = "milliseconds per AP, 10..60000", .def = "1000" },
	{ .key = "bench_cpu", .kind = OPT_CUSTOM, .parse = parse_bench_cpu,
	  .syntax = "a CPU number, 0..1023", .def = "0" },
};

static void choices_of(const struct opt *o, const struct ck_config *cfg,
		       const char *const **names, size_t *n)
{
	switch (o->names_of) {
	case NAMES_SUITES:
		*names = cfg->names->suites;
		*n = cfg->names->nr_suites;
		break;
	case NAMES_CRASHES:
		*names = cfg->names->crashes;
		*n = cfg->names->nr_crashes;
		break;
	default:
		*names = o->choices;
		*n = o->nr_choices;
		break;
	}
}

/* Apply @v to @o's field; NULL on success, else the reason. */
static const char *apply(const struct opt *o, struct span v, struct ck_config *cfg)
{
	u8 *field = (u8 *)cfg + o->field;
	const char *const *names;
	size_t n;
	int i;

	if (o->kind == OPT_CUSTOM)
		return o->parse(v, cfg);
	if (o->kind == OPT_IMPL && span_eq(v, "auto")) {
		*field = 0;
		return NULL;
	}
	choices_of(o, cfg, &names, &n);
	i = choice_index(v, names, n);
	if (i < 0)
		return "not one of the choices";
	*field = (u8)(o->kind == OPT_IMPL ? i + 1 : i);
	return NULL;
}

void cmdline_defaults(struct ck_config *cfg, const struct cmdline_names *names)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->names = names;
	cfg->tests = all_suites(cfg);
	cfg->console_port = com_ports[0];
	cfg->console_baud = SERIAL_BAUD_DEFAULT;
	cfg->exit = 0;
	cfg->crash = 0;
}

static void report(cmdline_report_fn fn, void *ctx, const char *fmt, ...) __printf(3, 4);
static void report(cmdline_report_fn fn, void *ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	ck_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(ctx, msg);
}

static int shown_len(size_t n)
{
	return n > 64 ? 64 : (int)n;
}

int cmdline_parse(const char *line, struct ck_config *cfg, cmdline_report_fn fn, void *ctx)
{
	u8 seen[ARRAY_SIZE(opts)] = { 0 };
	char keys[256];
	int errors = 0;
	size_t i = 0;

	keys[0] = '\0';
	for (size_t k = 0, len = 0; k < ARRAY_SIZE(opts); k++)
		len += (size_t)ck_snprintf(keys + len, sizeof(keys) - len, "%s%s", k ? ", " : "",
					   opts[k].key);
	while (line && line[i]) {
		struct span word, key, val;
		const struct opt *o = NULL;
		const char *why;
		size_t eq;

		while (line[i] == ' ' || line[i] == '\t')
			i++;
		if (!line[i])
			break;
		word.p = line + i;
		word.n = 0;
		while (line[i] && line[i] != ' ' && line[i] != '\t') {
			i++;
			word.n++;
		}
		if (word.n > CMDLINE_MAX_WORD) {
			report(fn, ctx, "cmdline: word '%.*s...' is longer than %d characters; "
			       "ignored", 32, word.p, CMDLINE_MAX_WORD);
			errors++;
			continue;
		}
		for (eq = 0; eq < word.n && word.p[eq] != '='; eq++)
			;
		if (eq == word.n || eq == 0) {
			report(fn, ctx, "cmdline: '%.*s' is not key=value (valid keys: %s); "
			       "ignored", shown_len(word.n), word.p, keys);
			errors++;
			continue;
		}
		key = (struct span){ word.p, eq };
		val = (struct span){ word.p + eq + 1, word.n - eq - 1 };
		for (size_t k = 0; k < ARRAY_SIZE(opts); k++) {
			if (span_eq(key, opts[k].key)) {
				o = &opts[k];
				break;
			}
		}
		if (!o) {
			report(fn, ctx, "cmdline: unknown key '%.*s' (valid keys: %s); ignored",
			       shown_len(key.n), key.p, keys);
			errors++;
			continue;
		}
		if (seen[o - opts] == 1)	/* said once per key */
			report(fn, ctx, "cmdline: note: %s= given more than once; the last one "
			       "counts", o->key);
		if (seen[o - opts] < 2)
			seen[o - opts]++;
		why = apply(o, val, cfg);
		if (why) {
			const char *const *names;
			char valid[256];
			size_t n;

			choices_of(o, cfg, &names, &n);
			if (names)
				list_choices(valid, sizeof(valid), names, n);
			else
				valid[0] = '\0';
			report(fn, ctx, "cmdline: bad value '%.*s' for %s= (%s; valid: %s%s%s); "
			       "using the default '%s'", shown_len(val.n), val.p, o->key, why,
			       o->syntax ? o->syntax : "", o->syntax && names ? " " : "",
			       valid, o->def);
			apply(o, (struct span){ o->def, strlen(o->def) }, cfg);
			errors++;
		}
	}
	return errors;
}

/* Append to @buf at *@len without ever writing past @size (the total may exceed it). */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...) __printf(4, 5);
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*len += (size_t)ck_vsnprintf(buf + MIN(*len, size), size > *len ? size - *len : 0, fmt,
				     ap);
	va_end(ap);
}

void cmdline_describe(const struct ck_config *cfg, char *buf, size_t size)
{
	const struct cmdline_names *nm = cfg->names;
	u32 all = all_suites(cfg);
	size_t len = 0, tlen = 0;
	char tests[256];
	int ttys = -1;

	tests[0] = '\0';
	if (cfg->tests == all)
		append(tests, sizeof(tests), &tlen, "all");
	else if (!cfg->tests)
		append(tests, sizeof(tests), &tlen, "none");
	for (unsigned int s = 0; s < nm->nr_suites && s < 32 && cfg->tests != all; s++)
		if (cfg->tests & (1u << s))
			append(tests, sizeof(tests), &tlen, "%s%s", tlen ? "," : "",
			       nm->suites[s]);
	for (size_t p = 0; p < ARRAY_SIZE(com_ports); p++)
		if (com_ports[p] == cfg->console_port)
			ttys = (int)p;
	if (size)
		buf[0] = '\0';
	append(buf, size, &len, "tests=%s ", tests);
	if (ttys >= 0)
		append(buf, size, &len, "console=ttyS%d,%u", ttys, cfg->console_baud);
	else
		append(buf, size, &len, "console=uart,io,0x%x,%u", cfg->console_port,
		       cfg->console_baud);
	append(buf, size, &len, " exit=%s crash=%s",
	       cfg->exit < ARRAY_SIZE(exit_names) ? exit_names[cfg->exit] : "?",
	       cfg->crash < nm->nr_crashes ? nm->crashes[cfg->crash] : "?");
	if (cfg->ebs_stale)
		append(buf, size, &len, " ebs=stale");
	if (cfg->copy_page)
		append(buf, size, &len, " copy_page=%s", copy_page_impl_names[cfg->copy_page - 1]);
	if (cfg->memcpy)
		append(buf, size, &len, " memcpy=%s", memcpy_impl_names[cfg->memcpy - 1]);
	if (cfg->copy_mc)
		append(buf, size, &len, " copy_mc=%s", copy_mc_impl_names[cfg->copy_mc - 1]);
	if (cfg->clear_page)
		append(buf, size, &len, " clear_page=%s",
		       clear_page_impl_names[cfg->clear_page - 1]);
	if (cfg->inject)
		append(buf, size, &len, " inject=%s", inject_names[cfg->inject]);
	if (cfg->mce_case)
		append(buf, size, &len, " mce_case=%s", mce_case_names[cfg->mce_case]);
	if (cfg->fb_off)
		append(buf, size, &len, " fb=off");
	if (cfg->exit_delay)
		append(buf, size, &len, " exit_delay=%u", cfg->exit_delay);
	if (cfg->bench)
		append(buf, size, &len, " bench=%s", bench_names[cfg->bench]);
	if (cfg->bench_runs)
		append(buf, size, &len, " bench_runs=%u", cfg->bench_runs);
	if (cfg->bench_tiny)
		append(buf, size, &len, " bench_tiny=yes");
	if (cfg->bench_cold)
		append(buf, size, &len, " bench_cold=flush");
	if (cfg->smp)
		append(buf, size, &len, " smp=%u", cfg->smp);
	if (cfg->smp_timeout)
		append(buf, size, &len, " smp_timeout=%u", cfg->smp_timeout);
	if (cfg->bench_cpu)
		append(buf, size, &len, " bench_cpu=%u", cfg->bench_cpu - 1);
}
