/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * harness.h - the benchmark harness shared by the image and the hosted build (make bench).
 *
 * A case is one timed operation over a number of bytes (a folio copy, a primitive over a
 * buffer). bench_run times it @runs times after @warmup discarded runs, cache-hot or
 * cache-cold (before every run, untimed: the environment's evict() streams an eviction
 * buffer, or with cold_flush its flush() writes back and drops the case's own buffers), and
 * summarises durations and throughput. bench_compare runs two cases interleaved, A B A B,
 * so drift hits both alike, and reports the ratio of medians with a bootstrap interval.
 * The environment supplies the clock, eviction and output; nothing here prints directly.
 */
#ifndef CK_BENCH_HARNESS_H
#define CK_BENCH_HARNESS_H

#include "bench/stats.h"

enum bench_mode { BENCH_HOT, BENCH_COLD };

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
	void (*result)(const struct bench_case *c, enum bench_mode m,
		       const struct bench_result *r);
};

struct bench_case {
	const char *api, *primitive;	/* "folio_copy", "per-page copy_page" */
	u64 bytes;
	void (*fn)(void *ctx);
	void *ctx;
	const char *src_node, *dst_node;
	const void *flush_a, *flush_b;	/* the buffers a cache-cold run flushes */
	u64 flush_bytes;
};

struct bench_result {
	struct stats ns;		/* per-run durations */
	u64 mbps_median, mbps_min, mbps_max, mbps_mean, mbps_stddev;
	u64 mcyc_per_byte;		/* cycles per byte x 1000 (from the median) */
	u64 samples[STATS_MAX];		/* durations in run order (unsorted) */
	unsigned int runs;
};

#define BENCH_DEFAULT_RUNS	10
#define BENCH_WARMUP		2

void bench_run(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
	       unsigned int runs, struct bench_result *r);
void bench_compare(const struct bench_env *env, const struct bench_case *a,
		   const struct bench_case *b, enum bench_mode m, unsigned int runs,
		   struct bench_result *ra, struct bench_result *rb, struct ratio *ratio);

/* One JSON object for a result, as a line (schema in README, "Benchmarks"). */
void bench_json(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		const struct bench_result *r, char *buf, size_t size);
/* "12.34 +- 0.56" (GB/s, median +- stddev) into @buf. */
void bench_fmt_gbps(const struct bench_result *r, char *buf, size_t size);
/* "1.97x [1.90, 2.05]" or "1.01x [0.97, 1.05] n.s." into @buf. */
void bench_fmt_ratio(const struct ratio *q, char *buf, size_t size);
/* "256K", "2M", "1G". */
void bench_fmt_size(u64 bytes, char *buf, size_t size);
const char *bench_mode_name(enum bench_mode m);

#endif
