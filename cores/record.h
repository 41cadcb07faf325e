/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h - one kernel's result in the cores suite as a JSON record (kind "cores",
 * docs/schema/copykernel-records-v1.json). Plain C, host-tested.
 */
#ifndef CK_CORES_RECORD_H
#define CK_CORES_RECORD_H

#include "cores/mca.h"
#include "cores/vote.h"

struct cores_named_cpu {
	unsigned int cpu, apic;
	u64 digest;
};

/* The first named CPU replayed (cores_replay_class()); runs == 0: not replayed. */
struct cores_replay {
	unsigned int cpu, other_cpu;
	unsigned int runs, wrong, other_wrong;
	u64 first_wrong_us;		/* from the replay's start to its first wrong run */
	const char *other_rel;		/* how the other CPU sits (cores_rel_name()), or NULL */
	bool have_sibling;		/* its SMT sibling replayed too */
	unsigned int sibling_cpu, sibling_wrong;
};

struct cores_result {
	const char *kernel, *family;
	u64 seed;
	unsigned int rounds;
	unsigned int skipped;			/* online CPUs that could not run it */
	const char *why_not;			/* the first of their reasons, or NULL */
	u64 known;				/* the known answer (when a CPU ran it) */
	const struct cores_vote *vote;		/* vote->n == 0: no CPU ran it */
	const struct cores_named_cpu *named;	/* MIN(vote->nr_named, CORES_MAX_NAMED) */
	u64 slowest_us;				/* the slowest CPU's run, all rounds */
	const struct cores_replay *replay;	/* NULL: none */
	const struct cores_mca_hit *mca;	/* MIN(mca_total, CORES_RECORD_MCA) findings */
	unsigned int mca_total;			/* machine checks its slices' readings found */
};

/* The machine checks a record lists in full (the first ones); mca_total counts them all. */
#define CORES_RECORD_MCA	4

void cores_record_json(const struct cores_result *r, char *buf, size_t size);

#endif
