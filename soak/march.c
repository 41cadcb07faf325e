// SPDX-License-Identifier: GPL-2.0-only
/*
 * march.c - the soak's elements over memory: the walk of a CPU's pieces and what is done to
 * each, through the engine's seam (soak/march.h).
 */
#include "kernel/include/page_types.h"
#include "kernel/lib/string.h"
#include "soak/march.h"

/* ---- the walk ------------------------------------------------------------------------ */

void soak_walk_init(struct soak_walk *w, const struct soak_plan *p, unsigned int cpu,
		    const struct soak_el *e, u32 pass)
{
	struct soak_slice s;

	memset(w, 0, sizeof(*w));
	w->p = p;
	w->cpu = cpu;
	w->pass = pass;
	w->pairs = e->kind == SOAK_EL_PAIRS;
	w->down = e->kind == SOAK_EL_SWEEP && e->down;
	while (soak_plan_slice(p, cpu, w->nr_slices, &s))
		w->nr_slices++;
	w->area = 3;
	w->done = e->kind == SOAK_EL_IDLE;
}

/* Load the walk's current slice; false past the last. */
static bool load_slice(struct soak_walk *w)
{
	if (w->slice >= w->nr_slices)
		return false;
	soak_plan_slice(w->p, w->cpu, w->down ? w->nr_slices - 1 - w->slice : w->slice, &w->s);
	w->at = w->down ? w->s.base + w->s.size : w->s.base;
	return true;
}

/* Move to the next chunk in walk order; false when the CPU has none left. */
static bool next_chunk(struct soak_walk *w)
{
	for (;;) {
		if (!w->have_slice) {
			if (!load_slice(w))
				return false;
			w->have_slice = true;
		}
		if (!w->down && w->at < w->s.base + w->s.size) {
			w->cbase = w->at;
			w->cend = soak_chunk_end(w->p, &w->s, w->at);
			w->at = w->cend;
			return true;
		}
		if (w->down && w->at > w->s.base) {
			w->cend = w->at;
			w->cbase = MAX(w->s.base, ALIGN_DOWN(w->cend - 1, w->p->chunk_bytes));
			w->at = w->cbase;
			return true;
		}
		w->slice++;
		w->have_slice = false;
	}
}

/* Area @kind of chunk [cbase, cend). */
static void chunk_area(u64 cbase, u64 cend, enum soak_area_kind kind, struct soak_area *a)
{
	u64 pages = (cend - cbase) >> PAGE_SHIFT, half = pages / 2;
	u64 h1 = cbase + (half << PAGE_SHIFT);

	if (kind == SOAK_AREA_H0)
		*a = (struct soak_area){ kind, cbase, half, h1 };
	else if (kind == SOAK_AREA_H1)
		*a = (struct soak_area){ kind, h1, half, cbase };
	else
		*a = (struct soak_area){ kind, cbase + (2 * half << PAGE_SHIFT), pages & 1, 0 };
}

bool soak_walk_next(struct soak_walk *w, struct soak_piece *out)
{
	while (!w->done) {
		int kind;

		if (w->lo < w->hi) {
			u64 len = MIN(SOAK_PIECE_MAX, w->hi - w->lo), pa = w->lo;

			if (w->down)
				pa = w->hi - len;
			if (w->down)
				w->hi -= len;
			else
				w->lo += len;
			*out = (struct soak_piece){ w->a, pa, len, w->s.node };
			return true;
		}
		if (w->area < 3)
			w->area++;
		if (w->area >= 3) {
			if (!next_chunk(w)) {
				w->done = true;
				break;
			}
			w->area = 0;
		}
		kind = w->down ? 2 - w->area : w->area;
		chunk_area(w->cbase, w->cend, (enum soak_area_kind)kind, &w->a);
		w->lo = w->a.base;
		w->hi = w->a.base + (w->a.pages << PAGE_SHIFT);
		/* a copy's destination is walked through its source */
		if (w->pairs && kind == (int)(soak_src_half(w->pass) ^ 1))
			w->lo = w->hi;
	}
	return false;
}

/* ---- an element's pieces ------------------------------------------------------------- */

void soak_el_begin(struct soak_el_run *r, const struct soak_prog *prog,
		   const struct soak_mem_ops *ops, u32 pass, unsigned int el)
{
	memset(r, 0, sizeof(*r));
	r->prog = prog;
	r->ops = ops;
	r->pass = pass;
	r->el = (u16)el;
	r->e = &soak_pass_row(pass, NULL)->el[el];
	soak_contents(pass, el, r->before);
	soak_contents(pass, el + 1, r->after);
}

