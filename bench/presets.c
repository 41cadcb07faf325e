// SPDX-License-Identifier: GPL-2.0-only
/*
 * presets.c - the seed experiments (see presets.h). Every result goes out as a JSON line;
 * comparisons also as a table row in the seed's layout:
 *
 *   fn=folio_copy mode=cache-cold
 *   direction      folio   baseline GB/s    optimized GB/s   speedup
 *   node0->node0   256K    15.63 +- 0.55    30.81 +- 2.10    1.97x [1.90, 2.05]
 */
#include "bench/presets.h"
#include "copy/ops.h"
#include "copy/routines.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"

#define CASE(a, p, b, f, c)						\
	((struct bench_case){ .api = (a), .primitive = (p), .bytes = (b), .fn = (f), .ctx = (c) })

const char *const bench_preset_names[NR_PRESETS] = { "rfc", "v3", "clear", "primitives" };

static void outf(const struct bench_env *env, const char *fmt, ...) __printf(2, 3);
static void outf(const struct bench_env *env, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	ck_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	env->out(line);
}

static void emit(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		 const struct bench_result *r)
{
	char line[512];

	bench_json(env, c, m, r, line, sizeof(line));
	env->out(line);
}

/* ---- folio copies ---- */

struct folio_ctx {
	struct folio dst, src;
	int (*fn)(struct folio *dst, struct folio *src);
	void (*vfn)(struct folio *dst, struct folio *src);
};

static void run_folio(void *p)
{
	struct folio_ctx *c = p;

	if (c->fn)
		c->fn(&c->dst, &c->src);
	else
		c->vfn(&c->dst, &c->src);
}

/* Source folio on @sn, destination on @dn (node numbers; ignored with one node). */
static bool get_folios_on(const struct bench_platform *plat, u64 bytes, unsigned int sn,
			  unsigned int dn, struct folio *d, struct folio *s)
{
	bool numa = plat->alloc_node && plat->nr_nodes > 1;
	void *a = numa ? plat->alloc_node(bytes, sn) : plat->alloc(bytes);
	void *b = numa ? plat->alloc_node(bytes, dn) : plat->alloc(bytes);

	return a && b && plat->folio(b, bytes >> PAGE_SHIFT, d) &&
	       plat->folio(a, bytes >> PAGE_SHIFT, s);
}

static bool get_folios(const struct bench_platform *plat, u64 bytes, struct folio *d,
		       struct folio *s)
{
	return get_folios_on(plat, bytes, 0, 0, d, s);
}

/*
 * Every ordered node pair, node0->node0 first: the seeds' DRAM0->DRAM1, DRAM->CXL and
 * CXL->DRAM are among them.
 */
static unsigned int directions(const struct bench_platform *p, unsigned int dir[][2])
{
	unsigned int n = 0, nodes = p->alloc_node && p->nr_nodes > 1 ? p->nr_nodes : 1;

	nodes = MIN(nodes, (unsigned int)BENCH_MAX_NODES);
	for (unsigned int s = 0; s < nodes; s++)
		for (unsigned int d = 0; d < nodes; d++) {
			dir[n][0] = s;
			dir[n++][1] = d;
		}
	return n;
}

static const char *const node_names[BENCH_MAX_NODES] = {
	"node0", "node1", "node2", "node3", "node4", "node5", "node6", "node7",
};

static unsigned int compare_row(const struct bench_env *env, const struct bench_platform *p,
				struct bench_case *a, struct bench_case *b, enum bench_mode m)
{
	static struct bench_result ra, rb;
	struct ratio q;
	char sz[16], ga[40], gb[40], rr[48], dir[32];

	bench_compare(env, a, b, m, p->runs, &ra, &rb, &q);
	emit(env, a, m, &ra);
	emit(env, b, m, &rb);
	bench_fmt_size(a->bytes, sz, sizeof(sz));
	bench_fmt_gbps(&ra, ga, sizeof(ga));
	bench_fmt_gbps(&rb, gb, sizeof(gb));
	bench_fmt_ratio(&q, rr, sizeof(rr));
	ck_snprintf(dir, sizeof(dir), "%s->%s", a->src_node ? a->src_node : "node0",
		    a->dst_node ? a->dst_node : "node0");
	outf(env, "%-14s %-7s %-16s %-16s %s", dir, sz, ga, gb, rr);
	outf(env, "{\"schema\":1,\"kind\":\"comparison\",\"api\":\"%s\",\"size\":%llu,"
	     "\"mode\":\"%s\",\"baseline\":\"%s\",\"candidate\":\"%s\",\"ratio_x1000\":%u,"
	     "\"ci_lo_x1000\":%u,\"ci_hi_x1000\":%u,\"significant\":%s}", a->api,
	     (unsigned long long)a->bytes, bench_mode_name(m), a->primitive, b->primitive,
	     q.ratio_pm, q.lo_pm, q.hi_pm, q.significant ? "true" : "false");
	return 2;
}

