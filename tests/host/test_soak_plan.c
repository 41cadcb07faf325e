// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_plan.c - the soak's plan (soak/plan.c) on crafted topologies, each with the
 * assignment worked out by hand from the rules in plan.h: two nodes and a CPU-less one
 * (symmetric SLIT), an asymmetric SLIT (where [to][from] would pick another node), a tie, no
 * SLIT, an unreachable SLIT, a node with CPUs and no free memory, one CPU, unaligned ranges,
 * and inputs that must be refused. Every plan is also checked for coverage: the CPUs' slices
 * tile the trimmed ranges exactly (no page twice, none missing), each slice lies in one range
 * of its node, a CPU only gets memory its node works, and the CPUs of a node get page counts
 * that differ by at most one.
 */
#include "soak/plan.h"
#include "tests/host/host_test.h"

#define MiB	(1ULL << 20)
#define GiB	(1ULL << 30)

static struct soak_plan plan;

static struct soak_slice all[4096];

static int by_base(const void *a, const void *b)
{
	const struct soak_slice *x = a, *y = b;

	return x->base < y->base ? -1 : x->base > y->base;
}

/* The coverage properties; returns the slices of every CPU, sorted, in all[]. */
static unsigned int check_coverage(const struct soak_plan *p)
{
	unsigned int n = 0, r = 0;
	u64 bytes = 0, at;

	for (unsigned int cpu = 0; cpu < p->nr_cpus; cpu++) {
		u64 per_node[NUMA_MAX_NODES] = { 0 };
		struct soak_slice s;

		for (unsigned int i = 0; soak_plan_slice(p, cpu, i, &s) && n < 4096; i++) {
			bool inside = false;

			all[n++] = s;
			bytes += s.size;
			per_node[s.node] += s.size >> 12;
			CHECK(p->node[s.node].worker == p->cpu_node[cpu] &&
			      p->node[s.node].by != SOAK_BY_NOBODY,
			      "CPU %u (node %u) got memory of node %u", cpu, p->cpu_node[cpu],
			      s.node);
			for (unsigned int j = 0; j < p->nr_ranges; j++) {
				const struct soak_range *r = &p->range[j];

				inside |= s.base >= r->base && s.node == r->node &&
					  s.base + s.size <= r->base + r->size;
			}
			CHECK(inside && s.size && !(s.base & 4095) && !(s.size & 4095),
			      "slice 0x%llx+0x%llx outside its node's ranges",
			      (unsigned long long)s.base, (unsigned long long)s.size);
		}
		for (unsigned int c = 0; c < p->nr_nodes; c++) {
			const struct soak_plan_node *nd = &p->node[c];
			u16 w = nd->by == SOAK_BY_NOBODY ? 0 : p->node[nd->worker].nr_cpus;

			if (nd->by == SOAK_BY_NOBODY || nd->worker != p->cpu_node[cpu])
				continue;
			CHECK(per_node[c] == nd->pages / w || per_node[c] == nd->pages / w + 1,
			      "CPU %u has %llu of node %u's %llu pages (%u CPUs)", cpu,
			      (unsigned long long)per_node[c], c, (unsigned long long)nd->pages, w);
		}
	}
	CHECK(bytes == p->covered_bytes && p->covered_bytes == p->free_pages * 4096,
	      "slices %llu bytes, covered %llu, free pages %llu", (unsigned long long)bytes,
	      (unsigned long long)p->covered_bytes, (unsigned long long)p->free_pages);
	qsort(all, n, sizeof(all[0]), by_base);
	/* walk the ranges: the sorted slices must tile each one from base to end */
	at = p->nr_ranges ? p->range[0].base : 0;
	for (unsigned int i = 0; i < n; i++) {
		while (r < p->nr_ranges && at == p->range[r].base + p->range[r].size)
			at = ++r < p->nr_ranges ? p->range[r].base : 0;
		CHECK(r < p->nr_ranges && all[i].base == at, "slice %u at 0x%llx, expected 0x%llx",
		      i, (unsigned long long)all[i].base, (unsigned long long)at);
		at = all[i].base + all[i].size;
	}
	return n;
}

