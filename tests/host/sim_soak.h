/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_soak.h - the soak's passes over a simulated memory (tests/host/sim_mem.h): the same
 * plan (soak/plan.c), schedule (soak/pattern.c) and elements (soak/march.c) the image runs,
 * through a seam that reads and writes the simulated memory instead of RAM. The engine is
 * the image's in miniature: every simulated CPU walks its pieces of an element, the CPUs
 * taking turns piece by piece (or one after the other), and no CPU starts an element before
 * all have finished the one before; the retention pass idles in simulated time. Nothing is
 * taken out after a wrong word (so each pass's own findings can be told apart); every one is
 * kept, with the pass and element that found it.
 */
#ifndef CK_TESTS_SIM_SOAK_H
#define CK_TESTS_SIM_SOAK_H

#include "soak/march.h"
#include "tests/host/sim_mem.h"

#define SIM_FOUND_MAX	256

struct sim_soak {
	struct sim_mem mem;
	struct soak_plan plan;
	struct soak_prog prog;
	u64 fade_ns;			/* the retention pass's idle */
	bool interleave;		/* CPUs take turns piece by piece (else one after another) */
	/* what the soak found */
	unsigned int nr_found;
	u64 found_count;		/* all, kept or not */
	struct soak_found found[SIM_FOUND_MAX];
	u64 copies[NR_SOAK_COPY_OPS];
	u64 pages[SOAK_MAX_CPUS > 8 ? 8 : SOAK_MAX_CPUS];	/* pages touched, last pass */
};

/*
 * A simulated soak of @bytes at @base (whole pages), @cpus CPUs on one node, chunks of
 * @chunk bytes; the memory full (every page words) or lazy.
 */
void sim_soak_init(struct sim_soak *s, u64 base, u64 bytes, unsigned int cpus, u64 chunk,
		   bool full);
void sim_soak_free(struct sim_soak *s);
/* Run passes [@from, @to) (pass 0 must come first in a soak). */
void sim_soak_passes(struct sim_soak *s, u32 from, u32 to);

#endif