/* What put word @pa of area @a there, holding @c. */
static struct soak_writer writer_of(const struct soak_el_run *r, const struct soak_content *c,
				    const struct soak_area *a, u64 pa)
{
	struct soak_writer w = { (enum soak_how)c->how, (enum soak_pat)c->pat, -1 };
	u64 words = a->pages * (PAGE_SIZE / 8), rot, j, src;

	if (!c->copied)
		return w;
	/* the source word it came from, and so the piece whose copy brought it */
	rot = soak_rotation(c->pass, a->pages) * (PAGE_SIZE / 8);
	j = (pa - a->base) / 8;
	src = (j + words - rot) % words;
	w.copy_op = soak_copy_op(c->pass, a->other + ALIGN_DOWN(src * 8, SOAK_PIECE_MAX),
				 r->prog->copy_mask);
	return w;
}

/*
 * One kernel call's worth, @mv over [pa, pa + len) (one descriptor each side), again and
 * again past every wrong word: from the next line, or the next page once it is out.
 */
static void march_run(struct soak_el_run *r, const struct soak_area *a, u64 pa, u64 len,
		      struct soak_mv *mv, const struct soak_content *rd)
{
	const struct soak_mem_ops *ops = r->ops;
	bool down = mv->flags & SOAK_MV_DOWN;

	if (mv->flags & SOAK_MV_READ)
		r->bytes_read += len;
	if (mv->flags & SOAK_MV_WRITE)
		r->bytes_written += len;
	while (len) {
		struct soak_word_miss m;
		struct soak_found f = { .pass = r->pass, .el = r->el };
		u64 st = ops->march(ops->ctx, pa, len, mv, &m), word, next;
		bool skip_page;

		if (st != SOAK_MISCOMPARE && st != SOAK_POISONED)
			return;		/* done (or refused: the sequencer never asks wrongly) */
		word = pa + m.offset;
		f.poison = st == SOAK_POISONED;
		f.store = m.store;
		f.pa = word;
		if (!f.poison) {
			f.expected = m.expected;
			f.actual = m.actual;
			f.reread = m.reread;
			f.more = m.more;
			f.w = writer_of(r, rd, a, word);
		}
		ops->found(ops->ctx, &f);
		skip_page = f.poison || ops->out(ops->ctx, word);
		if (!down) {
			next = skip_page ? ALIGN_DOWN(word, PAGE_SIZE) + PAGE_SIZE :
					   ALIGN_DOWN(word, SOAK_LINE) + SOAK_LINE;
			if (next >= pa + len)
				return;
			mv->rd.first += (next - pa) / 8;
			mv->wr.first += (next - pa) / 8;
			len -= next - pa;
			pa = next;
		} else {
			next = skip_page ? ALIGN_DOWN(word, PAGE_SIZE) : ALIGN_DOWN(word, SOAK_LINE);
			if (next <= pa)
				return;
			len = next - pa;
		}
	}
}

/*
 * [pa, pa + len) of area @a, none of it out: read as @rd holds (NULL: not read), then written
 * with @wr (NULL: not written), cut where either's descriptor changes; @down: from the top.
 */
static void kernel_run(struct soak_el_run *r, const struct soak_area *a, u64 pa, u64 len,
		       const struct soak_content *rd, const struct soak_content *wr, bool down)
{
	u64 cut[4], n = 0, i0 = (pa - a->base) / 8, i1 = i0 + len / 8;

	if (!rd && !wr)
		return;
	/* the words where a descriptor changes: at most one each side (a copy's wrap) */
	cut[n++] = i0;
	for (int side = 0; side < 2; side++) {
		const struct soak_content *c = side ? wr : rd;
		struct soak_desc d;
		u64 end;

		if (!c)
			continue;
		end = i0 + soak_content_desc(r->prog->seed, c, a, i0, &d);
		if (end >= i1 || end == cut[n - 1])
			continue;
		if (end < cut[n - 1]) {		/* keep them in order */
			cut[n] = cut[n - 1];
			cut[n - 1] = end;
		} else {
			cut[n] = end;
		}
		n++;
	}
	cut[n] = i1;
	for (u64 k = 0; k < n; k++) {
		u64 s = down ? n - 1 - k : k, lo = cut[s], hi = cut[s + 1];
		struct soak_mv mv = { .flags = (rd ? SOAK_MV_READ : 0) | (wr ? SOAK_MV_WRITE : 0) |
					       (down ? SOAK_MV_DOWN : 0) };

		if (rd)
			soak_content_desc(r->prog->seed, rd, a, lo, &mv.rd);
		if (wr)
			soak_content_desc(r->prog->seed, wr, a, lo, &mv.wr);
		march_run(r, a, a->base + lo * 8, (hi - lo) * 8, &mv, rd);
	}
}

/* Whether page @i of a run at @pa is out. */
static bool page_out(const struct soak_el_run *r, u64 pa, u64 i)
{
	return r->ops->out(r->ops->ctx, pa + (i << PAGE_SHIFT));
}

/*
 * The pages of [pa, pa + len) of area @a that are not out, in runs, in the walk's order:
 * read as @rd, then written with @wr (or cleared by the clear primitive: @clear). Returns
 * the pages touched.
 */
