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

const char *const bench_preset_names[NR_PRESETS] = { "rfc", "v3", "clear", "primitives",
						     "patterns", "uarch", "big" };

/* ---- data patterns: what a case reads and writes ---- */

enum pattern { PAT_ZERO, PAT_CONSTANT, PAT_RANDOM };
static const char *const pattern_names[] = { "zero", "constant", "random" };

/*
 * Fill @buf: zeros, the byte 0x5a, or xorshift64 output (non-zero, non-constant: the
 * default for every preset's sources, since some machines move zeros faster).
 */
static void fill(void *buf, u64 bytes, enum pattern pat)
{
	u64 *w = buf, x = 0x9e3779b97f4a7c15ULL ^ bytes;

	if (pat != PAT_RANDOM) {
		memset(buf, pat == PAT_ZERO ? 0 : 0x5a, bytes);
		return;
	}
	for (u64 i = 0; i < bytes / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
}

/* A copy reads its source's pattern and writes the same; a clear reads nothing, writes 0. */
static void copy_patterns(struct bench_case *c, enum pattern src)
{
	c->src_pattern = c->dst_pattern = pattern_names[src];
}

static void clear_patterns(struct bench_case *c)
{
	c->src_pattern = "none";
	c->dst_pattern = "zero";
}

static void outf(const struct bench_env *env, const char *fmt, ...) __printf(2, 3);
static void outf(const struct bench_env *env, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	ck_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	env->out(line);
}

static void emit(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		 const struct bench_result *r)
{
	char line[1024];

	bench_json(env, c, m, r, line, sizeof(line));
	env->out(line);
	if (env->result)
		env->result(env, c, m, r);
}

/* ---- the limit: what one core moves, measured once per run ---- */

enum { BW_READ, BW_NT_WRITE, BW_STOSB_WRITE, BW_NT_COPY, BW_MOVSB_COPY, NR_BW };
static const char *const bw_names[NR_BW] = { "read", "NT write (movnti)", "rep stosb write",
					     "NT copy", "rep movsb copy" };
#define BW_BEST_OF	5
static u64 bw_mbps[NR_BW];	/* traffic in MB/s; all 0: not probed yet */
static u64 bw_bytes;		/* the probe's size */
static bool bw_done;

/* The probe's size: 1 GiB, halved to fit the largest case (4 MiB in test mode). */
static u64 probe_bytes(const struct bench_platform *p)
{
	u64 bytes = p->tiny ? 4ULL << 20 : 1ULL << 30;

	while (bytes > p->max_bytes && bytes > (4ULL << 20))
		bytes >>= 1;
	return bytes <= p->max_bytes ? bytes : 0;
}

static void nt_copy(void *dst, const void *src, u64 bytes, const struct bench_platform *p)
{
	if (p->caps.avx512f)
		copy_mc_avx512_nt(dst, src, bytes);
	else
		copy_mc_avx2_nt(dst, src, bytes);
}

/*
 * Stream @bytes five ways, best of BW_BEST_OF each, counting traffic (a read or a write
 * counts its bytes once, a copy twice: read + write): a read of every half line, movnti
 * writes, rep stosb writes (clear_pages_erms), the best non-temporal copy this CPU has
 * (AVX-512 or AVX2) and rep movsb.
 */
static void bandwidth_probe(const struct bench_env *env, const struct bench_platform *p,
			    u8 *dst, u8 *src, u64 bytes)
{
	char line[200];

	for (int k = 0; k < NR_BW; k++) {
		if (k == BW_NT_COPY && !p->caps.avx2 && !p->caps.avx512f)
			continue;
		for (int r = 0; r < BW_BEST_OF; r++) {
			u64 t0 = env->now_ns(), t, traffic = bytes;
			volatile u64 sink = 0;

			if (k == BW_READ) {
				for (u64 i = 0; i < bytes; i += 64)
					sink += *(volatile u64 *)(src + i) +
						*(volatile u64 *)(src + i + 32);
			} else if (k == BW_NT_WRITE) {
				for (u64 i = 0; i < bytes; i += 8)
					__asm__ volatile("movnti %1, %0" : "=m"(*(u64 *)(dst + i))
							 : "r"(i));
				__asm__ volatile("sfence" ::: "memory");
			} else if (k == BW_STOSB_WRITE) {
				clear_pages_erms(dst, bytes >> PAGE_SHIFT);
			} else if (k == BW_NT_COPY) {
				nt_copy(dst, src, bytes, p);
				traffic = 2 * bytes;
			} else {
				memcpy_erms(dst, src, bytes);
				traffic = 2 * bytes;
			}
			t = env->now_ns() - t0;
			(void)sink;
			bw_mbps[k] = MAX(bw_mbps[k], stats_mbps(traffic, t));
		}
	}
	outf(env, "bandwidth probe, one core, %llu MiB each, best of %d, traffic counted (a copy "
	     "moves its bytes twice):", (unsigned long long)bytes >> 20, BW_BEST_OF);
	for (int k = 0; k < NR_BW; k++) {
		if (!bw_mbps[k])
			continue;
		outf(env, "  %-20s %6llu.%02llu GB/s", bw_names[k],
		     (unsigned long long)bw_mbps[k] / 1000,
		     (unsigned long long)(bw_mbps[k] % 1000) / 10);
		ck_snprintf(line, sizeof(line), "{\"schema\":1,\"kind\":\"bandwidth\","
			    "\"machine\":\"%s\",\"probe\":\"%s\",\"bytes\":%llu,"
			    "\"traffic_mbps\":%llu}", env->machine ? env->machine : "",
			    bw_names[k], (unsigned long long)bytes,
			    (unsigned long long)bw_mbps[k]);
		env->out(line);
	}
}

/* The best copy traffic measured (MB/s), 0 when not probed. */
static u64 copy_limit(void)
{
	return MAX(bw_mbps[BW_NT_COPY], bw_mbps[BW_MOVSB_COPY]);
}

/* The best write traffic measured (MB/s), 0 when not probed. */
static u64 write_limit(void)
{
	return MAX(bw_mbps[BW_NT_WRITE], bw_mbps[BW_STOSB_WRITE]);
}

/* Probe once per run, on buffers of its own (they are not reused: alloc is a bump). */
static void ensure_probe(const struct bench_env *env, const struct bench_platform *p)
{
	u64 bytes = probe_bytes(p);
	u8 *src, *dst;

	if (bw_done)
		return;
	bw_done = true;
	src = bytes ? p->alloc(bytes) : NULL;
	dst = bytes ? p->alloc(bytes) : NULL;
	if (!src || !dst) {
		outf(env, "# bandwidth probe skipped: no room for two buffers of %llu MiB",
		     (unsigned long long)bytes >> 20);
		return;
	}
	fill(src, bytes, PAT_RANDOM);
	memset(dst, 0, bytes);
	bw_bytes = bytes;
	bandwidth_probe(env, p, dst, src, bytes);
}

#define BW_LARGE	(64ULL << 20)	/* figures this large are also shown against the probe */

static bool is_copy(const struct bench_case *c)
{
	return c->src_pattern && strcmp(c->src_pattern, "none");
}

/*
 * A large case's figure as a percentage of what the probe measured: a copy's traffic
 * (read + write, twice its MB/s) against the best copy, a clear's against the best write.
 * 0 when the case is small (below 64 MiB and the probe's size) or nothing was probed.
 */
static u64 pct_of_limit(const struct bench_case *c, const struct bench_result *r)
{
	u64 lim = is_copy(c) ? copy_limit() : write_limit();

	if ((c->bytes < BW_LARGE && c->bytes < bw_bytes) || !lim)
		return 0;
	return (is_copy(c) ? 2 : 1) * r->mbps_median * 100 / lim;
}

/* " 89% of copy bw" (or "of write bw") for a large case when the probe ran, else "". */
static void fmt_limit(const struct bench_case *c, const struct bench_result *r, char *buf,
		      size_t size)
{
	u64 pct = pct_of_limit(c, r);

	buf[0] = 0;
	if (pct)
		ck_snprintf(buf, size, " %llu%% of %s bw", (unsigned long long)pct,
			    is_copy(c) ? "copy" : "write");
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

	if (!a || !b)
		return false;
	fill(a, bytes, PAT_RANDOM);
	return plat->folio(b, bytes >> PAGE_SHIFT, d) && plat->folio(a, bytes >> PAGE_SHIFT, s);
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
	char sz[16], ga[40], gb[40], rr[64], dir[32], na[64], nb[64], cpu_json[16];

	bench_compare(env, a, b, m, p->runs, &ra, &rb, &q);
	emit(env, a, m, &ra);
	emit(env, b, m, &rb);
	bench_fmt_size(a->bytes, sz, sizeof(sz));
	bench_fmt_gbps(&ra, ga, sizeof(ga));
	bench_fmt_gbps(&rb, gb, sizeof(gb));
	bench_fmt_ratio(&q, rr, sizeof(rr));
	ck_snprintf(dir, sizeof(dir), "%s->%s", a->src_node ? a->src_node : "node0",
		    a->dst_node ? a->dst_node : "node0");
	bench_fmt_noise(&ra, na, sizeof(na));
	bench_fmt_noise(&rb, nb, sizeof(nb));
	if (a->cpu1)
		ck_snprintf(cpu_json, sizeof(cpu_json), "%u", a->cpu1 - 1);
	else
		ck_snprintf(cpu_json, sizeof(cpu_json), "null");
	outf(env, "%-14s %-7s %-16s %-16s %-34s %u/%u/%u x%u%s%s%s", dir, sz, ga, gb, rr, ra.rounds,
	     ra.disturbed, ra.discarded, ra.reps, na, nb[0] ? " |" : "", nb);
	outf(env, "{\"schema\":1,\"kind\":\"comparison\",\"machine\":\"%s\",\"api\":\"%s\","
	     "\"size\":%llu,\"mode\":\"%s\",\"baseline\":\"%s\",\"candidate\":\"%s\","
	     "\"src_node\":\"%s\",\"dst_node\":\"%s\",\"ratio_x1000\":%u,\"ci_lo_x1000\":%u,"
	     "\"ci_hi_x1000\":%u,\"significant\":%s,\"method\":\"median-of-round-ratios\","
	     "\"rounds\":%u,\"k\":%u,\"reps\":%u,\"disturbed\":%u,\"discarded\":%u,"
	     "\"cold_method\":\"%s\",\"src_pattern\":\"%s\",\"dst_pattern\":\"%s\","
	     "\"candidate_src_pattern\":\"%s\",\"cpu\":%s}",
	     env->machine ? env->machine : "", a->api, (unsigned long long)a->bytes,
	     bench_mode_name(m), a->primitive, b->primitive,
	     a->src_node ? a->src_node : "node0", a->dst_node ? a->dst_node : "node0",
	     q.ratio_pm, q.lo_pm, q.hi_pm, q.significant ? "true" : "false", ra.rounds, ra.k,
	     ra.reps, ra.disturbed, ra.discarded, bench_cold_method(env, a, m),
	     a->src_pattern ? a->src_pattern : "none", a->dst_pattern ? a->dst_pattern : "none",
	     b->src_pattern ? b->src_pattern : "none", cpu_json);
	if (pct_of_limit(a, &ra))
		outf(env, "as %% of this machine's measured %s bandwidth (%llu.%02llu GB/s of "
		     "traffic): %s %llu%%, %s %llu%%", is_copy(a) ? "copy" : "write",
		     (unsigned long long)(is_copy(a) ? copy_limit() : write_limit()) / 1000,
		     (unsigned long long)((is_copy(a) ? copy_limit() : write_limit()) % 1000) / 10,
		     a->primitive,
		     (unsigned long long)pct_of_limit(a, &ra), b->primitive,
		     (unsigned long long)pct_of_limit(b, &rb));
	return 2;
}

/* The header of a comparison table: the last column is rounds/disturbed/discarded x reps. */
static void compare_header(const struct bench_env *env, const char *what, const char *base,
			   const char *cand, const char *ratio)
{
	outf(env, "%-14s %-7s %-16s %-16s %-34s %s", "direction", what, base, cand, ratio,
	     "rounds/dist/disc xreps");
}

struct row_call {
	const struct bench_env *env;
	const struct bench_platform *p;
	struct bench_case *a, *b;
	enum bench_mode m;
	unsigned int n;
};

static void row_call(void *arg)
{
	struct row_call *r = arg;

	r->n = compare_row(r->env, r->p, r->a, r->b, r->m);
}

/* compare_row on a CPU of node @src (as the seed pinned its thread), saying which once. */
static unsigned int compare_row_from(const struct bench_env *env,
				     const struct bench_platform *p, struct bench_case *a,
				     struct bench_case *b, enum bench_mode m, unsigned int src,
				     bool say)
{
	struct row_call r = { env, p, a, b, m, 0 };
	int cpu = p->node_cpu ? p->node_cpu(src) : -1;

	if (cpu < 0 || !p->run_on) {
		if (say && p->node_cpu)
			outf(env, "%s->%s: %s has no CPU: from the benchmark's CPU", a->src_node,
			     a->dst_node, a->src_node);
		return compare_row(env, p, a, b, m);
	}
	if (say)
		outf(env, "%s->%s: from CPU %d, on the source node", a->src_node, a->dst_node,
		     cpu);
	a->cpu1 = b->cpu1 = (unsigned int)cpu + 1;
	p->run_on(cpu, row_call, &r);
	return r.n;
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
			compare_header(env, "folio", "baseline GB/s", "optimized GB/s",
				       "speedup [95% CI] width");
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
				copy_patterns(&a, PAT_RANDOM);
				copy_patterns(&b, PAT_RANDOM);
				n += compare_row_from(env, p, &a, &b, (enum bench_mode)mode,
						      dir[dr][0], i == 0);
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

	if (!p->tiny && p->max_bytes >= sizes[1])
		ensure_probe(env, p);
	outf(env, "fn=copy_mc_highpages mode=cache-cold");
	compare_header(env, "extent", "per-page GB/s", "bulk GB/s", "speedup [95% CI] width");
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
		copy_patterns(&a, PAT_RANDOM);
		copy_patterns(&b, PAT_RANDOM);
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
		if (prims[i].kind >= K_CLEAR_PAGE)
			clear_patterns(&c);
		else
			copy_patterns(&c, PAT_RANDOM);
		fill(src, bytes, PAT_RANDOM);
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
			fill(src, sizes[s], PAT_RANDOM);
			for (unsigned int i = 0; i < ARRAY_SIZE(prims); i++) {
				static struct bench_result r;
				static struct prim_ctx ctx;
				struct bench_case c;
				char sz[16], g[40], nz[64], lim[40];

				if (!can_run(p, prims[i].needs) ||
				    (clears_only && prims[i].kind < K_CLEAR_PAGE))
					continue;
				ctx = (struct prim_ctx){ &prims[i], dst, src, sizes[s] };
				c = CASE("primitive", prims[i].name, sizes[s], run_prim, &ctx);
				c.flush_a = src;
				c.flush_b = dst;
				c.flush_bytes = sizes[s];
				if (prims[i].kind >= K_CLEAR_PAGE)
					clear_patterns(&c);
				else
					copy_patterns(&c, PAT_RANDOM);
				bench_run(env, &c, (enum bench_mode)mode, p->runs, &r);
				emit(env, &c, (enum bench_mode)mode, &r);
				bench_fmt_size(sizes[s], sz, sizeof(sz));
				bench_fmt_gbps(&r, g, sizeof(g));
				bench_fmt_noise(&r, nz, sizeof(nz));
				fmt_limit(&c, &r, lim, sizeof(lim));
				outf(env, "%-22s %-7s %-16s %llu.%03llu%s%s", prims[i].name, sz,
				     g, (unsigned long long)r.mcyc_per_byte / 1000,
				     (unsigned long long)r.mcyc_per_byte % 1000, lim, nz);
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
		clear_patterns(&a);
		clear_patterns(&b);
		outf(env, "fn=folio_zero_huge (target = middle subpage) mode=%s",
		     bench_mode_name((enum bench_mode)mode));
		compare_header(env, "folio", "target-last GB/s", "sequential GB/s",
			       "ratio [95% CI] width");
		n += compare_row(env, p, &a, &b, (enum bench_mode)mode);
	}
	return n;
}

static unsigned int preset_primitives(const struct bench_env *env,
				      const struct bench_platform *p)
{
	static const u64 sizes[] = { 4 << 10, 64 << 10, 2 << 20, 64 << 20 };

	if (!p->tiny && p->max_bytes >= BW_LARGE)
		ensure_probe(env, p);
	return prims_over(env, p, sizes, ARRAY_SIZE(sizes), false);
}

/*
 * patterns: the same copy with a random source (the presets' default) against a zero and a
 * constant source, cache-hot and cache-cold, where the data's value changes the speed.
 */
static unsigned int preset_patterns(const struct bench_env *env,
				    const struct bench_platform *p)
{
	static const u64 sizes[] = { 64 << 10, 2 << 20 };
	static const char *const names[] = { "memcpy_erms", "memcpy_orig" };
	struct bench_env e = *env;
	unsigned int n = 0;

	for (int mode = BENCH_HOT; mode <= BENCH_COLD; mode++) {
		outf(env, "fn=patterns mode=%s (source random against zero or constant)",
		     bench_mode_name((enum bench_mode)mode));
		compare_header(env, "size", "random GB/s", "other GB/s", "other/random [95% CI]");
		for (unsigned int s = 0; s < (p->tiny ? 1 : ARRAY_SIZE(sizes)); s++) {
			u64 bytes = sizes[s];
			u8 *rnd = p->alloc(bytes), *other = p->alloc(bytes), *dst = p->alloc(bytes);

			if (!rnd || !other || !dst || bytes > p->max_bytes)
				continue;
			fill(rnd, bytes, PAT_RANDOM);
			for (unsigned int f = 0; f < ARRAY_SIZE(names); f++)
				for (int pat = PAT_ZERO; pat <= PAT_CONSTANT; pat++) {
					static struct prim_ctx ca, cb;
					const struct prim *pr = NULL;
					struct bench_case a, b;

					for (unsigned int i = 0; i < ARRAY_SIZE(prims); i++)
						if (!strcmp(prims[i].name, names[f]))
							pr = &prims[i];
					fill(other, bytes, (enum pattern)pat);
					ca = (struct prim_ctx){ pr, dst, rnd, bytes };
					cb = (struct prim_ctx){ pr, dst, other, bytes };
					a = CASE("patterns", pr->name, bytes, run_prim, &ca);
					b = CASE("patterns", pr->name, bytes, run_prim, &cb);
					a.flush_a = rnd;
					b.flush_a = other;
					a.flush_b = b.flush_b = dst;
					a.flush_bytes = b.flush_bytes = bytes;
					copy_patterns(&a, PAT_RANDOM);
					copy_patterns(&b, (enum pattern)pat);
					outf(env, "# %s, source %s against random:", pr->name,
					     pattern_names[pat]);
					/* ids: the random baseline is timed once per other */
					e.variant = pat == PAT_ZERO ? "vs-zero" : "vs-constant";
					n += compare_row(&e, p, &a, &b, (enum bench_mode)mode);
				}
		}
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
		outf(env, "# uarch: the dispatch inputs of this CPU are not known: skipped");
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
		outf(env, "== uarch: as Linux resolves on %s: copy_page=%s memcpy=%s copy_mc=%s "
		     "clear_page=%s ==", u[i].label, copy_page_impl_names[dd.copy_page],
		     memcpy_impl_names[dd.memcpy], copy_mc_impl_names[dd.copy_mc],
		     clear_page_impl_names[dd.clear_page]);
		n += preset_rfc(&e, p);
	}
	copy_ops = saved;
	return n;
}

/* ---- big: the probe, then rep movsb against the best NT copy at its size ---- */

struct big_ctx {
	const struct bench_platform *p;
	bool nt;
	u8 *dst, *src;
	u64 bytes;
};

static void run_big(void *arg)
{
	struct big_ctx *c = arg;

	if (c->nt)
		nt_copy(c->dst, c->src, c->bytes, c->p);
	else
		memcpy_erms(c->dst, c->src, c->bytes);
}

static unsigned int preset_big(const struct bench_env *env, const struct bench_platform *p)
{
	static struct big_ctx a, b;
	u64 bytes = probe_bytes(p);
	struct bench_case ca, cb;
	u8 *src, *dst;

	ensure_probe(env, p);
	if (!p->caps.avx2 && !p->caps.avx512f) {
		outf(env, "# big: no AVX2: no non-temporal copy to compare");
		return 0;
	}
	src = bytes ? p->alloc(bytes) : NULL;
	dst = bytes ? p->alloc(bytes) : NULL;
	if (!src || !dst) {
		outf(env, "# big: skipped (no room for two buffers of %llu MiB)",
		     (unsigned long long)bytes >> 20);
		return 0;
	}
	fill(src, bytes, PAT_RANDOM);
	a = (struct big_ctx){ p, false, dst, src, bytes };
	b = (struct big_ctx){ p, true, dst, src, bytes };
	ca = CASE("copy big", "memcpy_erms", bytes, run_big, &a);
	cb = CASE("copy big", p->caps.avx512f ? "copy_mc_avx512_nt" : "copy_mc_avx2_nt", bytes,
		  run_big, &b);
	ca.flush_a = cb.flush_a = src;
	ca.flush_b = cb.flush_b = dst;
	ca.flush_bytes = cb.flush_bytes = bytes;
	copy_patterns(&ca, PAT_RANDOM);
	copy_patterns(&cb, PAT_RANDOM);
	outf(env, "fn=copy mode=cache-cold (rep movsb against the non-temporal copy)");
	compare_header(env, "size", "rep movsb GB/s", "NT GB/s", "NT / rep movsb [95% CI]");
	return compare_row(env, p, &ca, &cb, BENCH_COLD);
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
	default:		return 0;
	}
}
