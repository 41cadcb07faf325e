// SPDX-License-Identifier: GPL-2.0-only
/*
 * seed003.c - the seed003 preset (bench/clear_order.h): its buffer, part 1 (seed 003's
 * table of PMD folio clears in its own layout), then parts 2 and 3 (bench/clear_order.c).
 * Each run of part 1 times all N folios cleared by one function, after the buffer is
 * refilled (untimed; freshly allocated folios hold old data) and made cold; the three
 * functions take turns in a rotating order, so drift spreads over all. The interval is
 * Student's t at 4 degrees of freedom (2.776) over the five runs. After each run every
 * word of the N folios is checked to be zero.
 */
#include "bench/clear_order.h"
#include "bench/data.h"
#include "bench/probe.h"
#include "copy/pages.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"

#define SEED_RUNS	5
#define T95_4DF_X1000	2776		/* Student's t, 97.5th percentile, 4 degrees of freedom */

/* From seed 003 (Kefeng Wang, 25 Oct 2024): its "avg" rows, microseconds x 10. */
const u32 seed003_avg_x10[3][3] = {
	{ 580, 628, 1768 },			/* N = 1 */
	{ 105168, 110984, 395634 },		/* N = 100 */
	{ 555204, 600014, 1570066 },		/* N = 512 */
};

enum seed_fn { SEED_CLEAR_HIGHPAGE, SEED_ZERO_RANGE, SEED_ZERO_USER, NR_SEED_FNS };
static const char *const seed_fn_names[NR_SEED_FNS] = {
	"clear_highpage", "folio_zero_range", "folio_zero_user",
};

static void clear_all(const struct seed_folios *sf, enum seed_fn fn)
{
	for (unsigned int i = 0; i < sf->n; i++) {
		const struct folio *f = &sf->f[i];

		if (fn == SEED_CLEAR_HIGHPAGE)		/* the seed's shmem loop */
			for (unsigned long p = 0; p < f->nr; p++)
				clear_highpage(folio_page(f, p));
		else if (fn == SEED_ZERO_RANGE)
			folio_zero_range((struct folio *)f, 0, f->nr << PAGE_SHIFT);
		else
			folio_zero_user_v617((struct folio *)f, 0);
	}
}

static bool all_zero(const u8 *buf, u64 bytes)
{
	const u64 *w = (const u64 *)buf;

	for (u64 i = 0; i < bytes / 8; i++)
		if (w[i])
			return false;
	return true;
}

struct seed_cell {
	u64 ns[SEED_RUNS];
	u64 avg, lo, hi;		/* ns */
	bool zeroed;			/* every run left every byte zero */
};

static void cell_stats(struct seed_cell *c)
{
	u64 sum = 0, var = 0, half;

	for (int r = 0; r < SEED_RUNS; r++)
		sum += c->ns[r];
	c->avg = sum / SEED_RUNS;
	for (int r = 0; r < SEED_RUNS; r++) {
		u64 d = c->ns[r] > c->avg ? c->ns[r] - c->avg : c->avg - c->ns[r];

		var += d * d / (SEED_RUNS - 1);
	}
	half = stats_isqrt(var / SEED_RUNS) * T95_4DF_X1000 / 1000;
	c->lo = c->avg > half ? c->avg - half : 0;
	c->hi = c->avg + half;
}

/* "62.8": @ns as microseconds with one decimal. */
static void fmt_us(u64 ns, char *buf, size_t size)
{
	u64 t = (ns + 50) / 100;

	ck_snprintf(buf, size, "%llu.%llu", (unsigned long long)t / 10,
		    (unsigned long long)t % 10);
}

static void seed_record(const struct bench_env *env, const struct seed_folios *sf,
			enum seed_fn fn, const struct seed_cell *c, int seed_row)
{
	struct json_writer w;
	char line[768];

	json_record(&w, line, sizeof(line), "seed003");
	json_str(&w, "machine", env->machine ? env->machine : "");
	json_u64(&w, "n_folios", sf->n);
	json_u64(&w, "folio_size", sf->folio_bytes);
	json_str(&w, "fn", seed_fn_names[fn]);
	json_str(&w, "mode", "cache-cold");
	json_arr_begin(&w, "runs_ns");
	for (int r = 0; r < SEED_RUNS; r++)
		json_u64(&w, NULL, c->ns[r]);
	json_arr_end(&w);
	json_u64(&w, "avg_ns", c->avg);
	json_u64(&w, "ci_lo_ns", c->lo);
	json_u64(&w, "ci_hi_ns", c->hi);
	json_str(&w, "interval", "95% of the mean, Student's t, 4 df");
	json_bool(&w, "zeroed", c->zeroed);
	if (seed_row >= 0)
		json_fixed(&w, "seed_avg_us", seed003_avg_x10[seed_row][fn], 1);
	else
		json_null(&w, "seed_avg_us");
	json_end(&w);
	env->out(line);
}

