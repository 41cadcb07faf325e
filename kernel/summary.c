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
#include "bench/presets.h"
#include "copy/ops.h"
#include "copy/pages.h"
#include "kernel/arch/pmem.h"
#include "kernel/console/fbcon.h"
#include "kernel/console/printk.h"
#include "kernel/copy_setup.h"
#include "kernel/include/version.h"
#include "kernel/lib/json.h"
#include "kernel/names.h"
#include "kernel/results.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "kernel/summary.h"
#include "mce/mce.h"
#include "tests/ktap.h"

#define QB_BYTES	(1UL << 20)
#define QB_RUNS		5

static const char *const qb_names[] = {
	"memcpy_erms", "memcpy_orig", "copy_mc_fragile", "copy_mc_fast_string",
	"copy_page_rep", "copy_page_unrolled", "clear_pages_erms", "clear_pages_rep",
};

static const char *verdict_of(enum ck_status s)
{
	switch (s) {
	case CK_STATUS_PASS:	return "PASS";
	case CK_STATUS_FAIL:	return "FAIL";
	case CK_STATUS_PANIC:	return "PANIC";
	default:		return "BAD COMMAND LINE";
	}
}

/* "CPUs: 4 started, 0 failed, stale machine-check errors on none" (the per-CPU MCA setup). */
static void mce_cpus_line(char *buf, size_t size)
{
	const struct smp_info *si = smp_info();
	size_t len;
	bool any = false;

	len = (size_t)ck_snprintf(buf, size, "CPUs: %u started, %u failed, stale machine-check "
				  "errors on", smp_nr_online(), si->nr_failed);
	for (unsigned int c = 0; c < smp_nr_cpus() && len < size; c++) {
		const struct mce_cpu_facts *f = mce_cpu_facts(c);

		if (f && f->stale) {
			len += (size_t)ck_snprintf(buf + len, size - len, "%s %u", any ? "," : "",
						   c);
			any = true;
		}
	}
	if (!any && len < size)
		ck_snprintf(buf + len, size - len, " none");
}

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

void summary_show(enum ck_status status, const struct ktap_totals *tot)
{
	u8 *src = (u8 *)(uintptr_t)pmem_alloc(QB_BYTES, SZ_2M);
	u8 *dst = (u8 *)(uintptr_t)pmem_alloc(QB_BYTES, SZ_2M);
	static struct bench_result r;
	static char text[ARRAY_SIZE(qb_names)][24];
	struct fb_bar bars[ARRAY_SIZE(qb_names)];
	unsigned int nb = 0;
	struct bench_env env;
	struct bench_platform plat;
	static char l[7][160];
	const char *lines[7];
	const struct cpu_ident *c = cpu();
	size_t len = 0;
	u64 rec = 0;

	const struct cmdline_names *names = ck_cmdline_names();
	int err;
	struct dispatch_caps caps;

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
	if (!fbcon_active())
		return;
	for (u64 i = 0; i < mce_count(); i++)
		rec += mce_get(i) && mce_get(i)->recovered;
	ck_snprintf(l[0], sizeof(l[0]), "copykernel %s on %s family 0x%x model 0x%x stepping %u",
		    CK_VERSION, c->vendor_str, c->family, c->model, c->stepping);
	ck_snprintf(l[1], sizeof(l[1]), "tests: %u passed, %u failed, %u skipped in %u suites",
		    tot->pass, tot->fail, tot->skip, tot->suites);
	len = (size_t)ck_snprintf(l[2], sizeof(l[2]), "suites:");
	for (unsigned int s = 0; s < names->nr_suites && s < KTAP_MAX_SUITES && len < sizeof(l[2]);
	     s++)
		if (tot->result[s] != KTAP_NOT_RUN)
			len += (size_t)ck_snprintf(l[2] + len, sizeof(l[2]) - len, " %s:%s",
						   names->suites[s],
						   tot->result[s] == KTAP_OK ? "ok" :
						   tot->result[s] == KTAP_FAIL ? "FAIL" : "skip");
	ck_snprintf(l[3], sizeof(l[3]), "dispatch: copy_page=%s memcpy=%s copy_mc=%s "
		    "clear_page=%s", copy_page_impl_names[copy_ops.choice.copy_page],
		    memcpy_impl_names[copy_ops.choice.memcpy],
		    copy_mc_impl_names[copy_ops.choice.copy_mc],
		    clear_page_impl_names[copy_ops.choice.clear_page]);
	ck_snprintf(l[4], sizeof(l[4]), "machine checks (real, emulated and simulated): %llu "
		    "records, %llu recovered; poison list: %u page%s",
		    (unsigned long long)mce_count(), (unsigned long long)rec, poison_log.n,
		    poison_log.n == 1 ? "" : "s");
	mce_cpus_line(l[6], sizeof(l[6]));
	switch (results_state(&err)) {
	case RESULTS_STORED:
		ck_snprintf(l[5], sizeof(l[5]), "results are also in UEFI variables "
			    "CopykernelResult* (tools/ck-results.py)");
		break;
	case RESULTS_FAILED:
		ck_snprintf(l[5], sizeof(l[5]), "results NOT STORED: the firmware refused the UEFI "
			    "variable (error %d); they are only on this screen and serial", err);
		break;
	default:
		ck_snprintf(l[5], sizeof(l[5]), "results are only on this screen and serial (no "
			    "firmware variable store)");
		break;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(lines); i++)
		lines[i] = l[i];
	fbcon_summary(verdict_of(status), status == CK_STATUS_PASS, lines, ARRAY_SIZE(lines), bars,
		      nb, "quick figures: 1 MiB, cache-warm, median of 5 (GB/s)");
	printk("fbcon: summary drawn\n");
}
