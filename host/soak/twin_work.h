/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin_work.h - one worker of the hosted soak twin (host/soak/ck-soak.c): the
 * elements of the image's passes over its share of the memory, run by the soak's own core
 * (soak/march.c over soak/pattern.c's schedule and soak/plan.c's plan) through this worker's
 * seam: copy/march.asm's kernel for every read and write, the copy primitive the schedule
 * rotates to (copy/pages.c's page and folio APIs over Linux's dispatch, or the non-temporal
 * copy) and Linux's clear. No threads, no clock reads but the caller's, no output: what went
 * wrong is recorded for the caller to print. Plain C over the project's routines,
 * host-tested in tests/host/test_soak_work.c.
 *
 * The twin works on virtual addresses: its plan is made over the mapping as if it were
 * physical memory (one range, node 0), so every pattern keyed by an address is keyed by the
 * virtual one, and a miscompare names its virtual address, with the physical one where
 * /proc/self/pagemap gives it (root).
 *
 * A miscompare: the kernel re-read the word after flushing its line (a read error reads
 * right the second time, a stored error stays wrong); it is recorded in this worker's
 * ledger with what wrote it, and the element goes on after it (the twin takes no page out).
 * A load that faulted (SOAK_POISONED: only when a signal handler resumed at the kernel's
 * fixup) is recorded as poison at that line. The process cannot read machine-check banks:
 * corrected errors are invisible to the twin.
 */
#ifndef CK_HOST_SOAK_TWIN_WORK_H
#define CK_HOST_SOAK_TWIN_WORK_H

#include "host/soak/twin_peer.h"
#include "kernel/mm/page.h"
#include "soak/ledger.h"
#include "soak/march.h"

#define SOAK_TWIN_EVENTS	64	/* ledger entries kept per worker (the rest counted) */
#define SOAK_TWIN_DETAILS	16	/* miscompares kept with their virtual address */
#define SOAK_TWIN_ROWS		8	/* >= soak_schedule_rows */

/* A miscompare or poisoned line as the process saw it (the ledger holds the rest). */
struct soak_twin_detail {
	u64 t_ns, virt, phys;		/* phys 0: not known (no PFN in /proc/self/pagemap) */
	u64 expected, actual, reread;
	u32 pass;
	u16 el;
	u8 kind;			/* SOAK_EV_MISCOMPARE or SOAK_EV_UC_RECOVERED */
	struct soak_writer writer;
	enum soak_reread reread_class;
};

/* One row of the schedule as this worker ran it: its time and bytes. */
struct soak_twin_row {
	u64 ns, read, written, copied;
	u32 passes;			/* whole passes of this row */
};

/* One worker's state: written only by the thread that owns it. */
struct soak_twin_worker {
	unsigned int index;		/* the worker's number: its CPU in the plan, the ledger's */
	u32 ops;			/* copy primitives to rotate through, 1 << SOAK_COPY_* */
	size_t (*nt_copy)(void *dst, const void *src, size_t len);	/* for SOAK_COPY_NT */
	u64 (*phys_of)(const void *virt);	/* physical address, 0 when unknown; may be NULL */
	u64 (*now_ns)(void);		/* since the soak started */
	struct soak_mem_ops seam;
	struct soak_ledger ledger;
	struct soak_event ev[SOAK_TWIN_EVENTS];
	struct soak_twin_detail detail[SOAK_TWIN_DETAILS];
	unsigned int nr_detail;
	u64 details_dropped;
	struct soak_twin_count count;
	struct soak_twin_row row[SOAK_TWIN_ROWS];
	u64 op_copies[NR_SOAK_COPY_OPS];	/* copies done by each primitive */
	u64 copy_faults;		/* copies that stopped on a fault */
};

/* Set up @w (its ledger empty, no attribution map: addresses are the process's). */
void soak_twin_worker_init(struct soak_twin_worker *w, unsigned int index, u32 ops,
			   size_t (*nt_copy)(void *, const void *, size_t),
			   u64 (*phys_of)(const void *), u64 (*now_ns)(void));
/*
 * Element @el of @pass over the worker's memory in @prog's plan (the worker's index is its
 * CPU there); an IDLE element waits @idle_ns. Stops between two pieces once now_ns() reaches
 * @deadline_ns (0: never) and returns false; true when the element is done.
 */
bool soak_twin_el_run(struct soak_twin_worker *w, const struct soak_prog *prog, u32 pass,
		      unsigned int el, u64 idle_ns, u64 deadline_ns);

#endif
