// SPDX-License-Identifier: GPL-2.0-only
/*
 * parallel.c - the `parallel` preset (see parallel.h): per-CPU buffers, the rounds of a
 * step and its summary, the scaling curves. Integer arithmetic only (throughputs in MB/s,
 * scaling in parts per thousand); no threads: CPUs are run through the caller's par_ops.
 * What a step prints (row, record, LAVA line) is bench/parallel_out.c's.
 */
#include "bench/parallel.h"
#include "bench/parallel_out.h"
#include "bench/stats.h"
#include "copy/ops.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/page.h"

/* A CPU's buffers and whether it still takes part. */
struct par_cpu {
	u8 *src, *dst;
	unsigned int node;
	bool ready;
};

/* What fn records on its CPU, one cache line each so the CPUs do not share lines. */
struct par_slot {
	u64 start, stop;
	u32 done;
} __aligned(64);

struct par_work {
	const struct par_ops *ops;
	enum par_prim prim;
	const unsigned int *cpus;
	u64 bytes;
	bool fill;
};

static struct par_cpu pcpu[PAR_MAX_CPUS];
/*
 * Scratch from ops->alloc (not static: the image keeps its .bss in the file), sized for the
 * CPUs there are: a slot per CPU, every round's per-CPU MB/s, and one JSON line.
 */
static struct par_slot *slot;
static u32 *round_mbps;			/* [round * nr_pcpu + i] */
static char *json_line;
static size_t json_size;
static unsigned int nr_pcpu;
static u64 par_bytes;

static bool is_clear(enum par_prim p)
{
	return p == PAR_CLEAR_PAGE || p == PAR_CLEAR_PAGES;
}

/* The primitive over one CPU's buffers, as the rfc preset's per-page and batched forms. */
static void run_prim(enum par_prim p, u8 *dst, const u8 *src, u64 bytes)
{
	switch (p) {
	case PAR_COPY_PAGE:
		for (u64 o = 0; o < bytes; o += PAGE_SIZE)
			copy_page(dst + o, src + o);
		break;
	case PAR_MEMCPY:
		copy_ops.memcpy(dst, src, bytes);
		break;
	case PAR_COPY_MC:
		copy_mc_to_kernel(dst, src, bytes);
		break;
	case PAR_CLEAR_PAGE:
		for (u64 o = 0; o < bytes; o += PAGE_SIZE)
			clear_page(dst + o);
		break;
	default:
		clear_pages(dst, bytes >> PAGE_SHIFT);
		break;
	}
}

