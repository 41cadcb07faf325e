// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan.c - which CPU soaks which memory (soak/plan.h has the rules).
 */
#include "kernel/include/page_types.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "soak/plan.h"

static void note(struct soak_plan *p, enum soak_note_kind kind, u64 a, u64 b, u64 c)
{
	if (p->nr_notes < SOAK_MAX_NOTES)
		p->note[p->nr_notes++] = (struct soak_note){ kind, a, b, c };
}

static const char *check_input(const struct soak_plan_in *in)
{
	u64 cs = in->chunk_bytes;

	if (!in->nr_nodes || in->nr_nodes > NUMA_MAX_NODES)
		return "node count not 1..8";
	if (!in->nr_cpus)
		return "no CPU to soak with";
	if (in->nr_cpus > SOAK_MAX_CPUS)
		return "more than 1024 CPUs";
	if (in->nr_ranges > SOAK_MAX_RANGES)
		return "more than 128 free ranges";
	if (cs && (cs < SOAK_CHUNK_MIN || cs > SOAK_CHUNK_MAX || (cs & (cs - 1))))
		return "chunk size not a power of two from 1 MiB to 1 GiB";
	for (unsigned int i = 0; i < in->nr_cpus; i++)
		if (in->cpu_node[i] >= in->nr_nodes)
			return "a CPU's node is beyond the node count";
	return NULL;
}

/* Copy the ranges trimmed to whole pages, sorted by address; NULL or why not. */
static const char *take_ranges(const struct soak_plan_in *in, struct soak_plan *p, u64 *trim)
{
	for (unsigned int i = 0; i < in->nr_ranges; i++) {
		const struct soak_range *r = &in->ranges[i];
		u64 lo, hi;
		unsigned int j;

		if (r->node >= in->nr_nodes)
			return "a free range's node is beyond the node count";
		if (r->base + r->size < r->base)
			return "a free range wraps past 2^64";
		p->free_bytes += r->size;
		lo = ALIGN_UP(r->base, PAGE_SIZE);
		hi = ALIGN_DOWN(r->base + r->size, PAGE_SIZE);
		if (lo >= hi) {
			*trim += r->size;
			continue;
		}
		*trim += r->size - (hi - lo);
		p->free_pages += (hi - lo) >> PAGE_SHIFT;
		for (j = p->nr_ranges; j > 0 && p->range[j - 1].base > lo; j--)
			p->range[j] = p->range[j - 1];
		p->range[j] = (struct soak_range){ lo, hi - lo, r->node };
		p->nr_ranges++;
	}
	for (unsigned int i = 1; i < p->nr_ranges; i++)
		if (p->range[i].base < p->range[i - 1].base + p->range[i - 1].size)
			return "free ranges overlap";
	return NULL;
}

/* A node with memory and no CPU: the node whose CPUs work it. */
static void adopt(const struct soak_plan_in *in, struct soak_plan *p, unsigned int c)
{
	unsigned int best = NUMA_MAX_NODES, lowest = NUMA_MAX_NODES;

	for (unsigned int m = 0; m < p->nr_nodes; m++) {
		if (!p->node[m].nr_cpus)
			continue;
		if (lowest == NUMA_MAX_NODES)
			lowest = m;
		if (in->distance && in->distance[m][c] != SOAK_DISTANCE_UNREACHABLE &&
		    (best == NUMA_MAX_NODES || in->distance[m][c] < in->distance[best][c]))
			best = m;
	}
	if (best < NUMA_MAX_NODES) {
		p->node[c].by = SOAK_BY_SLIT;
		p->node[c].worker = (u8)best;
		note(p, SOAK_NOTE_SLIT, c, best, in->distance[best][c]);
		return;
	}
	p->node[c].by = SOAK_BY_NODE_ORDER;
	p->node[c].worker = (u8)lowest;
	note(p, in->distance ? SOAK_NOTE_UNREACHABLE : SOAK_NOTE_NO_SLIT, c, lowest, 0);
}

