// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - what a person at the console (or reading serial-over-LAN) sees at the end.
 *
 * The quick figures are the median of five TSC-timed runs of each primitive over 1 MiB,
 * cache-warm, interrupts off, timed by the benchmark harness (bench/). They are printed as
 * JSON lines and drawn as bars; they are a sanity check, not the seeds' benchmarks, and
 * under an emulator they say nothing about hardware.
 */
#include "bench/image.h"
#include "bench/prims.h"
#include "copy/ops.h"
#include "copy/pages.h"
#include "init/cmdline_errors.h"
#include "init/copy_setup.h"
#include "init/names.h"
#include "init/results.h"
#include "init/summary.h"
#include "kernel/arch/bootmem.h"
#include "kernel/console/fbcon.h"
#include "kernel/console/printk.h"
#include "kernel/include/version.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "ktest/lib/ktap.h"
#include "mce/mce.h"

#define QB_BYTES	(1UL << 20)
#define QB_RUNS		5

static const char *const qb_names[] = {
	"memcpy_erms", "memcpy_orig", "copy_mc_fragile", "copy_mc_fast_string",
	"copy_page_rep", "copy_page_unrolled", "clear_pages_erms", "clear_pages_rep",
};

/* The screen's lines: one array, its count kept by the only function that adds to it. */
#define SCREEN_LINES	10

struct screen {
	char text[SCREEN_LINES][160];
	const char *lines[SCREEN_LINES];
	unsigned int n;
};

static void screen_add(struct screen *s, const char *fmt, ...) __printf(2, 3);
static void screen_add(struct screen *s, const char *fmt, ...)
{
	va_list ap;

	if (s->n >= SCREEN_LINES) {
		pr_warn("summary: more than %u lines for the screen; '%s' and later ones left out\n",
			SCREEN_LINES, fmt);
		return;
	}
	va_start(ap, fmt);
	ck_vsnprintf(s->text[s->n], sizeof(s->text[s->n]), fmt, ap);
	va_end(ap);
	s->lines[s->n] = s->text[s->n];
	s->n++;
}

/* "suites: cpu:ok tsc:ok" */
static void suites_line(struct screen *s, const struct ktap_totals *tot)
{
	const struct cmdline_names *names = ck_cmdline_names();
	char buf[sizeof(s->text[0])];
	size_t len = 0;

	ck_appendf(buf, sizeof(buf), &len, "suites:");
	for (unsigned int i = 0; i < names->nr_suites && i < KTAP_MAX_SUITES; i++)
		if (tot->result[i] != KTAP_NOT_RUN)
			ck_appendf(buf, sizeof(buf), &len, " %s:%s", names->suites[i],
				   tot->result[i] == KTAP_OK ? "ok" :
				   tot->result[i] == KTAP_FAIL ? "FAIL" : "skip");
	screen_add(s, "%s", buf);
}

/* "CPUs: 4 started, 0 failed, stale machine-check errors on none" (the per-CPU MCA setup). */
static void cpus_line(struct screen *s)
{
	char buf[sizeof(s->text[0])];
	size_t len = 0;
	bool any = false;

	ck_appendf(buf, sizeof(buf), &len, "CPUs: %u started, %u failed, stale machine-check "
		   "errors on", smp_nr_online(), smp_info()->nr_failed);
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		const struct mce_cpu_facts *f = mce_cpu_facts(c);

		if (f && f->stale) {
			ck_appendf(buf, sizeof(buf), &len, "%s %u", any ? "," : "", c);
			any = true;
		}
	}
	if (!any)
		ck_appendf(buf, sizeof(buf), &len, " none");
	screen_add(s, "%s", buf);
}

static void results_line(struct screen *s)
{
	int err;

	switch (results_state(&err)) {
	case RESULTS_STORED:
		screen_add(s, "results are also in UEFI variables CopykernelResult* "
			   "(tools/ck-results.py)");
		break;
	case RESULTS_FAILED:
		screen_add(s, "results NOT STORED: the firmware refused the UEFI variable (error %d); "
			   "they are only on this screen and serial", err);
		break;
	default:
		screen_add(s, "results are only on this screen and serial (no firmware variable "
			   "store)");
		break;
	}
}

/* "command line: 2 errors (verdict ERROR, reason=cmdline); the first: 'soak=15q': ..." */
static void cmdline_line(struct screen *s, enum ck_status status)
{
	const char *const *briefs;
	unsigned int n = cmdline_errors();

	if (!n)
		return;
	cmdline_errors_kept(&briefs);
	screen_add(s, "command line: %u error%s (%s); the first: %s", n, n == 1 ? "" : "s",
		   status == CK_STATUS_CMDLINE ? "verdict ERROR, reason=cmdline" :
		   "counted beside the failure", briefs[0] ? briefs[0] : "not kept");
}

