/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/bench/opts.h - the hosted benchmark's command line (host/bench/opts.c): one table
 * of options, a parser that refuses what it cannot use, and the usage text made from the
 * table.
 *
 *   ck-bench [--preset rfc|v3|clear|primitives|patterns|perf|big|uarch|parallel|
 *                      copy_pages|seed003|migrate]...
 *            [--rounds N] [--placements N] [--replicas N] [--json FILE] [--tiny] [--list]
 *            [--cold evict|flush] [--widths pooled|own]
 *            [--cpu N]
 *            [--perf-pairs N] [--memcpy erms|orig] [--copy-page rep|unrolled]
 *            [--copy-mc fragile|erms|memcpy|avx2nt|avx512nt]
 *            [--clear-page erms|rep|unrolled|nt|clzero]
 */
#ifndef CK_HOST_BENCH_OPTS_H
#define CK_HOST_BENCH_OPTS_H

#include "host/lib/machine.h"
#include "kernel/include/types.h"

#define CK_BENCH_MAX_PRESETS	16
#define CK_BENCH_DEFAULT_REPLICAS 6

struct ck_bench_opts {
	const char *presets[CK_BENCH_MAX_PRESETS];
	unsigned int np;		/* none given: rfc and perf */
	unsigned int rounds;		/* 3..STATS_MAX (out of range: the default, said so) */
	/* a comparison's placements, 1..BENCH_MAX_PLACEMENTS (the same) */
	unsigned int placements;
	/* fresh processes a comparison's rounds run in, 1..CK_REP_MAX (1: none; --tiny: 1) */
	unsigned int replicas;
	bool replicas_given;
	int replica_fd;			/* >= 0: this process is a replica (internal) */
	bool is_replica;		/* --replica-fd is among the words (before parsing) */
	unsigned int replica_spread_mib;	/* a replica: MiB to hold first (internal) */
	int cpu;			/* -1: the last CPU the process may run on */
	unsigned int perf_pairs;
	const char *json;		/* the JSON-lines file, or NULL */
	bool tiny, cold_flush;
	bool own_widths;		/* --widths own: no pooled floor (ck_rep_pool) */
	bool list;			/* say what would run, measure nothing */
	struct ck_overrides ov;
};

/*
 * Fill @o from @argv. 0 when the run can go on; 2 (a usage error, already explained on
 * stderr with the usage) for an unknown option, a missing or bad value, an unknown preset
 * or too many of them.
 */
int ck_bench_parse(int argc, char **argv, struct ck_bench_opts *o);

#endif
