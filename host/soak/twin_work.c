// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_work.c - one chunk pair of the hosted soak twin: write, copy, verify, record
 * (host/soak/twin_work.h).
 */
#include <errno.h>
#include <string.h>

#include "copy/ops.h"
#include "copy/pages.h"
#include "copy/verify.h"
#include "host/soak/twin_work.h"

void soak_twin_worker_init(struct soak_twin_worker *w, unsigned int index, u64 seed, u32 ops,
			   size_t (*nt_copy)(void *, const void *, size_t),
			   u64 (*phys_of)(const void *), u64 (*now_ns)(void))
{
	memset(w, 0, sizeof(*w));
	w->index = index;
	w->seed = seed;
	w->ops = ops & SOAK_COPY_ALL;
	if (!nt_copy)
		w->ops &= ~(1u << SOAK_COPY_NT);
	w->nt_copy = nt_copy;
	w->phys_of = phys_of;
	w->now_ns = now_ns;
	soak_ledger_init(&w->ledger, w->ev, SOAK_TWIN_EVENTS, NULL);
}

/* Copy @p's source to its destination with primitive @op: 0, or nonzero on a fault. */
static int copy_pair(const struct soak_twin_worker *w, int op, const struct soak_twin_pair *p)
{
	unsigned long nr = p->bytes >> PAGE_SHIFT;
	struct folio dst = p->fdst, src = p->fsrc;

	switch (op) {
	case SOAK_COPY_MC_BATCHED:
		return copy_mc_highpages(dst.page, src.page, nr);
	case SOAK_COPY_MC_PER_PAGE:
		for (unsigned long i = 0; i < nr; i++)
			if (copy_mc_highpage(dst.page + i, src.page + i))
				return -EHWPOISON;
		return 0;
	case SOAK_FOLIO_COPY_BATCHED:
		return folio_mc_copy_batched(&dst, &src);
	case SOAK_FOLIO_COPY_PER_PAGE:
		return folio_mc_copy_per_page(&dst, &src);
	case SOAK_COPY_NT:
		return copy_mc_chunked(w->nt_copy, p->dst, p->src, p->bytes, COPY_MC_CHUNK) ?
		       -EHWPOISON : 0;
	default:
		return -EINVAL;
	}
}

/* @d's descriptor for the buffer starting @off bytes into the one @d describes. */
static struct soak_desc desc_at(const struct soak_desc *d, size_t off)
{
	struct soak_desc r = *d;

	r.first = d->first + off / 8;
	return r;
}

/*
 * Read the word at @p again, from memory: its line flushed first, the load machine-check
 * safe (a one-word verify). False when the load faulted.
 */
static bool reread(const u8 *p, const struct soak_desc *d, u64 *value)
{
	struct soak_miss m;
	u64 st;

	__builtin_ia32_clflush(p);
	__builtin_ia32_mfence();
	st = soak_verify_mc(p, 8, d, &m);
	if (st == SOAK_MISCOMPARE)
		*value = m.actual;
	else if (st == SOAK_OK)
		*value = m.expected;
	return st == SOAK_OK || st == SOAK_MISCOMPARE;
}

static struct soak_twin_detail *new_detail(struct soak_twin_worker *w)
{
	if (w->nr_detail < SOAK_TWIN_DETAILS)
		return &w->detail[w->nr_detail++];
	w->details_dropped++;
	return NULL;
}

/* The ledger's address for @virt: the physical one when the process can learn it. */
static u64 ledger_addr(const struct soak_twin_worker *w, const void *virt, u64 *phys)
{
	*phys = w->phys_of ? w->phys_of(virt) : 0;
	return *phys ? *phys : (u64)(uintptr_t)virt;
}

