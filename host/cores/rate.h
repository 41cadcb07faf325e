/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/cores/rate.h - each cores kernel's rate on this machine (host/cores/rate.c): kernel
 * rounds per second (a round is what the image runs per seed: the seeded fill, the routine
 * and the digest over the kernel's 8 KiB buffers) on one CPU alone and on every CPU at once,
 * over repeated pairs of runs (alone, then all), every round checked against the known answer.
 * Several kernels are measured pair by pair in turn (prepare each, then pair i of each, then
 * finish each), so that a change of the machine's load over the run falls on every kernel
 * and into each one's interval rather than on one kernel's figures.
 */
#ifndef CK_HOST_CORES_RATE_H
#define CK_HOST_CORES_RATE_H

#include "bench/stats.h"
#include "host/cores/twin.h"

struct cores_twin_rate {
	const struct cores_kernel *k;
	bool measured;
	const char *why_not;		/* not measured: why (a CPU that cannot run it) */
	unsigned int cpus;		/* CPUs of the all-at-once runs */
	unsigned int runs;		/* pairs of runs */
	unsigned int rounds;		/* rounds per CPU in each run */
	/* Rounds per second: the median over the runs and its bootstrap 95% interval. */
	u64 alone, alone_lo, alone_hi;	/* one CPU alone (the runs take the CPUs in turn) */
	u64 each, each_lo, each_hi;	/* each CPU with every CPU at once (the pass's wall time) */
	/*
	 * Each CPU's speed with every CPU at once relative to alone, from the same pairs: the
	 * median of the per-pair ratios with its bootstrap 95% interval (stats_round_ratio).
	 */
	struct ratio shared;
	unsigned int wrong;		/* rounds without the known answer, every run */
	/* The measurement's state. */
	struct cores_twin_job job;
	u64 *known;
	const int *cpu;
	unsigned int n;
	u64 alone_ns[STATS_MAX], all_ns[STATS_MAX];
};

/*
 * Set @out up to measure @k on the @n CPUs @cpus: @runs pairs (3 .. STATS_MAX) of runs of
 * about @ms milliseconds each (a first run alone sets the rounds), the rounds cycling the
 * seeds @seed .. @seed + @seeds - 1. False when it cannot be measured (@out->why_not says
 * why; nothing to finish).
 */
bool cores_twin_rate_prepare(const struct cores_kernel *k, u64 seed, unsigned int seeds,
			     const int *cpus, unsigned int n, unsigned int runs, unsigned int ms,
			     struct cores_twin_rate *out);
/* Pair @i (< runs): alone on CPU i mod n, then on every CPU at once. False: not measured. */
bool cores_twin_rate_pair(struct cores_twin_rate *r, unsigned int i);
/* The medians and intervals of the pairs (@ok: every pair ran); the state freed. */
void cores_twin_rate_finish(struct cores_twin_rate *r, bool ok);

/* The three steps for one kernel alone: false when it could not be measured. */
bool cores_twin_rate(const struct cores_kernel *k, u64 seed, unsigned int seeds,
		     const int *cpus, unsigned int n, unsigned int runs, unsigned int ms,
		     struct cores_twin_rate *out);

/* The rate's JSON record (kind "cores-twin") for @machine, with the load of the moment. */
void cores_twin_rate_json(const struct cores_twin_rate *r, const char *machine,
			  const char *load, char *buf, size_t size);

#endif
