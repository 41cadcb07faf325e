/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin_report.h - what a run of the hosted soak twin prints
 * (host/soak/twin_report.c): the header before the run, everything after it; and the run
 * as the report reads it (struct soak_twin_run), which host/soak/twin_run.c fills.
 */
#ifndef CK_HOST_SOAK_TWIN_REPORT_H
#define CK_HOST_SOAK_TWIN_REPORT_H

#include <stdio.h>

#include "host/lib/machine.h"
#include "host/soak/twin.h"
#include "host/soak/twin_work.h"

/* One worker: its CPU, its state (written by its thread only while it runs). */
struct soak_twin_thread {
	int cpu;
	bool pinned;
	u32 passes;			/* full passes done */
	u32 extra_els;			/* elements of the pass it stopped in */
	u64 run_ns;			/* how long it works: the run's stated time */
	u64 start_ns;			/* its own start (after the common barrier) */
	u64 el_done;			/* elements finished (its barrier count) */
	bool done;			/* stopped: the others stop waiting for it */
	struct soak_twin_worker w;
};

/* The run as a whole, for the report. */
struct soak_twin_run {
	const struct ck_soak_opts *o;
	const struct ck_host *host;
	u8 *mem;
	u64 bytes;			/* soaked: every worker's share */
	u64 chunk_bytes;
	u64 fade_ns;			/* the retention pass's idle (--fade) */
	struct soak_plan plan;		/* over the mapping's virtual addresses */
	struct soak_prog prog;
	const char *backing;		/* "hugetlb (MAP_HUGETLB, 2 MiB pages)", ... */
	u64 thp_bytes;			/* AnonHugePages of the mapping after the touch */
	bool thp_known, phys_known;
	unsigned int nr;
	struct soak_twin_thread *t;
	u64 t0;				/* when the workers were started */
	FILE *json;
};

/* The header, before the run. */
void twin_report_header(const struct soak_twin_run *r);
/* Returns the exit status the verdict gives (0 PASS, 1 FAIL). */
int twin_report(const struct soak_twin_run *r);

#endif
