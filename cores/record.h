/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h - the cores suite's JSON records (docs/schema/copykernel-records-v1.json): one
 * kernel's result (kind "cores"), where one CPU sits (kind "cores_cpu"), and the soak mode's
 * total (kind "cores_soak"). Plain C, host-tested.
 */
#ifndef CK_CORES_RECORD_H
#define CK_CORES_RECORD_H

#include "cores/mca.h"
#include "cores/topo.h"
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
	bool other_package;		/* the other CPU sits in another package */
	bool have_sibling;		/* its SMT sibling replayed too */
	unsigned int sibling_cpu, sibling_wrong;
	bool have_near;			/* a second distant CPU replayed too */
	unsigned int near_cpu, near_wrong;
	const char *near_rel;		/* how it sits (cores_rel_name()), or NULL */
};

/* The class cores_replay_class() gives @p. */
const char *cores_replay_class_of(const struct cores_replay *p);

struct cores_result {
	const char *kernel, *family;
	u64 seed;
	unsigned int rounds;
	unsigned int pass;			/* the soak pass it failed in; 0: no soak */
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

/* CPU @cpu: its APIC id, package, core complex, core and thread (within its core). */
void cores_cpu_json(unsigned int cpu, const struct cores_topo *t, char *buf, size_t size);

/* A CPU the soak named, and in how many passes. */
struct cores_soak_cpu {
	unsigned int cpu, apic, passes;
};

#define CORES_SOAK_NAMED	8	/* the CPUs a cores_soak record lists (the first) */

/* The soak mode's total over every pass, pass 1 (the kernel cases) included. */
struct cores_soak {
	u64 seed;				/* the base seed: pass 1's */
	unsigned int seconds;			/* cores=time: */
	u64 elapsed_ms;				/* from the first kernel to the last pass's end */
	unsigned int passes, failing;		/* passes run; those that found something */
	unsigned int soak_failing;		/* of them, passes 2.. (the soak case's) */
	unsigned int first_failing;		/* 0: none */
	u64 first_failing_seed;
	const struct cores_soak_cpu *named;	/* MIN(nr_named, CORES_SOAK_NAMED) */
	unsigned int nr_named;			/* CPUs named in any pass */
};

void cores_soak_json(const struct cores_soak *s, char *buf, size_t size);

#endif
