/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * handover.h - the free memory the boot allocator hands the soak (bootmem_take_all), cut at
 * NUMA node boundaries into the plan's ranges (plan.h). Plain C, host-tested.
 *
 * Each free range is split where the SRAT's node ranges begin and end; each piece gets the
 * node of the range that holds it. Without an SRAT every byte is node 0's. With one, a piece
 * no node range holds (the firmware's map and the SRAT disagree) is node 0's too, and its
 * bytes are counted so the run can say so. Pieces past @max are left out and counted.
 */
#ifndef CK_SOAK_HANDOVER_H
#define CK_SOAK_HANDOVER_H

#include "kernel/arch/bootmem.h"
#include "kernel/platform/numa.h"
#include "soak/plan.h"

struct soak_handover {
	unsigned int nr;		/* ranges written */
	u64 bytes;			/* their bytes */
	u64 no_node_bytes;		/* in no SRAT range: given to node 0 */
	u64 dropped_bytes;		/* beyond @max ranges: not soaked */
};

void soak_ranges_by_node(const struct bootmem_range *free, unsigned int n,
			 const struct numa_info *numa, struct soak_range *out, unsigned int max,
			 struct soak_handover *h);

#endif
