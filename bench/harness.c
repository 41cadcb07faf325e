// SPDX-License-Identifier: GPL-2.0-only
/*
 * harness.c - run, summarise and format benchmark cases (see harness.h). Integer arithmetic
 * only: throughputs are MB/s, ratios parts per thousand.
 */
#include "bench/harness.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"

void bench_outf(const struct bench_env *env, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	ck_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	env->out(line);
}

static unsigned int failures;

void bench_failf(const struct bench_env *env, const char *fmt, ...)
{
	char why[600];
	va_list ap;

	va_start(ap, fmt);
	ck_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	failures++;
	bench_outf(env, "bench: FAILED: %s", why);
}

unsigned int bench_failures(void)
{
	return failures;
}

const char *bench_mode_name(enum bench_mode m)
{
	return m == BENCH_COLD ? "cache-cold" : "cache-hot";
}

void bench_evict_lines(const u8 *buf, u64 bytes)
{
	volatile u64 sink = 0;

	for (u64 i = 0; i < bytes; i += 64)
		sink += *(const volatile u64 *)(buf + i);
	(void)sink;
}

void bench_flush_lines(const void *addr, u64 bytes, bool clflushopt)
{
	const u8 *p = (const u8 *)((uintptr_t)addr & ~(uintptr_t)63);
	const u8 *end = (const u8 *)addr + bytes;

	if (clflushopt)
		for (; p < end; p += 64)
			__asm__ volatile("clflushopt %0" : "+m"(*(volatile u8 *)p));
	else
		for (; p < end; p += 64)
			__asm__ volatile("clflush %0" : "+m"(*(volatile u8 *)p));
	__asm__ volatile("mfence" ::: "memory");
}

static u64 off_cpu(const struct bench_env *env)
{
	return env->off_cpu_ns ? env->off_cpu_ns() : 0;
}

/*
 * One timing: the cold-making step (untimed), then @reps back-to-back operations. Sets
 * *@disturbed when the noise counters saw a disturbance during the timed part, or the
 * thread lost more than BENCH_OFF_CPU_PM per mille of it off its CPU.
 */
static u64 time_once(const struct bench_env *env, const struct bench_case *c,
		     enum bench_mode m, unsigned int reps, bool *disturbed,
		     struct noise_acct *acct)
{
	struct noise_snap n0, n1;
	bool noise = acct && env->noise_have && env->noise_read;
	u64 t0, t1, o0, lost;

	if (m == BENCH_COLD && env->cold_flush && env->flush && c->flush_bytes) {
		env->flush(c->flush_a, c->flush_bytes);
		if (c->flush_b)
			env->flush(c->flush_b, c->flush_bytes);
	} else if (m == BENCH_COLD && env->evict) {
		env->evict(env->evict_ctx);
	}
	o0 = off_cpu(env);
	if (noise)
		env->noise_read(&n0);
	t0 = env->now_ns();
	for (unsigned int i = 0; i < reps; i++)
		c->fn(c->ctx);
	t1 = env->now_ns();
	if (noise) {
		env->noise_read(&n1);
		if (noise_account(acct, &n0, &n1))
			*disturbed = true;
	}
	lost = off_cpu(env);
	lost = lost > o0 ? lost - o0 : 0;	/* two clocks: a few ns of skew either way */
	if (lost && lost * 1000 > (t1 > t0 ? t1 - t0 : 0) * BENCH_OFF_CPU_PM)
		*disturbed = true;
	return t1 > t0 ? t1 - t0 : 0;
}

/*
 * A sample: the minimum of @k timings. *@disturbed is set when one took more than twice
 * the fastest; 0 comes back when a timing read 0 ns (the sample is discarded).
 */
static u64 sample(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		  unsigned int reps, unsigned int k, bool *disturbed, struct noise_acct *acct)
{
	u64 lo = ~0ULL, hi = 0;

	for (unsigned int i = 0; i < k; i++) {
		u64 t = time_once(env, c, m, reps, disturbed, acct);

		lo = MIN(lo, t);
		hi = MAX(hi, t);
	}
	if (hi > 2 * lo)
		*disturbed = true;
	return lo;
}

/* Operations per timing so one lasts BENCH_MIN_SAMPLE_NS (1 for cache-cold cases). */
static unsigned int calibrate(const struct bench_env *env, const struct bench_case *c,
			      enum bench_mode m)
{
	u64 t = ~0ULL;

	if (m == BENCH_COLD)
		return 1;
	for (int i = 0; i < 3; i++) {
		bool ignored;
		u64 one = time_once(env, c, m, 1, &ignored, NULL);	/* MIN() evaluates twice */

		t = MIN(t, one);
	}
	if (t >= BENCH_MIN_SAMPLE_NS)
		return 1;
	if (!t)
		return BENCH_MAX_REPS;
	return (unsigned int)MIN((u64)BENCH_MAX_REPS, (BENCH_MIN_SAMPLE_NS + t - 1) / t);
}