static unsigned int preset_rfc(const struct bench_env *env, const struct bench_platform *p)
{
	static const u64 cold[] = { 256 << 10, 512 << 10, 1 << 20, 2 << 20 };
	static const u64 hot[] = { 16 << 10, 64 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20 };
	unsigned int n = 0;

	for (int mc = 0; mc < 2; mc++)
		for (int mode = BENCH_COLD; mode >= BENCH_HOT; mode--) {
			const u64 *sizes = mode == BENCH_COLD ? cold : hot;
			unsigned int ns = mode == BENCH_COLD ? ARRAY_SIZE(cold) : ARRAY_SIZE(hot);

			outf(env, "fn=%s mode=%s", mc ? "folio_mc_copy" : "folio_copy",
			     bench_mode_name((enum bench_mode)mode));
			outf(env, "%-14s %-7s %-16s %-16s %s", "direction", "folio",
			     "baseline GB/s", "optimized GB/s", "speedup [95% CI]");
			unsigned int dir[BENCH_MAX_NODES * BENCH_MAX_NODES][2];
			unsigned int nd = directions(p, dir);

			for (unsigned int k = 0; k < nd * (p->tiny ? 1 : ns); k++) {
				static struct folio_ctx base, batch;
				unsigned int per = p->tiny ? 1 : ns, i = k % per, dr = k / per;
				struct folio d, s;
				struct bench_case a, b;

				if (sizes[i] > p->max_bytes)
					continue;
				if (!get_folios_on(p, sizes[i], dir[dr][0], dir[dr][1], &d, &s)) {
					char sz[16];

					/* A node without free memory is named, not dropped. */
					bench_fmt_size(sizes[i], sz, sizeof(sz));
					outf(env, "%s->%s %s: no free memory for it on a node, skipped",
					     node_names[dir[dr][0]], node_names[dir[dr][1]], sz);
					continue;
				}
				base = (struct folio_ctx){ .dst = d, .src = s };
				batch = base;
				if (mc) {
					base.fn = folio_mc_copy_per_page;
					batch.fn = folio_mc_copy_batched;
				} else {
					base.vfn = folio_copy_per_page;
					batch.vfn = folio_copy_batched;
				}
				a = CASE(mc ? "folio_mc_copy" : "folio_copy", "per-page", sizes[i],
					 run_folio, &base);
				b = CASE(a.api, "batched", sizes[i], run_folio, &batch);
				a.flush_a = b.flush_a = page_address(s.page);
				a.flush_b = b.flush_b = page_address(d.page);
				a.flush_bytes = b.flush_bytes = sizes[i];
				a.src_node = b.src_node = node_names[dir[dr][0]];
				a.dst_node = b.dst_node = node_names[dir[dr][1]];
				n += compare_row(env, p, &a, &b, (enum bench_mode)mode);
			}
		}
	return n;
}

/* ---- v3: copy_mc_highpages bulk vs per page ---- */

struct v3_ctx {
	struct folio dst, src;
	bool preemptible;
};

static void run_v3(void *p)
{
	struct v3_ctx *c = p;
	bool saved = page_api_cfg.preemptible;

	page_api_cfg.preemptible = c->preemptible;
	copy_mc_highpages(c->dst.page, c->src.page, c->src.nr);
	page_api_cfg.preemptible = saved;
}

static unsigned int preset_v3(const struct bench_env *env, const struct bench_platform *p)
{
	static const u64 sizes[] = { 2 << 20, 1ULL << 30 };
	unsigned int n = 0;

	outf(env, "fn=copy_mc_highpages mode=cache-cold");
	outf(env, "%-14s %-7s %-16s %-16s %s", "direction", "extent", "per-page GB/s",
	     "bulk GB/s", "speedup [95% CI]");
	for (unsigned int i = 0; i < (p->tiny ? 1 : ARRAY_SIZE(sizes)); i++) {
		static struct v3_ctx per, bulk;
		struct folio d, s;
		struct bench_case a, b;

		if (sizes[i] > p->max_bytes || !get_folios(p, sizes[i], &d, &s)) {
			outf(env, "# v3: %llu MiB extent skipped (memory or max size)",
			     (unsigned long long)sizes[i] >> 20);
			continue;
		}
		per = (struct v3_ctx){ d, s, false };
		bulk = (struct v3_ctx){ d, s, true };
		a = CASE("copy_mc_highpages", "per-page", sizes[i], run_v3, &per);
		b = CASE(a.api, "bulk", sizes[i], run_v3, &bulk);
		a.flush_a = b.flush_a = page_address(s.page);
		a.flush_b = b.flush_b = page_address(d.page);
		a.flush_bytes = b.flush_bytes = sizes[i];
		n += compare_row(env, p, &a, &b, BENCH_COLD);
	}
	return n;
}