static void record_miss(struct soak_twin_worker *w, u32 pass, const u8 *at, u64 expected,
			u64 actual, const struct soak_desc *word, int side,
			const struct soak_writer *wr)
{
	u64 t = w->now_ns(), phys, again = 0;
	u64 addr = ledger_addr(w, at, &phys);
	bool have = reread(at, word, &again);
	struct soak_twin_detail *d;

	soak_ledger_miscompare(&w->ledger, t, (u16)w->index, addr, expected, actual, wr, have,
			       again);
	d = new_detail(w);
	if (!d)
		return;
	*d = (struct soak_twin_detail){
		.t_ns = t, .virt = (u64)(uintptr_t)at, .phys = phys, .expected = expected,
		.actual = actual, .reread = again, .pass = pass, .kind = SOAK_EV_MISCOMPARE,
		.side = (u8)side, .writer = *wr,
		.reread_class = have ? soak_reread_class(expected, actual, again) :
			        SOAK_REREAD_NONE,
	};
}

static void record_poison(struct soak_twin_worker *w, u32 pass, const u8 *at, int side,
			  const struct soak_writer *wr)
{
	u64 t = w->now_ns(), phys;
	u64 addr = ledger_addr(w, at, &phys);
	struct soak_twin_detail *d;

	soak_ledger_poison(&w->ledger, t, (u16)w->index, addr, 6);
	d = new_detail(w);
	if (d)
		*d = (struct soak_twin_detail){ .t_ns = t, .virt = (u64)(uintptr_t)at,
						.phys = phys, .pass = pass,
						.kind = SOAK_EV_UC_RECOVERED, .side = (u8)side,
						.writer = *wr };
}

/*
 * Verify @len bytes at @buf against @d, going on past each miscompare (at most
 * SOAK_TWIN_MISS_MAX); returns the bytes checked.
 */
static u64 check(struct soak_twin_worker *w, u32 pass, const u8 *buf, size_t len,
		 const struct soak_desc *d, int side, const struct soak_writer *wr)
{
	size_t off = 0;
	unsigned int misses = 0;

	while (off < len) {
		struct soak_desc from = desc_at(d, off);
		struct soak_miss m;
		u64 st = soak_verify_mc(buf + off, len - off, &from, &m);
		struct soak_desc word;

		if (st == SOAK_OK)
			return len;
		if (st != SOAK_MISCOMPARE) {
			if (st == SOAK_POISONED)
				record_poison(w, pass, buf + off + m.offset, side, wr);
			return off + (st == SOAK_POISONED ? m.offset : 0);
		}
		off += m.offset;
		word = desc_at(d, off);
		record_miss(w, pass, buf + off, m.expected, m.actual, &word, side, wr);
		off += 8;
		if (++misses == SOAK_TWIN_MISS_MAX)
			return off;
	}
	return len;
}

u64 soak_twin_pair_run(struct soak_twin_worker *w, u32 pass, u64 pair,
		       const struct soak_twin_pair *p)
{
	enum soak_pat pat = soak_pass_row(pass, NULL)->pat;
	enum soak_how how = soak_pass_how(pass);
	int op = soak_copy_op(pass, pair, w->ops);
	struct soak_writer src_wr = { how, pat, -1 }, dst_wr = { SOAK_HOW_COPY, pat, op };
	struct soak_desc d;
	u64 verified = 0, copied = 0;

	soak_pattern_desc(w->seed, pass, (uintptr_t)p->src >> PAGE_SHIFT, &d);
	if (how == SOAK_HOW_CLEAR)
		clear_pages(p->src, p->bytes >> PAGE_SHIFT);
	else if (soak_fill(p->src, p->bytes, &d))
		w->copy_faults++;	/* a store faulted: the check below says where */
	if (op >= 0 && !copy_pair(w, op, p)) {
		w->op_pairs[op]++;
		copied = p->bytes;
		verified += check(w, pass, p->dst, p->bytes, &d, 0, &dst_wr);
	} else {
		w->copy_faults++;
	}
	verified += check(w, pass, p->src, p->bytes, &d, 1, &src_wr);
	soak_twin_count_pair(&w->count, p->bytes, copied, verified);
	return verified;
}
