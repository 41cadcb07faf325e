// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktap.c - the registered in-image test suites: sort them, run them and print KTAP version 1:
 * the top level lists suites, each suite is a subtest indented by four spaces, diagnostics
 * start with "# ".
 *
 * Beside each case's KTAP result goes one diagnostic line for LAVA (docs/user/results.md), at
 * the case's indentation, ending in '>' so a pattern can be anchored there:
 *
 *     # ck-lava <suite.case pass|fail|skip>
 *         # ck-lava <suite.case.param pass|fail>
 *
 * and after the run's own failing test (the command line's), at the top level:
 *
 * # ck-lava <command_line fail>
 */
#include "kernel/console/printk.h"
#include "kernel/lib/format.h"
#include "kernel/lib/ptrsort.h"
#include "kernel/lib/string.h"
#include "ktest/lib/ktap.h"

#define LAVA_ID_MAX	160
#define LAVA_MAX_PARAMS	256

/* The case running now, for the ids of its parameters. */
static const char *cur_suite, *cur_case;
static u32 param_hash[LAVA_MAX_PARAMS];
static unsigned int nr_params;

static const char *lava_word(enum ktap_result r)
{
	return r == KTAP_OK ? "pass" : r == KTAP_SKIP ? "skip" : "fail";
}

static size_t lava_case_id(char *id, size_t size)
{
	size_t n = ck_slug(id, size, cur_suite ? cur_suite : "");

	if (n + 1 < size) {
		id[n++] = '.';
		n += ck_slug(id + n, size - n, cur_case ? cur_case : "");
	}
	return n;
}

static u32 fnv1a(const char *s)
{
	u32 h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (u8)*s) * 16777619u;
	return h;
}

/*
 * suite.case.param, the parameter's name made an id component; a name seen before in this
 * case gets "_2", "_3", ... in the order the parameters run, so every id is unique.
 */
static void lava_param_line(bool ok, const char *name)
{
	char id[LAVA_ID_MAX], slug[64];
	unsigned int seen = 0;
	u32 h;
	size_t n = lava_case_id(id, sizeof(id));

	ck_slug(slug, sizeof(slug), name);
	h = fnv1a(slug);
	for (unsigned int i = 0; i < nr_params; i++)
		seen += param_hash[i] == h;
	if (nr_params < LAVA_MAX_PARAMS)
		param_hash[nr_params++] = h;
	if (seen)
		ck_snprintf(id + n, sizeof(id) - n, ".%s_%u", slug, seen + 1);
	else
		ck_snprintf(id + n, sizeof(id) - n, ".%s", slug);
	printk("        # ck-lava <%s %s>\n", id, ok ? "pass" : "fail");
}

static void lava_case_line(enum ktap_result r)
{
	char id[LAVA_ID_MAX];

	lava_case_id(id, sizeof(id));
	printk("    # ck-lava <%s %s>\n", id, lava_word(r));
}

static void print_indented_line(const char *text)
{
	printk("    # %s\n", text);
}

bool ck_report(struct ck_test *t, bool cond, const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	t->checks++;
	if (cond)
		return true;
	t->failed = true;
	va_start(ap, fmt);
	ck_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("    # %s:%d: FAIL: %s\n", file, line, msg);
	return false;
}

void ck_skip(struct ck_test *t, const char *fmt, ...)
{
	va_list ap;

	t->skipped = true;
	va_start(ap, fmt);
	ck_vsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
}

void ck_params_begin(struct ck_test *t, const char *case_name, unsigned int n)
{
	(void)t;
	nr_params = 0;
	printk("        KTAP version 1\n        # Subtest: %s\n        1..%u\n", case_name, n);
}

void ck_param_result(struct ck_test *t, unsigned int idx, bool ok, const char *name)
{
	t->checks++;
	if (!ok)
		t->failed = true;
	printk("        %s %u %s\n", ok ? "ok" : "not ok", idx, name);
	lava_param_line(ok, name);
}

void ck_diag(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	ck_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	print_indented_line(msg);
}

extern const struct ck_suite *__start_ck_suites[], *__stop_ck_suites[];

