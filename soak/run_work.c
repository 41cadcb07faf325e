// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_work.c - a soaking CPU's passes (run_int.h): the elements of each pass (pattern.h),
 * every CPU between the same two barriers, each walked and done by soak/march.c through this
 * CPU's seam: copy/march.asm's kernel for reads and writes, Linux's copy primitives (the page
 * and folio APIs, copy/pages.h) and clear primitive, the page flags for what is out.
 *
 * Between pieces the CPU beats its heartbeat, polls its machine-check banks when soak_poll=
 * says (run_poll.c) and, on the boot CPU, does the monitor's duties; so does a CPU waiting
 * at a barrier. Before each element the CPU writes back and empties its caches (wbinvd), so
 * that the element reads memory, not what the one before left in a cache.
 *
 * A wrong word: its line is printed at once (# soak-event:, the ledger's text, which a
 * harness may read while the soak runs), the ledger gets the address, expected, actual and
 * re-read words and what wrote them, and the page is retired (PG_RETIRED: never touched
 * again). Poison met by a read: the page is queued for memory_failure, logged and retired. A
 * copy that met poison has its #MC records (this CPU's, since the copy began) logged with
 * their banks and the pages they name retired; soak/march.c then reads its source to find
 * any other, and writes its destination with what the copy would have put there.
 */
#include "copy/pages.h"
#include "copy/routines.h"
#include "kernel/console/printk.h"
#include "kernel/include/errno.h"
#include "kernel/include/x86.h"
#include "kernel/mm/page.h"
#include "mce/mce.h"
#include "soak/report.h"
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
 * read of the source then meets on such a page is the same error, not counted again.
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
				       .ser_p = caps->ser_p, .ipid = b->ipid, .synd = b->synd,
				       .cpu_node = mce_cpu_amd_node(cpu) };
		soak_ledger_mca(&sc->ledger, soak_elapsed_ns(), cpu, SOAK_EV_UC_RECOVERED, &m);
		if (!b->pfn_valid)
			continue;
		memory_failure_queue(b->pfn);
		retire(sc, b->pfn << PAGE_SHIFT, SOAK_EV_UC_RECOVERED);
	}
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
		/* Bytes left: poison stopped it; the source's read finds and retires the page. */
		return copy_mc_avx2_nt((void *)(uintptr_t)dst, (const void *)(uintptr_t)src,
				       nr << PAGE_SHIFT) ? -EHWPOISON : 0;
	default:
		return copy_mc_highpages(to, from, nr);
	}
}

/* ---- the seam (soak/march.h) --------------------------------------------------------- */

static u64 img_march(void *ctx, u64 pa, u64 len, const struct soak_mv *mv,
		     struct soak_word_miss *m)
{
	return soak_march_mc((void *)(uintptr_t)pa, len, mv, m);
}

static int img_copy(void *ctx, int op, u64 dst, u64 src, u64 pages)
{
	struct soak_cpu *sc = ctx;
	u64 seq = mce_count();
	int ret = copy_run(op, dst, src, pages);

	while (soak_fault_copy_again(sc->idx, ret))
		ret = copy_run(op, dst, src, pages);
	soak_fault_copied(sc->idx, ret);
	if (ret)
		copy_mce_records(sc, seq);
	return ret;
}

static void img_clear(void *ctx, u64 pa, u64 pages)
{
	clear_highpages_batched(pfn_to_page(pa >> PAGE_SHIFT), pages);
}

static bool img_out(void *ctx, u64 pa)
{
	return page_out(pa);
}

static void img_found(void *ctx, const struct soak_found *f)
{
	struct soak_cpu *sc = ctx;
	u16 cpu = (u16)soak.cpu_of[sc->idx];

	if (f->poison) {
		if (retired(f->pa))
			return;		/* the copy's #MC record counted it already */
		memory_failure_queue(f->pa >> PAGE_SHIFT);
		soak_ledger_poison(&sc->ledger, soak_elapsed_ns(), cpu, f->pa & ~63ULL, 6);
		retire(sc, f->pa, SOAK_EV_UC_RECOVERED);
		return;
	}
	soak_ledger_miscompare(&sc->ledger, soak_elapsed_ns(), cpu, f->pa, f->expected, f->actual,
			       &f->w, true, f->reread);
	/* its line now, while the soak runs (soak/report.h: the end prints the others) */
	soak_event_text(&sc->ledger.last, &soak.map, sc->line, sizeof(sc->line));
	printk("%s\n", sc->line);
	retire(sc, f->pa, SOAK_EV_MISCOMPARE);
}