static int make(const struct soak_range *r, unsigned int nr, const u8 *cpus, unsigned int ncpu,
		unsigned int nodes, const u8 (*dist)[NUMA_MAX_NODES])
{
	struct soak_plan_in in = { r, nr, cpus, ncpu, nodes, dist, 0 };
	const char *why = NULL;
	int ret = soak_plan_make(&in, &plan, &why);

	CHECK(ret == 0, "plan refused: %s", why ? why : "?");
	if (!ret)
		check_coverage(&plan);
	return ret;
}

static bool has_note(enum soak_note_kind k, u64 a, u64 b)
{
	for (unsigned int i = 0; i < plan.nr_notes; i++)
		if (plan.note[i].kind == k && plan.note[i].a == a && plan.note[i].b == b)
			return true;
	return false;
}

/* Node 0: 1 GiB, CPUs 0-1; node 1: 1 GiB in two ranges, CPUs 2-3; node 2: 512 MiB, none. */
static const struct soak_range three[] = {
	{ 1 * GiB, 1 * GiB, 0 }, { 2 * GiB, 256 * MiB, 1 }, { 4 * GiB, 768 * MiB, 1 },
	{ 8 * GiB, 512 * MiB, 2 },
};
static const u8 cpus_two_nodes[] = { 0, 0, 1, 1 };

static void test_cpuless_node_goes_to_the_nearest(void)
{
	static const u8 d[NUMA_MAX_NODES][NUMA_MAX_NODES] = {
		{ 10, 20, 20 }, { 20, 10, 15 }, { 20, 15, 10 },
	};
	char text[160];

	if (make(three, 4, cpus_two_nodes, 4, 3, d))
		return;
	CHECK(plan.node[0].by == SOAK_BY_OWN && plan.node[1].by == SOAK_BY_OWN, "own nodes");
	CHECK(plan.node[2].by == SOAK_BY_SLIT && plan.node[2].worker == 1,
	      "node 2 worked by node %u", plan.node[2].worker);
	CHECK(has_note(SOAK_NOTE_SLIT, 2, 1), "no SLIT note");
	soak_plan_note_text(&plan, 0, text, sizeof(text));
	CHECK(!strcmp(text, "node 2 (no CPUs) is worked by node 1, the nearest by SLIT "
		      "distance (15)"), "note: %s", text);
	/* CPU 2 (rank 0 of node 1): the first half of node 1 (two ranges), then the first
	 * half of node 2; CPU 3 the second halves */
	{
		struct soak_slice s[4];
		int n = 0;

		while (n < 4 && soak_plan_slice(&plan, 2, (unsigned int)n, &s[n]))
			n++;
		CHECK(n == 3 && s[0].base == 2 * GiB && s[0].size == 256 * MiB &&
		      s[1].base == 4 * GiB && s[1].size == 256 * MiB && s[2].node == 2 &&
		      s[2].base == 8 * GiB && s[2].size == 256 * MiB, "CPU 2: %d slices", n);
		n = 0;
		while (n < 4 && soak_plan_slice(&plan, 3, (unsigned int)n, &s[n]))
			n++;
		CHECK(n == 2 && s[0].base == 4 * GiB + 256 * MiB && s[0].size == 512 * MiB &&
		      s[1].node == 2 && s[1].base == 8 * GiB + 256 * MiB, "CPU 3: %d slices", n);
	}
	CHECK(plan.covered_bytes == 2 * GiB + 512 * MiB, "covered %llu",
	      (unsigned long long)plan.covered_bytes);
}

static void test_asymmetric_slit_uses_cpu_to_memory(void)
{
	/* From node 0's CPUs to node 2's memory: 12; from node 1's: 30. The reverse
	 * direction would say node 1 (11 against 40). */
	static const u8 d[NUMA_MAX_NODES][NUMA_MAX_NODES] = {
		{ 10, 20, 12 }, { 20, 10, 30 }, { 40, 11, 10 },
	};

	if (make(three, 4, cpus_two_nodes, 4, 3, d))
		return;
	CHECK(plan.node[2].worker == 0 && has_note(SOAK_NOTE_SLIT, 2, 0), "worker %u",
	      plan.node[2].worker);
}

