/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parallel_types.h - the parallel preset's types (bench/parallel.h says what the preset
 * does): what its caller provides (struct par_ops, struct par_config), the primitives it
 * runs and one step's outcome (struct par_step). The harness (bench/parallel.c) fills them,
 * its output (bench/parallel_out.c) prints them: both include this header, and the
 * harness calls the output, never the other way.
 */
#ifndef CK_BENCH_PARALLEL_TYPES_H
#define CK_BENCH_PARALLEL_TYPES_H

#include "kernel/include/types.h"

#define PAR_MAX_CPUS	512		/* CPUs one run can use (more are left out, named) */
#define PAR_MAX_NODES	64

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

#endif
