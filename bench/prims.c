// SPDX-License-Identifier: GPL-2.0-only
/*
 * prims.c - single primitives as benchmark cases (see prims.h): the table of routines and
 * what each needs, bench_primitive() for the summary's quick figures, and the primitives,
 * patterns and big presets.
 */
#include "bench/cases.h"
#include "bench/prims.h"
#include "bench/probe.h"
#include "copy/routines.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"

enum prim_kind { K_COPY, K_COPY_MC, K_PAGE, K_CLEAR_PAGE, K_CLEAR_PAGES };
enum prim_needs { NEEDS_NONE, NEEDS_AVX2, NEEDS_AVX512F, NEEDS_CLZERO };

struct prim {
	const char *name;
	enum prim_kind kind;
	void *fn;
	enum prim_needs needs;
	u8 store;	/* a clear: 1 + the clear_page_impl whose stores it uses */
};

#define ST(impl)	(1 + (impl))

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
	{ "memcpy_erms", K_COPY, (void *)memcpy_erms, NEEDS_NONE, 0 },
	{ "memcpy_orig", K_COPY, (void *)memcpy_orig, NEEDS_NONE, 0 },
	{ "copy_mc_fragile", K_COPY_MC, (void *)copy_mc_fragile, NEEDS_NONE, 0 },
	{ "copy_mc_fast_string", K_COPY_MC, (void *)copy_mc_fast_string, NEEDS_NONE, 0 },
	{ "copy_mc_avx2_nt", K_COPY_MC, (void *)copy_mc_avx2_nt, NEEDS_AVX2, 0 },
	{ "copy_mc_avx512_nt", K_COPY_MC, (void *)copy_mc_avx512_nt, NEEDS_AVX512F, 0 },
	{ "copy_page_rep", K_PAGE, (void *)copy_page_rep, NEEDS_NONE, 0 },
	{ "copy_page_unrolled", K_PAGE, (void *)copy_page_unrolled, NEEDS_NONE, 0 },
	{ "clear_page_erms", K_CLEAR_PAGE, (void *)clear_page_erms, NEEDS_NONE,
	  ST(CLEAR_PAGE_ERMS) },
	{ "clear_page_rep", K_CLEAR_PAGE, (void *)clear_page_rep, NEEDS_NONE,
	  ST(CLEAR_PAGE_REP) },
	{ "clear_page_unrolled", K_CLEAR_PAGE, (void *)clear_page_unrolled, NEEDS_NONE,
	  ST(CLEAR_PAGE_UNROLLED) },
	{ "clear_pages_erms", K_CLEAR_PAGES, (void *)clear_pages_erms, NEEDS_NONE,
	  ST(CLEAR_PAGE_ERMS) },
	{ "clear_pages_rep", K_CLEAR_PAGES, (void *)clear_pages_rep, NEEDS_NONE,
	  ST(CLEAR_PAGE_REP) },
	{ "clear_pages_nt", K_CLEAR_PAGES, (void *)clear_pages_nt, NEEDS_NONE,
	  ST(CLEAR_PAGE_NT) },
	{ "clear_pages_clzero", K_CLEAR_PAGES, (void *)clear_pages_clzero, NEEDS_CLZERO,
	  ST(CLEAR_PAGE_CLZERO) },
};

static const struct prim *prim_named(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(prims); i++)
		if (!strcmp(prims[i].name, name))
			return &prims[i];
	return NULL;
}

static bool can_run(const struct bench_platform *p, enum prim_needs needs)
{
	return needs == NEEDS_NONE || (needs == NEEDS_AVX2 && p->caps.avx2) ||
	       (needs == NEEDS_AVX512F && p->caps.avx512f) ||
	       (needs == NEEDS_CLZERO && p->caps.clzero);
}

/* The case of @pr over @ctx's buffers, with what it reads and writes. */
static struct bench_case prim_case(const char *api, const struct prim *pr,
				   struct prim_ctx *ctx)
{
	struct bench_case c = CASE(api, pr->name, ctx->bytes, run_prim, ctx);

	if (pr->kind >= K_CLEAR_PAGE) {
		data_clear_patterns(&c);
		c.clear_store = pr->store;
	} else {
		data_copy_patterns(&c, PAT_RANDOM);
	}
	return c;
}