static void (*after_case)(void);

void ktap_set_after_case(void (*fn)(void))
{
	after_case = fn;
}

/* By order, then by name. */
static bool suite_before(const void *a, const void *b)
{
	const struct ck_suite *x = a, *y = b;

	return x->order < y->order || (x->order == y->order && strcmp(x->name, y->name) < 0);
}

unsigned int ck_suites_get(const struct ck_suite *const **list)
{
	unsigned int n = (unsigned int)(__stop_ck_suites - __start_ck_suites);
	static bool sorted;

	if (!sorted)
		ptr_sort((const void **)__start_ck_suites, n, suite_before);
	sorted = true;
	*list = (const struct ck_suite *const *)__start_ck_suites;
	return n;
}

/* The run's own failing test, numbered @n at the top level. */
static void run_test(const struct ktap_run_test *run, unsigned int n, struct ktap_totals *tot)
{
	for (unsigned int i = 0; i < run->nr_diag; i++)
		printk("# %s: %s\n", run->name, run->diag[i]);
	printk("not ok %u %s # ERROR %s\n", n, run->name, run->why);
	printk("# ck-lava <%s fail>\n", run->name);
	tot->errors++;
}

void ktap_run(const struct ck_suite *const *suites, unsigned int nr, u32 mask,
	      const struct ck_ctx *ctx, const struct ktap_run_test *run,
	      struct ktap_totals *tot)
{
	unsigned int selected = 0, n = 0;

	*tot = (struct ktap_totals){ 0 };
	for (unsigned int s = 0; s < nr; s++)
		selected += !!(mask & (1u << s));
	/* Nothing to run (tests=none): no KTAP document, as "1..0" would report zero tests. */
	if (selected || run)
		printk("KTAP version 1\n1..%u\n", selected + !!run);
	else
		printk("# tests=none: no suite selected, so no KTAP document\n");
	for (unsigned int s = 0; s < nr; s++) {
		const struct ck_suite *suite = suites[s];
		unsigned int failed = 0, skipped = 0;

		if (!(mask & (1u << s)))
			continue;
		printk("    KTAP version 1\n    # Subtest: %s\n    1..%u\n", suite->name,
		       suite->nr_cases);
		for (unsigned int c = 0; c < suite->nr_cases; c++) {
			struct ck_test t = { .ctx = ctx };

			cur_suite = suite->name;
			cur_case = suite->cases[c].name;
			nr_params = 0;
			suite->cases[c].fn(&t);
			if (after_case)
				after_case();
			tot->cases++;
			if (t.failed) {
				failed++;
				tot->fail++;
				printk("    not ok %u %s\n", c + 1, suite->cases[c].name);
				lava_case_line(KTAP_FAIL);
			} else if (t.skipped) {
				skipped++;
				tot->skip++;
				printk("    ok %u %s # SKIP %s\n", c + 1, suite->cases[c].name,
				       t.skip_reason);
				lava_case_line(KTAP_SKIP);
			} else {
				tot->pass++;
				printk("    ok %u %s\n", c + 1, suite->cases[c].name);
				lava_case_line(KTAP_OK);
			}
		}
		tot->suites++;
		n++;
		if (failed)
			printk("not ok %u %s\n", n, suite->name);
		else if (skipped == suite->nr_cases)
			printk("ok %u %s # SKIP all cases skipped\n", n, suite->name);
		else
			printk("ok %u %s\n", n, suite->name);
		if (s < KTAP_MAX_SUITES)
			tot->result[s] = failed ? KTAP_FAIL :
					 skipped == suite->nr_cases ? KTAP_SKIP : KTAP_OK;
	}
	if (run)
		run_test(run, n + 1, tot);
	if (tot->errors)
		printk("# Totals: pass:%u fail:%u skip:%u error:%u total:%u\n", tot->pass,
		       tot->fail, tot->skip, tot->errors, tot->cases + tot->errors);
	else
		printk("# Totals: pass:%u fail:%u skip:%u total:%u\n", tot->pass, tot->fail,
		       tot->skip, tot->cases);
}