static void summary_lines(struct screen *s, enum ck_status status,
			  const struct ktap_totals *tot)
{
	const struct cpu_ident *c = cpu();
	u64 rec = 0;

	for (u64 i = 0; i < mce_count(); i++)
		rec += mce_get(i) && mce_get(i)->recovered;
	screen_add(s, "copykernel %s on %s family 0x%x model 0x%x stepping %u", CK_VERSION,
		   c->vendor_str, c->family, c->model, c->stepping);
	screen_add(s, "tests: %u passed, %u failed, %u skipped in %u suites", tot->pass,
		   tot->fail, tot->skip, tot->suites);
	cmdline_line(s, status);
	suites_line(s, tot);
	screen_add(s, "dispatch: copy_page=%s memcpy=%s copy_mc=%s clear_page=%s",
		   copy_page_impl_names[copy_ops.choice.copy_page],
		   memcpy_impl_names[copy_ops.choice.memcpy],
		   copy_mc_impl_names[copy_ops.choice.copy_mc],
		   clear_page_impl_names[copy_ops.choice.clear_page]);
	screen_add(s, "machine checks (real, emulated and simulated): %llu records, %llu "
		   "recovered; poison list: %u page%s", (unsigned long long)mce_count(),
		   (unsigned long long)rec, poison_log.n, poison_log.n == 1 ? "" : "s");
	results_line(s);
	cpus_line(s);
	if (c->hypervisor)
		screen_add(s, "under a hypervisor (a virtual or emulated CPU): the quick figures "
			   "mean nothing here");
}

/* Time each primitive, print its JSON line, and make its bar; returns the number of bars. */
/* A quick figure's "quick" record. */
static void quick_record(const char *name, const struct bench_result *r)
{
	struct json_writer w;
	char line[200];

	json_record(&w, line, sizeof(line), "quick");
	json_str(&w, "primitive", name);
	json_u64(&w, "bytes", QB_BYTES);
	json_u64(&w, "runs", QB_RUNS);
	json_u64(&w, "median_ns", r->ns.median);
	json_u64(&w, "mb_per_s", r->mbps_median);
	json_end(&w);
	printk("%s\n", line);
}

static unsigned int quick_figures(struct fb_bar *bars, char (*text)[24])
{
	u8 *src = (u8 *)(uintptr_t)bootmem_alloc(QB_BYTES, SZ_2M);
	u8 *dst = (u8 *)(uintptr_t)bootmem_alloc(QB_BYTES, SZ_2M);
	static struct bench_result r;
	struct dispatch_caps caps;
	struct bench_platform plat;
	struct bench_env env;
	unsigned int nb = 0;

	printk("summary: quick figures, 1 MiB cache-warm, median of %d (a sanity check, not the "
	       "benchmarks; under an emulator they say nothing about hardware)\n", QB_RUNS);
	copy_caps(&caps);
	bench_image_env(&env, &plat, &caps);
	for (size_t i = 0; src && i < QB_BYTES; i++)
		src[i] = (u8)i;
	for (unsigned int i = 0; src && dst && tsc_info()->hz && i < ARRAY_SIZE(qb_names); i++) {
		if (!bench_primitive(&env, &plat, qb_names[i], dst, src, QB_BYTES, QB_RUNS, &r))
			continue;
		ck_snprintf(text[nb], sizeof(text[nb]), "%llu.%02llu GB/s",
			    (unsigned long long)r.mbps_median / 1000,
			    (unsigned long long)(r.mbps_median % 1000) / 10);
		quick_record(qb_names[i], &r);
		bars[nb] = (struct fb_bar){ qb_names[i], r.mbps_median, text[nb] };
		nb++;
	}
	return nb;
}

void summary_show(enum ck_status status, const struct ktap_totals *tot)
{
	static char text[ARRAY_SIZE(qb_names)][24];
	static struct screen screen;
	struct fb_bar bars[ARRAY_SIZE(qb_names)];
	unsigned int nb = quick_figures(bars, text);

	if (!fbcon_active())
		return;
	screen.n = 0;
	summary_lines(&screen, status, tot);
	fbcon_summary(ck_status_result(status), status == CK_STATUS_PASS, screen.lines, screen.n,
		      bars, nb, "quick figures: 1 MiB, cache-warm, median of 5 (GB/s)");
	printk("fbcon: summary drawn\n");
}