bool bench_primitive(const struct bench_env *env, const struct bench_platform *p,
		     const char *name, void *dst, void *src, u64 bytes, unsigned int runs,
		     struct bench_result *r)
{
	static struct prim_ctx ctx;
	const struct prim *pr = prim_named(name);
	struct bench_case c;

	if (!pr || !can_run(p, pr->needs))
		return false;
	ctx = (struct prim_ctx){ pr, dst, src, bytes };
	c = prim_case("primitive", pr, &ctx);
	data_fill(src, bytes, PAT_RANDOM);
	bench_run(env, &c, BENCH_HOT, runs, r);
	return true;
}

/* One primitive over @dst/@src in mode @m: its record and its table line. */
static void prim_line(const struct bench_env *env, const struct bench_platform *p,
		      const struct prim *pr, u8 *dst, u8 *src, u64 bytes, enum bench_mode m)
{
	static struct bench_result r;
	static struct prim_ctx ctx;
	struct bench_case c;
	char sz[16], g[40], nz[64], lim[40];

	ctx = (struct prim_ctx){ pr, dst, src, bytes };
	c = prim_case("primitive", pr, &ctx);
	c.flush_a = src;
	c.flush_b = dst;
	c.flush_bytes = bytes;
	bench_run(env, &c, m, p->runs, &r);
	table_emit(env, &c, m, &r);
	bench_fmt_size(bytes, sz, sizeof(sz));
	bench_fmt_gbps(&r, g, sizeof(g));
	bench_fmt_noise(&r, nz, sizeof(nz));
	probe_fmt(&c, &r, lim, sizeof(lim));
	bench_outf(env, "%-22s %-7s %-16s %llu.%03llu%s%s", pr->name, sz, g,
		   (unsigned long long)r.mcyc_per_byte / 1000,
		   (unsigned long long)r.mcyc_per_byte % 1000, lim, nz);
}

unsigned int prim_over(const struct bench_env *env, const struct bench_platform *p,
		       const u64 *sizes, unsigned int ns, bool clears_only)
{
	unsigned int n = 0;

	for (int mode = BENCH_HOT; mode <= BENCH_COLD; mode++) {
		bench_outf(env, "primitives mode=%s", bench_mode_name((enum bench_mode)mode));
		bench_outf(env, "%-22s %-7s %-16s %s", "primitive", "size", "GB/s (median)",
			   "cycles/byte");
		for (unsigned int s = 0; s < ns; s++) {
			void *src, *dst;

			src = sizes[s] <= p->max_bytes ? p->alloc(sizes[s]) : NULL;
			dst = src ? p->alloc(sizes[s]) : NULL;
			if (!dst) {
				bench_failf(env, "primitives: no memory for two buffers of %llu KiB "
					    "(the largest case this machine can hold is %llu KiB)",
					    (unsigned long long)sizes[s] >> 10,
					    (unsigned long long)p->max_bytes >> 10);
				continue;
			}
			data_fill(src, sizes[s], PAT_RANDOM);
			for (unsigned int i = 0; i < ARRAY_SIZE(prims); i++) {
				if (!can_run(p, prims[i].needs) ||
				    (clears_only && prims[i].kind < K_CLEAR_PAGE))
					continue;
				prim_line(env, p, &prims[i], dst, src, sizes[s],
					  (enum bench_mode)mode);
				n++;
			}
			if (p->tiny)
				break;
		}
	}
	return n;
}

unsigned int preset_primitives(const struct bench_env *env, const struct bench_platform *p)
{
	static const u64 sizes[] = { 4 << 10, 64 << 10, 2 << 20, 64 << 20 };

	if (!p->tiny && p->max_bytes >= PROBE_LARGE)
		probe_ensure(env, p);
	return prim_over(env, p, sizes, ARRAY_SIZE(sizes), false);
}

/* One patterns row: @pr from @rnd (random) against @pr from @other (holding @pat). */
static unsigned int pattern_row(const struct bench_env *env, const struct bench_platform *p,
				const struct prim *pr, u8 *dst, u8 *rnd, u8 *other, u64 bytes,
				enum pattern pat, enum bench_mode m)
{
	static struct prim_ctx ca, cb;
	struct bench_env e = *env;
	struct bench_case a, b;

