/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin_work.h - one chunk pair of the hosted soak twin (host/soak/ck-soak.c), done by the soak's
 * own core: the pattern of (run seed, pass, chunk) from soak/pattern.c, the source
 * written by soak_fill (or the clear primitive on pass 0), copied by the primitive the
 * schedule rotates to (copy/pages.c's page and folio APIs over Linux's dispatch, or the
 * non-temporal copy), then the destination and the source verified against the regenerated
 * pattern with copy/verify.asm's machine-check-safe routines. No threads, no clock reads
 * but the caller's, no output: what went wrong is recorded for the caller to print. Plain C
 * over the project's routines, host-tested in tests/host/test_soak_work.c.
 *
 * The destination is verified against the pattern rather than compared with the source: the
 * expected words come from the generator, not from memory under test (a source word that
 * went bad before the copy is caught in both copies), and a verify reads one buffer where a
 * compare reads two (ck-soak-speed: soak_verify_mc runs at 1.6x memcmp, soak_compare_mc at
 * 1.0x).
 *
 * A miscompare: the word is re-read after its line is flushed (a read error reads right the
 * second time, a stored error stays wrong), recorded in this worker's ledger with what wrote
 * it, and the verify goes on after it, up to SOAK_TWIN_MISS_MAX per buffer (the rest of
 * that buffer is then not checked, and not counted as checked). A load that faulted
 * (SOAK_POISONED: only when a signal handler resumed at the routine's fixup) is recorded as
 * poison at that line and ends that buffer's check. The process cannot read machine-check
 * banks: corrected errors are invisible to the twin.
 */
#ifndef CK_HOST_SOAK_TWIN_WORK_H
#define CK_HOST_SOAK_TWIN_WORK_H

#include "host/soak/twin_peer.h"
#include "kernel/mm/page.h"
#include "soak/ledger.h"
#include "soak/pattern.h"

#define SOAK_TWIN_MISS_MAX	16	/* miscompares recorded per buffer check */
#define SOAK_TWIN_EVENTS	64	/* ledger entries kept per worker (the rest counted) */
#define SOAK_TWIN_DETAILS	16	/* miscompares kept with their virtual address */

struct soak_twin_pair {
	u8 *src, *dst;
	size_t bytes;			/* whole pages */
	struct folio fsrc, fdst;	/* their frames, for the page and folio APIs */
};

/* A miscompare or poisoned line as the process saw it (the ledger holds the rest). */
struct soak_twin_detail {
	u64 t_ns, virt, phys;		/* phys 0: not known (no PFN in /proc/self/pagemap) */
	u64 expected, actual, reread;
	u32 pass;
	u8 kind;			/* SOAK_EV_MISCOMPARE or SOAK_EV_UC_RECOVERED */
	u8 side;			/* 0 the destination, 1 the source */
	struct soak_writer writer;
	enum soak_reread reread_class;
};

/* One worker's state: written only by the thread that owns it. */
struct soak_twin_worker {
	unsigned int index;		/* the worker's number (the ledger's CPU) */
	u64 seed;			/* the run's seed */
	u32 ops;			/* copy primitives to rotate through, 1 << SOAK_COPY_* */
	size_t (*nt_copy)(void *dst, const void *src, size_t len);	/* for SOAK_COPY_NT */
	u64 (*phys_of)(const void *virt);	/* physical address, 0 when unknown; may be NULL */
	u64 (*now_ns)(void);		/* since the soak started */
	struct soak_ledger ledger;
	struct soak_event ev[SOAK_TWIN_EVENTS];
	struct soak_twin_detail detail[SOAK_TWIN_DETAILS];
	unsigned int nr_detail;
	u64 details_dropped;
	struct soak_twin_count count;
	u64 op_pairs[NR_SOAK_COPY_OPS];	/* pairs copied by each primitive */
	u64 copy_faults;		/* copies that stopped on a fault */
};

/* Set up @w (its ledger empty, no attribution map: addresses are the process's). */
void soak_twin_worker_init(struct soak_twin_worker *w, unsigned int index, u64 seed, u32 ops,
			   size_t (*nt_copy)(void *, const void *, size_t),
			   u64 (*phys_of)(const void *), u64 (*now_ns)(void));
/*
 * Do @p in @pass as the worker's @pair-th pair of that pass. Returns the bytes checked
 * (2 x bytes when nothing went wrong); the counts, ledger and details are updated.
 */
u64 soak_twin_pair_run(struct soak_twin_worker *w, u32 pass, u64 pair,
		       const struct soak_twin_pair *p);

#endif
