// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - the presets' output (see table.h): result records, comparison rows with both
 * sides against the probe's like-for-like limit, their "comparison" records.
 */
#include "bench/probe.h"
#include "bench/table.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"

#define TABLE_LINE	1536	/* a comparison record with a uarch machine label */

void table_emit(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		const struct bench_result *r)
{
	char line[TABLE_LINE];

	bench_json(env, c, m, r, line, sizeof(line));
	env->out(line);
	if (env->result)
		env->result(env, c, m, r);
}

static bool limit_said;		/* the current table's limit line is out */

void table_header(const struct bench_env *env, const char *what, const char *base,
		  const char *cand, const char *ratio)
{
	bench_outf(env, "%-14s %-7s %-16s %-16s %-34s %-9s %s", "direction", what, base, cand,
		   ratio, "%lim b/c", "rounds/dist/disc xreps placements");
	limit_said = false;
}

static const char *node_or_0(const char *node)
{
	return node ? node : "node0";
}

static const char *pattern(const char *p)
{
	return p ? p : "none";
}

/* Both sides against the probe's like-for-like limit: its name, traffic and the shares. */
static void limit_members(struct json_writer *w, const struct bench_case *a,
			  const struct bench_case *b, const struct bench_result *ra,
			  const struct bench_result *rb)
{
	const char *what;
	u64 lim = probe_limit(a, &what);

	if (!lim) {
		json_null(w, "limit");
		json_null(w, "limit_mbps");
		json_null(w, "baseline_limit_pct");
		json_null(w, "candidate_limit_pct");
		return;
	}
	json_str(w, "limit", probe_is_copy(a) ? "copy" : what);
	json_u64(w, "limit_mbps", lim);
	json_u64(w, "baseline_limit_pct", probe_share(a, ra));
	json_u64(w, "candidate_limit_pct", probe_share(b, rb));
}

/*
 * Which interval ci_lo/ci_hi are ("replication": where another run's estimate lies 95% of
 * the time, over the placements; "rounds": this run's rounds on one placement), the
 * placements ("replicas" as well where each was a fresh process), the run's pooled width it
 * was held to with the blocks' own interval (stats_ratio_widen), and the rounds' own
 * interval beside it.
 */
static void interval_members(struct json_writer *w, const struct ratio *q)
{
	json_str(w, "interval", q->replication ? "replication" : "rounds");
	json_u64(w, "placements", q->placements ? q->placements : 1);
	if (q->by_process)
		json_u64(w, "replicas", q->placements);
	if (q->min_half_ppm) {
		json_u64(w, "width_floor_ppm", q->min_half_ppm);
		json_u64(w, "ci_lo_own_ppm", q->lo_own_ppm);
		json_u64(w, "ci_hi_own_ppm", q->hi_own_ppm);
	}
	if (q->lo_round_ppm || q->hi_round_ppm) {
		json_u64(w, "ci_lo_round_x1000", (q->lo_round_ppm + 500) / 1000);
		json_u64(w, "ci_hi_round_x1000", (q->hi_round_ppm + 500) / 1000);
		json_u64(w, "ci_lo_round_ppm", q->lo_round_ppm);
		json_u64(w, "ci_hi_round_ppm", q->hi_round_ppm);
		if (q->ratio_round_ppm)
			json_u64(w, "ratio_round_ppm", q->ratio_round_ppm);
	} else {
		json_u64(w, "ci_lo_round_x1000", q->lo_pm);
		json_u64(w, "ci_hi_round_x1000", q->hi_pm);
	}
}