static unsigned int k_for(enum bench_mode m)
{
	return m == BENCH_COLD ? BENCH_K_COLD : BENCH_K_HOT;
}

static void summarise(const struct bench_case *c, const struct bench_env *env,
		      struct bench_result *r)
{
	u64 sorted[STATS_MAX], sum = 0, var = 0, mb[STATS_MAX], bytes = c->bytes * r->reps;

	for (unsigned int i = 0; i < r->runs; i++) {
		sorted[i] = r->samples[i];
		mb[i] = stats_mbps(bytes, r->samples[i]);
		sum += mb[i];
	}
	stats_compute(sorted, r->runs, &r->ns);
	r->mbps_median = stats_mbps(bytes, r->ns.median);
	r->mbps_min = stats_mbps(bytes, r->ns.max);
	r->mbps_max = stats_mbps(bytes, r->ns.min);
	r->mbps_mean = r->runs ? sum / r->runs : 0;
	for (unsigned int i = 0; i < r->runs; i++) {
		u64 d = mb[i] > r->mbps_mean ? mb[i] - r->mbps_mean : r->mbps_mean - mb[i];

		var += d * d / r->runs;
	}
	r->mbps_stddev = stats_isqrt(var);
	/* cycles/byte x 1000 = median_ns * cycles_per_us / bytes (ns * cyc/us / 1000 * 1000) */
	r->mcyc_per_byte = bytes ? r->ns.median * env->cycles_per_us / bytes : 0;
}

static void start(struct bench_result *r, unsigned int rounds, unsigned int k,
		  unsigned int reps)
{
	r->runs = r->disturbed = r->discarded = 0;
	r->rounds = rounds;
	r->k = k;
	r->reps = reps;
	noise_restart(&r->noise);	/* the warm-ups set the reference clock only */
}

static void noise_begin(const struct bench_env *env, struct bench_result *r)
{
	noise_start(&r->noise, env->noise_read ? env->noise_have : 0, env->cycles_per_us);
}

void bench_run(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
	       unsigned int runs, struct bench_result *r)
{
	unsigned int reps;

	runs = MIN(MAX(runs, 1u), (unsigned int)STATS_MAX);
	bool ignored;

	noise_begin(env, r);
	for (unsigned int i = 0; i < BENCH_WARMUP; i++)
		time_once(env, c, m, 1, &ignored, &r->noise);
	reps = calibrate(env, c, m);
	start(r, runs, k_for(m), reps);
	for (unsigned int i = 0; i < runs; i++) {
		bool bad = false;
		u64 t = sample(env, c, m, reps, r->k, &bad, &r->noise);

		r->disturbed += bad;
		if (!t) {
			r->discarded++;
			continue;
		}
		r->samples[r->runs++] = t;
	}
	summarise(c, env, r);
}

/* The placements a comparison of @runs rounds asks for: 1 where nothing can move. */
static unsigned int placements_for(const struct bench_env *env, const struct bench_case *a,
				   unsigned int runs)
{
	unsigned int p = env->placements ? env->placements : BENCH_DEFAULT_PLACEMENTS;

	if (!env->place || !a->flush_a || !a->flush_bytes)
		return 1;
	p = MIN(MIN(p, (unsigned int)BENCH_MAX_PLACEMENTS), runs / 2);
	return MAX(p, 1u);
}

/* Every buffer of @a and @b (once each) onto fresh memory; false when one did not move. */
static bool replace(const struct bench_env *env, const struct bench_case *a,
		    const struct bench_case *b)
{
	const void *buf[4] = { a->flush_a, a->flush_b, b->flush_a, b->flush_b };
	u64 bytes[4] = { a->flush_bytes, a->flush_bytes, b->flush_bytes, b->flush_bytes };

	for (unsigned int i = 0; i < 4; i++) {
		bool seen = !buf[i] || !bytes[i];

		for (unsigned int j = 0; j < i && !seen; j++)
			seen = buf[j] == buf[i];
		if (!seen && !env->place(buf[i], bytes[i]))
			return false;
	}
	return true;
}

static void warm_both(const struct bench_env *env, const struct bench_case *a,
		      const struct bench_case *b, enum bench_mode m, struct bench_result *ra,
		      struct bench_result *rb)
{
	bool ignored;

	for (unsigned int i = 0; i < BENCH_WARMUP; i++) {
		time_once(env, a, m, 1, &ignored, &ra->noise);
		time_once(env, b, m, 1, &ignored, &rb->noise);
	}
}

