/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/bench/rep.h - replicas (ck-bench --replicas N, host/bench/rep.c): a hosted run's
 * comparisons measured in N fresh processes, one after another, so that a comparison's
 * interval is over what differs from one process and one moment to the next.
 *
 * Before it measures anything, ck-bench runs itself N times with its own command line,
 * each with --rounds R (the run's rounds over N rounded up, at least 3, at most
 * STATS_MAX / N), --placements 1, --replica-fd FD and --replica-spread MIB, on every CPU it
 * started with (each pins itself as the first did). A replica's standard output goes to
 * /dev/null (its stderr stays, but it does not repeat the run's option warnings); before it
 * takes its buffers it holds a random amount of memory (ck_rep_spread), so that its buffers
 * land on other physical pages than the last replica's; it runs only the presets
 * ck_rep_preset() names, skips the bandwidth probe, and writes every comparison it
 * measures (both sides' rounds, their counts) to FD. The parent then runs the presets
 * itself; bench_compare takes each comparison's rounds from the replicas (bench_env.replay)
 * instead of timing it, each replica's rounds one block of the replication interval
 * (bench/stats.c). What the replicas did not measure (a comparison a replica has no record
 * of) the parent measures itself, with --placements. Single cases (bench_run: primitives,
 * clear's primitive lines) are timed in the parent only, though a replica of clear times them
 * too; a replica of seed003 skips its table, whose cells are all single cases.
 */
#ifndef CK_HOST_BENCH_REP_H
#define CK_HOST_BENCH_REP_H

#include "bench/harness.h"

#define CK_REP_MAX	STATS_MAX_GROUPS	/* replicas, at most (16) */
#define CK_REP_MIN_ROUNDS 3

/* True when preset @name runs in the replicas (the presets whose rows are comparisons). */
bool ck_rep_preset(const char *name);

/* A replica's rounds: @rounds over @n, at least CK_REP_MIN_ROUNDS. */
unsigned int ck_rep_rounds(unsigned int rounds, unsigned int n);

/*
 * The parent: run @n replicas of @argv one after another, each with @rounds rounds, and
 * keep what they measured. 0, or (after a line on stderr saying which replica and why) the
 * status of the first that failed; then nothing is kept and the parent measures it all.
 */
int ck_rep_spawn(int argc, char **argv, unsigned int n, unsigned int rounds);

/* Both sides: the preset about to run (records are matched within it, in order). */
void ck_rep_preset_begin(const char *name);

/* The parent's bench_env.replay: the next comparison's rounds, from every replica. */
unsigned int ck_rep_replay(const struct bench_case *a, const struct bench_case *b,
			   enum bench_mode m, struct bench_result *ra, struct bench_result *rb);

/*
 * The parent, after ck_rep_spawn(): the run's pooled width of each mode (by enum bench_mode).
 * Every comparison the replicas measured gets its replication interval over them, as the
 * parent will print it; @min_half_ppm[m] is the root mean square of the relative half-widths
 * (ppm of the ratio) of mode m's, and @rows[m] how many there were (at most
 * CK_REP_POOL_MAX). The parent then holds every replication interval of mode m to at least
 * that half-width (bench_env.width_floor_ppm; ck-bench --widths own: not). Why: from six
 * blocks an interval's width scatters from run to run far more than the estimates do, and
 * the narrow ones miss (docs/user/benchmarks.md, "Pooled widths"). False when there is
 * nothing to pool.
 */
#define CK_REP_POOL_MAX	1024
bool ck_rep_pool(u32 min_half_ppm[BENCH_NR_MODES], unsigned int rows[BENCH_NR_MODES]);

#define CK_REP_SPREAD_MAX_MIB	1024u

/*
 * A replica, before it takes any buffer: map, fault in and keep @mib MiB of anonymous
 * memory (whole 2 MiB pages, THP), which the parent drew at random for it, each replica's
 * different, from 0 .. CK_REP_SPREAD_MAX_MIB but at most a quarter of the memory available
 * (--replica-spread, said in its "# replica" line; 0 under an address-space limit, where
 * the buffers might not fit beside it). A process started after another exits is handed the
 * same physical pages back (the page allocator gives out what was freed last): without
 * this, every replica's buffers would sit on one placement. Hugetlb pages are not moved this
 * way (the run says so when they are reserved). When the memory cannot be had, the replica
 * says so on stderr and runs on what it is given.
 */
void ck_rep_spread(unsigned int mib);

/* A replica: where its records go, and its bench_env.record. */
void ck_rep_record_to(int fd);
void ck_rep_record(const struct bench_case *a, const struct bench_case *b, enum bench_mode m,
		   const struct bench_result *ra, const struct bench_result *rb);

#endif
