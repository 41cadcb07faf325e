// SPDX-License-Identifier: GPL-2.0-only
/*
 * step.c - a CPU's pieces of one pass and their runs around retired pages (step.h).
 */
#include "kernel/include/page_types.h"
#include "kernel/lib/string.h"
#include "soak/step.h"

void soak_cursor_init(struct soak_cursor *c)
{
	memset(c, 0, sizeof(*c));
}

/* Move to the next chunk (and slice); false when the CPU has none left. */
static bool next_chunk(const struct soak_plan *p, unsigned int cpu, struct soak_cursor *c)
{
	for (;;) {
		if (!c->have_slice) {
			if (!soak_plan_slice(p, cpu, c->slice, &c->s))
				return false;
			c->have_slice = true;
			c->at = c->s.base;
		}
		if (c->at < c->s.base + c->s.size) {
			c->cbase = c->at;
			c->cend = soak_chunk_end(p, &c->s, c->at);
			c->at = c->cend;
			c->off = 0;
			c->lone_done = false;
			c->have_chunk = true;
			return true;
		}
		c->slice++;
		c->have_slice = false;
	}
}

bool soak_step_next(const struct soak_plan *p, unsigned int cpu, u32 pass,
		    struct soak_cursor *c, struct soak_piece *out)
{
	while (!c->done) {
		u64 pages, half, src, dst;

		if (!c->have_chunk && !next_chunk(p, cpu, c)) {
			c->done = true;
			break;
		}
		pages = (c->cend - c->cbase) >> PAGE_SHIFT;
		half = (pages / 2) << PAGE_SHIFT;
		src = pass & 1 ? c->cbase + half : c->cbase;
		dst = pass & 1 ? c->cbase : c->cbase + half;
		if (c->off < half) {
			u64 len = MIN(SOAK_PIECE_MAX, half - c->off);

			*out = (struct soak_piece){ .src = src + c->off, .dst = dst + c->off,
						    .len = len, .key = src >> PAGE_SHIFT,
						    .first = c->off / 8, .pair = c->pairs++,
						    .node = c->s.node };
			c->off += len;
			return true;
		}
		c->have_chunk = false;
		if ((pages & 1) && !c->lone_done) {
			u64 lone = c->cbase + 2 * half;

			c->lone_done = true;
			*out = (struct soak_piece){ .src = lone, .dst = lone, .len = PAGE_SIZE,
						    .key = lone >> PAGE_SHIFT, .node = c->s.node,
						    .lone = true };
			return true;
		}
	}
	return false;
}

static enum soak_seg_kind kind_at(const struct soak_piece *pc, u64 i,
				  bool (*retired)(u64 pa, void *ctx), void *ctx)
{
	bool s = retired(pc->src + (i << PAGE_SHIFT), ctx);
	bool d = !pc->lone && retired(pc->dst + (i << PAGE_SHIFT), ctx);

	if (pc->lone)
		return s ? SOAK_SEG_NONE : SOAK_SEG_SRC;
	if (s && d)
		return SOAK_SEG_NONE;
	return s ? SOAK_SEG_DST : d ? SOAK_SEG_SRC : SOAK_SEG_PAIR;
}

bool soak_piece_seg(const struct soak_piece *pc, u64 from, bool (*retired)(u64 pa, void *ctx),
		    void *ctx, struct soak_seg *out)
{
	u64 pages = pc->len >> PAGE_SHIFT, i = from;
	enum soak_seg_kind k;

	if (from >= pages)
		return false;
	k = kind_at(pc, i, retired, ctx);
	while (++i < pages && kind_at(pc, i, retired, ctx) == k)
		;
	*out = (struct soak_seg){ k, from, i - from };
	return true;
}

u64 soak_piece_dst_key(const struct soak_piece *pc)
{
	return (pc->dst - pc->first * 8) >> PAGE_SHIFT;
}
