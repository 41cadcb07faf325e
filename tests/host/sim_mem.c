// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_mem.c - the simulated memory and its faults, and the reference kernel
 * (tests/host/sim_mem.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim_mem.h"

#define PG		4096ULL
#define PAGE_WORDS	(PG / 8)

/* ---- the reference pattern: Vigna's splitmix64, from its published definition ---------- */

static u64 splitmix_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u64 ref_word(const struct soak_desc *d, u64 i)
{
	static u64 lane[8];
	static bool have_lanes;
	u64 st, r;

	switch (d->gen) {
	case SOAK_GEN_RANDOM:
		if (!have_lanes) {
			st = 0;
			for (int k = 1; k < 8; k++)
				lane[k] = splitmix_next(&st);
			have_lanes = true;
		}
		/* group g is the (g+1)-th output of the generator started at the seed */
		st = d->seed + (i / 8) * 0x9e3779b97f4a7c15ULL;
		return splitmix_next(&st) ^ lane[i % 8] ^ d->invert;
	case SOAK_GEN_ROTATE:
		r = i % 64;
		return (r ? d->seed << r | d->seed >> (64 - r) : d->seed) ^ d->invert;
	case SOAK_GEN_ADDRESS:
		return (d->seed + 8 * i) ^ d->invert;
	default:
		return d->seed ^ d->invert;
	}
}

/* ---- the reference kernel ------------------------------------------------------------ */

static bool known_gen(u64 gen)
{
	return gen < NR_SOAK_GEN;
}

u64 ref_march(struct ref_mem *m, u64 buf, u64 len, const struct soak_mv *mv,
	      struct soak_word_miss *miss)
{
	bool rd = mv->flags & SOAK_MV_READ, wr = mv->flags & SOAK_MV_WRITE;
	bool down = mv->flags & SOAK_MV_DOWN;
	u64 lines = len / 64;

	if ((buf | len) & 63 || (mv->rd.first | mv->wr.first) & 7)
		return SOAK_BAD_ARGS;
	if ((rd && !known_gen(mv->rd.gen)) || (wr && !known_gen(mv->wr.gen)) || (!rd && !wr))
		return SOAK_BAD_ARGS;
	for (u64 l = 0; l < lines; l++) {
		u64 line = down ? lines - 1 - l : l;
		bool missed = false;

		for (u64 j = 0; j < 8; j++) {
			u64 k = down ? 7 - j : j, at = buf + line * 64 + k * 8;
			u64 word = line * 8 + k;

			if (rd) {
				u64 v = m->load(m, at), want = ref_word(&mv->rd, mv->rd.first + word);

				if (m->fault)
					goto fault;
				if (v != want && !missed) {
					missed = true;
					*miss = (struct soak_word_miss){ .offset = at - buf,
									 .expected = want,
									 .actual = v };
					m->flush(m, at);
					miss->reread = m->load(m, at);
					if (m->fault)
						goto fault;
				} else if (v != want) {
					miss->more++;
				}
			}
			if (wr) {
				m->store(m, at, ref_word(&mv->wr, mv->wr.first + word));
				if (m->fault)
					goto fault_store;
			}
		}
		if (missed)
			return SOAK_MISCOMPARE;
		continue;
fault:
		m->fault = false;
		*miss = (struct soak_word_miss){ .offset = line * 64 };
		return SOAK_POISONED;
fault_store:
		m->fault = false;
		*miss = (struct soak_word_miss){ .offset = line * 64, .store = 1 };
		return SOAK_POISONED;
	}
	return SOAK_OK;
}

/* ---- the simulated memory ------------------------------------------------------------ */

struct sim_page {
	u64 *w;			/* its words, or NULL: lazy */
	struct soak_desc d;	/* lazy: word k is ref_word(&d, d.first + k) */
};

static struct sim_page *page_of(struct sim_mem *m, u64 addr)
{
	return &m->page[(addr - m->base) / PG];
}

/* Give the page at @addr its words. */
static u64 *words_of(struct sim_mem *m, u64 addr)
{
	struct sim_page *p = page_of(m, addr);

	if (!p->w) {
		p->w = malloc(PG);
		if (!p->w)
			abort();
		for (u64 k = 0; k < PAGE_WORDS; k++)
			p->w[k] = ref_word(&p->d, p->d.first + k);
	}
	return p->w;
}

static u64 *cell(struct sim_mem *m, u64 addr)
{
	return &words_of(m, addr)[(addr % PG) / 8];
}

static unsigned int bit(u64 w, unsigned int b)
{
	return (unsigned int)(w >> b) & 1;
}

static u64 with_bit(u64 w, unsigned int b, unsigned int v)
{
	return (w & ~(1ULL << b)) | ((u64)v << b);
}

/* The NPSF neighbours of the base: N, S (the same bit in the words before and after), W, E. */
static unsigned int neighbours(struct sim_mem *m)
{
	const struct sim_fault *f = &m->f;
	u64 base = *cell(m, f->v);

	return bit(*cell(m, f->v - 8), f->vbit) | bit(*cell(m, f->v + 8), f->vbit) << 1 |
	       bit(base, f->vbit - 1) << 2 | bit(base, f->vbit + 1) << 3;
}

static bool npsf_word(const struct sim_fault *f, u64 addr)
{
	return addr == f->v || addr == f->v - 8 || addr == f->v + 8;
}

/* The state-coupling and static-NPSF rules, after any write that could matter. */
static void apply_states(struct sim_mem *m, u64 addr)
{
	struct sim_fault *f = &m->f;
	u64 *v;

	if (f->kind == SIM_CFST && (addr == f->a || addr == f->v) &&
	    bit(*cell(m, f->a), f->abit) == f->s) {
		v = cell(m, f->v);
		*v = with_bit(*v, f->vbit, f->x);
	}
	if (f->kind == SIM_SNPSF && npsf_word(f, addr) && neighbours(m) == f->pattern) {
		v = cell(m, f->v);
		*v = with_bit(*v, f->vbit, f->x);
	}
}

static u64 word_read(struct sim_mem *m, u64 addr)
{
	struct sim_fault *f = &m->f;
	u64 *c, v;

	m->now_ns += m->ns_per_op;
	m->word_ops++;
	if (f->kind == SIM_AF_NONE && addr == f->a)
		return f->x ? ~0ULL : 0;
	if (f->kind == SIM_AF_ALIAS && addr == f->a)
		addr = f->v;
	c = cell(m, addr);
	if (addr == f->v) {
		unsigned int b = bit(*c, f->vbit);

		if (f->kind == SIM_DRF && b == f->x && m->now_ns - m->last_write_ns >= f->t_ns)
			*c = with_bit(*c, f->vbit, !f->x);
		if (f->kind == SIM_RDF && b == f->x)
			*c = with_bit(*c, f->vbit, !f->x);
		v = *c;
		if (f->kind == SIM_DRDF && b == f->x) {
			*c = with_bit(*c, f->vbit, !f->x);
			v = with_bit(v, f->vbit, f->x);		/* read right, left wrong */
		}
		return v;
	}
	v = *c;
	if (f->kind == SIM_AF_MULTI && addr == f->a)
		v = f->x ? v | *cell(m, f->v) : v & *cell(m, f->v);
	return v;
}

static void word_write(struct sim_mem *m, u64 addr, u64 nv)
{
	struct sim_fault *f = &m->f;
	u64 *c, old;

	m->now_ns += m->ns_per_op;
	m->word_ops++;
	if (f->kind == SIM_AF_NONE && addr == f->a)
		return;
	if (f->kind == SIM_AF_ALIAS && addr == f->a)
		addr = f->v;
	c = cell(m, addr);
	old = *c;
	if (addr == f->v) {
		unsigned int ob = bit(old, f->vbit), nb = bit(nv, f->vbit);

		if (f->kind == SIM_SAF)
			nv = with_bit(nv, f->vbit, f->x);
		if (f->kind == SIM_TF && ((f->up && !ob && nb) || (!f->up && ob && !nb)))
			nv = with_bit(nv, f->vbit, ob);
		if (f->kind == SIM_WDF && ob == f->x && nb == f->x)
			nv = with_bit(nv, f->vbit, !f->x);
		m->last_write_ns = m->now_ns;
	}
	*c = nv;
	if (f->kind == SIM_AF_MULTI && addr == f->a)
		*cell(m, f->v) = nv;
	if ((f->kind == SIM_CFIN || f->kind == SIM_CFID) && addr == f->a) {
		unsigned int ob = bit(old, f->abit), nb = bit(*c, f->abit);

		if ((f->up && !ob && nb) || (!f->up && ob && !nb)) {
			u64 *v = cell(m, f->v);

			*v = with_bit(*v, f->vbit, f->kind == SIM_CFIN ? !bit(*v, f->vbit) : f->x);
		}
	}
	if (f->kind == SIM_ANPSF && npsf_word(f, addr)) {
		static const int dw[4] = { -8, 8, 0, 0 }, db[4] = { 0, 0, -1, 1 };
		u64 naddr = f->v + (u64)(s64)dw[f->which];
		unsigned int nbit = f->vbit + (unsigned int)db[f->which];

		if (addr == naddr && !bit(old, nbit) && bit(*c, nbit) &&
		    (neighbours(m) & ~(1u << f->which)) == (f->pattern & ~(1u << f->which))) {
			u64 *v = cell(m, f->v);

			*v = with_bit(*v, f->vbit, !bit(*v, f->vbit));
		}
	}
	apply_states(m, addr);
}

static u64 ref_load(struct ref_mem *r, u64 addr)
{
	return word_read((struct sim_mem *)((u8 *)r - offsetof(struct sim_mem, ref)), addr);
}

static void ref_store(struct ref_mem *r, u64 addr, u64 v)
{
	word_write((struct sim_mem *)((u8 *)r - offsetof(struct sim_mem, ref)), addr, v);
}

static void ref_flush(struct ref_mem *r, u64 addr)
{
}

void sim_init(struct sim_mem *m, u64 base, u64 bytes, bool full)
{
	memset(m, 0, sizeof(*m));
	m->base = base;
	m->bytes = bytes;
	m->ns_per_op = SIM_NS_PER_OP;
	m->full = full;
	m->page = calloc(bytes / PG, sizeof(*m->page));
	if (!m->page)
		abort();
	for (u64 i = 0; i < bytes / PG; i++) {
		m->page[i].d = (struct soak_desc){ SOAK_GEN_CONST, 0, 0, 0 };
		if (full)
			words_of(m, base + i * PG);
	}
	m->ref = (struct ref_mem){ ref_load, ref_store, ref_flush, false };
}

void sim_free(struct sim_mem *m)
{
	for (u64 i = 0; i < m->bytes / PG; i++)
		free(m->page[i].w);
	free(m->page);
	m->page = NULL;
}

void sim_set_fault(struct sim_mem *m, const struct sim_fault *f)
{
	m->f = *f;
	/* every word the fault touches stays words: its accesses go through the rules */
	if (f->kind != SIM_NONE) {
		words_of(m, f->v);
		words_of(m, f->a ? f->a : f->v);
	}
	if (f->kind == SIM_SNPSF || f->kind == SIM_ANPSF) {
		words_of(m, f->v - 8);
		words_of(m, f->v + 8);
	}
	if (f->kind == SIM_SAF)
		*cell(m, f->v) = with_bit(*cell(m, f->v), f->vbit, f->x);
	if (f->kind != SIM_NONE)
		apply_states(m, f->v);
}

/* Whether the page at @addr is lazy (no fault's word in it, never written in part). */
static bool lazy(struct sim_mem *m, u64 addr)
{
	return !page_of(m, addr)->w;
}

/* Do two descriptors give the same words over a page (from their @first each)? */
static bool same_words(const struct soak_desc *a, const struct soak_desc *b)
{
	if (a->gen == b->gen && a->seed == b->seed && a->invert == b->invert &&
	    a->first == b->first)
		return true;
	for (u64 k = 0; k < PAGE_WORDS; k++)
		if (ref_word(a, a->first + k) != ref_word(b, b->first + k))
			return false;
	return true;
}

/*
 * The kernel over [pa, pa + len): whole lazy pages by descriptor, everything else word by
 * word through the reference kernel, in the element's order; the same results as one
 * reference call over the whole run.
 */
u64 sim_march(struct sim_mem *m, u64 pa, u64 len, const struct soak_mv *mv,
	      struct soak_word_miss *miss)
{
	bool rd = mv->flags & SOAK_MV_READ, wr = mv->flags & SOAK_MV_WRITE;
	bool down = mv->flags & SOAK_MV_DOWN;
	u64 start = pa, end = pa + len, ops = (u64)rd + (u64)wr;

	if ((pa | len) & 63 || (mv->rd.first | mv->wr.first) & 7 || (!rd && !wr) ||
	    (rd && mv->rd.gen >= NR_SOAK_GEN) || (wr && mv->wr.gen >= NR_SOAK_GEN))
		return SOAK_BAD_ARGS;
	while (pa < end) {
		/* the next segment in the walk's order: one lazy whole page, or a word run */
		u64 at = down ? ALIGN_DOWN(end - 1, PG) : pa, lo, hi;

		lo = MAX(pa, at);
		hi = MIN(end, ALIGN_DOWN(lo, PG) + PG);
		if (lazy(m, lo) && lo % PG == 0 && hi - lo == PG) {
			struct sim_page *p = page_of(m, lo);
			struct soak_desc want = mv->rd, put = mv->wr;

			want.first += (lo - start) / 8;
			put.first += (lo - start) / 8;
			if (!rd || same_words(&p->d, &want)) {
				if (wr)
					p->d = put;
				m->now_ns += PAGE_WORDS * ops * m->ns_per_op;
				if (down)
					end = lo;
				else
					pa = hi;
				continue;
			}
			words_of(m, lo);	/* it differs: find the word, as the kernel would */
		}
		{
			struct soak_mv seg = *mv;
			u64 st;

			seg.rd.first += (lo - start) / 8;
			seg.wr.first += (lo - start) / 8;
			st = ref_march(&m->ref, lo, hi - lo, &seg, miss);
			if (st != SOAK_OK) {
				miss->offset += lo - start;
				return st;
			}
		}
		if (down)
			end = lo;
		else
			pa = hi;
	}
	return SOAK_OK;
}

int sim_copy(struct sim_mem *m, u64 dst, u64 src, u64 pages)
{
	for (u64 i = 0; i < pages; i++) {
		u64 s = src + i * PG, d = dst + i * PG;

		if (lazy(m, s) && lazy(m, d)) {
			page_of(m, d)->d = page_of(m, s)->d;
			m->now_ns += 2 * PAGE_WORDS * m->ns_per_op;
			continue;
		}
		for (u64 k = 0; k < PAGE_WORDS; k++)
			word_write(m, d + 8 * k, word_read(m, s + 8 * k));
	}
	return 0;
}

void sim_clear(struct sim_mem *m, u64 pa, u64 pages)
{
	for (u64 i = 0; i < pages; i++) {
		u64 a = pa + i * PG;

		if (lazy(m, a)) {
			page_of(m, a)->d = (struct soak_desc){ SOAK_GEN_CONST, 0, 0, 0 };
			m->now_ns += PAGE_WORDS * m->ns_per_op;
			continue;
		}
		for (u64 k = 0; k < PAGE_WORDS; k++)
			word_write(m, a + 8 * k, 0);
	}
}

void sim_idle(struct sim_mem *m, u64 ns)
{
	m->now_ns += ns;
}

u64 sim_read_word(struct sim_mem *m, u64 addr)
{
	return word_read(m, addr);
}

const char *sim_fault_name(enum sim_fault_kind k)
{
	static const char *const names[NR_SIM_FAULTS] = {
		"none", "stuck-at", "transition", "coupling inversion", "coupling idempotent",
		"coupling state", "address: no cell", "address: two addresses one cell",
		"address: one address two cells", "read destructive",
		"deceptive read destructive", "write disturb", "data retention",
		"neighbourhood static", "neighbourhood active",
	};

	return (unsigned int)k < NR_SIM_FAULTS ? names[k] : "?";
}