int soak_plan_make(const struct soak_plan_in *in, struct soak_plan *p, const char **why)
{
	u64 trim = 0;

	memset(p, 0, sizeof(*p));
	*why = check_input(in);
	if (!*why)
		*why = take_ranges(in, p, &trim);
	if (*why)
		return -1;
	p->nr_nodes = in->nr_nodes;
	p->nr_cpus = in->nr_cpus;
	p->chunk_bytes = in->chunk_bytes ? in->chunk_bytes : SOAK_CHUNK_DEFAULT;
	for (unsigned int i = 0; i < p->nr_ranges; i++)
		p->node[p->range[i].node].pages += p->range[i].size >> PAGE_SHIFT;
	for (unsigned int i = 0; i < in->nr_cpus; i++) {
		p->cpu_node[i] = in->cpu_node[i];
		p->cpu_rank[i] = p->node[in->cpu_node[i]].nr_cpus++;
	}
	for (unsigned int c = 0; c < p->nr_nodes; c++) {
		struct soak_plan_node *n = &p->node[c];

		if (!n->pages) {
			if (n->nr_cpus)
				note(p, SOAK_NOTE_IDLE, c, n->nr_cpus, 0);
			continue;
		}
		if (n->nr_cpus) {
			n->by = SOAK_BY_OWN;
			n->worker = (u8)c;
		} else {
			adopt(in, p, c);
		}
		p->covered_pages += n->pages;
	}
	p->covered_bytes = p->covered_pages << PAGE_SHIFT;
	if (trim)
		note(p, SOAK_NOTE_TRIMMED, 0, 0, trim);
	return 0;
}

/*
 * A CPU's share of node @c is the node's pages [lo, hi), counted in address order over its
 * ranges; each range it touches gives one piece. *@idx counts down the pieces still to
 * skip: the piece where it reaches zero goes to @s.
 */
static bool share_piece(const struct soak_plan *p, unsigned int c, u64 lo, u64 hi,
			unsigned int *idx, struct soak_slice *s)
{
	u64 at = 0;	/* pages of node c before range i */

	for (unsigned int i = 0; i < p->nr_ranges && at < hi; i++) {
		const struct soak_range *r = &p->range[i];
		u64 n = r->size >> PAGE_SHIFT, from, to;

		if (r->node != c)
			continue;
		from = MAX(lo, at);
		to = MIN(hi, at + n);
		if (from < to && (*idx)-- == 0) {
			s->base = r->base + ((from - at) << PAGE_SHIFT);
			s->size = (to - from) << PAGE_SHIFT;
			s->node = (u8)c;
			return true;
		}
		at += n;
	}
	return false;
}

bool soak_plan_slice(const struct soak_plan *p, unsigned int cpu, unsigned int idx,
		     struct soak_slice *s)
{
	unsigned int m, r, n;

	if (cpu >= p->nr_cpus)
		return false;
	m = p->cpu_node[cpu];
	r = p->cpu_rank[cpu];
	n = p->node[m].nr_cpus;
	for (unsigned int c = 0; c < p->nr_nodes; c++) {
		const struct soak_plan_node *node = &p->node[c];

		if (node->by == SOAK_BY_NOBODY || node->worker != m)
			continue;
		if (share_piece(p, c, node->pages * r / n, node->pages * (r + 1) / n, &idx, s))
			return true;
	}
	return false;
}

u64 soak_chunk_end(const struct soak_plan *p, const struct soak_slice *s, u64 at)
{
	u64 next = ALIGN_DOWN(at, p->chunk_bytes) + p->chunk_bytes;

	return MIN(next, s->base + s->size);
}

void soak_plan_note_text(const struct soak_plan *p, unsigned int i, char *buf, size_t size)
{
	const struct soak_note *n;
	unsigned long long a, b, c;

	if (i >= p->nr_notes) {
		ck_snprintf(buf, size, "?");
		return;
	}
	n = &p->note[i];
	a = n->a;
	b = n->b;
	c = n->c;
	switch (n->kind) {
	case SOAK_NOTE_SLIT:
		ck_snprintf(buf, size, "node %llu (no CPUs) is worked by node %llu, the nearest "
			    "by SLIT distance (%llu)", a, b, c);
		break;
	case SOAK_NOTE_NO_SLIT:
		ck_snprintf(buf, size, "node %llu (no CPUs) is worked by node %llu: no SLIT from "
			    "firmware, so the lowest-numbered node with CPUs", a, b);
		break;
	case SOAK_NOTE_UNREACHABLE:
		ck_snprintf(buf, size, "node %llu (no CPUs) is worked by node %llu: the SLIT "
			    "calls it unreachable from every node with CPUs", a, b);
		break;
	case SOAK_NOTE_IDLE:
		ck_snprintf(buf, size, "node %llu has %llu CPU%s and no free memory: %s idle",
			    a, b, b == 1 ? "" : "s", b == 1 ? "it stays" : "they stay");
		break;
	default:
		ck_snprintf(buf, size, "%llu bytes at range edges are not whole pages: not "
			    "soaked", c);
		break;
	}
}
