// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_numa.c - libFuzzer target for the SRAT and SLIT parsers. The input's first two bytes
 * say how much of the rest is the SRAT; the remainder is the SLIT. Properties of a parse
 * that succeeds: nodes and ranges within their limits, every range non-empty and not
 * wrapping, no two nodes' ranges overlapping, per-node bytes equal to the ranges' sum, and
 * valid distances (10 on the diagonal, more elsewhere). Every refusal says why. Then the
 * ranges are kept to a RAM map made from the SLIT part's bytes: every range must lie inside
 * one RAM run, and the properties above must still hold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/platform/numa.h"

static void check(const struct numa_info *n)
{
	uint64_t bytes[NUMA_MAX_NODES] = { 0 };

	if (!n->nr_nodes || n->nr_nodes > NUMA_MAX_NODES || n->nr_ranges > NUMA_MAX_RANGES ||
	    n->nr_notes > NUMA_MAX_NOTES)
		abort();
	for (unsigned int i = 0; i < n->nr_ranges; i++) {
		const struct numa_range *r = &n->range[i];

		if (r->start >= r->end || r->node >= n->nr_nodes)
			abort();
		bytes[r->node] += r->end - r->start;
		for (unsigned int j = 0; j < i; j++)
			if (r->start < n->range[j].end && n->range[j].start < r->end)
				abort();
		if (numa_node_of(n, r->start) != r->node || numa_node_of(n, r->end - 1) != r->node)
			abort();
	}
	for (unsigned int i = 0; i < n->nr_nodes; i++)
		if (bytes[i] != n->bytes[i])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct numa_info n;
	const char *why = NULL;
	size_t srat_len;

	if (size < 2)
		return 0;
	srat_len = (size_t)(data[0] | data[1] << 8);
	data += 2;
	size -= 2;
	if (srat_len > size)
		srat_len = size;
	if (numa_parse_srat(data, srat_len, &n, &why)) {
		if (!why)
			abort();
		return 0;
	}
	check(&n);
	{
		static struct numa_info c;
		static u64 ram[16][2];
		unsigned int nr = 0;
		u64 at = 0;

		/* Sorted, disjoint runs: each byte pair of the SLIT part a gap and a length. */
		for (size_t i = srat_len; i + 1 < size && nr < 16; i += 2) {
			u64 gap = (u64)data[i] << 20, len = ((u64)data[i + 1] + 1) << 20;

			if (at + gap + len < at)
				break;
			ram[nr][0] = at + gap;
			ram[nr][1] = at + gap + len;
			at = ram[nr][1];
			nr++;
		}
		c = n;
		c.nr_notes = 0;
		numa_clip_to_ram(&c, (const u64 (*)[2])ram, nr);
		check(&c);
		for (unsigned int i = 0; i < c.nr_ranges; i++) {
			bool inside = false;

			for (unsigned int j = 0; j < nr; j++)
				inside |= c.range[i].start >= ram[j][0] && c.range[i].end <= ram[j][1];
			if (!inside)
				abort();
		}
	}
	if (numa_parse_slit(data + srat_len, size - srat_len, &n, &why)) {
		if (!why || n.have_slit)
			abort();
		return 0;
	}
	for (unsigned int i = 0; i < n.nr_nodes; i++)
		for (unsigned int j = 0; j < n.nr_nodes; j++)
			if ((i == j) != (n.distance[i][j] == NUMA_LOCAL_DISTANCE) ||
			    n.distance[i][j] < NUMA_LOCAL_DISTANCE)
				abort();
	return 0;
}
