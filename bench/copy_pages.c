// SPDX-License-Identifier: GPL-2.0-only
/*
 * copy_pages.c - the copy_pages preset (see copy_pages.h): every form against its per-page
 * loop, under each resolution of the rules below, 256K..2M folios and 1 GiB, cache-cold and
 * cache-hot, then the answer table. The kernel modelled is preemptible (one call per folio),
 * as x86 kernels always are since commit 7dadeaa6e851.
 *
 * Resolutions: Linux's rules (and the candidates') fed the inputs of other silicon, run on
 * this machine, as the uarch preset does, and this machine's dispatch as in effect:
 *   zen3-rfc  the RFC's EPYC 7713 as the RFC describes it: REP_GOOD only (no ERMS, no FSRM)
 *   zen3      the uarch preset's Zen 3: ERMS, REP_GOOD, no FSRM (so also Intel without
 *             FSRM, e.g. Skylake-SP)
 *   fsrm      the uarch preset's Zen 4/5 or Intel with FSRM: ERMS, REP_GOOD, FSRM
 *   own       this machine's dispatch (Linux's choice unless overridden)
 * A comparison whose two routines are the ones an earlier resolution already timed at that
 * size and mode is not timed again: its row says which resolution it is taken from.
 */
#include "bench/cases.h"
#include "bench/copy_pages.h"
#include "bench/copy_pages_answer.h"
#include "bench/probe.h"
#include "copy/ops.h"
#include "kernel/lib/format.h"

struct cp_res {
	const char *id, *label;
	bool own, rep_good, erms, fsrm;
};

static const struct cp_res cp_res[] = {
	{ "zen3-rfc", "Zen 3 as the RFC describes EPYC 7713 (REP_GOOD only: no ERMS, no FSRM)",
	  false, true, false, false },
	{ "zen3", "Zen 3, or Intel without FSRM (ERMS, REP_GOOD, no FSRM)", false, true, true,
	  false },
	{ "fsrm", "Zen 4/5 or Intel with FSRM (ERMS, REP_GOOD, FSRM)", false, true, true, true },
	{ "own", "this machine's dispatch (Linux's choice unless overridden)", true, false,
	  false, false },
};
#define CP_NR_RES	ARRAY_SIZE(cp_res)

static const u64 cp_sizes[] = { 256 << 10, 512 << 10, 1 << 20, 2 << 20, 1ULL << 30 };
#define CP_NR_SIZES	ARRAY_SIZE(cp_sizes)

static const char *const form_ids[CP_NR_FORMS] = { "bulk", "cp", "cpfsrm", "pa", "v3",
						   "mcpages" };

struct cp_ctx {
	struct folio dst, src;
	int form;		/* -1: the per-page loop of @mc's API */
	bool mc;
};

static void run_cp(void *arg)
{
	struct cp_ctx *c = arg;

	switch (c->form) {
	case CP_BULK:		folio_copy_batched(&c->dst, &c->src); break;
	case CP_PAGES:		folio_copy_pages(&c->dst, &c->src); break;
	case CP_PAGES_FSRM:	folio_copy_pages_fsrm(&c->dst, &c->src); break;
	case CP_MEMCPY_PA:	folio_copy_memcpy_pa(&c->dst, &c->src); break;
	case CP_MC_V3:		folio_mc_copy_batched(&c->dst, &c->src); break;
	case CP_MC_PAGES:	folio_mc_copy_pages(&c->dst, &c->src); break;
	default:
		if (c->mc)
			folio_mc_copy_per_page(&c->dst, &c->src);
		else
			folio_copy_per_page(&c->dst, &c->src);
	}
}

/* The routines a comparison of form @f runs, under copy_ops: what makes two the same. */
struct cp_key {
	const void *base, *cand, *aux;
};

static struct cp_key key_of(int f)
{
	const void *cand[CP_NR_FORMS] = {
		(const void *)copy_ops.memcpy, (const void *)copy_ops.copy_pages,
		(const void *)copy_ops.copy_pages_fsrm, (const void *)copy_ops.memcpy_pa,
		(const void *)copy_ops.copy_mc, (const void *)copy_ops.copy_mc_pages,
	};
	bool mc = f >= CP_NR_COPY_FORMS;
	/* copy_mc_to_kernel's memcpy fallback ends in whatever memcpy() is */
	bool via_memcpy = mc && copy_ops.choice.copy_mc == COPY_MC_MEMCPY;

	return (struct cp_key){ mc ? (const void *)copy_ops.copy_mc :
				(const void *)copy_ops.copy_page, cand[f],
				via_memcpy ? (const void *)copy_ops.memcpy : NULL };
}

static enum cp_body pages_body(enum copy_pages_impl i)
{
	return i == COPY_PAGES_ERMS ? BODY_MOVSB : i == COPY_PAGES_REP ? BODY_MOVSQ :
	       BODY_UNROLLED;
}

static enum cp_body body_of(int f, const struct copy_dispatch *d)
{
	enum cp_body memcpy_body = d->memcpy == MEMCPY_ERMS ? BODY_MOVSB : BODY_ORIG;