	data_fill(other, bytes, pat);
	ca = (struct prim_ctx){ pr, dst, rnd, bytes };
	cb = (struct prim_ctx){ pr, dst, other, bytes };
	a = CASE("patterns", pr->name, bytes, run_prim, &ca);
	b = CASE("patterns", pr->name, bytes, run_prim, &cb);
	a.flush_a = rnd;
	b.flush_a = other;
	a.flush_b = b.flush_b = dst;
	a.flush_bytes = b.flush_bytes = bytes;
	data_copy_patterns(&a, PAT_RANDOM);
	data_copy_patterns(&b, pat);
	bench_outf(env, "# %s, source %s against random:", pr->name, data_pattern_names[pat]);
	/* ids: the random baseline is timed once per other */
	e.variant = pat == PAT_ZERO ? "vs-zero" : "vs-constant";
	return case_compare(&e, p, &a, &b, m);
}

/*
 * patterns: the same copy with a random source (the presets' default) against a zero and a
 * constant source, cache-hot and cache-cold, where the data's value changes the speed.
 */
unsigned int preset_patterns(const struct bench_env *env, const struct bench_platform *p)
{
	static const u64 sizes[] = { 64 << 10, 2 << 20 };
	static const char *const names[] = { "memcpy_erms", "memcpy_orig" };
	unsigned int n = 0;

	for (int mode = BENCH_HOT; mode <= BENCH_COLD; mode++) {
		bench_outf(env, "fn=patterns mode=%s (source random against zero or constant)",
			   bench_mode_name((enum bench_mode)mode));
		table_header(env, "size", "random GB/s", "other GB/s", "other/random [95% CI]");
		for (unsigned int s = 0; s < (p->tiny ? 1 : ARRAY_SIZE(sizes)); s++) {
			u64 bytes = sizes[s];
			u8 *rnd = bytes <= p->max_bytes ? p->alloc(bytes) : NULL;
			u8 *other = rnd ? p->alloc(bytes) : NULL, *dst = other ? p->alloc(bytes) : NULL;

			if (!dst) {
				bench_failf(env, "patterns: no memory for three buffers of %llu KiB",
					    (unsigned long long)bytes >> 10);
				continue;
			}
			data_fill(rnd, bytes, PAT_RANDOM);
			for (unsigned int f = 0; f < ARRAY_SIZE(names); f++)
				for (int pat = PAT_ZERO; pat <= PAT_CONSTANT; pat++)
					n += pattern_row(env, p, prim_named(names[f]), dst, rnd,
							 other, bytes, (enum pattern)pat,
							 (enum bench_mode)mode);
		}
	}
	return n;
}

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
		probe_nt_copy(c->dst, c->src, c->bytes, c->p);
	else
		memcpy_erms(c->dst, c->src, c->bytes);
}

unsigned int preset_big(const struct bench_env *env, const struct bench_platform *p)
{
	static struct big_ctx a, b;
	u64 bytes = probe_bytes(p);
	struct bench_case ca, cb;
	u8 *src, *dst;

	/* The case runs on the probe's own two buffers: no room for a third and fourth needed. */
	if (!probe_ensure(env, p) || !probe_buffers(env, p, &src, &dst))
		return 0;
	if (!p->caps.avx2 && !p->caps.avx512f) {
		bench_outf(env, "# big: not run on this CPU: without AVX2 there is no non-temporal "
			   "copy to compare rep movsb with");
		return 0;
	}
	data_fill(src, bytes, PAT_RANDOM);
	a = (struct big_ctx){ p, false, dst, src, bytes };
	b = (struct big_ctx){ p, true, dst, src, bytes };
	ca = CASE("copy big", "memcpy_erms", bytes, run_big, &a);
	cb = CASE("copy big", p->caps.avx512f ? "copy_mc_avx512_nt" : "copy_mc_avx2_nt", bytes,
		  run_big, &b);
	ca.flush_a = cb.flush_a = src;
	ca.flush_b = cb.flush_b = dst;
	ca.flush_bytes = cb.flush_bytes = bytes;
	data_copy_patterns(&ca, PAT_RANDOM);
	data_copy_patterns(&cb, PAT_RANDOM);
	bench_outf(env, "fn=copy mode=cache-cold (rep movsb against the non-temporal copy)");
	table_header(env, "size", "rep movsb GB/s", "NT GB/s", "NT / rep movsb [95% CI]");
	return case_compare(env, p, &ca, &cb, BENCH_COLD);
}
