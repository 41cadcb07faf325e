// SPDX-License-Identifier: GPL-2.0-only
/*
 * presets.c - the seed experiments over folios and the dispatch (see presets.h): rfc, v3,
 * clear and uarch, and bench_preset_run(), which runs any preset (primitives, patterns and
 * big are in bench/prims.c). Every result goes out as a JSON record, every comparison also
 * as a row of the seed's table (bench/table.h).
 */
#include "bench/cases.h"
#include "bench/clear_order.h"
#include "bench/copy_pages.h"
#include "bench/presets.h"
#include "bench/prims.h"
#include "bench/probe.h"
#include "copy/ops.h"
#include "kernel/lib/format.h"

const char *const bench_preset_names[NR_PRESETS] = { "rfc", "v3", "clear", "primitives",
						     "patterns", "uarch", "big", "copy_pages",
						     "seed003" };

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

/*
 * One rfc row: per-page against batched over @bytes from node @sn to node @dn, run from a
 * CPU of @sn (saying which when @say). A node with no memory at all is named, not dropped;
 * one whose memory is used up fails the row.
 */
static unsigned int rfc_row(const struct bench_env *env, const struct bench_platform *p,
			    bool mc, enum bench_mode m, u64 bytes, unsigned int sn,
			    unsigned int dn, bool say)
{
	static struct folio_ctx base, batch;
	struct bench_case a, b;
	struct folio d, s;
	char sz[16];

	if (!case_folios_on(p, bytes, sn, dn, &d, &s)) {
		bench_fmt_size(bytes, sz, sizeof(sz));
		if (p->node_has_memory && (!p->node_has_memory(sn) || !p->node_has_memory(dn))) {
			/* No case to measure: the machine has no memory there at all. */
			bench_outf(env, "%s->%s %s: no free memory for it on a node, skipped",
				   case_node_names[sn], case_node_names[dn], sz);
			return 0;
		}
		bench_failf(env, "%s %s->%s %s: no free memory for its folios on those nodes",
			    mc ? "folio_mc_copy" : "folio_copy", case_node_names[sn],
			    case_node_names[dn], sz);
		return 0;
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
	a = CASE(mc ? "folio_mc_copy" : "folio_copy", "per-page", bytes, run_folio, &base);
	b = CASE(a.api, "batched", bytes, run_folio, &batch);
	a.flush_a = b.flush_a = page_address(s.page);
	a.flush_b = b.flush_b = page_address(d.page);
	a.flush_bytes = b.flush_bytes = bytes;
	a.src_node = b.src_node = case_node_names[sn];
	a.dst_node = b.dst_node = case_node_names[dn];
	data_copy_patterns(&a, PAT_RANDOM);
	data_copy_patterns(&b, PAT_RANDOM);
	return case_compare_from(env, p, &a, &b, m, sn, say);
}

/* rfc: folio_copy and folio_mc_copy, cold then hot, every node pair and size (tiny: one). */
static unsigned int preset_rfc(const struct bench_env *env, const struct bench_platform *p)
{
	static const u64 cold[] = { 256 << 10, 512 << 10, 1 << 20, 2 << 20 };
	static const u64 hot[] = { 16 << 10, 64 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20 };
	unsigned int dir[BENCH_MAX_NODES * BENCH_MAX_NODES][2];
	unsigned int n = 0, nd = case_directions(p, dir);

	probe_ensure(env, p);	/* both sides of every row against the machine's copy limit */
	for (int mc = 0; mc < 2; mc++)
		for (int mode = BENCH_COLD; mode >= BENCH_HOT; mode--) {
			const u64 *sizes = mode == BENCH_COLD ? cold : hot;
			unsigned int ns = mode == BENCH_COLD ? ARRAY_SIZE(cold) : ARRAY_SIZE(hot);
			unsigned int per = p->tiny ? 1 : ns;

			bench_outf(env, "fn=%s mode=%s", mc ? "folio_mc_copy" : "folio_copy",
				   bench_mode_name((enum bench_mode)mode));
			table_header(env, "folio", "baseline GB/s", "optimized GB/s",
				     "speedup [95% CI] width");
			for (unsigned int k = 0; k < nd * per; k++) {
				unsigned int i = k % per, dr = k / per;

				if (sizes[i] <= p->max_bytes)
					n += rfc_row(env, p, mc, (enum bench_mode)mode, sizes[i],
						     dir[dr][0], dir[dr][1], i == 0);
				else
					bench_failf(env, "rfc: %llu KiB is larger than the largest "
						    "case this machine can hold (%llu KiB)",
						    (unsigned long long)sizes[i] >> 10,
						    (unsigned long long)p->max_bytes >> 10);
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

/*
 * The folios of v3's extent @i: the 2 MiB one on node 0, the large one (1 GiB; the probe's
 * 4 MiB in test mode) on the run's large buffers. False when it cannot be had (said so).
 */
static bool v3_folios(const struct bench_env *env, const struct bench_platform *p, u64 bytes,
		      bool large, struct folio *d, struct folio *s)
{
	u8 *src, *dst;

	if (!large) {
		if (bytes <= p->max_bytes && case_folios_on(p, bytes, 0, 0, d, s))
			return true;
		bench_failf(env, "v3: no memory for the %llu KiB extent's two folios",
			    (unsigned long long)bytes >> 10);
		return false;
	}
	if (probe_bytes(p) < bytes) {
		bench_failf(env, "v3: the %llu MiB extent needs two buffers of %llu MiB; the largest "
			    "case this machine can hold is %llu MiB", (unsigned long long)bytes >> 20,
			    (unsigned long long)bytes >> 20, (unsigned long long)p->max_bytes >> 20);
		return false;
	}
	return probe_buffers(env, p, &src, &dst) && case_folios_at(p, bytes, src, dst, d, s);
}

/* v3: per-page against bulk at 2 MiB and 1 GiB (the probe's size in test mode), cold. */
static unsigned int preset_v3(const struct bench_env *env, const struct bench_platform *p)
{
	const u64 sizes[] = { 2 << 20, p->tiny ? PROBE_TINY : 1ULL << 30 };
	unsigned int n = 0;

	probe_ensure(env, p);
	bench_outf(env, "fn=copy_mc_highpages mode=cache-cold");
	table_header(env, "extent", "per-page GB/s", "bulk GB/s", "speedup [95% CI] width");
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		static struct v3_ctx per, bulk;
		struct folio d, s;
		struct bench_case a, b;

		if (!v3_folios(env, p, sizes[i], i == 1, &d, &s))
			continue;
		per = (struct v3_ctx){ d, s, false };
		bulk = (struct v3_ctx){ d, s, true };
		a = CASE("copy_mc_highpages", "per-page", sizes[i], run_v3, &per);
		b = CASE(a.api, "bulk", sizes[i], run_v3, &bulk);
		a.flush_a = b.flush_a = page_address(s.page);
		a.flush_b = b.flush_b = page_address(d.page);
		a.flush_bytes = b.flush_bytes = sizes[i];
		data_copy_patterns(&a, PAT_RANDOM);
		data_copy_patterns(&b, PAT_RANDOM);
		n += case_compare(env, p, &a, &b, BENCH_COLD);
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
	unsigned int n;
	static struct huge_ctx tl, seq;
	struct folio f;
	void *buf;

	probe_ensure(env, p);	/* both orders against the zero-write of the same store */
	n = prim_over(env, p, p->tiny ? sztiny : sz2m, 1, true);
	buf = p->alloc(bytes);
	if (!buf || !p->folio(buf, bytes >> PAGE_SHIFT, &f)) {
		bench_failf(env, "clear: no memory for the %llu KiB folio of folio_zero_huge",
			    (unsigned long long)bytes >> 10);
		return n;
	}
	for (int mode = BENCH_HOT; mode <= BENCH_COLD; mode++) {
		struct bench_case a, b;

		tl = (struct huge_ctx){ f, HUGE_ORDER_TARGET_LAST };
		seq = (struct huge_ctx){ f, HUGE_ORDER_SEQUENTIAL };
		a = CASE("folio_zero_huge", "target-last", bytes, run_zero_huge, &tl);
		b = CASE(a.api, "sequential", bytes, run_zero_huge, &seq);
		a.flush_a = b.flush_a = buf;
		a.flush_bytes = b.flush_bytes = bytes;
		data_clear_patterns(&a);
		data_clear_patterns(&b);
		/* clear_highpage is clear_page: the dispatch's store */
		a.clear_store = b.clear_store = (u8)(1 + copy_ops.choice.clear_page);
		bench_outf(env, "fn=folio_zero_huge (target = middle subpage) mode=%s",
			   bench_mode_name((enum bench_mode)mode));
		table_header(env, "folio", "target-last GB/s", "sequential GB/s",
			     "ratio [95% CI] width");
		n += case_compare(env, p, &a, &b, (enum bench_mode)mode);
	}
	return n;
}

/*
 * uarch: the rfc comparison under each resolution Linux would make on other silicon, on
 * this machine: Zen 3 (ERMS, REP_GOOD, no FSRM: bulk memcpy is memcpy_orig) and Zen 4/5
 * or Intel (FSRM: rep movsb). Linux's own rules decide from the changed inputs; each
 * block's header and each JSON record's machine name the resolution.
 */
static unsigned int preset_uarch(const struct bench_env *env, const struct bench_platform *p)
{
	static const struct { const char *label, *id; bool fsrm; } u[] = {
		{ "Zen 3 (ERMS, REP_GOOD, no FSRM)", "zen3", false },
		{ "Zen 4/5 or Intel with FSRM (ERMS, REP_GOOD, FSRM)", "fsrm", true },
	};
	static char label[256];
	struct copy_ops saved = copy_ops;
	struct bench_env e = *env;
	unsigned int n = 0;

	if (!p->dispatch_known) {
		bench_outf(env, "# uarch: the dispatch inputs of this CPU are not known: skipped");
		return 0;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(u); i++) {
		struct dispatch_cpu in = p->dispatch_in;
		struct copy_dispatch dd;

		in.rep_good = in.erms = true;
		in.fsrm = u[i].fsrm;
		dispatch_decide(&in, &dd);
		copy_ops_apply(&dd);
		ck_snprintf(label, sizeof(label), "%s, as Linux resolves on %s",
			    env->machine ? env->machine : "", u[i].label);
		e.machine = label;
		e.variant = u[i].id;
		bench_outf(env, "== uarch: as Linux resolves on %s: copy_page=%s memcpy=%s "
			   "copy_mc=%s clear_page=%s ==", u[i].label,
			   copy_page_impl_names[dd.copy_page], memcpy_impl_names[dd.memcpy],
			   copy_mc_impl_names[dd.copy_mc], clear_page_impl_names[dd.clear_page]);
		n += preset_rfc(&e, p);
	}
	copy_ops = saved;
	return n;
}

unsigned int bench_preset_run(enum bench_preset which, const struct bench_env *env,
			      const struct bench_platform *plat)
{
	switch (which) {
	case PRESET_RFC:	return preset_rfc(env, plat);
	case PRESET_V3:		return preset_v3(env, plat);
	case PRESET_CLEAR:	return preset_clear(env, plat);
	case PRESET_PRIMITIVES:	return preset_primitives(env, plat);
	case PRESET_PATTERNS:	return preset_patterns(env, plat);
	case PRESET_UARCH:	return preset_uarch(env, plat);
	case PRESET_BIG:	return preset_big(env, plat);
	case PRESET_COPY_PAGES:	return preset_copy_pages(env, plat);
	case PRESET_SEED003:	return preset_seed003(env, plat);
	default:		return 0;
	}
}