	switch (f) {
	case CP_BULK:		return memcpy_body;
	case CP_PAGES:		return pages_body(d->copy_pages);
	case CP_PAGES_FSRM:	return pages_body(d->copy_pages_fsrm);
	case CP_MEMCPY_PA:	/* page copies take the page path without FSRM */
		return d->memcpy_pa == MEMCPY_PA_ERMS ? BODY_MOVSB :
		       d->memcpy_pa == MEMCPY_PA_REP ? BODY_MOVSQ : BODY_UNROLLED;
	case CP_MC_PAGES:	return pages_body(d->copy_mc_pages);
	default:
		return d->copy_mc == COPY_MC_FRAGILE ? BODY_FRAGILE :
		       d->copy_mc == COPY_MC_ERMS ? BODY_MOVSB :
		       d->copy_mc == COPY_MC_MEMCPY ? memcpy_body : BODY_NT;
	}
}

/* What was timed this run: a comparison's routines, size and mode, and its interval. */
#define CP_MEMO_MAX	(CP_NR_RES * CP_NR_FORMS * CP_NR_SIZES * 2)

static struct cp_memo {
	struct cp_key key;
	u64 bytes;
	enum bench_mode m;
	struct ratio q;
	const char *res;
} memo[CP_MEMO_MAX];
static unsigned int nr_memo;

static const struct cp_memo *memo_find(const struct cp_key *k, u64 bytes, enum bench_mode m)
{
	for (unsigned int i = 0; i < nr_memo; i++)
		if (memo[i].key.base == k->base && memo[i].key.cand == k->cand &&
		    memo[i].key.aux == k->aux && memo[i].bytes == bytes && memo[i].m == m)
			return &memo[i];
	return NULL;
}

struct cp_run {
	const struct bench_env *env;
	const struct bench_platform *p;
	u8 *dst, *src;			/* the largest folios; smaller ones are their heads */
	unsigned int nsizes;		/* of cp_sizes that fit */
	struct cp_row rows[CP_NR_RES][CP_NR_SIZES][2];
};

/* One comparison of form @f at @bytes: timed and printed, or taken from an earlier one. */
static unsigned int compare(struct cp_run *r, const struct cp_res *res, int f, u64 bytes,
			    enum bench_mode m, struct cp_row *row)
{
	static struct bench_result ra, rb;
	static struct cp_ctx base, cand;
	struct cp_key k = key_of(f);
	const struct cp_memo *seen = memo_find(&k, bytes, m);
	struct bench_env e = *r->env;
	struct bench_case a, b;
	char sz[16], prim[96], var[32], q[64];
	struct folio d, s;

	row->have[f] = true;
	row->body[f] = body_of(f, &copy_ops.choice);
	if (seen) {
		row->q[f] = seen->q;
		bench_fmt_size(bytes, sz, sizeof(sz));
		bench_fmt_ratio(&seen->q, q, sizeof(q));
		bench_outf(r->env, "%-14s %-7s the same routines as resolution %s: %s",
			   "node0->node0", sz, seen->res, q);
		return 0;
	}
	if (!r->p->folio(r->dst, bytes >> PAGE_SHIFT, &d) ||
	    !r->p->folio(r->src, bytes >> PAGE_SHIFT, &s)) {
		row->have[f] = false;
		return 0;
	}
	base = (struct cp_ctx){ d, s, -1, f >= CP_NR_COPY_FORMS };
	cand = (struct cp_ctx){ d, s, f, base.mc };
	ck_snprintf(prim, sizeof(prim), "%s (%s)", cp_form_names[f], cp_body_names[row->body[f]]);
	a = CASE(base.mc ? "folio_mc_copy" : "folio_copy", "per-page", bytes, run_cp, &base);
	b = CASE(a.api, prim, bytes, run_cp, &cand);
	a.flush_a = b.flush_a = r->src;
	a.flush_b = b.flush_b = r->dst;
	a.flush_bytes = b.flush_bytes = bytes;
	data_copy_patterns(&a, PAT_RANDOM);
	data_copy_patterns(&b, PAT_RANDOM);
	ck_snprintf(var, sizeof(var), "%s-%s", res->id, form_ids[f]);
	e.variant = var;
	bench_compare(&e, &a, &b, m, r->p->runs, &ra, &rb, &row->q[f]);
	table_row(&e, &a, &b, m, &ra, &rb, &row->q[f]);
	if (nr_memo < CP_MEMO_MAX)
		memo[nr_memo++] = (struct cp_memo){ k, bytes, m, row->q[f], res->id };
	return 2;
}

