// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_work.c - one worker of the hosted soak twin: its seam and its elements
 * (host/soak/twin_work.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>

#include "copy/ops.h"
#include "copy/pages.h"
#include "host/soak/twin_work.h"

static u64 tw_march(void *ctx, u64 pa, u64 len, const struct soak_mv *mv,
		    struct soak_word_miss *m)
{
	return soak_march_mc((void *)(uintptr_t)pa, len, mv, m);
}

/* Copy @pages pages with primitive @op: 0, or nonzero on a fault. */
static int tw_copy(void *ctx, int op, u64 dst, u64 src, u64 pages)
{
	struct soak_twin_worker *w = ctx;
	struct folio fd = { pfn_to_page(dst >> PAGE_SHIFT), pages };
	struct folio fs = { pfn_to_page(src >> PAGE_SHIFT), pages };
	int ret = 0;

	switch (op) {
	case SOAK_COPY_MC_BATCHED:
		ret = copy_mc_highpages(fd.page, fs.page, pages);
		break;
	case SOAK_COPY_MC_PER_PAGE:
		for (u64 i = 0; i < pages && !ret; i++)
			ret = copy_mc_highpage(fd.page + i, fs.page + i) ? -EHWPOISON : 0;
		break;
	case SOAK_FOLIO_COPY_BATCHED:
		ret = folio_mc_copy_batched(&fd, &fs);
		break;
	case SOAK_FOLIO_COPY_PER_PAGE:
		ret = folio_mc_copy_per_page(&fd, &fs);
		break;
	case SOAK_COPY_NT:
		ret = copy_mc_chunked(w->nt_copy, (void *)(uintptr_t)dst, (void *)(uintptr_t)src,
				      pages << PAGE_SHIFT, COPY_MC_CHUNK) ? -EHWPOISON : 0;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (op >= 0 && op < NR_SOAK_COPY_OPS)
		w->op_copies[op]++;
	w->copy_faults += ret != 0;
	return ret;
}

static void tw_clear(void *ctx, u64 pa, u64 pages)
{
	clear_pages((void *)(uintptr_t)pa, pages);
}

static bool tw_out(void *ctx, u64 pa)
{
	return false;		/* the twin takes nothing out: it reports and goes on */
}

static void tw_written(void *ctx, u64 pa, u64 len, bool source)
{
}

static struct soak_twin_detail *new_detail(struct soak_twin_worker *w)
{
	if (w->nr_detail < SOAK_TWIN_DETAILS)
		return &w->detail[w->nr_detail++];
	w->details_dropped++;
	return NULL;
}

static void tw_found(void *ctx, const struct soak_found *f)
{
	struct soak_twin_worker *w = ctx;
	u64 t = w->now_ns(), phys = w->phys_of ? w->phys_of((void *)(uintptr_t)f->pa) : 0;
	u64 addr = phys ? phys : f->pa;
	struct soak_twin_detail *d;

	if (f->poison)
		soak_ledger_poison(&w->ledger, t, (u16)w->index, addr, 6);
	else
		soak_ledger_miscompare(&w->ledger, t, (u16)w->index, addr, f->expected, f->actual,
				       &f->w, true, f->reread);
	d = new_detail(w);
	if (!d)
		return;
	*d = (struct soak_twin_detail){
		.t_ns = t, .virt = f->pa, .phys = phys, .pass = f->pass, .el = f->el,
		.kind = f->poison ? SOAK_EV_UC_RECOVERED : SOAK_EV_MISCOMPARE, .writer = f->w,
	};
	if (!f->poison) {
		d->expected = f->expected;
		d->actual = f->actual;
		d->reread = f->reread;
		d->reread_class = soak_reread_class(f->expected, f->actual, f->reread);
	}
}

void soak_twin_worker_init(struct soak_twin_worker *w, unsigned int index, u32 ops,
			   size_t (*nt_copy)(void *, const void *, size_t),
			   u64 (*phys_of)(const void *), u64 (*now_ns)(void))
{
	memset(w, 0, sizeof(*w));
	w->index = index;
	w->ops = ops & SOAK_COPY_ALL;
	if (!nt_copy)
		w->ops &= ~(1u << SOAK_COPY_NT);
	w->nt_copy = nt_copy;
	w->phys_of = phys_of;
	w->now_ns = now_ns;
	w->seam = (struct soak_mem_ops){ .ctx = w, .march = tw_march, .copy = tw_copy,
					 .clear = tw_clear, .out = tw_out, .found = tw_found,
					 .written = tw_written };
	soak_ledger_init(&w->ledger, w->ev, SOAK_TWIN_EVENTS, NULL);
}

/* Wait @ns, or until @deadline: false when the deadline came first. */
static bool idle(const struct soak_twin_worker *w, u64 ns, u64 deadline)
{
	u64 end = w->now_ns() + ns;

	while (w->now_ns() < end) {
		struct timespec ts = { 0, 1000000 };

		if (deadline && w->now_ns() >= deadline)
			return false;
		nanosleep(&ts, NULL);
	}
	return true;
}

bool soak_twin_el_run(struct soak_twin_worker *w, const struct soak_prog *prog, u32 pass,
		      unsigned int el, u64 idle_ns, u64 deadline_ns)
{
	const struct soak_pass_row *row = soak_pass_row(pass, NULL);
	struct soak_twin_row *rs = &w->row[(row - soak_schedule) % SOAK_TWIN_ROWS];
	struct soak_el_run r;
	struct soak_walk walk;
	struct soak_piece pc;
	u64 t0 = w->now_ns();
	bool whole = true;

	soak_el_begin(&r, prog, &w->seam, pass, el);
	if (r.e->kind == SOAK_EL_IDLE) {
		whole = idle(w, idle_ns, deadline_ns);
	} else {
		soak_walk_init(&walk, prog->plan, w->index, r.e, pass);
		while (soak_walk_next(&walk, &pc)) {
			if (deadline_ns && w->now_ns() >= deadline_ns) {
				whole = false;
				break;
			}
			soak_el_piece(&r, &pc);
		}
	}
	rs->ns += w->now_ns() - t0;
	rs->read += r.bytes_read;
	rs->written += r.bytes_written;
	rs->copied += r.bytes_copied;
	rs->passes += whole && el + 1 == row->nr_el;
	soak_twin_count_add(&w->count, r.bytes_read, r.bytes_written, r.bytes_copied);
	return whole;
}