/* Pseudo-random source bytes (xorshift64, seeded per CPU), a destination touched. */
static void fill(u8 *src, u8 *dst, u64 bytes, unsigned int cpu)
{
	u64 *w = (u64 *)src, x = 0x9e3779b97f4a7c15ULL ^ ((u64)cpu << 32) ^ bytes;

	for (u64 i = 0; i < bytes / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
	memset(dst, 0, bytes);
}

/* Runs on CPU cpus[i]: exactly two clock reads around the primitive. */
static void par_fn(void *arg, unsigned int i)
{
	struct par_work *w = arg;
	struct par_cpu *c = &pcpu[w->cpus[i]];
	struct par_slot *s = &slot[i];

	if (w->fill) {
		fill(c->src, c->dst, w->bytes, w->cpus[i]);
	} else {
		s->start = w->ops->clock(w->ops->ctx);
		run_prim(w->prim, c->dst, c->src, w->bytes);
		s->stop = w->ops->clock(w->ops->ctx);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

/*
 * One release of @n CPUs. Returns 0, or the error with the CPUs that did not record their
 * part (done, and a stop not before the start) in @failed.
 */
static int one_round(struct par_work *w, unsigned int n, unsigned int *failed,
		     unsigned int *nr_failed)
{
	int err;

	for (unsigned int i = 0; i < n; i++)
		slot[i] = (struct par_slot){ 0 };
	err = w->ops->run(w->ops->ctx, w->cpus, n, par_fn, w);
	*nr_failed = 0;
	for (unsigned int i = 0; i < n; i++)
		if (!__atomic_load_n(&slot[i].done, __ATOMIC_ACQUIRE) ||
		    (!w->fill && slot[i].stop < slot[i].start))
			failed[(*nr_failed)++] = w->cpus[i];
	if (!err && *nr_failed)
		err = -PAR_EIO;
	if (err && !*nr_failed)		/* run failed, yet every CPU says it finished */
		for (unsigned int i = 0; i < n; i++)
			failed[(*nr_failed)++] = w->cpus[i];
	return err;
}

/* @bytes over @ticks of a @hz clock in MB/s (10^6 B/s), without overflowing u64. */
static u64 ticks_mbps(u64 bytes, u64 ticks, u64 hz)
{
	u64 khz = hz / 1000;

	if (!ticks || !khz)
		return 0;
	if (bytes > ~0ULL / khz)
		return bytes / ticks * khz / 1000;
	return bytes * khz / ticks / 1000;
}

static u64 ticks_ns(u64 ticks, u64 hz)
{
	u64 khz = hz / 1000;

	if (!khz)
		return 0;
	if (ticks > ~0ULL / 1000000)
		return ticks / khz * 1000000;
	return ticks * 1000000 / khz;
}

static unsigned int cpu_node(const struct par_ops *ops, unsigned int cpu)
{
	int node = ops->cpu_node ? ops->cpu_node(ops->ctx, cpu) : 0;

	return node < 0 || node >= PAR_MAX_NODES ? 0 : (unsigned int)node;
}

static void name_failed(const struct par_config *cfg, const char *when, int err,
			const unsigned int *failed, unsigned int nr_failed)
{
	for (unsigned int i = 0; i < nr_failed; i++) {
		pcpu[failed[i]].ready = false;
		par_outf(cfg, "parallel: CPU %u (node %u) did not run its part %s (error %d%s): "
			 "left out from here on", par_cpu_id(cfg->ops, failed[i]),
			 pcpu[failed[i]].node, when, err,
			 err == -PAR_ETIMEDOUT ? ", timed out" : "");
	}
}

unsigned int par_setup(const struct par_config *cfg)
{
	static unsigned int cpus[PAR_MAX_CPUS], failed[PAR_MAX_CPUS];
	const struct par_ops *ops = cfg->ops;
	struct par_work w = { .ops = ops, .cpus = cpus, .fill = true };
	unsigned int n = 0, nr_failed;
	int err;

	par_bytes = ALIGN_UP(cfg->bytes ? cfg->bytes : PAR_DEFAULT_BYTES, PAGE_SIZE);
	w.bytes = par_bytes;
	nr_pcpu = MIN(ops->nr_cpus, (unsigned int)PAR_MAX_CPUS);
	if (ops->nr_cpus > PAR_MAX_CPUS)
		par_outf(cfg, "parallel: %u CPUs, the first %u are used (PAR_MAX_CPUS)",
			 ops->nr_cpus, PAR_MAX_CPUS);
	for (unsigned int c = 0; c < nr_pcpu; c++) {
		struct par_cpu *p = &pcpu[c];

		p->node = cpu_node(ops, c);
		p->src = ops->alloc(ops->ctx, p->node, par_bytes);
		p->dst = p->src ? ops->alloc(ops->ctx, p->node, par_bytes) : NULL;
		p->ready = p->src && p->dst;
		if (!p->ready)
			par_outf(cfg, "parallel: CPU %u: no memory for 2 x %llu KiB on node %u: "
				 "left out", par_cpu_id(ops, c),
				 (unsigned long long)par_bytes >> 10, p->node);
		else
			cpus[n++] = c;
	}
	if (!n)
		return 0;
	/* Room for every CPU's id and figure in a JSON line: 11 + 21 characters each at most. */
	json_size = (size_t)nr_pcpu * 34 + 1024;
	slot = ops->alloc(ops->ctx, pcpu[cpus[0]].node, (u64)nr_pcpu * sizeof(*slot) +
			  (u64)PAR_MAX_ROUNDS * nr_pcpu * sizeof(*round_mbps) + json_size);
	if (!slot) {
		par_outf(cfg, "parallel: no memory for the results of %u CPUs", nr_pcpu);
		for (unsigned int i = 0; i < n; i++)
			pcpu[cpus[i]].ready = false;
		return 0;
	}
	round_mbps = (u32 *)(slot + nr_pcpu);
	json_line = (char *)(round_mbps + PAR_MAX_ROUNDS * nr_pcpu);
	/* Each CPU fills its own buffers: first touch, and a first run of every CPU. */
	err = one_round(&w, n, failed, &nr_failed);
	if (err)
		name_failed(cfg, "when filling its buffers", err, failed, nr_failed);
	return n - nr_failed;
}

static u64 median_of(u64 *v, unsigned int n, struct stats *st)
{
	stats_compute(v, n, st);
	return st->median;
}

void par_measure(const struct par_config *cfg, enum par_prim p, const unsigned int *cpus,
		 unsigned int n, struct par_step *st)
{
	const struct par_ops *ops = cfg->ops;
	unsigned int rounds = cfg->rounds ? cfg->rounds : PAR_DEFAULT_ROUNDS;
	struct par_work w = { .ops = ops, .prim = p, .cpus = cpus, .bytes = par_bytes };
	u64 agg[PAR_MAX_ROUNDS], skew[PAR_MAX_ROUNDS], end[PAR_MAX_ROUNDS], v[PAR_MAX_ROUNDS];
	struct stats s;

	rounds = MIN(rounds, (unsigned int)PAR_MAX_ROUNDS);
	n = MIN(n, (unsigned int)PAR_MAX_CPUS);
	st->prim = p;
	st->n = n;
	st->bytes = par_bytes;
	st->err = 0;
	st->nr_failed = 0;
	st->rounds = 0;
	st->agg_mbps = st->agg_min_mbps = st->agg_max_mbps = st->skew_ns = st->end_skew_ns = 0;
	st->scaling_pm = 0;
	for (unsigned int i = 0; i < n; i++) {
		st->cpus[i] = cpus[i];
		st->per_cpu_mbps[i] = 0;
	}
	for (unsigned int r = 0; r <= rounds; r++) {	/* round 0: the warm-up */
		u64 first = ~0ULL, last = 0, last_start = 0, first_stop = ~0ULL;

		st->err = one_round(&w, n, st->failed, &st->nr_failed);
		if (st->err)
			return;
		if (!r)
			continue;
		for (unsigned int i = 0; i < n; i++) {
			u64 mb = ticks_mbps(par_bytes, slot[i].stop - slot[i].start, ops->clock_hz);

			round_mbps[st->rounds * nr_pcpu + i] = (u32)MIN(mb, (u64)~0U);
			first = MIN(first, slot[i].start);
			last = MAX(last, slot[i].stop);
			last_start = MAX(last_start, slot[i].start);
			first_stop = MIN(first_stop, slot[i].stop);
		}
		agg[st->rounds] = ticks_mbps(par_bytes * n, last - first, ops->clock_hz);
		skew[st->rounds] = ticks_ns(last_start - first, ops->clock_hz);
		end[st->rounds] = ticks_ns(last - first_stop, ops->clock_hz);
		st->rounds++;
	}
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int r = 0; r < st->rounds; r++)
			v[r] = round_mbps[r * nr_pcpu + i];
		st->per_cpu_mbps[i] = median_of(v, st->rounds, &s);
	}
	st->agg_mbps = median_of(agg, st->rounds, &s);
	st->agg_min_mbps = s.min;
	st->agg_max_mbps = s.max;
	st->skew_ns = median_of(skew, st->rounds, &s);
	st->end_skew_ns = median_of(end, st->rounds, &s);
}

unsigned int par_counts(unsigned int nr, unsigned int *counts, unsigned int max)
{
	unsigned int k = 0, c;

	for (c = 1; c <= nr && k < max; c *= 2)
		counts[k++] = c;
	if (k && counts[k - 1] != nr && k < max)
		counts[k++] = nr;
	return k;
}

/* Scaling in parts per thousand: @agg / (@n x @single), rounded. */
static u32 scaling_pm(u64 agg, u64 single, unsigned int n)
{
	u64 d = single * n;

	return d ? (u32)MIN((agg * 1000 + d / 2) / d, (u64)~0U) : 0;
}

/*
 * The CPUs of a group that are still ready, in the group's order: machine-wide (@node < 0)
 * round-robin over the nodes (the k-th CPU of every node before any node's (k+1)-th), else
 * @node's CPUs in order.
 */
static unsigned int group_cpus(int node, unsigned int *out)
{
	unsigned int n = 0;

	if (node >= 0) {
		for (unsigned int c = 0; c < nr_pcpu; c++)
			if (pcpu[c].ready && pcpu[c].node == (unsigned int)node)
				out[n++] = c;
		return n;
	}
	for (unsigned int k = 0;; k++) {
		unsigned int added = 0;

		for (unsigned int nd = 0; nd < PAR_MAX_NODES; nd++) {
			unsigned int seen = 0;

			for (unsigned int c = 0; c < nr_pcpu; c++) {
				if (!pcpu[c].ready || pcpu[c].node != nd)
					continue;
				if (seen++ == k) {
					out[n++] = c;
					added++;
					break;
				}
			}
		}
		if (!added)
			return n;
	}
}

/*
 * One group's curve: 1, 2, 4 ... CPUs and all of them. The plan is made again before every
 * step over the CPUs still ready, so after a failure the curve goes on with those left and
 * still ends with all of them.
 */
static unsigned int curve(const struct par_config *cfg, enum par_prim p, int node)
{
	static struct par_step st;
	static unsigned int cpus[PAR_MAX_CPUS];
	unsigned int counts[32], good = 0, last = 0;
	u64 single = 0;

	for (;;) {
		unsigned int nc = par_counts(group_cpus(node, cpus), counts, ARRAY_SIZE(counts));
		unsigned int k = 0;

		while (k < nc && counts[k] <= last)
			k++;
		if (k == nc)
			return good;
		last = counts[k];
		par_measure(cfg, p, cpus, last, &st);
		st.node = node;
		if (st.err) {
			name_failed(cfg, "in a step", st.err, st.failed, st.nr_failed);
		} else {
			if (last == 1)
				single = st.agg_mbps;
			st.scaling_pm = scaling_pm(st.agg_mbps, single, last);
			good++;
		}
		par_emit(cfg, &st, single, json_line, json_size);
	}
}

unsigned int bench_parallel(const struct par_config *cfg)
{
	const struct par_ops *ops = cfg->ops;
	unsigned int ready = par_setup(cfg), nodes = 0, good = 0;
	unsigned int per_node[PAR_MAX_NODES] = { 0 };

	for (unsigned int c = 0; c < nr_pcpu; c++)
		if (pcpu[c].ready && !per_node[pcpu[c].node]++)
			nodes++;
	if (!ready) {
		par_outf(cfg, "parallel: no CPU could run (memory or no answer): nothing measured");
		return 0;
	}
	par_outf(cfg, "parallel: %u CPU%s on %u node%s, 2 x %llu KiB per CPU on its node; %u "
		 "rounds a step after a warm-up round; clock %llu kHz", ready,
		 ready == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s",
		 (unsigned long long)par_bytes >> 10,
		 MIN(cfg->rounds ? cfg->rounds : PAR_DEFAULT_ROUNDS, (unsigned int)PAR_MAX_ROUNDS),
		 (unsigned long long)ops->clock_hz / 1000);
	par_outf(cfg, "parallel: per CPU = bytes / its own interval; aggregate = all bytes / (last "
		 "stop - first start); medians over the rounds, [min, max] round; scaling = "
		 "aggregate / (n x 1 CPU's); skew = last start - first start / last stop - first "
		 "stop (medians)");
	for (unsigned int nd = 0; nd < PAR_MAX_NODES; nd++)
		if (per_node[nd])
			par_outf(cfg, "parallel: node %u: %u CPU%s", nd, per_node[nd],
				 per_node[nd] == 1 ? "" : "s");
	if (nodes == 1)
		par_outf(cfg, "parallel: one node: the machine-wide curve is the node's");
	for (int p = 0; p < NR_PAR_PRIMS; p++) {
		cfg->out("");
		par_outf(cfg, "parallel %s (dispatch: %s), GB/s of data %s (10^9 B/s)",
			 par_prim_name(p), par_prim_routine(p),
			 is_clear(p) ? "cleared" : "copied (traffic is twice)");
		par_outf(cfg, "%-6s %-5s %-27s %-8s %-18s %s", "group", "cpus",
			 "aggregate GB/s [min, max]", "scaling", "skew us start/end",
			 "per-CPU GB/s (median)");
		good += curve(cfg, (enum par_prim)p, -1);
		if (nodes > 1)
			for (unsigned int nd = 0; nd < PAR_MAX_NODES; nd++)
				if (per_node[nd])
					good += curve(cfg, (enum par_prim)p, (int)nd);
	}
	return good;
}