/* The seed's block for one N: five rows, avg, the interval, the seed's avg beside. */
static void print_block(const struct bench_env *env, const struct seed_folios *sf,
			const struct seed_cell *c, int seed_row)
{
	char a[3][24], sz[16];

	bench_fmt_size(sf->folio_bytes, sz, sizeof(sz));
	bench_outf(env, "N=%u (%s folios), cache-cold, us", sf->n, sz);
	bench_outf(env, "%-8s %16s %18s %17s", "", seed_fn_names[0], seed_fn_names[1],
		   seed_fn_names[2]);
	for (int r = 0; r < SEED_RUNS; r++) {
		for (int f = 0; f < NR_SEED_FNS; f++)
			fmt_us(c[f].ns[r], a[f], sizeof(a[f]));
		bench_outf(env, "%8d %16s %18s %17s", r + 1, a[0], a[1], a[2]);
	}
	for (int f = 0; f < NR_SEED_FNS; f++)
		fmt_us(c[f].avg, a[f], sizeof(a[f]));
	bench_outf(env, "%8s %16s %18s %17s", "avg", a[0], a[1], a[2]);
	for (int f = 0; f < NR_SEED_FNS; f++) {
		char lo[12], hi[12];

		fmt_us(c[f].lo, lo, sizeof(lo));
		fmt_us(c[f].hi, hi, sizeof(hi));
		ck_snprintf(a[f], sizeof(a[f]), "[%s, %s]", lo, hi);
	}
	bench_outf(env, "%8s %16s %18s %17s", "95% CI", a[0], a[1], a[2]);
	if (seed_row >= 0) {
		for (int f = 0; f < NR_SEED_FNS; f++)
			fmt_us((u64)seed003_avg_x10[seed_row][f] * 100, a[f], sizeof(a[f]));
		bench_outf(env, "%8s %16s %18s %17s   <- seed 003's avg (Kefeng Wang, arm64 "
			   "server, CONFIG_PREEMPT_NONE=y), not measured here", "seed", a[0], a[1],
			   a[2]);
	}
	for (int f = 0; f < NR_SEED_FNS; f++)
		if (!c[f].zeroed)
			bench_outf(env, "seed003: ERROR: %s left non-zero bytes in the folios",
				   seed_fn_names[f]);
}

static void time_block(const struct bench_env *env, struct seed_folios *sf, u8 *buf,
		       struct seed_cell *c)
{
	u64 bytes = (u64)sf->n * sf->folio_bytes;

	for (int f = 0; f < NR_SEED_FNS; f++)
		c[f].zeroed = true;
	for (int r = 0; r < SEED_RUNS; r++)
		for (int k = 0; k < NR_SEED_FNS; k++) {
			enum seed_fn fn = (enum seed_fn)((r + k) % NR_SEED_FNS);
			u64 t0, t1;

			data_fill(buf, bytes, PAT_CONSTANT);
			seed_cold(env, buf, bytes);
			t0 = env->now_ns();
			clear_all(sf, fn);
			t1 = env->now_ns();
			c[fn].ns[r] = t1 > t0 ? t1 - t0 : 0;
			c[fn].zeroed &= all_zero(buf, bytes);
		}
	for (int f = 0; f < NR_SEED_FNS; f++)
		cell_stats(&c[f]);
}

unsigned int seed003_table(const struct bench_env *env, const struct bench_platform *p,
			   u8 *buf)
{
	static const unsigned int full[] = { 1, 100, 512 }, tiny[] = { 1, 4, 16 };
	static struct seed_folios sf;
	struct seed_cell c[NR_SEED_FNS];
	u64 fb = p->tiny ? 64 << 10 : 2 << 20;
	unsigned int n = 0;

	bench_outf(env, "fn=seed003 (seed 003's table: PMD folios cleared three ways; "
		   "folio_zero_user = v6.17's, target = first subpage, a reschedule point a page)");
	for (unsigned int i = 0; i < 3; i++) {
		unsigned int nf = p->tiny ? tiny[i] : full[i];

		if (!seed_folios_make(p, buf, fb, nf, &sf))
			continue;
		time_block(env, &sf, buf, c);
		print_block(env, &sf, c, p->tiny ? -1 : (int)i);
		for (int f = 0; f < NR_SEED_FNS; f++)
			seed_record(env, &sf, (enum seed_fn)f, &c[f], p->tiny ? -1 : (int)i);
		n += NR_SEED_FNS;
	}
	return n;
}

unsigned int preset_seed003(const struct bench_env *env, const struct bench_platform *p)
{
	u64 bytes = p->tiny ? 4ULL << 20 : 1ULL << 30;
	void (*saved)(void) = page_api_cfg.cond_resched;
	unsigned int n = 0;
	u8 *buf = NULL, *src;

	/*
	 * The size of the run's two large buffers (1 GiB, 4 MiB tiny) is theirs, as big and v3
	 * take them: the destination one is the folio area (the source keeps its random data).
	 */
	if (bytes == probe_bytes(p)) {
		if (!probe_buffers(env, p, &src, &buf))
			buf = NULL;
	} else if (bytes <= p->max_bytes) {
		buf = p->alloc(bytes);
	}
	if (!buf) {
		bench_failf(env, "seed003: not measured: no room for %llu MiB (largest case "
			   "%llu MiB)", (unsigned long long)bytes >> 20,
			   (unsigned long long)p->max_bytes >> 20);
		return 0;
	}
	probe_ensure(env, p);	/* the order and batch rows against the zero-write limit */
	page_api_cfg.cond_resched = seed_resched;
	/* the table's cells are single timings: the run's own process takes them, no replica */
	if (!p->replica)
		n += seed003_table(env, p, buf);
	n += clear_order_parts(env, p, buf, bytes);
	page_api_cfg.cond_resched = saved;
	return n;
}
