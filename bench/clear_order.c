// SPDX-License-Identifier: GPL-2.0-only
/*
 * clear_order.c - the seed003 preset's folios and cold helper (see clear_order.h), part 2
 * (the clear order) and part 3 (the batch curve), and the figures it quotes from upstream.
 */
#include "bench/cases.h"
#include "bench/clear_order.h"
#include "copy/ops.h"
#include "copy/pages.h"
#include "kernel/lib/format.h"

/* tests/host/test_bench_clear.c holds these to ktest/oracle/linux_dispatch_facts.h. */
const struct bench_quoted clear_quoted[] = {
	{ "rep stosq bandwidth, 4 KiB chunks", "AMD Milan", 1370, 0, "GB/s",
	  "cb431accb36e x86/clear_page: introduce clear_pages()" },
	{ "rep stosq bandwidth, 2 MiB chunks", "AMD Milan", 1510, 0, "GB/s",
	  "cb431accb36e x86/clear_page: introduce clear_pages()" },
	{ "rep stosq bandwidth, 1 GiB chunks", "AMD Milan", 3810, 0, "GB/s",
	  "cb431accb36e x86/clear_page: introduce clear_pages()" },
	{ "LLC miss rate, 2 MiB demand faults, target-last -> sequential", "AMD Genoa",
	  1096, 73, "%", "9890ecab6ad9 mm: folio_zero_user: clear pages sequentially" },
	{ "clearing bandwidth, 2 MiB demand faults, target-last -> sequential", "AMD Genoa",
	  1176, 2358, "GB/s", "9890ecab6ad9 mm: folio_zero_user: clear pages sequentially" },
};
const unsigned int clear_quoted_count = ARRAY_SIZE(clear_quoted);

static volatile bool seed_need_resched;

void seed_resched(void)
{
	if (seed_need_resched)		/* never set: nothing else is runnable */
		seed_need_resched = false;
}

void seed_cold(const struct bench_env *env, void *buf, u64 bytes)
{
	if (env->cold_flush && env->flush)
		env->flush(buf, bytes);
	else if (env->evict)
		env->evict(env->evict_ctx);
}

bool seed_folios_make(const struct bench_platform *p, u8 *buf, u64 folio_bytes,
		      unsigned int n, struct seed_folios *sf)
{
	sf->n = 0;
	sf->folio_bytes = folio_bytes;
	for (unsigned int i = 0; i < n && i < ARRAY_SIZE(sf->f); i++) {
		if (!p->folio(buf + (u64)i * folio_bytes, folio_bytes >> PAGE_SHIFT, &sf->f[i]))
			return false;
		sf->n++;
	}
	return sf->n == n;
}

/* "x.yz": a quoted value x100. */
static void fmt_x100(u32 v, char *buf, size_t size)
{
	ck_snprintf(buf, size, "%u.%02u", v / 100, v % 100);
}

static void quote(const struct bench_env *env, const struct bench_quoted *q)
{
	char b[16], a[16];

	fmt_x100(q->before_x100, b, sizeof(b));
	fmt_x100(q->after_x100, a, sizeof(a));
	bench_outf(env, "  upstream %s (%s; upstream's figure, not measured here): %s: %s%s%s %s",
		   q->source, q->machine, q->what, b, q->after_x100 ? " -> " : "",
		   q->after_x100 ? a : "", q->unit);
}

/* ---- part 2: the clear order ---- */

enum order_how { ORDER_TARGET_LAST, ORDER_SEQUENTIAL, ORDER_V70 };

struct order_ctx {
	struct seed_folios *sf;
	enum order_how how;
};

static void run_order(void *arg)
{
	struct order_ctx *c = arg;

	for (unsigned int i = 0; i < c->sf->n; i++) {
		struct folio *f = &c->sf->f[i];

		if (c->how == ORDER_TARGET_LAST)
			folio_zero_user_v617(f, 0);
		else if (c->how == ORDER_SEQUENTIAL)
			folio_zero_huge(f, 0, HUGE_ORDER_SEQUENTIAL);
		else
			folio_zero_user_v70(f, 0);
	}
}

static unsigned int order_rows(const struct bench_env *env, const struct bench_platform *p,
			       u8 *buf, unsigned int nfolios, u64 folio_bytes)
{
	static struct seed_folios sf;
	static struct order_ctx tl, other;
	static const char *const names[] = {
		"target-last (v6.17 folio_zero_user)", "sequential (9890ecab6ad9)",
		"as merged (7.0 folio_zero_user)",
	};
	static const char *const variants[] = { "tl", "seq", "v70" };	/* unique result ids */
	struct bench_env e = *env;
	unsigned int n = 0;

	if (!seed_folios_make(p, buf, folio_bytes, nfolios, &sf))
		return 0;
	data_fill(buf, (u64)nfolios * folio_bytes, PAT_CONSTANT);
	for (int how = ORDER_SEQUENTIAL; how <= ORDER_V70; how++) {
		struct bench_case a, b;

		tl = (struct order_ctx){ &sf, ORDER_TARGET_LAST };
		other = (struct order_ctx){ &sf, (enum order_how)how };
		a = CASE("folio_zero_user", names[0], (u64)nfolios * folio_bytes, run_order, &tl);
		b = CASE(a.api, names[how], a.bytes, run_order, &other);
		a.flush_a = b.flush_a = buf;
		a.flush_bytes = b.flush_bytes = a.bytes;
		data_clear_patterns(&a);
		data_clear_patterns(&b);
		/* folio_zero_user clears with clear_page: the dispatch's store */
		a.clear_store = b.clear_store = (u8)(1 + copy_ops.choice.clear_page);
		bench_outf(env, "# %u folio%s: %s against %s:", nfolios, nfolios == 1 ? "" : "s",
			   names[0], names[how]);
		e.variant = variants[how];
		n += case_compare(&e, p, &a, &b, BENCH_COLD);
	}
	return n;
}

