// SPDX-License-Identifier: GPL-2.0-only
/*
 * parallel_out.c - the parallel preset's output (see parallel_out.h): the primitives' names,
 * table rows, "parallel" records through the JSON writer, LAVA lines. Integer arithmetic
 * only.
 */
#include "bench/parallel_out.h"
#include "copy/ops.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"

static const char *const prim_names[NR_PAR_PRIMS] = {
	"copy_page", "memcpy", "copy_mc_to_kernel", "clear_page", "clear_pages",
};

const char *par_prim_name(enum par_prim p)
{
	return p < NR_PAR_PRIMS ? prim_names[p] : "?";
}

/* The routine the primitive resolves to through copy_ops (dispatch or an override). */
const char *par_prim_routine(enum par_prim p)
{
	const struct copy_dispatch *d = &copy_ops.choice;

	switch (p) {
	case PAR_COPY_PAGE:
		return copy_page_impl_names[d->copy_page];
	case PAR_MEMCPY:
		return memcpy_impl_names[d->memcpy];
	case PAR_COPY_MC:
		return copy_mc_impl_names[d->copy_mc];
	case PAR_CLEAR_PAGE:
	case PAR_CLEAR_PAGES:
		return clear_page_impl_names[d->clear_page];
	default:
		return "?";
	}
}

void par_outf(const struct par_config *cfg, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	ck_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	cfg->out(line);
}

unsigned int par_cpu_id(const struct par_ops *ops, unsigned int cpu)
{
	return ops->cpu_id ? ops->cpu_id(ops->ctx, cpu) : cpu;
}

/* "12.34" GB/s from MB/s into @buf; returns the length. */
static int fmt_gbps(u64 mbps, char *buf, size_t size)
{
	return ck_snprintf(buf, size, "%llu.%02llu", (unsigned long long)mbps / 1000,
			   (unsigned long long)(mbps % 1000) / 10);
}

/* The per-CPU column: the first eight CPUs' medians, then " ...". */
static void per_cpu_col(const struct par_step *st, char *per, size_t size)
{
	size_t k = 0;

	per[0] = 0;
	for (unsigned int i = 0; i < st->n && k + 12 < size; i++) {
		if (i == 8) {
			ck_snprintf(per + k, size - k, " ...");
			break;
		}
		if (i)
			per[k++] = ' ';
		k += (size_t)fmt_gbps(st->per_cpu_mbps[i], per + k, size - k);
	}
}

static void row(const struct par_config *cfg, const struct par_step *st, const char *node)
{
	char agg[16], lo[16], hi[16], col[48], per[96], sc[16], skews[48];

	if (st->err) {
		par_outf(cfg, "%-6s %-5u failed: error %d%s, %u CPU%s did not run (named above)",
			 node, st->n, st->err, st->err == -PAR_ETIMEDOUT ? " (timed out)" : "",
			 st->nr_failed, st->nr_failed == 1 ? "" : "s");
		return;
	}
	fmt_gbps(st->agg_mbps, agg, sizeof(agg));
	fmt_gbps(st->agg_min_mbps, lo, sizeof(lo));
	fmt_gbps(st->agg_max_mbps, hi, sizeof(hi));
	ck_snprintf(col, sizeof(col), "%s [%s, %s]", agg, lo, hi);
	per_cpu_col(st, per, sizeof(per));
	ck_snprintf(sc, sizeof(sc), "%u.%03u", st->scaling_pm / 1000, st->scaling_pm % 1000);
	ck_snprintf(skews, sizeof(skews), "%llu.%llu/%llu.%llu",
		    (unsigned long long)st->skew_ns / 1000,
		    (unsigned long long)(st->skew_ns % 1000) / 100,
		    (unsigned long long)st->end_skew_ns / 1000,
		    (unsigned long long)(st->end_skew_ns % 1000) / 100);
	par_outf(cfg, "%-6s %-5u %-27s %-8s %-18s %s", node, st->n, col,
		 st->scaling_pm ? sc : "-", skews, per);
}

/* A list of CPU numbers as the caller prints them. */
static void cpu_list(struct json_writer *w, const struct par_ops *ops, const char *key,
		     const unsigned int *cpus, unsigned int n)
{
	json_arr_begin(w, key);
	for (unsigned int i = 0; i < n; i++)
		json_u64(w, NULL, par_cpu_id(ops, cpus[i]));
	json_arr_end(w);
}

/* The figures of a step that ran. */
static void record_figures(struct json_writer *w, const struct par_config *cfg,
			   const struct par_step *st, u64 single)
{
	json_arr_begin(w, "per_cpu_mbps");
	for (unsigned int i = 0; i < st->n; i++)
		json_u64(w, NULL, st->per_cpu_mbps[i]);
	json_arr_end(w);
	json_u64(w, "aggregate_mbps", st->agg_mbps);
	json_u64(w, "aggregate_min_mbps", st->agg_min_mbps);
	json_u64(w, "aggregate_max_mbps", st->agg_max_mbps);
	json_u64(w, "single_cpu_mbps", single);
	if (st->scaling_pm)
		json_fixed(w, "scaling", st->scaling_pm, 3);
	else
		json_null(w, "scaling");	/* no single-CPU figure to scale by */
	json_u64(w, "skew_ns", st->skew_ns);
	json_u64(w, "end_skew_ns", st->end_skew_ns);
	json_u64(w, "rounds", st->rounds);
	json_u64(w, "clock_hz", cfg->ops->clock_hz);
	json_str(w, "method", "union-of-intervals");
	json_null(w, "error");
}

static void record(const struct par_config *cfg, const struct par_step *st, u64 single,
		   char *line, size_t size)
{
	struct json_writer w;

	json_record(&w, line, size, "parallel");
	json_str(&w, "preset", "parallel");
	json_str(&w, "machine", cfg->machine ? cfg->machine : "");
	json_str(&w, "primitive", par_prim_name(st->prim));
	json_str(&w, "routine", par_prim_routine(st->prim));
	json_u64(&w, "bytes_per_cpu", st->bytes);
	json_u64(&w, "nr_cpus", st->n);
	if (st->node < 0)
		json_str(&w, "node", "all");
	else
		json_s64(&w, "node", st->node);
	cpu_list(&w, cfg->ops, "cpus", st->cpus, st->n);
	if (st->err) {
		cpu_list(&w, cfg->ops, "failed_cpus", st->failed, st->nr_failed);
		json_s64(&w, "error", st->err);
	} else {
		record_figures(&w, cfg, st, single);
	}
	json_end(&w);
	cfg->out(line);
}

void par_emit(const struct par_config *cfg, const struct par_step *st, u64 single,
	      char *line, size_t size)
{
	char node[16], id[96], prim[32];

	if (st->node < 0)
		ck_snprintf(node, sizeof(node), "all");
	else
		ck_snprintf(node, sizeof(node), "node%d", st->node);
	row(cfg, st, node);
	record(cfg, st, single, line, size);
	if (!cfg->lava)
		return;
	ck_slug(prim, sizeof(prim), par_prim_name(st->prim));
	ck_snprintf(id, sizeof(id), "bench.parallel.%s.%s.n%u", prim, node, st->n);
	if (st->err)
		par_outf(cfg, "# ck-lava <%s fail>", id);
	else
		par_outf(cfg, "# ck-lava <%s pass %llu MB/s>", id,
			 (unsigned long long)st->agg_mbps);
}
