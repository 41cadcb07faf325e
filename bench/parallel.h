/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parallel.h - the `parallel` preset: the page copy and clear primitives on 1, 2, 4 ... N
 * CPUs at once, per NUMA node and machine-wide, with per-CPU bandwidth, aggregate bandwidth
 * and the scaling curve. Plain C shared by the image and the hosted build (make bench); how
 * CPUs are found, started, placed and timed is the caller's, through struct par_ops.
 *
 * A step runs one primitive on a set of n CPUs, each over its own buffers (allocated on its
 * node), for @rounds rounds after one untimed warm-up round. In a round every CPU is
 * released at once (ops->run), reads the clock, runs the primitive once over its buffer,
 * reads the clock again. Per CPU: bytes / own interval. Aggregate: n x bytes over the union
 * of the intervals (first start to last stop), so release skew and stragglers lower it
 * rather than hide. The step reports the medians over the rounds, the aggregate's spread
 * (minimum and maximum round) and the median skews at the start (last start - first start)
 * and at the end (last stop - first stop: stragglers). Scaling at n
 * CPUs = aggregate(n) / (n x aggregate(1)) of the same group (node or machine).
 */
#ifndef CK_BENCH_PARALLEL_H
#define CK_BENCH_PARALLEL_H

#include "bench/parallel_types.h"

#define PAR_MAX_ROUNDS	64
#define PAR_DEFAULT_ROUNDS 11
#define PAR_DEFAULT_BYTES (64ULL << 20)	/* per CPU and buffer: several times an LLC */
#define PAR_TINY_BYTES	(256ULL << 10)	/* test mode */

/*
 * Allocate every usable CPU's buffers (@cfg->bytes each, source and destination, on the
 * CPU's node) and fill the sources on their own CPUs. Returns the number of CPUs ready
 * (those whose memory or first run failed are named on @cfg->out and left out).
 */
unsigned int par_setup(const struct par_config *cfg);

/* Measure @p on @cpus[0..n) (indices of ops' CPUs, set up by par_setup). */
void par_measure(const struct par_config *cfg, enum par_prim p, const unsigned int *cpus,
		 unsigned int n, struct par_step *st);

/*
 * The whole preset: par_setup, then for every primitive the machine-wide curve (1, 2, 4 ...
 * N CPUs, spread round-robin over the nodes) and, with more than one node, each node's
 * curve (its CPUs in order); a table and JSON lines per step. A CPU that fails is named and
 * left out of later steps. Returns the number of steps measured without error.
 */
unsigned int bench_parallel(const struct par_config *cfg);

/* The CPU counts of a curve over @nr CPUs: 1, 2, 4 ... and nr itself; returns how many. */
unsigned int par_counts(unsigned int nr, unsigned int *counts, unsigned int max);

#endif