/* ---- single primitives ---- */

enum prim_kind { K_COPY, K_COPY_MC, K_PAGE, K_CLEAR_PAGE, K_CLEAR_PAGES };

struct prim {
	const char *name;
	enum prim_kind kind;
	void *fn;
	int needs;	/* 0 none, 1 AVX2, 2 AVX-512F, 3 CLZERO */
};

struct prim_ctx {
	const struct prim *pr;
	u8 *dst, *src;
	u64 bytes;
};

static void run_prim(void *p)
{
	struct prim_ctx *c = p;

	switch (c->pr->kind) {
	case K_COPY:
		((void *(*)(void *, const void *, size_t))c->pr->fn)(c->dst, c->src, c->bytes);
		break;
	case K_COPY_MC:
		((size_t (*)(void *, const void *, size_t))c->pr->fn)(c->dst, c->src, c->bytes);
		break;
	case K_PAGE:
		for (u64 o = 0; o < c->bytes; o += PAGE_SIZE)
			((void (*)(void *, const void *))c->pr->fn)(c->dst + o, c->src + o);
		break;
	case K_CLEAR_PAGE:
		for (u64 o = 0; o < c->bytes; o += PAGE_SIZE)
			((void (*)(void *))c->pr->fn)(c->dst + o);
		break;
	case K_CLEAR_PAGES:
		((void (*)(void *, size_t))c->pr->fn)(c->dst, c->bytes >> PAGE_SHIFT);
		break;
	}
}

static const struct prim prims[] = {
	{ "memcpy_erms", K_COPY, (void *)memcpy_erms, 0 },
	{ "memcpy_orig", K_COPY, (void *)memcpy_orig, 0 },
	{ "copy_mc_fragile", K_COPY_MC, (void *)copy_mc_fragile, 0 },
	{ "copy_mc_fast_string", K_COPY_MC, (void *)copy_mc_fast_string, 0 },
	{ "copy_mc_avx2_nt", K_COPY_MC, (void *)copy_mc_avx2_nt, 1 },
	{ "copy_mc_avx512_nt", K_COPY_MC, (void *)copy_mc_avx512_nt, 2 },
	{ "copy_page_rep", K_PAGE, (void *)copy_page_rep, 0 },
	{ "copy_page_unrolled", K_PAGE, (void *)copy_page_unrolled, 0 },
	{ "clear_page_erms", K_CLEAR_PAGE, (void *)clear_page_erms, 0 },
	{ "clear_page_rep", K_CLEAR_PAGE, (void *)clear_page_rep, 0 },
	{ "clear_page_unrolled", K_CLEAR_PAGE, (void *)clear_page_unrolled, 0 },
	{ "clear_pages_erms", K_CLEAR_PAGES, (void *)clear_pages_erms, 0 },
	{ "clear_pages_rep", K_CLEAR_PAGES, (void *)clear_pages_rep, 0 },
	{ "clear_pages_nt", K_CLEAR_PAGES, (void *)clear_pages_nt, 0 },
	{ "clear_pages_clzero", K_CLEAR_PAGES, (void *)clear_pages_clzero, 3 },
};

static bool can_run(const struct bench_platform *p, int needs)
{
	return needs == 0 || (needs == 1 && p->caps.avx2) || (needs == 2 && p->caps.avx512f) ||
	       (needs == 3 && p->caps.clzero);
}

bool bench_primitive(const struct bench_env *env, const struct bench_platform *p,
		     const char *name, void *dst, void *src, u64 bytes, unsigned int runs,
		     struct bench_result *r)
{
	static struct prim_ctx ctx;
	struct bench_case c;

	for (unsigned int i = 0; i < ARRAY_SIZE(prims); i++) {
		if (strcmp(prims[i].name, name))
			continue;
		if (!can_run(p, prims[i].needs))
			return false;
		ctx = (struct prim_ctx){ &prims[i], dst, src, bytes };
		c = CASE("primitive", prims[i].name, bytes, run_prim, &ctx);
		bench_run(env, &c, BENCH_HOT, runs, r);
		return true;
	}
	return false;
}

