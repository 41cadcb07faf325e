// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_handover.c - free ranges cut at node boundaries (soak/handover.c): two SRAT
 * nodes and a gap the SRAT does not cover, a range across a boundary, no SRAT at all, and
 * too many pieces for the output; the cuts are worked out by hand.
 */
#include "soak/handover.h"
#include "tests/host/host_test.h"

#define MiB	(1ULL << 20)

static struct numa_info numa;

static void two_nodes(void)
{
	memset(&numa, 0, sizeof(numa));
	numa.from_srat = true;
	numa.nr_nodes = 2;
	numa.nr_ranges = 2;
	/* node 1 listed first: the lookup must not depend on order */
	numa.range[0] = (struct numa_range){ .start = 512 * MiB, .end = 1024 * MiB, .node = 1 };
	numa.range[1] = (struct numa_range){ .start = 0, .end = 384 * MiB, .node = 0 };
}

static void test_cut_at_nodes(void)
{
	static const struct bootmem_range free[] = {
		{ 16 * MiB, 100 * MiB },	/* node 0 */
		{ 300 * MiB, 600 * MiB },	/* node 0, then no node, then node 1 */
		{ 900 * MiB, 1100 * MiB },	/* node 1, then past the SRAT */
	};
	static const struct soak_range want[] = {
		{ 16 * MiB, 84 * MiB, 0 }, { 300 * MiB, 84 * MiB, 0 }, { 384 * MiB, 128 * MiB, 0 },
		{ 512 * MiB, 88 * MiB, 1 }, { 900 * MiB, 124 * MiB, 1 }, { 1024 * MiB, 76 * MiB, 0 },
	};
	struct soak_range out[8];
	struct soak_handover h;

	two_nodes();
	soak_ranges_by_node(free, 3, &numa, out, 8, &h);
	CHECK(h.nr == 6, "%u ranges, want 6", h.nr);
	for (unsigned int i = 0; i < h.nr && i < 6; i++)
		CHECK(out[i].base == want[i].base && out[i].size == want[i].size &&
		      out[i].node == want[i].node, "range %u: %#llx+%#llx node %u", i,
		      (unsigned long long)out[i].base, (unsigned long long)out[i].size, out[i].node);
	CHECK(h.bytes == 584 * MiB && h.no_node_bytes == 204 * MiB && !h.dropped_bytes,
	      "bytes %llu MiB, no node %llu MiB", (unsigned long long)(h.bytes / MiB),
	      (unsigned long long)(h.no_node_bytes / MiB));
	soak_ranges_by_node(free, 3, &numa, out, 4, &h);
	CHECK(h.nr == 4 && h.bytes == 384 * MiB && h.dropped_bytes == 200 * MiB,
	      "four only: %u, dropped %llu MiB", h.nr, (unsigned long long)(h.dropped_bytes / MiB));
}

static void test_no_srat(void)
{
	static const struct bootmem_range free[] = { { MiB, 3 * MiB }, { 8 * MiB, 9 * MiB } };
	struct soak_range out[4];
	struct soak_handover h;

	memset(&numa, 0, sizeof(numa));
	numa.nr_nodes = 1;
	soak_ranges_by_node(free, 2, &numa, out, 4, &h);
	CHECK(h.nr == 2 && out[0].base == MiB && out[0].size == 2 * MiB && out[0].node == 0 &&
	      out[1].base == 8 * MiB && out[1].size == MiB && !h.no_node_bytes,
	      "without an SRAT everything is node 0's, uncut");
	soak_ranges_by_node(free, 2, NULL, out, 4, &h);
	CHECK(h.nr == 2 && h.bytes == 3 * MiB, "no NUMA facts at all: the same");
}

int main(void)
{
	return RUN_TESTS(test_cut_at_nodes, test_no_srat);
}
