// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_work.c - a soaking CPU's passes (run_int.h): each piece of its memory (step.h) is
 * written (filled, or cleared through the clear primitives on the zero pass), copied with
 * the primitive the schedule rotates to (copy/pages.h, the page and folio APIs Linux would
 * use), the destination compared with the source and the source verified against its
 * regenerated pattern (copy/verify.h, machine-check safe).
 *
 * Between pieces the CPU polls its machine-check banks when soak_poll= says (run_poll.c).
 *
 * A miscompare: the line is flushed and the word read again, which tells a read error from a
 * stored one; the ledger gets the address, expected and actual words and what wrote them,
 * and the page is retired (PG_RETIRED: never touched again). Poison met by a verify or a
 * compare: the page is queued for memory_failure, logged and retired; a copy that met poison
 * has its #MC records (this CPU's, since the copy began) logged with their banks and the
 * pages they name retired, then its source verified to find any other, and its destination
 * is not compared.
 */
#include "copy/pages.h"
#include "copy/routines.h"
#include "copy/verify.h"
#include "kernel/include/errno.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "mce/mce.h"
#include "soak/pattern.h"
#include "soak/run_int.h"

static bool page_out(u64 pa)
{
	struct page *p = pfn_to_page(pa >> PAGE_SHIFT);

	return p && (__atomic_load_n(&p->flags, __ATOMIC_ACQUIRE) & (PG_HWPOISON | PG_RETIRED));
}

static bool retired(u64 pa)
{
	struct page *p = pfn_to_page(pa >> PAGE_SHIFT);

	return p && (__atomic_load_n(&p->flags, __ATOMIC_ACQUIRE) & PG_RETIRED);
}

static bool soak_page_out(u64 pa, void *ctx)
{
	(void)ctx;
	return page_out(pa);
}

static void retire(struct soak_cpu *sc, u64 pa, enum soak_ev_kind cause)
{
	struct page *p = pfn_to_page(pa >> PAGE_SHIFT);

	if (p && (page_flags_set(p, PG_RETIRED) & PG_RETIRED))
		return;		/* already out */
	soak_ledger_retire(&sc->ledger, soak_elapsed_ns(), (u16)soak.cpu_of[sc->idx],
			   pa & ~(u64)(PAGE_SIZE - 1), cause);
}

/*
 * A copy stopped by a machine check: every #MC this CPU recovered from since record @seq
 * (mce.h's ring; a record already overwritten is lost to it) goes into the ledger with its
 * bank, and the page its bank names is queued (the handler did too) and retired. Poison the
 * verify then meets on such a page is the same error, not counted again (failed_at).
 */
static void copy_mce_records(struct soak_cpu *sc, u64 seq)
{
	const struct mce_caps *caps = mce_caps();
	u16 cpu = (u16)soak.cpu_of[sc->idx];

	for (u64 n = mce_count(); seq < n; seq++) {
		const struct mce_record *r = mce_get(seq);
		const struct mce_bank_log *b;
		struct soak_mca m;

		if (!r || r->cpu != cpu || !r->recovered || r->worst < 0)
			continue;
		b = &r->banks[r->worst];
		m = (struct soak_mca){ .bank = b->bank, .status = b->status, .addr = b->addr,
				       .misc = b->misc, .amd = caps->amd || caps->hygon,
				       .smca = caps->smca, .hygon = caps->hygon,
				       .ser_p = caps->ser_p };
		soak_ledger_mca(&sc->ledger, soak_elapsed_ns(), cpu, SOAK_EV_UC_RECOVERED, &m);
		if (!b->pfn_valid)
			continue;
		memory_failure_queue(b->pfn);
		retire(sc, b->pfn << PAGE_SHIFT, SOAK_EV_UC_RECOVERED);
	}
}

/* The word at @pa again, from memory: its line flushed first. */
static u64 reread(u64 pa)
{
	volatile u64 *w = (volatile u64 *)(uintptr_t)pa;

	__asm__ volatile("mfence; clflush (%0); mfence" : : "r"(w) : "memory");
	return *w;
}