/* Every form, size and mode under the resolution now in copy_ops. */
static unsigned int run_resolution(struct cp_run *r, unsigned int ri, const char *machine)
{
	const struct cp_res *res = &cp_res[ri];
	struct bench_env e = *r->env;
	unsigned int n = 0;

	e.machine = machine;
	for (int mode = BENCH_COLD; mode >= BENCH_HOT; mode--)
		for (int f = 0; f < CP_NR_FORMS; f++) {
			bench_outf(&e, "fn=%s %s (%s) mode=%s resolution=%s",
				   f < CP_NR_COPY_FORMS ? "folio_copy" : "folio_mc_copy",
				   cp_form_names[f], cp_body_names[body_of(f, &copy_ops.choice)],
				   bench_mode_name((enum bench_mode)mode), res->id);
			table_header(&e, "folio", "per-page GB/s", "form GB/s",
				     "speedup [95% CI] width");
			for (unsigned int s = 0; s < r->nsizes; s++)
				n += compare(r, res, f, cp_sizes[s], (enum bench_mode)mode,
					     &r->rows[ri][s][mode]);
		}
	return n;
}

/* Point copy_ops at resolution @ri (own: @own) and say what it resolves to. */
static void resolve(const struct cp_run *r, unsigned int ri, const struct copy_ops *own,
		    char *machine, size_t size)
{
	const struct cp_res *res = &cp_res[ri];
	const struct copy_dispatch *d;

	if (res->own) {
		copy_ops = *own;
		ck_snprintf(machine, size, "%s", r->env->machine ? r->env->machine : "");
	} else {
		struct dispatch_cpu in = r->p->dispatch_in;
		struct copy_dispatch dd;

		in.rep_good = res->rep_good;
		in.erms = res->erms;
		in.fsrm = res->fsrm;
		dispatch_decide(&in, &dd);
		copy_ops_apply(&dd);
		ck_snprintf(machine, size, "%s, as Linux resolves on %s",
			    r->env->machine ? r->env->machine : "", res->label);
	}
	d = &copy_ops.choice;
	bench_outf(r->env, "== copy_pages resolution %s: %s: copy_page=%s memcpy=%s copy_mc=%s; "
		   "candidates (not Linux): copy_pages=%s copy_pages(FSRM key)=%s memcpy_pa=%s "
		   "copy_mc_pages=%s ==", res->id, res->label, copy_page_impl_names[d->copy_page],
		   memcpy_impl_names[d->memcpy], copy_mc_impl_names[d->copy_mc],
		   copy_pages_impl_names[d->copy_pages], copy_pages_impl_names[d->copy_pages_fsrm],
		   memcpy_pa_impl_names[d->memcpy_pa], copy_pages_impl_names[d->copy_mc_pages]);
}

/* The two buffers, of the largest size that fits; r->nsizes says how many sizes fit. */
static bool buffers(struct cp_run *r)
{
	const struct bench_platform *p = r->p;
	unsigned int n = p->tiny ? 1 : CP_NR_SIZES;

	while (n && cp_sizes[n - 1] > p->max_bytes)
		n--;
	for (; n; n--) {
		/* The size of the run's two large buffers is theirs (as big and v3 take them). */
		if (cp_sizes[n - 1] == probe_bytes(p) &&
		    probe_buffers(r->env, p, &r->src, &r->dst))
			break;
		r->src = p->alloc(cp_sizes[n - 1]);
		r->dst = r->src ? p->alloc(cp_sizes[n - 1]) : NULL;
		if (r->dst)
			break;
	}
	r->nsizes = n;
	if (n < (p->tiny ? 1 : CP_NR_SIZES))
		bench_failf(r->env, "copy_pages: not measured above %s: no room for two buffers "
			   "(largest case %llu MiB)", n ? "the sizes below" : "any size",
			   (unsigned long long)p->max_bytes >> 20);
	if (!n)
		return false;
	data_fill(r->src, cp_sizes[n - 1], PAT_RANDOM);
	return true;
}

unsigned int preset_copy_pages(const struct bench_env *env, const struct bench_platform *p)
{
	static struct cp_run r;
	static char machine[256];
	struct copy_ops own = copy_ops;
	unsigned int n = 0;

	r = (struct cp_run){ .env = env, .p = p };
	nr_memo = 0;
	bench_outf(env, "copy_pages: CANDIDATES for a copy_pages() Linux does not have, against "
		   "the per-page loops and the RFC's bulk memcpy; preemptible kernel (one call a "
		   "folio)");
	if (!p->dispatch_known) {
		bench_outf(env, "# copy_pages: the dispatch inputs of this CPU are not known: "
			   "only this machine's dispatch is measured");
	}
	probe_ensure(env, p);	/* both sides of every row against the machine's copy limit */
	if (!buffers(&r))
		return 0;
	for (unsigned int ri = 0; ri < CP_NR_RES; ri++) {
		if (!cp_res[ri].own && !p->dispatch_known)
			continue;
		resolve(&r, ri, &own, machine, sizeof(machine));
		n += run_resolution(&r, ri, machine);
	}
	copy_ops = own;
	cp_answer_header(env);
	for (unsigned int ri = 0; ri < CP_NR_RES; ri++)
		for (unsigned int s = 0; s < r.nsizes; s++)
			for (int mode = BENCH_COLD; mode >= BENCH_HOT; mode--)
				if (r.rows[ri][s][mode].have[CP_BULK])
					cp_answer_row(env, cp_res[ri].id, cp_sizes[s],
						      (enum bench_mode)mode, &r.rows[ri][s][mode]);
	return n;
}
