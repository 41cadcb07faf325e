// SPDX-License-Identifier: GPL-2.0-only
/*
 * cases.c - building and running the presets' cases (see cases.h): data patterns, folios on
 * nodes, node pairs, and comparisons run where the seed ran them.
 */
#include "bench/cases.h"

const char *const case_node_names[BENCH_MAX_NODES] = {
	"node0", "node1", "node2", "node3", "node4", "node5", "node6", "node7",
};

bool case_folios_on(const struct bench_platform *p, u64 bytes, unsigned int sn,
		    unsigned int dn, struct folio *d, struct folio *s)
{
	bool numa = p->alloc_node && p->nr_nodes > 1;
	void *a = numa ? p->alloc_node(bytes, sn) : p->alloc(bytes);
	void *b = numa ? p->alloc_node(bytes, dn) : p->alloc(bytes);

	return a && b && case_folios_at(p, bytes, a, b, d, s);
}

bool case_folios_at(const struct bench_platform *p, u64 bytes, void *src, void *dst,
		    struct folio *d, struct folio *s)
{
	data_fill(src, bytes, PAT_RANDOM);
	return p->folio(dst, bytes >> PAGE_SHIFT, d) && p->folio(src, bytes >> PAGE_SHIFT, s);
}

/* The seeds' DRAM0->DRAM1, DRAM->CXL and CXL->DRAM are among the pairs. */
unsigned int case_directions(const struct bench_platform *p, unsigned int dir[][2])
{
	unsigned int n = 0, nodes = p->alloc_node && p->nr_nodes > 1 ? p->nr_nodes : 1;

	nodes = MIN(nodes, (unsigned int)BENCH_MAX_NODES);
	for (unsigned int s = 0; s < nodes; s++)
		for (unsigned int d = 0; d < nodes; d++) {
			dir[n][0] = s;
			dir[n++][1] = d;
		}
	return n;
}

unsigned int case_compare(const struct bench_env *env, const struct bench_platform *p,
			  struct bench_case *a, struct bench_case *b, enum bench_mode m)
{
	static struct bench_result ra, rb;
	struct ratio q;

	bench_compare(env, a, b, m, p->runs, &ra, &rb, &q);
	table_row(env, a, b, m, &ra, &rb, &q);
	return 2;
}

struct row_call {
	const struct bench_env *env;
	const struct bench_platform *p;
	struct bench_case *a, *b;
	enum bench_mode m;
	unsigned int n;
};

static void row_call(void *arg)
{
	struct row_call *r = arg;

	r->n = case_compare(r->env, r->p, r->a, r->b, r->m);
}

unsigned int case_compare_from(const struct bench_env *env, const struct bench_platform *p,
			       struct bench_case *a, struct bench_case *b, enum bench_mode m,
			       unsigned int src, bool say)
{
	struct row_call r = { env, p, a, b, m, 0 };
	int cpu = p->node_cpu ? p->node_cpu(src) : -1;

	if (cpu < 0 || !p->run_on) {
		if (say && p->node_cpu)
			bench_outf(env, "%s->%s: %s has no CPU: from the benchmark's CPU",
				   a->src_node, a->dst_node, a->src_node);
		return case_compare(env, p, a, b, m);
	}
	if (say)
		bench_outf(env, "%s->%s: from CPU %d, on the source node", a->src_node,
			   a->dst_node, cpu);
	a->cpu1 = b->cpu1 = (unsigned int)cpu + 1;
	p->run_on(cpu, row_call, &r);
	return r.n;
}
