// SPDX-License-Identifier: GPL-2.0-only
/*
 * harness.c - run, summarise and format benchmark cases (see harness.h). Integer arithmetic
 * only: throughputs are MB/s, ratios parts per thousand.
 */
#include "bench/harness.h"
#include "kernel/lib/format.h"

const char *bench_mode_name(enum bench_mode m)
{
	return m == BENCH_COLD ? "cache-cold" : "cache-hot";
}

static u64 time_once(const struct bench_env *env, const struct bench_case *c,
		     enum bench_mode m)
{
	u64 t0, t1;

	if (m == BENCH_COLD && env->cold_flush && env->flush && c->flush_bytes) {
		env->flush(c->flush_a, c->flush_bytes);
		if (c->flush_b)
			env->flush(c->flush_b, c->flush_bytes);
	} else if (m == BENCH_COLD && env->evict) {
		env->evict(env->evict_ctx);
	}
	t0 = env->now_ns();
	c->fn(c->ctx);
	t1 = env->now_ns();
	return t1 > t0 ? t1 - t0 : 1;
}

static void summarise(const struct bench_case *c, const struct bench_env *env,
		      struct bench_result *r)
{
	u64 sorted[STATS_MAX], sum = 0, var = 0, mb[STATS_MAX];

	for (unsigned int i = 0; i < r->runs; i++) {
		sorted[i] = r->samples[i];
		mb[i] = stats_mbps(c->bytes, r->samples[i]);
		sum += mb[i];
	}
	stats_compute(sorted, r->runs, &r->ns);
	r->mbps_median = stats_mbps(c->bytes, r->ns.median);
	r->mbps_min = stats_mbps(c->bytes, r->ns.max);
	r->mbps_max = stats_mbps(c->bytes, r->ns.min);
	r->mbps_mean = r->runs ? sum / r->runs : 0;
	for (unsigned int i = 0; i < r->runs; i++) {
		u64 d = mb[i] > r->mbps_mean ? mb[i] - r->mbps_mean : r->mbps_mean - mb[i];

		var += d * d / r->runs;
	}
	r->mbps_stddev = stats_isqrt(var);
	/* cycles/byte x 1000 = median_ns * cycles_per_us / bytes (ns * cyc/us / 1000 * 1000) */
	r->mcyc_per_byte = c->bytes ? r->ns.median * env->cycles_per_us / c->bytes : 0;
}

void bench_run(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
	       unsigned int runs, struct bench_result *r)
{
	if (runs > STATS_MAX)
		runs = STATS_MAX;
	for (unsigned int i = 0; i < BENCH_WARMUP; i++)
		time_once(env, c, m);
	r->runs = runs;
	for (unsigned int i = 0; i < runs; i++)
		r->samples[i] = time_once(env, c, m);
	summarise(c, env, r);
}

void bench_compare(const struct bench_env *env, const struct bench_case *a,
		   const struct bench_case *b, enum bench_mode m, unsigned int runs,
		   struct bench_result *ra, struct bench_result *rb, struct ratio *ratio)
{
	if (runs > STATS_MAX)
		runs = STATS_MAX;
	for (unsigned int i = 0; i < BENCH_WARMUP; i++) {
		time_once(env, a, m);
		time_once(env, b, m);
	}
	ra->runs = rb->runs = runs;
	for (unsigned int i = 0; i < runs; i++) {
		ra->samples[i] = time_once(env, a, m);
		rb->samples[i] = time_once(env, b, m);
	}
	summarise(a, env, ra);
	summarise(b, env, rb);
	/* Speed of b relative to a: the ratio of durations a over b. */
	if (!stats_ratio(ra->samples, rb->samples, runs, 1000, ratio))
		*ratio = (struct ratio){ 0 };
}

void bench_fmt_gbps(const struct bench_result *r, char *buf, size_t size)
{
	ck_snprintf(buf, size, "%llu.%02llu +- %llu.%02llu",
		    (unsigned long long)r->mbps_median / 1000,
		    (unsigned long long)(r->mbps_median % 1000) / 10,
		    (unsigned long long)r->mbps_stddev / 1000,
		    (unsigned long long)(r->mbps_stddev % 1000) / 10);
}

void bench_fmt_ratio(const struct ratio *q, char *buf, size_t size)
{
	ck_snprintf(buf, size, "%u.%02ux [%u.%02u, %u.%02u]%s", q->ratio_pm / 1000,
		    (q->ratio_pm % 1000) / 10, q->lo_pm / 1000, (q->lo_pm % 1000) / 10,
		    q->hi_pm / 1000, (q->hi_pm % 1000) / 10, q->significant ? "" : " n.s.");
}

void bench_fmt_size(u64 bytes, char *buf, size_t size)
{
	if (bytes >= (1ULL << 30) && !(bytes & ((1ULL << 30) - 1)))
		ck_snprintf(buf, size, "%lluG", (unsigned long long)(bytes >> 30));
	else if (bytes >= (1ULL << 20) && !(bytes & ((1ULL << 20) - 1)))
		ck_snprintf(buf, size, "%lluM", (unsigned long long)(bytes >> 20));
	else
		ck_snprintf(buf, size, "%lluK", (unsigned long long)(bytes >> 10));
}

void bench_json(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		const struct bench_result *r, char *buf, size_t size)
{
	ck_snprintf(buf, size,
		    "{\"schema\":1,\"kind\":\"result\",\"machine\":\"%s\",\"api\":\"%s\","
		    "\"primitive\":\"%s\",\"size\":%llu,\"mode\":\"%s\",\"src_node\":\"%s\","
		    "\"dst_node\":\"%s\",\"runs\":%u,\"median_mbps\":%llu,\"mean_mbps\":%llu,"
		    "\"stddev_mbps\":%llu,\"min_mbps\":%llu,\"max_mbps\":%llu,\"median_ns\":%llu,"
		    "\"q1_ns\":%llu,\"q3_ns\":%llu,\"cycles_per_byte_x1000\":%llu,"
		    "\"cold_method\":\"%s\"}",
		    env->machine ? env->machine : "", c->api, c->primitive,
		    (unsigned long long)c->bytes, bench_mode_name(m),
		    c->src_node ? c->src_node : "node0", c->dst_node ? c->dst_node : "node0",
		    r->runs,
		    (unsigned long long)r->mbps_median, (unsigned long long)r->mbps_mean,
		    (unsigned long long)r->mbps_stddev, (unsigned long long)r->mbps_min,
		    (unsigned long long)r->mbps_max, (unsigned long long)r->ns.median,
		    (unsigned long long)r->ns.q1, (unsigned long long)r->ns.q3,
		    (unsigned long long)r->mcyc_per_byte,
		    m != BENCH_COLD ? "none" : env->cold_flush && c->flush_bytes ? "clflushopt" :
		    env->evict ? "evict" : "none");
}