static u64 area_run(struct soak_el_run *r, const struct soak_area *a, u64 pa, u64 len,
		    const struct soak_content *rd, const struct soak_content *wr, bool down,
		    bool clear, bool source)
{
	u64 pages = len >> PAGE_SHIFT, done = 0;
	const struct soak_mem_ops *ops = r->ops;

	for (u64 k = 0; k < pages;) {
		u64 i = down ? pages - 1 - k : k, lo = i, hi = i + 1;

		if (page_out(r, pa, i)) {
			k++;
			continue;
		}
		/* widen to the run of pages not out, in the walk's direction */
		if (!down)
			while (hi < pages && !page_out(r, pa, hi))
				hi++;
		else
			while (lo > 0 && !page_out(r, pa, lo - 1))
				lo--;
		k += hi - lo;
		done += hi - lo;
		if (clear) {
			kernel_run(r, a, pa + (lo << PAGE_SHIFT), (hi - lo) << PAGE_SHIFT, rd, NULL,
				   down);
			ops->clear(ops->ctx, pa + (lo << PAGE_SHIFT), hi - lo);
			r->bytes_written += (hi - lo) << PAGE_SHIFT;
		} else {
			kernel_run(r, a, pa + (lo << PAGE_SHIFT), (hi - lo) << PAGE_SHIFT, rd, wr,
				   down);
		}
		if (wr || clear)
			ops->written(ops->ctx, pa + (lo << PAGE_SHIFT), (hi - lo) << PAGE_SHIFT,
				     source);
	}
	return done;
}

static const struct soak_content *held(const struct soak_el_run *r, enum soak_area_kind k)
{
	return r->e->read && r->before[k].pat != SOAK_PAT_NONE ? &r->before[k] : NULL;
}

static const struct soak_content *to_write(const struct soak_el_run *r, enum soak_area_kind k)
{
	return r->e->write != SOAK_PAT_NONE ? &r->after[k] : NULL;
}

/*
 * Pages [s, s + n) of source half @src went (or would go) to pages [d, d + n) of the
 * destination @dst (one run, no wrap). For each run of pages with the same sides out: the
 * destination words read first, then the copy (or, its source out, the copy's words written
 * by the kernel; a copy stopped by poison: the source read to find it, and the destination
 * written by the kernel).
 */
static void copy_part(struct soak_el_run *r, const struct soak_area *src,
		      const struct soak_area *dst, u64 s, u64 d, u64 n, int op)
{
	const struct soak_mem_ops *ops = r->ops;
	enum soak_area_kind sk = (enum soak_area_kind)src->kind, dk = (enum soak_area_kind)dst->kind;
	u64 spa = src->base + (s << PAGE_SHIFT), dpa = dst->base + (d << PAGE_SHIFT);

	for (u64 k = 0; k < n;) {
		bool sout = page_out(r, spa, k), dout = page_out(r, dpa, k);
		u64 e = k + 1, at, bytes;

		while (e < n && page_out(r, spa, e) == sout && page_out(r, dpa, e) == dout)
			e++;
		at = dpa + (k << PAGE_SHIFT);
		bytes = (e - k) << PAGE_SHIFT;
		if (!dout) {
			r->pages += e - k;
			if (sout) {
				kernel_run(r, dst, at, bytes, held(r, dk), &r->after[dk], false);
			} else {
				kernel_run(r, dst, at, bytes, held(r, dk), NULL, false);
				r->bytes_copied += bytes;
				if (ops->copy(ops->ctx, op, at, spa + (k << PAGE_SHIFT), e - k)) {
					kernel_run(r, src, spa + (k << PAGE_SHIFT), bytes,
						   &r->after[sk], NULL, false);
					kernel_run(r, dst, at, bytes, NULL, &r->after[dk], false);
				}
			}
		}
		k = e;
	}
}

/* A source piece's copy: its rotated destination, split where the rotation wraps. */
static void copy_piece(struct soak_el_run *r, const struct soak_piece *pc)
{
	const struct soak_area *a = &pc->a;
	struct soak_area dst = { (u8)(a->kind ^ 1), a->other, a->pages, a->base };
	u64 h = a->pages, rot = soak_rotation(r->pass, h);
	u64 s = (pc->pa - a->base) >> PAGE_SHIFT, n = pc->len >> PAGE_SHIFT;
	u64 d = (s + rot) % h, first = MIN(n, h - d);
	int op = soak_copy_op(r->pass, pc->pa, r->prog->copy_mask);

	copy_part(r, a, &dst, s, d, first, op);
	if (first < n)
		copy_part(r, a, &dst, s + first, 0, n - first, op);
}

void soak_el_piece(struct soak_el_run *r, const struct soak_piece *pc)
{
	const struct soak_el *e = r->e;
	enum soak_area_kind k = (enum soak_area_kind)pc->a.kind;
	bool source = e->kind == SOAK_EL_PAIRS && k != SOAK_AREA_LONE;

	r->pages += area_run(r, &pc->a, pc->pa, pc->len, held(r, k), to_write(r, k),
			     e->kind == SOAK_EL_SWEEP && e->down, e->kind == SOAK_EL_PAIRS && e->clear,
			     source);
	if (source)
		copy_piece(r, pc);
}