static void test_slit_tie_goes_to_the_lowest_node(void)
{
	static const u8 d[NUMA_MAX_NODES][NUMA_MAX_NODES] = {
		{ 10, 20, 25 }, { 20, 10, 25 }, { 25, 25, 10 },
	};

	if (make(three, 4, cpus_two_nodes, 4, 3, d))
		return;
	CHECK(plan.node[2].worker == 0, "tie went to node %u", plan.node[2].worker);
}

static void test_no_slit_uses_node_order(void)
{
	/* CPUs on nodes 1 and 2 only; node 0 has memory and no CPU. */
	static const u8 cpus[] = { 2, 1, 2 };
	char text[160];

	if (make(three, 4, cpus, 3, 3, NULL))
		return;
	CHECK(plan.node[0].by == SOAK_BY_NODE_ORDER && plan.node[0].worker == 1,
	      "node 0 by %d worker %u", plan.node[0].by, plan.node[0].worker);
	CHECK(has_note(SOAK_NOTE_NO_SLIT, 0, 1), "no note saying there is no SLIT");
	soak_plan_note_text(&plan, 0, text, sizeof(text));
	CHECK(strstr(text, "no SLIT from firmware") != NULL, "note: %s", text);
	CHECK(plan.cpu_rank[0] == 0 && plan.cpu_rank[2] == 1 && plan.cpu_rank[1] == 0, "ranks");
}

static void test_unreachable_slit(void)
{
	static const u8 d[NUMA_MAX_NODES][NUMA_MAX_NODES] = {
		{ 10, 20, 255 }, { 20, 10, 255 }, { 255, 255, 10 },
	};

	if (make(three, 4, cpus_two_nodes, 4, 3, d))
		return;
	CHECK(plan.node[2].by == SOAK_BY_NODE_ORDER && plan.node[2].worker == 0 &&
	      has_note(SOAK_NOTE_UNREACHABLE, 2, 0), "unreachable node 2: by %d worker %u",
	      plan.node[2].by, plan.node[2].worker);
}

static void test_node_without_free_memory_idles(void)
{
	static const struct soak_range r[] = { { 1 * GiB, 1 * GiB, 0 } };
	static const u8 cpus[] = { 0, 1, 1 };
	struct soak_slice s;
	char text[160];

	if (make(r, 1, cpus, 3, 2, NULL))
		return;
	CHECK(has_note(SOAK_NOTE_IDLE, 1, 2), "no idle note");
	CHECK(!soak_plan_slice(&plan, 1, 0, &s) && !soak_plan_slice(&plan, 2, 0, &s),
	      "an idle CPU got a slice");
	CHECK(soak_plan_slice(&plan, 0, 0, &s) && s.size == 1 * GiB, "CPU 0 not given node 0");
	soak_plan_note_text(&plan, 0, text, sizeof(text));
	CHECK(!strcmp(text, "node 1 has 2 CPUs and no free memory: they stay idle"), "%s", text);
}

static void test_one_cpu_takes_everything(void)
{
	static const u8 cpus[] = { 0 };
	struct soak_slice s;
	unsigned int n = 0;

	if (make(three, 4, cpus, 1, 3, NULL))
		return;
	while (soak_plan_slice(&plan, 0, n, &s))
		n++;
	CHECK(n == 4, "one CPU: %u slices for 4 ranges", n);
	CHECK(plan.node[1].worker == 0 && plan.node[2].worker == 0, "workers");
}

static void test_unaligned_ranges_are_trimmed_and_counted(void)
{
	static const struct soak_range r[] = {
		{ 0x100800, 0x3000, 0 },	/* pages 0x101000-0x103000, 0x1000 trimmed */
		{ 0x200000, 0x800, 0 },		/* no whole page */
		{ 0x300000, 0x2000, 0 },
	};
	static const u8 cpus[] = { 0, 0, 0 };

	if (make(r, 3, cpus, 3, 1, NULL))
		return;
	CHECK(plan.free_bytes == 0x3000 + 0x800 + 0x2000 && plan.free_pages == 4 &&
	      plan.covered_pages == 4, "free %llu bytes %llu pages",
	      (unsigned long long)plan.free_bytes, (unsigned long long)plan.free_pages);
	CHECK(plan.nr_notes == 1 && plan.note[0].kind == SOAK_NOTE_TRIMMED &&
	      plan.note[0].c == 0x1000 + 0x800, "trim note");
}