static unsigned int part_order(const struct bench_env *env, const struct bench_platform *p,
			       u8 *buf, u64 bytes)
{
	u64 fb = p->tiny ? 64 << 10 : 2 << 20;
	unsigned int many = p->tiny ? 16 : 512, n;

	bench_outf(env, "fn=folio_zero_user mode=cache-cold (target-last against sequential and "
		   "against 7.0 as merged; target = each folio's first subpage)");
	table_header(env, "size", "target-last GB/s", "other GB/s", "speedup [95% CI] width");
	n = order_rows(env, p, buf, 1, fb);
	if (bytes >= many * fb)
		n += order_rows(env, p, buf, many, fb);
	else
		bench_failf(env, "seed003: not measured: %u folios (%llu MiB) do not fit",
			   many, (unsigned long long)(many * fb) >> 20);
	quote(env, &clear_quoted[4]);
	quote(env, &clear_quoted[3]);
	bench_outf(env, "  (the same commit reports no change on Intel Icelake-X and Arm "
		   "Neoverse-N1)");
	return n;
}

/* ---- part 3: the batch curve ---- */

struct batch_ctx {
	struct folio f;
	unsigned long batch;		/* pages an extent; 0: the whole range */
};

static void run_batch(void *arg)
{
	struct batch_ctx *c = arg;

	clear_highpages_batch(c->f.page, c->f.nr, c->batch);
}

static unsigned int part_batches(const struct bench_env *env, const struct bench_platform *p,
				 u8 *buf, u64 bytes)
{
	static const u64 batches[] = { 2 << 20, 8 << 20, 32 << 20, 0 };
	static struct batch_ctx base, other;
	static char names[ARRAY_SIZE(batches)][40], variants[ARRAY_SIZE(batches)][16];
	struct bench_env e = *env;
	char sz[16];
	unsigned int n = 0;
	struct folio f;

	if (!p->folio(buf, bytes >> PAGE_SHIFT, &f))
		return 0;
	bench_fmt_size(bytes, sz, sizeof(sz));
	bench_outf(env, "fn=clear_pages batches over %s mode=cache-cold (the body: clear_pages=%s; "
		   "a reschedule point before each extent)", sz,
		   clear_page_impl_names[copy_ops.choice.clear_pages]);
	bench_outf(env, "largest cache CPUID describes for this core: %llu KiB (%s); Linux 7.0 "
		   "batches %llu MiB where the kernel is not preemptible",
		   (unsigned long long)p->llc_bytes >> 10,
		   p->llc_source ? p->llc_source : "not known",
		   (unsigned long long)(PROCESS_PAGES_NON_PREEMPT_BATCH << PAGE_SHIFT) >> 20);
	table_header(env, "size", "4K batches GB/s", "batch GB/s", "speedup [95% CI] width");
	for (unsigned int i = 0; i < ARRAY_SIZE(batches); i++) {
		struct bench_case a, b;

		if (batches[i] >= bytes)
			continue;
		base = (struct batch_ctx){ f, 1 };
		other = (struct batch_ctx){ f, batches[i] >> PAGE_SHIFT };
		if (batches[i]) {
			bench_fmt_size(batches[i], sz, sizeof(sz));
			ck_snprintf(names[i], sizeof(names[i]), "%s batches", sz);
			ck_snprintf(variants[i], sizeof(variants[i]), "batch%s", sz);
		} else {
			ck_snprintf(names[i], sizeof(names[i]), "whole range, one extent");
			ck_snprintf(variants[i], sizeof(variants[i]), "whole");
		}
		a = CASE("clear_pages", "4K batches", bytes, run_batch, &base);
		b = CASE(a.api, names[i], bytes, run_batch, &other);
		a.flush_a = b.flush_a = buf;
		a.flush_bytes = b.flush_bytes = bytes;
		data_clear_patterns(&a);
		data_clear_patterns(&b);
		/* clear_highpages_batch clears with clear_pages: the dispatch's store */
		a.clear_store = b.clear_store = (u8)(1 + copy_ops.choice.clear_pages);
		bench_outf(env, "# 4K batches against %s:", names[i]);
		e.variant = variants[i];	/* the 4K baseline is timed in each: unique ids */
		n += case_compare(&e, p, &a, &b, BENCH_COLD);
	}
	for (unsigned int i = 0; i < 3; i++)
		quote(env, &clear_quoted[i]);
	return n;
}

unsigned int clear_order_parts(const struct bench_env *env, const struct bench_platform *p,
			       u8 *buf, u64 bytes)
{
	return part_order(env, p, buf, bytes) + part_batches(env, p, buf, bytes);
}