static unsigned int prims_over(const struct bench_env *env, const struct bench_platform *p,
			       const u64 *sizes, unsigned int ns, bool clears_only)
{
	unsigned int n = 0;

	for (int mode = BENCH_HOT; mode <= BENCH_COLD; mode++) {
		outf(env, "primitives mode=%s", bench_mode_name((enum bench_mode)mode));
		outf(env, "%-22s %-7s %-16s %s", "primitive", "size", "GB/s (median)",
		     "cycles/byte");
		for (unsigned int s = 0; s < ns; s++) {
			void *src, *dst;

			if (sizes[s] > p->max_bytes)
				continue;
			src = p->alloc(sizes[s]);
			dst = p->alloc(sizes[s]);
			if (!src || !dst)
				continue;
			for (unsigned int i = 0; i < ARRAY_SIZE(prims); i++) {
				static struct bench_result r;
				static struct prim_ctx ctx;
				struct bench_case c;
				char sz[16], g[40];

				if (!can_run(p, prims[i].needs) ||
				    (clears_only && prims[i].kind < K_CLEAR_PAGE))
					continue;
				ctx = (struct prim_ctx){ &prims[i], dst, src, sizes[s] };
				c = CASE("primitive", prims[i].name, sizes[s], run_prim, &ctx);
				c.flush_a = src;
				c.flush_b = dst;
				c.flush_bytes = sizes[s];
				bench_run(env, &c, (enum bench_mode)mode, p->runs, &r);
				emit(env, &c, (enum bench_mode)mode, &r);
				bench_fmt_size(sizes[s], sz, sizeof(sz));
				bench_fmt_gbps(&r, g, sizeof(g));
				outf(env, "%-22s %-7s %-16s %llu.%03llu", prims[i].name, sz, g,
				     (unsigned long long)r.mcyc_per_byte / 1000,
				     (unsigned long long)r.mcyc_per_byte % 1000);
				n++;
			}
			if (p->tiny)
				break;
		}
	}
	return n;
}

/* ---- clear: primitives over 2 MiB, and the huge-page orders ---- */

struct huge_ctx {
	struct folio f;
	enum huge_order order;
};

static void run_zero_huge(void *p)
{
	struct huge_ctx *c = p;

	folio_zero_huge(&c->f, c->f.nr / 2, c->order);
}

static unsigned int preset_clear(const struct bench_env *env, const struct bench_platform *p)
{
	static const u64 sz2m[] = { 2 << 20 };
	static const u64 sztiny[] = { 64 << 10 };
	u64 bytes = p->tiny ? 64 << 10 : 2 << 20;
	unsigned int n = prims_over(env, p, p->tiny ? sztiny : sz2m, 1, true);
	static struct huge_ctx tl, seq;
	struct folio f;
	void *buf = p->alloc(bytes);

	if (!buf || !p->folio(buf, bytes >> PAGE_SHIFT, &f))
		return n;
	for (int mode = BENCH_HOT; mode <= BENCH_COLD; mode++) {
		struct bench_case a, b;

		tl = (struct huge_ctx){ f, HUGE_ORDER_TARGET_LAST };
		seq = (struct huge_ctx){ f, HUGE_ORDER_SEQUENTIAL };
		a = CASE("folio_zero_huge", "target-last", bytes, run_zero_huge, &tl);
		b = CASE(a.api, "sequential", bytes, run_zero_huge, &seq);
		a.flush_a = b.flush_a = buf;
		a.flush_bytes = b.flush_bytes = bytes;
		outf(env, "fn=folio_zero_huge (target = middle subpage) mode=%s",
		     bench_mode_name((enum bench_mode)mode));
		outf(env, "%-14s %-7s %-16s %-16s %s", "direction", "folio", "target-last GB/s",
		     "sequential GB/s", "ratio [95% CI]");
		n += compare_row(env, p, &a, &b, (enum bench_mode)mode);
	}
	return n;
}

static unsigned int preset_primitives(const struct bench_env *env,
				      const struct bench_platform *p)
{
	static const u64 sizes[] = { 4 << 10, 64 << 10, 2 << 20, 64 << 20 };

	return prims_over(env, p, sizes, ARRAY_SIZE(sizes), false);
}

unsigned int bench_preset_run(enum bench_preset which, const struct bench_env *env,
			      const struct bench_platform *plat)
{
	switch (which) {
	case PRESET_RFC:	return preset_rfc(env, plat);
	case PRESET_V3:		return preset_v3(env, plat);
	case PRESET_CLEAR:	return preset_clear(env, plat);
	case PRESET_PRIMITIVES:	return preset_primitives(env, plat);
	default:		return 0;
	}
}