static void test_chunks(void)
{
	static const struct soak_range r[] = { { 100 * MiB + 8192, 300 * MiB, 0 } };
	static const u8 cpus[] = { 0 };
	struct soak_plan_in in = { r, 1, cpus, 1, 1, NULL, 64 * MiB };
	const char *why;
	struct soak_slice s;
	unsigned int n = 0;
	u64 at;

	CHECK(!soak_plan_make(&in, &plan, &why) && soak_plan_slice(&plan, 0, 0, &s), "plan");
	for (at = s.base; at < s.base + s.size; n++) {
		u64 end = soak_chunk_end(&plan, &s, at);

		CHECK(end > at && end - at <= 64 * MiB, "chunk 0x%llx-0x%llx",
		      (unsigned long long)at, (unsigned long long)end);
		CHECK(end == s.base + s.size || !(end & (64 * MiB - 1)), "chunk end unaligned");
		at = end;
	}
	/* 100 MiB + 8 KiB .. 400 MiB + 8 KiB: cut at 128, 192, 256, 320, 384 MiB */
	CHECK(n == 6 && at == s.base + s.size, "%u chunks", n);
	in.chunk_bytes = 0;
	CHECK(!soak_plan_make(&in, &plan, &why) && plan.chunk_bytes == SOAK_CHUNK_DEFAULT,
	      "default chunk");
}

static void test_bad_inputs_are_refused(void)
{
	static const struct soak_range ovl[] = { { 0, 2 * MiB, 0 }, { 1 * MiB, 2 * MiB, 0 } };
	static const struct soak_range badnode[] = { { 0, 2 * MiB, 3 } };
	static const struct soak_range wrap[] = { { ~0ULL - 4095, 8192, 0 } };
	static const u8 cpus[] = { 0 }, far[] = { 5 };
	static const struct {
		const struct soak_range *r;
		unsigned int nr;
		const u8 *cpus;
		unsigned int ncpu, nodes;
		u64 chunk;
		const char *why;
	} cases[] = {
		{ ovl, 2, cpus, 1, 1, 0, "free ranges overlap" },
		{ badnode, 1, cpus, 1, 2, 0, "a free range's node is beyond the node count" },
		{ wrap, 1, cpus, 1, 1, 0, "a free range wraps past 2^64" },
		{ ovl, 1, cpus, 0, 1, 0, "no CPU to soak with" },
		{ ovl, 1, far, 1, 2, 0, "a CPU's node is beyond the node count" },
		{ ovl, 1, cpus, 1, 0, 0, "node count not 1..8" },
		{ ovl, 1, cpus, 1, 9, 0, "node count not 1..8" },
		{ ovl, 1, cpus, 1, 1, 3 * MiB,
		  "chunk size not a power of two from 1 MiB to 1 GiB" },
		{ ovl, 1, cpus, 1, 1, 2 * GiB,
		  "chunk size not a power of two from 1 MiB to 1 GiB" },
		{ ovl, SOAK_MAX_RANGES + 1, cpus, 1, 1, 0, "more than 128 free ranges" },
		{ ovl, 1, cpus, SOAK_MAX_CPUS + 1, 1, 0, "more than 1024 CPUs" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct soak_plan_in in = { cases[i].r, cases[i].nr, cases[i].cpus, cases[i].ncpu,
					   cases[i].nodes, NULL, cases[i].chunk };
		const char *why = NULL;

		CHECK(soak_plan_make(&in, &plan, &why) == -1 && why &&
		      !strcmp(why, cases[i].why), "case %zu: %s", i, why ? why : "accepted");
	}
}

int main(void)
{
	return RUN_TESTS(test_cpuless_node_goes_to_the_nearest,
			 test_asymmetric_slit_uses_cpu_to_memory,
			 test_slit_tie_goes_to_the_lowest_node, test_no_slit_uses_node_order,
			 test_unreachable_slit, test_node_without_free_memory_idles,
			 test_one_cpu_takes_everything,
			 test_unaligned_ranges_are_trimmed_and_counted, test_chunks,
			 test_bad_inputs_are_refused);
}