/* One failure of a verify or compare at @pa; the page is retired. */
static void failed_at(struct soak_cpu *sc, u64 status, u64 pa, const struct soak_miss *m,
		      const struct soak_writer *w)
{
	u16 cpu = (u16)soak.cpu_of[sc->idx];

	if (status == SOAK_POISONED) {
		if (retired(pa))
			return;		/* the copy's #MC record counted it already */
		memory_failure_queue(pa >> PAGE_SHIFT);
		soak_ledger_poison(&sc->ledger, soak_elapsed_ns(), cpu, pa & ~63ULL, 6);
		retire(sc, pa, SOAK_EV_UC_RECOVERED);
		return;
	}
	soak_ledger_miscompare(&sc->ledger, soak_elapsed_ns(), cpu, pa, m->expected, m->actual,
			       w, true, reread(pa));
	retire(sc, pa, SOAK_EV_MISCOMPARE);
}

/* Verify [pa, pa + len) against @d (index @d->first at pa), past every failure to the end. */
static void verify_run(struct soak_cpu *sc, u64 pa, u64 len, struct soak_desc d,
		       const struct soak_writer *w)
{
	while (len) {
		struct soak_miss m;
		u64 st = soak_verify_mc((void *)(uintptr_t)pa, len, &d, &m), skip;

		if (st == SOAK_OK)
			break;
		failed_at(sc, st, pa + m.offset, &m, w);
		skip = ((m.offset >> PAGE_SHIFT) + 1) << PAGE_SHIFT;	/* past the page */
		if (skip >= len)
			break;
		pa += skip;
		len -= skip;
		d.first += skip / 8;
	}
	sc->bytes_verified += len;
}

/* Compare the copy at @dst with @src, past every failure to the end. */
static void compare_run(struct soak_cpu *sc, u64 dst, u64 src, u64 len,
			const struct soak_writer *w)
{
	u64 done = 0;

	while (done < len) {
		struct soak_miss m;
		u64 st = soak_compare_mc((void *)(uintptr_t)(dst + done),
					 (void *)(uintptr_t)(src + done), len - done, &m);

		if (st == SOAK_OK)
			break;
		failed_at(sc, st, (m.side ? src : dst) + done + m.offset, &m, w);
		done += ((m.offset >> PAGE_SHIFT) + 1) << PAGE_SHIFT;
	}
}

/* Write @nr pages at @pa with pass @pass's data for half @key (index @first at pa). */
static void write_run(u32 pass, u64 pa, u64 nr, const struct soak_desc *d)
{
	struct page *p = pfn_to_page(pa >> PAGE_SHIFT);

	if (soak_pass_how(pass) == SOAK_HOW_CLEAR && p && pfn_to_page((pa >> PAGE_SHIFT) + nr - 1))
		clear_highpages_batched(p, nr);
	else
		soak_fill((void *)(uintptr_t)pa, nr << PAGE_SHIFT, d);
}

/* Copy @nr pages with primitive @op; nonzero when it met poison. */
static int copy_run(int op, u64 dst, u64 src, u64 nr)
{
	struct page *to = pfn_to_page(dst >> PAGE_SHIFT), *from = pfn_to_page(src >> PAGE_SHIFT);
	struct folio fd = { to, nr }, fs = { from, nr };
	int ret = 0;

	switch (op) {
	case SOAK_COPY_MC_PER_PAGE:
		for (u64 i = 0; i < nr && !ret; i++)
			ret = copy_mc_highpage(to + i, from + i);
		return ret;
	case SOAK_FOLIO_COPY_BATCHED:
		return folio_mc_copy_batched(&fd, &fs);
	case SOAK_FOLIO_COPY_PER_PAGE:
		return folio_mc_copy_per_page(&fd, &fs);
	case SOAK_COPY_NT:
		/* Bytes left: poison stopped it; the source's verify finds and retires the page. */
		return copy_mc_avx2_nt((void *)(uintptr_t)dst, (const void *)(uintptr_t)src,
				       nr << PAGE_SHIFT) ? -EHWPOISON : 0;
	default:
		return copy_mc_highpages(to, from, nr);
	}
}

/* Pages [seg->page, + nr) of @pc written alone on one side: that side's own key. */
static void work_alone(struct soak_cpu *sc, u32 pass, const struct soak_piece *pc,
		       const struct soak_seg *seg)
{
	bool dst_side = seg->kind == SOAK_SEG_DST;
	u64 pa = (dst_side ? pc->dst : pc->src) + (seg->page << PAGE_SHIFT);
	u64 key = dst_side ? soak_piece_dst_key(pc) : pc->key;
	struct soak_writer w = { soak_pass_how(pass), soak_pass_row(pass, NULL)->pat, -1 };
	struct soak_desc d;

	soak_pattern_desc(soak.seed, pass, key, &d);
	d.first = pc->first + seg->page * (PAGE_SIZE / 8);
	write_run(pass, pa, seg->nr, &d);
	verify_run(sc, pa, seg->nr << PAGE_SHIFT, d, &w);
}