/* Round @i: A B (even) or B A (odd), kept with placement @pl unless a timing read 0 ns. */
static void round_ab(const struct bench_env *env, const struct bench_case *a,
		     const struct bench_case *b, enum bench_mode m, unsigned int i,
		     unsigned int pl, struct bench_result *ra, struct bench_result *rb)
{
	bool bad = false;
	u64 ta, tb;

	if (i & 1) {	/* B A */
		tb = sample(env, b, m, rb->reps, rb->k, &bad, &rb->noise);
		ta = sample(env, a, m, ra->reps, ra->k, &bad, &ra->noise);
	} else {	/* A B */
		ta = sample(env, a, m, ra->reps, ra->k, &bad, &ra->noise);
		tb = sample(env, b, m, rb->reps, rb->k, &bad, &rb->noise);
	}
	ra->disturbed += bad;
	rb->disturbed += bad;
	if (!ta || !tb) {
		ra->discarded++;
		rb->discarded++;
		return;
	}
	ra->placed[ra->runs] = rb->placed[rb->runs] = (u8)pl;
	ra->samples[ra->runs++] = ta;
	rb->samples[rb->runs++] = tb;
}

/* bench_compare's rounds measured here, in placement blocks where the buffers can move. */
static unsigned int measure_here(const struct bench_env *env, const struct bench_case *a,
				 const struct bench_case *b, enum bench_mode m, unsigned int runs,
				 struct bench_result *ra, struct bench_result *rb)
{
	unsigned int reps, reps_b, want = placements_for(env, a, runs), used = 1;
	bool stuck = false;

	noise_begin(env, ra);
	noise_begin(env, rb);
	warm_both(env, a, b, m, ra, rb);
	/* The same repetitions for both, enough for the faster one. */
	reps = calibrate(env, a, m);
	reps_b = calibrate(env, b, m);
	reps = MAX(reps, reps_b);
	start(ra, runs, k_for(m), reps);
	start(rb, runs, k_for(m), reps);
	for (unsigned int i = 0; i < runs; i++) {
		/* placement blocks of consecutive rounds; one that cannot move keeps the last */
		if (!stuck && i * want / runs >= used) {
			stuck = !replace(env, a, b);
			used += !stuck;
			if (!stuck)
				warm_both(env, a, b, m, ra, rb);
		}
		round_ab(env, a, b, m, i, used - 1, ra, rb);
	}
	if (env->record)
		env->record(a, b, m, ra, rb);
	return used;
}

void bench_compare(const struct bench_env *env, const struct bench_case *a,
		   const struct bench_case *b, enum bench_mode m, unsigned int runs,
		   struct bench_result *ra, struct bench_result *rb, struct ratio *ratio)
{
	unsigned int replicas = env->replay ? env->replay(a, b, m, ra, rb) : 0;
	unsigned int used;

	runs = MIN(MAX(runs, 1u), (unsigned int)STATS_MAX);
	used = replicas ? replicas : measure_here(env, a, b, m, runs, ra, rb);
	summarise(a, env, ra);
	summarise(b, env, rb);
	/*
	 * Speed of b relative to a, from the per-round ratios of durations a / b: their median
	 * (one block), or the mean of the blocks' medians (several).
	 */
	if (!stats_round_ratio_placed(ra->samples, rb->samples, ra->placed, ra->runs, used,
				      BENCH_BOOT_ITERS, STATS_SEED, ratio))
		*ratio = (struct ratio){ .placements = 1 };
	ratio->by_process = replicas > 1 && ratio->replication;
	if (env->width_floor_ppm)
		stats_ratio_widen(ratio, env->width_floor_ppm[m]);
}

void bench_fmt_noise(const struct bench_result *r, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	if (r->noise.have & NOISE_SMI)
		n += ck_snprintf(buf, size, " smi=%llu", (unsigned long long)r->noise.smis);
	if ((r->noise.have & NOISE_APERF) && n < size)
		ck_snprintf(buf + n, size - n, " clk=%llu-%lluMHz",
			    (unsigned long long)r->noise.mhz_min,
			    (unsigned long long)r->noise.mhz_max);
}

/* The noise members of a result's record: null where not measured, with the reason. */
static void json_noise(struct json_writer *w, const struct bench_env *env,
		       const struct bench_result *r)
{
	const struct noise_acct *a = &r->noise;
	bool aperf = a->have & NOISE_APERF;
	char why[80];

	if (a->have & NOISE_SMI)
		json_u64(w, "smi", a->smis);
	else
		json_null(w, "smi");
	if (aperf) {
		json_u64(w, "eff_mhz_min", a->mhz_min);
		json_u64(w, "eff_mhz_max", a->mhz_max);
		json_u64(w, "freq_changes", a->freq_changes);
		json_u64(w, "not_c0", a->not_c0);
	} else {
		json_null(w, "eff_mhz_min");
		json_null(w, "eff_mhz_max");
		json_null(w, "freq_changes");
		json_null(w, "not_c0");
	}
	ck_snprintf(why, sizeof(why), "unavailable: %s",
		    env->noise_why ? env->noise_why : "no counters");
	json_str(w, "noise", a->have ? "measured" : why);
}

