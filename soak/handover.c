// SPDX-License-Identifier: GPL-2.0-only
/*
 * handover.c - free ranges cut at node boundaries (handover.h).
 */
#include "kernel/lib/string.h"
#include "soak/handover.h"

static void put(struct soak_range *out, unsigned int max, struct soak_handover *h, u64 start,
		u64 end, u8 node)
{
	if (start >= end)
		return;
	if (h->nr == max) {
		h->dropped_bytes += end - start;
		return;
	}
	out[h->nr++] = (struct soak_range){ start, end - start, node };
	h->bytes += end - start;
}

/* The node range holding @at, or the nearest one that starts above it (NULL: none). */
static const struct numa_range *range_at(const struct numa_info *numa, u64 at, bool *inside)
{
	const struct numa_range *next = NULL;

	*inside = false;
	for (unsigned int i = 0; numa && numa->from_srat && i < numa->nr_ranges; i++) {
		const struct numa_range *r = &numa->range[i];

		if (at >= r->start && at < r->end) {
			*inside = true;
			return r;
		}
		if (r->start > at && (!next || r->start < next->start))
			next = r;
	}
	return next;
}

void soak_ranges_by_node(const struct bootmem_range *free, unsigned int n,
			 const struct numa_info *numa, struct soak_range *out, unsigned int max,
			 struct soak_handover *h)
{
	memset(h, 0, sizeof(*h));
	for (unsigned int i = 0; i < n; i++) {
		u64 at = free[i].start, end = free[i].end;

		if (!numa || !numa->from_srat) {
			put(out, max, h, at, end, 0);
			continue;
		}
		while (at < end) {
			bool inside;
			const struct numa_range *r = range_at(numa, at, &inside);
			u64 stop = !r ? end : inside ? MIN(end, r->end) : MIN(end, r->start);

			if (!inside)
				h->no_node_bytes += stop - at;
			put(out, max, h, at, stop, inside ? r->node : 0);
			at = stop;
		}
	}
}