static void comparison_record(const struct bench_env *env, const struct bench_case *a,
			      const struct bench_case *b, enum bench_mode m,
			      const struct bench_result *ra, const struct bench_result *rb,
			      const struct ratio *q)
{
	struct json_writer w;
	char line[TABLE_LINE];

	json_record(&w, line, sizeof(line), "comparison");
	json_str(&w, "machine", env->machine ? env->machine : "");
	json_str(&w, "api", a->api);
	json_u64(&w, "size", a->bytes);
	json_str(&w, "mode", bench_mode_name(m));
	json_str(&w, "baseline", a->primitive);
	json_str(&w, "candidate", b->primitive);
	json_str(&w, "src_node", node_or_0(a->src_node));
	json_str(&w, "dst_node", node_or_0(a->dst_node));
	json_u64(&w, "ratio_x1000", q->ratio_pm);
	json_u64(&w, "ci_lo_x1000", q->lo_pm);
	json_u64(&w, "ci_hi_x1000", q->hi_pm);
	json_bool(&w, "significant", q->significant);
	if (q->ratio_ppm) {
		json_u64(&w, "ratio_ppm", q->ratio_ppm);
		json_u64(&w, "ci_lo_ppm", q->lo_ppm);
		json_u64(&w, "ci_hi_ppm", q->hi_ppm);
	}
	interval_members(&w, q);
	json_str(&w, "method", q->replication ? "mean-of-block-medians" :
		 "median-of-round-ratios");
	json_u64(&w, "rounds", ra->rounds);
	json_u64(&w, "k", ra->k);
	json_u64(&w, "reps", ra->reps);
	json_u64(&w, "disturbed", ra->disturbed);
	json_u64(&w, "discarded", ra->discarded);
	json_str(&w, "cold_method", bench_cold_method(env, a, m));
	json_str(&w, "src_pattern", pattern(a->src_pattern));
	json_str(&w, "dst_pattern", pattern(a->dst_pattern));
	json_str(&w, "candidate_src_pattern", pattern(b->src_pattern));
	if (a->cpu1)
		json_u64(&w, "cpu", a->cpu1 - 1);
	else
		json_null(&w, "cpu");
	limit_members(&w, a, b, ra, rb);
	json_end(&w);
	env->out(line);
}

/* The row's "%lim b/c" column: "74/78%", or "-" when nothing was probed. */
static void limit_column(const struct bench_case *a, const struct bench_case *b,
			 const struct bench_result *ra, const struct bench_result *rb, char *buf,
			 size_t size)
{
	const char *what;

	if (!probe_limit(a, &what))
		ck_snprintf(buf, size, "-");
	else
		ck_snprintf(buf, size, "%llu/%llu%%", (unsigned long long)probe_share(a, ra),
			    (unsigned long long)probe_share(b, rb));
}

void table_row(const struct bench_env *env, const struct bench_case *a,
	       const struct bench_case *b, enum bench_mode m, const struct bench_result *ra,
	       const struct bench_result *rb, const struct ratio *q)
{
	char sz[16], ga[40], gb[40], rr[64], dir[32], na[64], nb[64], lc[24], lim[400];
	char placed[16];

	table_emit(env, a, m, ra);
	table_emit(env, b, m, rb);
	bench_fmt_size(a->bytes, sz, sizeof(sz));
	bench_fmt_gbps(ra, ga, sizeof(ga));
	bench_fmt_gbps(rb, gb, sizeof(gb));
	bench_fmt_ratio(q, rr, sizeof(rr));
	ck_snprintf(dir, sizeof(dir), "%s->%s", node_or_0(a->src_node), node_or_0(a->dst_node));
	bench_fmt_noise(ra, na, sizeof(na));
	bench_fmt_noise(rb, nb, sizeof(nb));
	limit_column(a, b, ra, rb, lc, sizeof(lc));
	ck_snprintf(placed, sizeof(placed), "%s=%u%s", q->by_process ? "R" : "P", q->placements,
		    q->widened ? "+" : "");
	probe_fmt_limit(a, lim, sizeof(lim));
	if (!limit_said && lim[0])
		env->out(lim);
	limit_said = limit_said || lim[0];
	bench_outf(env, "%-14s %-7s %-16s %-16s %-34s %-9s %u/%u/%u x%u %s%s%s%s", dir, sz, ga,
		   gb, rr, lc, ra->rounds, ra->disturbed, ra->discarded, ra->reps,
		   q->replication ? placed : "P=1 (rounds' CI only)", na, nb[0] ? " |" : "", nb);
	comparison_record(env, a, b, m, ra, rb, q);
}