int bench_fmt_fixed(char *buf, size_t size, u64 v, u64 scale, unsigned int dec)
{
	u64 unit = scale, ten = 1;

	for (unsigned int i = 0; i < dec; i++) {
		unit /= 10;
		ten *= 10;
	}
	if (!unit)
		unit = 1;
	v = v / unit + (v % unit >= (unit + 1) / 2 && unit > 1);	/* units of 10^-dec */
	if (!dec)
		return ck_snprintf(buf, size, "%llu", (unsigned long long)v);
	return ck_snprintf(buf, size, "%llu.%0*llu", (unsigned long long)(v / ten), (int)dec,
			   (unsigned long long)(v % ten));
}

void bench_fmt_gbps(const struct bench_result *r, char *buf, size_t size)
{
	int n = bench_fmt_fixed(buf, size, r->mbps_median, 1000, 2);

	if (n >= 0 && (size_t)n < size)
		n += ck_snprintf(buf + n, size - (size_t)n, " +- ");
	if (n >= 0 && (size_t)n < size)
		bench_fmt_fixed(buf + n, size - (size_t)n, r->mbps_stddev, 1000, 2);
}

/* @q's ratio, low and high end in ppm: its own, or its parts per thousand. */
static void ratio_ppm_of(const struct ratio *q, u64 *v, u64 *lo, u64 *hi)
{
	bool ppm = q->ratio_ppm;

	*v = ppm ? q->ratio_ppm : (u64)q->ratio_pm * 1000;
	*lo = ppm ? q->lo_ppm : (u64)q->lo_pm * 1000;
	*hi = ppm ? q->hi_ppm : (u64)q->hi_pm * 1000;
}

void bench_fmt_ratio(const struct ratio *q, char *buf, size_t size)
{
	char v[24], l[24], h[24], w[24];
	u64 pv, plo, phi;

	ratio_ppm_of(q, &pv, &plo, &phi);
	bench_fmt_fixed(v, sizeof(v), pv, 1000000, 2);
	bench_fmt_fixed(l, sizeof(l), plo, 1000000, 2);
	bench_fmt_fixed(h, sizeof(h), phi, 1000000, 2);
	/* the width relative to the ratio, in ppm, as a percentage with one decimal */
	bench_fmt_fixed(w, sizeof(w), pv && phi > plo ? (phi - plo) * 1000000 / pv : 0, 10000,
			1);
	ck_snprintf(buf, size, "%sx [%s, %s] w=%s%%%s", v, l, h, w,
		    q->significant ? "" : " n.s.");
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

const char *bench_cold_method(const struct bench_env *env, const struct bench_case *c,
			      enum bench_mode m)
{
	return m != BENCH_COLD ? "none" : env->cold_flush && c->flush_bytes ? "clflushopt" :
	       env->evict ? "evict" : "none";
}

void bench_json(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		const struct bench_result *r, char *buf, size_t size)
{
	u64 reps = r->reps ? r->reps : 1;
	struct json_writer w;

	json_record(&w, buf, size, "result");
	json_str(&w, "machine", env->machine ? env->machine : "");
	json_str(&w, "api", c->api);
	json_str(&w, "primitive", c->primitive);
	json_u64(&w, "size", c->bytes);
	json_str(&w, "mode", bench_mode_name(m));
	json_str(&w, "src_node", c->src_node ? c->src_node : "node0");
	json_str(&w, "dst_node", c->dst_node ? c->dst_node : "node0");
	json_u64(&w, "runs", r->runs);
	json_u64(&w, "median_mbps", r->mbps_median);
	json_u64(&w, "mean_mbps", r->mbps_mean);
	json_u64(&w, "stddev_mbps", r->mbps_stddev);
	json_u64(&w, "min_mbps", r->mbps_min);
	json_u64(&w, "max_mbps", r->mbps_max);
	json_u64(&w, "median_ns", r->ns.median / reps);
	json_u64(&w, "q1_ns", r->ns.q1 / reps);
	json_u64(&w, "q3_ns", r->ns.q3 / reps);
	json_u64(&w, "cycles_per_byte_x1000", r->mcyc_per_byte);
	json_str(&w, "cold_method", bench_cold_method(env, c, m));
	json_u64(&w, "rounds", r->rounds);
	json_u64(&w, "k", r->k);
	json_u64(&w, "reps", r->reps);
	json_u64(&w, "disturbed", r->disturbed);
	json_u64(&w, "discarded", r->discarded);
	json_str(&w, "src_pattern", c->src_pattern ? c->src_pattern : "none");
	json_str(&w, "dst_pattern", c->dst_pattern ? c->dst_pattern : "none");
	json_noise(&w, env, r);
	json_end(&w);
}