static void work_pair(struct soak_cpu *sc, u32 pass, const struct soak_piece *pc,
		      const struct soak_seg *seg)
{
	u64 off = seg->page << PAGE_SHIFT, len = seg->nr << PAGE_SHIFT;
	u64 src = pc->src + off, dst = pc->dst + off;
	struct soak_writer w = { soak_pass_how(pass), soak_pass_row(pass, NULL)->pat, -1 };
	struct soak_writer wc = w;
	struct soak_desc d;
	int op = soak_copy_op(pass, pc->pair, soak.copy_mask), ret;
	u64 seq;

	soak_pattern_desc(soak.seed, pass, pc->key, &d);
	d.first = pc->first + off / 8;
	write_run(pass, src, seg->nr, &d);
	soak_fault_piece_written(sc->idx, src, len);
	wc.how = SOAK_HOW_COPY;
	wc.copy_op = op;
	seq = mce_count();
	ret = copy_run(op, dst, src, seg->nr);
	while (soak_fault_copy_again(sc->idx, ret))
		ret = copy_run(op, dst, src, seg->nr);
	soak_fault_copied(sc->idx, ret);
	if (ret) {
		copy_mce_records(sc, seq);
		verify_run(sc, src, len, d, &w);	/* finds and retires the poisoned page */
		return;
	}
	compare_run(sc, dst, src, len, &wc);
	verify_run(sc, src, len, d, &w);
}

static void work_piece(struct soak_cpu *sc, u32 pass, const struct soak_piece *pc)
{
	struct soak_seg seg;

	for (u64 from = 0; soak_piece_seg(pc, from, soak_page_out, NULL, &seg);
	     from = seg.page + seg.nr) {
		if (seg.kind == SOAK_SEG_PAIR)
			work_pair(sc, pass, pc, &seg);
		else if (seg.kind != SOAK_SEG_NONE)
			work_alone(sc, pass, pc, &seg);
		if (seg.kind == SOAK_SEG_PAIR)
			sc->pass_pages += 2 * seg.nr;
		else if (seg.kind != SOAK_SEG_NONE)
			sc->pass_pages += seg.nr;
	}
}

static bool time_up(void)
{
	return soak.deadline_us && smp_now_us() >= soak.deadline_us;
}

static void pass_done(struct soak_cpu *sc)
{
	u64 took = soak_elapsed_ns() - sc->pass_t0_ns;

	if (!sc->passes) {
		sc->first_pages = sc->min_pages = sc->max_pages = sc->pass_pages;
		sc->first_ns = sc->min_ns = sc->max_ns = took;
	}
	if (sc->pass_pages < sc->min_pages)
		sc->min_pages = sc->pass_pages;
	if (sc->pass_pages > sc->max_pages)
		sc->max_pages = sc->pass_pages;
	sc->min_ns = MIN(sc->min_ns, took);
	sc->max_ns = MAX(sc->max_ns, took);
	sc->passes++;
}

void soak_work(unsigned int idx, void (*tick)(void))
{
	struct soak_cpu *sc = this_cpu_ptr(&soak_cpu);

	for (u32 pass = 0; !soak.passes || pass < soak.passes; pass++) {
		struct soak_cursor c;
		struct soak_piece pc;

		sc->pass_pages = 0;
		sc->pass_t0_ns = soak_elapsed_ns();
		soak_cursor_init(&c);
		while (soak_step_next(&soak.plan, idx, pass, &c, &pc)) {
			if (time_up())
				goto out;
			soak_fault_stuck_check(idx);
			work_piece(sc, pass, &pc);
			soak_poll_due(sc);
			sc->beat++;
			if (tick)
				tick();
		}
		pass_done(sc);
	}
out:
	soak_poll_now(sc);
	sc->done_ns = soak_elapsed_ns();
	__atomic_store_n(&sc->done, true, __ATOMIC_RELEASE);
}
