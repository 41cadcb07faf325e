/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * harness.h - the benchmark harness shared by the image and the hosted build (make bench).
 *
 * A case is one timed operation over a number of bytes (a folio copy, a primitive over a
 * buffer), cache-hot or cache-cold (before every cold run, untimed: the environment's
 * evict() streams an eviction buffer, or with cold_flush its flush() writes back and drops
 * the case's own buffers). The method (docs/design/benchmark-method.md):
 *
 *   - after BENCH_WARMUP discarded runs, a cache-hot case shorter than BENCH_MIN_SAMPLE_NS
 *     is repeated @reps times back to back inside one timing, so a timing is long against
 *     the clock's own cost (cache-cold runs are never repeated: each needs its eviction);
 *   - a sample is the minimum of k timings taken back to back (BENCH_K_HOT, BENCH_K_COLD;
 *     cold ones each after its own eviction);
 *   - bench_compare runs @rounds rounds, A then B, then B then A, alternating, and reports
 *     the median of the per-round ratios with a 2000-resample bootstrap interval (one
 *     block), or the mean of the blocks' medians with the replication interval (several);
 *   - where the environment can re-place buffers (@place), the rounds are spread over
 *     @placements consecutive blocks (BENCH_DEFAULT_PLACEMENTS, at most one per two rounds),
 *     each on fresh memory elsewhere after its own warm-ups, and the interval is the
 *     replication interval over them (stats_round_ratio_placed: where another run's
 *     estimate lies 95% of the time); the rounds' own interval is kept beside it;
 *   - where the environment has replicas (@replay: hosted --replicas), a comparison's
 *     rounds come from fresh processes run one after another, one block each, and the
 *     replication interval is over them: what one process and one moment share (placement,
 *     where the replicas hold memory first: THP, not hugetlb; the host's state for the
 *     second or so a comparison takes) varies between blocks;
 *   - a round is "disturbed" when a timing took more than twice the fastest of its sample
 *     or the thread was off its CPU for more than BENCH_OFF_CPU_PM per mille of a timing
 *     (hosted: another task ran instead; a 1 GiB timing is preempted now and then by the
 *     scheduler without losing anything that shows, so a context switch alone says nothing;
 *     the share of the timing it cost does, at every size); it is "discarded" when a timing
 *     read 0 ns (the clock did not advance). Both are counted;
 *   - where the environment reads the noise counters (bare metal: SMI count, APERF/MPERF;
 *     bench/noise.h), a timing with an SMI, a clock change or a C-state also disturbs its
 *     round, and each result records the SMIs and the effective clock of its timings.
 *
 * The environment supplies the clock, eviction and output; nothing here prints directly.
 */
#ifndef CK_BENCH_HARNESS_H
#define CK_BENCH_HARNESS_H

#include "bench/noise.h"
#include "bench/stats.h"

enum bench_mode { BENCH_HOT, BENCH_COLD };
#define BENCH_NR_MODES	2		/* what an array by enum bench_mode holds */
_Static_assert(BENCH_COLD + 1 == BENCH_NR_MODES, "every mode counted");

struct bench_case;
struct bench_result;

struct bench_env {
	u64 (*now_ns)(void);
	u64 (*cycles)(void);		/* TSC, for cycles per byte */
	u64 cycles_per_us;		/* TSC rate, for cycles per byte */
	void (*evict)(void *ctx);	/* stream an eviction buffer (cache-cold mode) */
	void *evict_ctx;
	/* Cache-cold by CLFLUSHOPT of the case's own buffers instead of eviction. */
	bool cold_flush;
	void (*flush)(const void *addr, u64 bytes);
	void (*out)(const char *line);
	const char *machine;		/* for the JSON lines */
	/* Optional: called with every result after its JSON line (the image's LAVA line). */
	void (*result)(const struct bench_env *env, const struct bench_case *c,
		       enum bench_mode m, const struct bench_result *r);
	/*
	 * Nanoseconds this thread has spent off its CPU so far (hosted: wall time less the
	 * thread's CPU time); NULL: nothing else runs here (the image, interrupts off). A
	 * timing that lost more than BENCH_OFF_CPU_PM per mille of itself disturbs its round.
	 */
	u64 (*off_cpu_ns)(void);
	/*
	 * The noise counters (bench/noise.h): which this machine has (0: none), a reader for
	 * them, and when there are none, why ("under a hypervisor"), for the output and JSON.
	 */
	/* A preset's variant ("zen3" in uarch) for result ids; NULL: none. */
	const char *variant;
	unsigned int noise_have;
	void (*noise_read)(struct noise_snap *s);
	const char *noise_why;
	/*
	 * Give [@addr, @addr + @bytes) fresh memory elsewhere, keeping its contents and its
	 * address (hosted: a new mapping filled and moved over it); false when it could not.
	 * NULL: this environment cannot re-place, every comparison runs on one placement.
	 */
	bool (*place)(const void *addr, u64 bytes);
	unsigned int placements;	/* a comparison's blocks (0: the default; at most max) */
	/*
	 * Replicas (hosted --replicas N, host/bench/rep.c): a comparison's rounds measured
	 * in N fresh processes run one after another, the interval taken over them. @replay,
	 * where set, fills @ra and @rb with the next comparison's rounds from the replicas
	 * (samples, counts; each sample's placement is the replica it came from) and returns
	 * how many replicas gave it; 0: measure it here. @record, where set (in a replica), is
	 * given every comparison measured here, before its summary.
	 */
	unsigned int (*replay)(const struct bench_case *a, const struct bench_case *b,
			       enum bench_mode m, struct bench_result *ra,
			       struct bench_result *rb);
	void (*record)(const struct bench_case *a, const struct bench_case *b, enum bench_mode m,
		       const struct bench_result *ra, const struct bench_result *rb);
	/*
	 * Where set (hosted, with replicas: ck_rep_pool), the run's pooled relative half-width
	 * of each mode (ppm, by enum bench_mode; 0: none): every replication interval of that
	 * mode is held to at least it (stats_ratio_widen).
	 */
	const u32 *width_floor_ppm;
};

struct bench_case {
	const char *api, *primitive;	/* "folio_copy", "per-page copy_page" */
	u64 bytes;
	void (*fn)(void *ctx);
	void *ctx;
	const char *src_node, *dst_node;
	unsigned int cpu1;		/* 1 + the CPU that ran it (rfc in the image); 0: not said */
	const void *flush_a, *flush_b;	/* the buffers a cache-cold run flushes */
	u64 flush_bytes;
	/* The data read and written: "zero", "constant", "random" or "none" (NULL: "none"). */
	const char *src_pattern, *dst_pattern;
	/* A clear: 1 + the enum clear_page_impl whose stores it uses (0: a copy, or not said). */
	u8 clear_store;
};

struct bench_result {
	struct stats ns;		/* of the samples: durations of @reps operations */
	u64 mbps_median, mbps_min, mbps_max, mbps_mean, mbps_stddev;
	u64 mcyc_per_byte;		/* cycles per byte x 1000 (from the median) */
	u64 samples[STATS_MAX];		/* kept samples in round order (unsorted) */
	unsigned int runs;		/* samples kept (rounds less the discarded ones) */
	unsigned int rounds, k, reps;	/* rounds run, timings per sample, ops per timing */
	unsigned int disturbed, discarded;
	struct noise_acct noise;	/* SMIs and effective clock over the kept timings */
	u8 placed[STATS_MAX];		/* each kept sample's placement (bench_compare) */
};

#define BENCH_DEFAULT_RUNS	30	/* rounds */
#define BENCH_WARMUP		2
#define BENCH_K_HOT		5
#define BENCH_K_COLD		3
#define BENCH_MIN_SAMPLE_NS	10000
#define BENCH_MAX_REPS		65536
#define BENCH_BOOT_ITERS	2000
#define BENCH_OFF_CPU_PM	10	/* off the CPU for 1% of a timing: disturbed */
#define BENCH_DEFAULT_PLACEMENTS 6
#define BENCH_MAX_PLACEMENTS	STATS_MAX_GROUPS	/* 16 */

void bench_run(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
	       unsigned int runs, struct bench_result *r);
void bench_compare(const struct bench_env *env, const struct bench_case *a,
		   const struct bench_case *b, enum bench_mode m, unsigned int runs,
		   struct bench_result *ra, struct bench_result *rb, struct ratio *ratio);

/* One line of output through @env->out, printf-style (lines up to 1 KiB). */
void bench_outf(const struct bench_env *env, const char *fmt, ...) __printf(2, 3);
/*
 * A case a preset promises and cannot measure (no memory for it): "bench: FAILED: " and the
 * reason as a line, counted. The run's status must say so: bench_failures() is the count
 * over the whole run.
 */
void bench_failf(const struct bench_env *env, const char *fmt, ...) __printf(2, 3);
unsigned int bench_failures(void);
/* One JSON object for a result, as a line (docs/user/results.md). */
void bench_json(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		const struct bench_result *r, char *buf, size_t size);
/*
 * The noise column of a table row: " smi=0 clk=2400-2401MHz" where measured, "" where not
 * (the run says once why).
 */
void bench_fmt_noise(const struct bench_result *r, char *buf, size_t size);
/*
 * @v / @scale with @dec decimals (@scale a power of ten, at least 10^@dec), rounded half away
 * from zero ("0.985" of 985 / 1000 at 2 decimals is "0.99"), into @buf; returns its length.
 * Every figure the tables print goes through it: nothing is truncated.
 */
int bench_fmt_fixed(char *buf, size_t size, u64 v, u64 scale, unsigned int dec);
/* "12.34 +- 0.56" (GB/s, median +- stddev, rounded) into @buf. */
void bench_fmt_gbps(const struct bench_result *r, char *buf, size_t size);
/*
 * "1.97x [1.90, 2.05] w=7.6%" or "1.01x [0.97, 1.05] w=7.9% n.s." (w: the interval's width
 * relative to the ratio) into @buf, each figure rounded half away from zero from the parts
 * per million (from the parts per thousand when those are not known).
 */
void bench_fmt_ratio(const struct ratio *q, char *buf, size_t size);
/* "256K", "2M", "1G". */
void bench_fmt_size(u64 bytes, char *buf, size_t size);
const char *bench_mode_name(enum bench_mode m);
/* "none" (cache-hot), "clflushopt" or "evict": how a cache-cold case was made cold. */
const char *bench_cold_method(const struct bench_env *env, const struct bench_case *c,
			      enum bench_mode m);

/* Read every cache line of @buf (@bytes long): what an eviction buffer is for. */
void bench_evict_lines(const u8 *buf, u64 bytes);
/*
 * Write back and drop every line of [@addr, @addr + @bytes): CLFLUSHOPT when @clflushopt
 * (the caller asked CPUID), else CLFLUSH; then a fence, so the flushes are done.
 */
void bench_flush_lines(const void *addr, u64 bytes, bool clflushopt);

#endif
