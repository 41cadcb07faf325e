/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/cores/verdict.h - one kernel's verdict in the hosted twin, as the image gives it: the
 * digests of the CPUs that ran it put to cores/vote.c's vote against the known answer folded
 * over the rounds (the kernel's known(), another method), the image's lines (the class, each
 * CPU named with its digest) and its JSON record (cores/record.c, kind "cores").
 */
#ifndef CK_HOST_CORES_VERDICT_H
#define CK_HOST_CORES_VERDICT_H

#include <stdio.h>

#include "cores/record.h"
#include "host/cores/twin.h"

struct cores_twin_verdict {
	const struct cores_kernel *k;
	u64 seed;
	unsigned int rounds;
	u64 known;			/* folded over the rounds, as the image folds it */
	struct cores_vote v;
	unsigned int skipped;		/* CPUs that could not run it */
	const char *why_not;		/* the first one's reason */
	unsigned int failed;		/* CPUs that could not be pinned */
	u64 slowest_us;
	/* The voters, in CPU order: @v's indices are into these. */
	u64 digest[CORES_TWIN_MAX_CPUS];
	int cpu[CORES_TWIN_MAX_CPUS];
	unsigned int apic[CORES_TWIN_MAX_CPUS];
};

/* The known answer of @k for @rounds seeds from @seed, folded as the image folds it. */
u64 cores_twin_known(const struct cores_kernel *k, u64 seed, unsigned int rounds);

/* The vote on the @n slots of one verdict run of @k (@seed, @rounds). */
void cores_twin_judge(const struct cores_kernel *k, u64 seed, unsigned int rounds,
		      const struct cores_twin_slot *s, unsigned int n,
		      struct cores_twin_verdict *out);

/* Whether the verdict passes, as the image's case: agree, or no CPU could run it. */
bool cores_twin_passes(const struct cores_twin_verdict *v);

/*
 * The image's lines for the verdict on @f, each after @prefix ("# "): the kernel's summary,
 * then the class's words (every CPU in the minority named with its digest).
 */
void cores_twin_say(FILE *f, const char *prefix, const struct cores_twin_verdict *v);

/*
 * Isolate before blaming, as the image does without its topology: the first CPU @v named
 * runs @j (its verdict run) CORES_TWIN_REPLAY_RUNS more times alone, and so does the
 * highest-numbered CPU that gave the known answer; @rp gets the counts (runs 0: no CPU gave
 * the known answer, nothing replayed) and the image's line goes to @f after @prefix. False
 * when a thread could not be started.
 */
#define CORES_TWIN_REPLAY_RUNS	10
bool cores_twin_replay(const struct cores_twin_job *j, const struct cores_twin_verdict *v,
		       struct cores_replay *rp, FILE *f, const char *prefix);

/* The verdict's JSON record (kind "cores", as the image's), @replay or NULL. */
void cores_twin_record(const struct cores_twin_verdict *v, const struct cores_replay *replay,
		       char *buf, size_t size);

#endif