static void img_written(void *ctx, u64 pa, u64 len, bool source)
{
	struct soak_cpu *sc = ctx;

	soak_fault_piece_written(sc->idx, pa, len, source);
}

/* ---- the passes ---------------------------------------------------------------------- */

static bool time_up(void)
{
	return soak.deadline_us && smp_now_us() >= soak.deadline_us;
}

/* Between pieces, and while waiting: the heartbeat, the polls, the boot CPU's duties. */
static void between(struct soak_cpu *sc, void (*tick)(void))
{
	soak_poll_due(sc);
	sc->beat++;
	if (tick)
		tick();
}

/*
 * The barrier before element @g (counted from the soak's first): every other CPU has
 * finished the elements before it, or stopped, or was found stuck. False when the time is up.
 */
static bool barrier(struct soak_cpu *sc, u64 g, void (*tick)(void))
{
	for (;;) {
		bool all = true;

		for (unsigned int i = 0; i < soak.nr_cpus && all; i++) {
			struct soak_cpu *o = soak_cpu_of(i);

			all = i == sc->idx || __atomic_load_n(&o->el_done, __ATOMIC_ACQUIRE) >= g ||
			      __atomic_load_n(&o->done, __ATOMIC_ACQUIRE) || soak_is_stuck(i);
		}
		if (all)
			return true;
		if (time_up())
			return false;
		between(sc, tick);
		cpu_relax();
	}
}

/* The retention pass's idle: soak_fade= seconds (or to the deadline); false when time is up. */
static bool idle(struct soak_cpu *sc, void (*tick)(void))
{
	u64 end = smp_now_us() + soak.fade_us;

	while (smp_now_us() < end) {
		if (time_up())
			return false;
		between(sc, tick);
		cpu_relax();
	}
	return true;
}

/*
 * Element @el of @pass on this CPU; false when the time was up. A whole element that is not
 * an idle adds its bytes and time to @rc (soak/speed.h).
 */
static bool run_el(struct soak_cpu *sc, const struct soak_mem_ops *ops, u32 pass,
		   unsigned int el, void (*tick)(void), struct soak_row_count *rc)
{
	struct soak_el_run r;
	struct soak_walk w;
	struct soak_piece pc;
	u64 read = 0, t0 = soak_elapsed_ns();

	soak_el_begin(&r, &soak.prog, ops, pass, el);
	wbinvd();
	if (r.e->kind == SOAK_EL_IDLE)
		return idle(sc, tick);
	soak_walk_init(&w, &soak.plan, sc->idx, r.e, pass);
	while (soak_walk_next(&w, &pc)) {
		if (time_up())
			return false;
		soak_fault_stuck_check(sc->idx);
		soak_el_piece(&r, &pc);
		__atomic_store_n(&sc->bytes_verified, sc->bytes_verified + r.bytes_read - read,
				 __ATOMIC_RELAXED);
		read = r.bytes_read;
		if (!el)
			sc->pass_pages = r.pages;
		between(sc, tick);
	}
	if (rc) {
		rc->ns += soak_elapsed_ns() - t0;
		rc->read += r.bytes_read;
		rc->written += r.bytes_written;
		rc->copied += r.bytes_copied;
	}
	return true;
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
	const struct soak_mem_ops ops = {
		.ctx = sc, .march = img_march, .copy = img_copy, .clear = img_clear,
		.out = img_out, .found = img_found, .written = img_written,
	};
	u64 g = 0;

	for (u32 pass = 0; !soak.passes || pass < soak.passes; pass++) {
		const struct soak_pass_row *row = soak_pass_row(pass, NULL);
		unsigned int k = (unsigned int)(row - soak_schedule);
		struct soak_row_count *rc = k < SOAK_SPEED_ROWS ? &sc->row[k] : NULL;

		sc->pass_pages = 0;
		sc->pass_t0_ns = soak_elapsed_ns();
		for (unsigned int el = 0; el < row->nr_el; el++, g++) {
			if (!barrier(sc, g, tick))
				goto out;
			/* the boot CPU: every CPU is past the pass before; its row's first? */
			if (tick && !el && pass && pass <= soak_schedule_rows)
				soak_speed_print(pass - 1, true);
			if (!run_el(sc, &ops, pass, el, tick, rc))
				goto out;
			if (rc && el + 1 == row->nr_el)
				rc->passes++;	/* before the release: the boot CPU reads it */
			__atomic_store_n(&sc->el_done, g + 1, __ATOMIC_RELEASE);
		}
		pass_done(sc);
	}
out:
	soak_poll_now(sc);
	sc->done_ns = soak_elapsed_ns();
	__atomic_store_n(&sc->done, true, __ATOMIC_RELEASE);
}
