// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - the presets' output (see table.h): result records, comparison rows and their
 * "comparison" records.
 */
#include "bench/probe.h"
#include "bench/table.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"

#define TABLE_LINE	1024

void table_emit(const struct bench_env *env, const struct bench_case *c, enum bench_mode m,
		const struct bench_result *r)
{
	char line[TABLE_LINE];

	bench_json(env, c, m, r, line, sizeof(line));
	env->out(line);
	if (env->result)
		env->result(env, c, m, r);
}

void table_header(const struct bench_env *env, const char *what, const char *base,
		  const char *cand, const char *ratio)
{
	bench_outf(env, "%-14s %-7s %-16s %-16s %-34s %s", "direction", what, base, cand, ratio,
		   "rounds/dist/disc xreps");
}

static const char *node_or_0(const char *node)
{
	return node ? node : "node0";
}

static const char *pattern(const char *p)
{
	return p ? p : "none";
}

static void comparison_record(const struct bench_env *env, const struct bench_case *a,
			      const struct bench_case *b, enum bench_mode m,
			      const struct bench_result *ra, const struct ratio *q)
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
	json_str(&w, "method", "median-of-round-ratios");
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
	json_end(&w);
	env->out(line);
}

/* Both sides of a large case as a share of the probe's limit. */
static void share_line(const struct bench_env *env, const struct bench_case *a,
		       const struct bench_case *b, const struct bench_result *ra,
		       const struct bench_result *rb)
{
	bool copy = probe_is_copy(a);
	u64 lim = copy ? probe_copy_limit() : probe_write_limit();

	if (!probe_pct(a, ra))
		return;
	bench_outf(env, "as %% of this machine's measured %s bandwidth (%llu.%02llu GB/s of "
		   "traffic): %s %llu%%, %s %llu%%", copy ? "copy" : "write",
		   (unsigned long long)lim / 1000, (unsigned long long)(lim % 1000) / 10,
		   a->primitive, (unsigned long long)probe_pct(a, ra), b->primitive,
		   (unsigned long long)probe_pct(b, rb));
}

void table_row(const struct bench_env *env, const struct bench_case *a,
	       const struct bench_case *b, enum bench_mode m, const struct bench_result *ra,
	       const struct bench_result *rb, const struct ratio *q)
{
	char sz[16], ga[40], gb[40], rr[64], dir[32], na[64], nb[64];

	table_emit(env, a, m, ra);
	table_emit(env, b, m, rb);
	bench_fmt_size(a->bytes, sz, sizeof(sz));
	bench_fmt_gbps(ra, ga, sizeof(ga));
	bench_fmt_gbps(rb, gb, sizeof(gb));
	bench_fmt_ratio(q, rr, sizeof(rr));
	ck_snprintf(dir, sizeof(dir), "%s->%s", node_or_0(a->src_node), node_or_0(a->dst_node));
	bench_fmt_noise(ra, na, sizeof(na));
	bench_fmt_noise(rb, nb, sizeof(nb));
	bench_outf(env, "%-14s %-7s %-16s %-16s %-34s %u/%u/%u x%u%s%s%s", dir, sz, ga, gb, rr,
		   ra->rounds, ra->disturbed, ra->discarded, ra->reps, na, nb[0] ? " |" : "", nb);
	comparison_record(env, a, b, m, ra, q);
	share_line(env, a, b, ra, rb);
}
