/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/cores/twin.h - the cores kernels (cores/list.c) on pinned Linux threads: one thread
 * per CPU, each pinned with sched_setaffinity to its CPU before it touches its buffers, all
 * released together by a barrier, as the image runs a kernel on every CPU at once
 * (host/cores/twin.c). What ck-cores (host/cores/ck-cores.c) and its host test share.
 */
#ifndef CK_HOST_CORES_TWIN_H
#define CK_HOST_CORES_TWIN_H

#include "cores/kernel.h"

/* The most CPUs the twin runs on (the first ones this process may use). */
#define CORES_TWIN_MAX_CPUS	1024

/*
 * One kernel's work on every CPU of a run. @repeat 0 is the verdict's run, as the image's:
 * the digest folds the rounds' digests for the seeds @seed .. @seed + @rounds - 1. @repeat
 * N > 0 is a timed run: those rounds N times over, each round's digest checked against
 * @known[round] (the wrong ones counted), the digest folding them all.
 */
struct cores_twin_job {
	const struct cores_kernel *k;
	u64 seed;
	unsigned int rounds;
	unsigned int repeat;
	const u64 *known;
};

/* What one CPU's thread did. */
struct cores_twin_slot {
	int cpu;			/* Linux's CPU number */
	unsigned int apic;		/* the initial APIC id its CPUID (leaf 1) gives */
	const char *why_not;		/* it cannot run the kernel: why (its own CPUID) */
	bool failed;			/* it could not be pinned: nothing ran */
	u64 digest;
	unsigned int wrong;		/* timed runs: rounds without the known answer */
	u64 t0, t1;			/* its run, CLOCK_MONOTONIC_RAW ns */
};

/* The CPUs this process may run on, ascending (at most @max); how many. */
unsigned int cores_twin_cpus(int *cpus, unsigned int max);

/*
 * Run @j on the @n CPUs @cpus at once, one pinned thread each with its own two buffers,
 * released together; @out[i] is @cpus[i]'s. False, with a message on stderr, when a thread
 * could not be started (a CPU that could not be pinned is out[i].failed).
 */
bool cores_twin_run(const struct cores_twin_job *j, const int *cpus, unsigned int n,
		    struct cores_twin_slot *out);

/* CLOCK_MONOTONIC_RAW in ns. */
u64 cores_twin_now_ns(void);

#endif
