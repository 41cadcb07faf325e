// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - what a person at the console (or reading serial-over-LAN) sees at the end.
 *
 * The quick figures are the median of five TSC-timed runs of each primitive over 1 MiB,
 * cache-warm, interrupts off. They are printed as JSON lines and drawn as bars; they are a
 * sanity check, not the seeds' benchmarks, and under an emulator they say nothing about
 * hardware.
 */
#include "copy/ops.h"
#include "copy/pages.h"
#include "copy/routines.h"
#include "kernel/cpu.h"
#include "kernel/fbcon.h"
#include "kernel/pmem.h"
#include "kernel/printk.h"
#include "kernel/summary.h"
#include "kernel/tsc.h"
#include "kernel/version.h"
#include "kernel/x86.h"
#include "mce/mce.h"
#include "tests/suites.h"

#define QB_BYTES	(1UL << 20)
#define QB_RUNS		5

enum qb_kind { QB_COPY, QB_COPY_MC, QB_PAGES, QB_CLEAR };

struct qb {
	const char *name;
	enum qb_kind kind;
	void *fn;
	u64 mbps;
	char text[24];
};

static u64 time_one(struct qb *q, u8 *dst, const u8 *src)
{
	u64 t0 = rdtsc_ordered(), t1;

	switch (q->kind) {
	case QB_COPY:
		((void *(*)(void *, const void *, size_t))q->fn)(dst, src, QB_BYTES);
		break;
	case QB_COPY_MC:
		((size_t (*)(void *, const void *, size_t))q->fn)(dst, src, QB_BYTES);
		break;
	case QB_PAGES:
		for (size_t off = 0; off < QB_BYTES; off += PAGE_SIZE)
			((void (*)(void *, const void *))q->fn)(dst + off, src + off);
		break;
	case QB_CLEAR:
		((void (*)(void *, size_t))q->fn)(dst, QB_BYTES / PAGE_SIZE);
		break;
	}
	t1 = rdtsc_ordered();
	return tsc_to_ns(t1 - t0);
}

static void measure(struct qb *q, u8 *dst, const u8 *src)
{
	u64 ns[QB_RUNS], med;

	time_one(q, dst, src);		/* warm-up */
	for (int i = 0; i < QB_RUNS; i++)
		ns[i] = time_one(q, dst, src);
	for (int i = 1; i < QB_RUNS; i++)	/* insertion sort for the median */
		for (int j = i; j > 0 && ns[j] < ns[j - 1]; j--) {
			u64 t = ns[j];

			ns[j] = ns[j - 1];
			ns[j - 1] = t;
		}
	med = ns[QB_RUNS / 2] ? ns[QB_RUNS / 2] : 1;
	q->mbps = (u64)QB_BYTES * 1000 / med;
	ck_snprintf(q->text, sizeof(q->text), "%llu.%02llu GB/s",
		    (unsigned long long)q->mbps / 1000, (unsigned long long)(q->mbps % 1000) / 10);
	printk("{\"schema\":1,\"kind\":\"quick\",\"primitive\":\"%s\",\"bytes\":%lu,\"runs\":%d,"
	       "\"median_ns\":%llu,\"mb_per_s\":%llu}\n", q->name, QB_BYTES, QB_RUNS,
	       (unsigned long long)med, (unsigned long long)q->mbps);
}

static const char *verdict_of(enum ck_status s)
{
	switch (s) {
	case CK_STATUS_PASS:	return "PASS";
	case CK_STATUS_FAIL:	return "FAIL";
	case CK_STATUS_PANIC:	return "PANIC";
	default:		return "BAD COMMAND LINE";
	}
}

void summary_show(enum ck_status status, const struct ktap_totals *tot)
{
	struct qb qb[] = {
		{ .name = "memcpy_erms", .kind = QB_COPY, .fn = (void *)memcpy_erms },
		{ .name = "memcpy_orig", .kind = QB_COPY, .fn = (void *)memcpy_orig },
		{ .name = "copy_mc_fragile", .kind = QB_COPY_MC, .fn = (void *)copy_mc_fragile },
		{ .name = "copy_mc_fast_string", .kind = QB_COPY_MC,
		  .fn = (void *)copy_mc_fast_string },
		{ .name = "copy_page_rep", .kind = QB_PAGES, .fn = (void *)copy_page_rep },
		{ .name = "copy_page_unrolled", .kind = QB_PAGES,
		  .fn = (void *)copy_page_unrolled },
		{ .name = "clear_pages_erms", .kind = QB_CLEAR, .fn = (void *)clear_pages_erms },
		{ .name = "clear_pages_rep", .kind = QB_CLEAR, .fn = (void *)clear_pages_rep },
	};
	u8 *src = (u8 *)(uintptr_t)pmem_alloc(QB_BYTES, SZ_2M);
	u8 *dst = (u8 *)(uintptr_t)pmem_alloc(QB_BYTES, SZ_2M);
	struct fb_bar bars[ARRAY_SIZE(qb)];
	static char l[6][160];
	const char *lines[6];
	const struct cpu_ident *c = cpu();
	size_t len = 0;
	u64 rec = 0;

	printk("summary: quick figures, 1 MiB cache-warm, median of %d (a sanity check, not the "
	       "benchmarks; under an emulator they say nothing about hardware)\n", QB_RUNS);
	if (src && dst && tsc_info()->hz) {
		for (size_t i = 0; i < QB_BYTES; i++)
			src[i] = (u8)i;
		for (unsigned int i = 0; i < ARRAY_SIZE(qb); i++) {
			measure(&qb[i], dst, src);
			bars[i] = (struct fb_bar){ qb[i].name, qb[i].mbps, qb[i].text };
		}
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
	for (int s = 0; s < CK_NR_SUITES && s < KTAP_MAX_SUITES && len < sizeof(l[2]); s++)
		if (tot->result[s] != KTAP_NOT_RUN)
			len += (size_t)ck_snprintf(l[2] + len, sizeof(l[2]) - len, " %s:%s",
						   ck_suite_names[s],
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
	ck_snprintf(l[5], sizeof(l[5]), "results are also in UEFI variables CopykernelResult* "
		    "(tools/ck-results.py)");
	for (int i = 0; i < 6; i++)
		lines[i] = l[i];
	fbcon_summary(verdict_of(status), status == CK_STATUS_PASS, lines, 6, bars,
		      src && dst && tsc_info()->hz ? ARRAY_SIZE(qb) : 0,
		      "quick figures: 1 MiB, cache-warm, median of 5 (GB/s)");
	printk("fbcon: summary drawn\n");
}
