/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/cores/rate.h - each cores kernel's rate on this machine (host/cores/rate.c): kernel
 * rounds per second (a round is what the image runs per seed: the seeded fill, the routine
 * and the digest over the kernel's 8 KiB buffers) on one CPU alone and on every CPU at once,
 * over repeated pairs of runs (alone, then all), every round checked against the known answer.
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
};

/*
 * Measure @k on the @n CPUs @cpus: @runs pairs (3 .. STATS_MAX) of runs of about @ms
 * milliseconds each, the rounds cycling the seeds @seed .. @seed + @seeds - 1. False when it
 * could not be measured (@out->why_not says why).
 */
bool cores_twin_rate(const struct cores_kernel *k, u64 seed, unsigned int seeds,
		     const int *cpus, unsigned int n, unsigned int runs, unsigned int ms,
		     struct cores_twin_rate *out);

/* The rate's JSON record (kind "cores-twin") for @machine, with the load of the moment. */
void cores_twin_rate_json(const struct cores_twin_rate *r, const char *machine,
			  const char *load, char *buf, size_t size);

#endif
