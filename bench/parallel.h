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

#include "kernel/include/types.h"

#define PAR_MAX_CPUS	512		/* CPUs one run can use (more are left out, named) */
#define PAR_MAX_NODES	64
#define PAR_MAX_ROUNDS	64
#define PAR_DEFAULT_ROUNDS 11
#define PAR_DEFAULT_BYTES (64ULL << 20)	/* per CPU and buffer: several times an LLC */
#define PAR_TINY_BYTES	(256ULL << 10)	/* test mode */

/* Errors ops->run may return (negated), and the harness reports, with Linux's values. */
#define PAR_EIO		5		/* a CPU did not run its part (run said 0) */
#define PAR_ENOMEM	12
#define PAR_EINVAL	22
#define PAR_ETIMEDOUT	110		/* a CPU did not answer in time */

/*
 * What the caller provides. CPUs are numbered 0 .. nr_cpus - 1 here (the caller's own
 * numbering, e.g. Linux CPU numbers or APIC ids, comes back through cpu_id for output).
 */
struct par_ops {
	unsigned int nr_cpus;		/* CPUs usable, at most PAR_MAX_CPUS are used */
	/* NUMA node of @cpu, 0 .. PAR_MAX_NODES - 1 (a negative value or NULL: node 0). */
	int (*cpu_node)(void *ctx, unsigned int cpu);
	/* The number printed for @cpu (NULL: @cpu itself). */
	unsigned int (*cpu_id)(void *ctx, unsigned int cpu);
	/*
	 * @bytes of write-back memory on @node (2 MiB aligned where possible), or NULL. Called
	 * once per CPU and buffer before anything runs; never freed by the harness.
	 */
	void *(*alloc)(void *ctx, unsigned int node, u64 bytes);
	/*
	 * Run fn(arg, i) on CPU cpus[i] for every i < n at the same time: all n are released
	 * together after a barrier (nothing of fn runs before every CPU has arrived), then wait
	 * until every fn has returned. 0, or a negative error (-PAR_ETIMEDOUT: a CPU did not
	 * answer) when some fn(arg, i) did not run or did not finish; the harness finds which
	 * from what each fn recorded. Never called with n = 0 or the same CPU twice. After
	 * an error a CPU that had not finished must not run fn later (the harness reuses its
	 * records): stop it or leave it out for good. fn runs the copy primitives, so a CPU
	 * needs the SIMD state they use (SSE; AVX with an AVX copy_mc/clear override) enabled.
	 */
	int (*run)(void *ctx, const unsigned int *cpus, unsigned int n,
		   void (*fn)(void *arg, unsigned int i), void *arg);
	/*
	 * A clock readable on every CPU with one timebase (the TSC where it is invariant and
	 * synchronised; hosted: CLOCK_MONOTONIC_RAW in ns), @clock_hz ticks per second.
	 * fn reads it exactly twice, right before and right after the primitive.
	 */
	u64 (*clock)(void *ctx);
	u64 clock_hz;
	void *ctx;
};

struct par_config {
	const struct par_ops *ops;
	/* One line of output without its newline; JSON lines start with '{'. Lines can be
	 * longer than printk's limit (a JSON line lists every CPU): write them whole. */
	void (*out)(const char *line);
	const char *machine;		/* for the JSON lines */
	u64 bytes;			/* per CPU and buffer (0: PAR_DEFAULT_BYTES) */
	unsigned int rounds;		/* timed rounds a step (0: PAR_DEFAULT_ROUNDS) */
	bool lava;			/* also "# ck-lava <...>" lines (the image) */
};

enum par_prim { PAR_COPY_PAGE, PAR_MEMCPY, PAR_COPY_MC, PAR_CLEAR_PAGE, PAR_CLEAR_PAGES,
		NR_PAR_PRIMS };

/* "copy_page" ... and the routine copy_ops resolves it to now ("copy_page_rep"); both in
 * bench/parallel_out.c. */
const char *par_prim_name(enum par_prim p);
const char *par_prim_routine(enum par_prim p);

/* The outcome of one step. */
struct par_step {
	enum par_prim prim;
	int node;			/* -1: machine-wide */
	unsigned int n;			/* CPUs */
	unsigned int cpus[PAR_MAX_CPUS];
	int err;			/* 0 or the negative error of the failing round */
	unsigned int nr_failed;		/* CPUs that did not record both clock reads */
	unsigned int failed[PAR_MAX_CPUS];
	unsigned int rounds;		/* timed rounds done */
	u64 bytes;			/* per CPU */
	u64 per_cpu_mbps[PAR_MAX_CPUS];	/* median over the rounds, per CPU */
	u64 agg_mbps, agg_min_mbps, agg_max_mbps;	/* median, spread over the rounds */
	u64 skew_ns;			/* median of last start - first start */
	u64 end_skew_ns;		/* median of last stop - first stop */
	u32 scaling_pm;			/* agg / (n x single-CPU), parts per thousand; 0: none */
};

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
