/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * numa.h - NUMA nodes from the ACPI SRAT (memory and processor affinity) and the SLIT
 * (relative distances). A node with memory and no processors is how CXL memory appears.
 * The parsers are plain C, host-tested; numa_init() runs them on the firmware's tables.
 */
#ifndef CK_NUMA_H
#define CK_NUMA_H

#include "kernel/platform/acpi.h"

#define NUMA_MAX_NODES	8
#define NUMA_MAX_RANGES	64
#define NUMA_MAX_NOTES	4
#define NUMA_LOCAL_DISTANCE	10
#define NUMA_MAX_CPU_AFF	1024

struct numa_range {
	u64 start, end;
	u8 node;
	bool hotplug, nonvolatile;
};

struct numa_info {
	unsigned int nr_nodes;
	u32 domain[NUMA_MAX_NODES];	/* proximity domain of node i */
	unsigned int cpus[NUMA_MAX_NODES];
	/* Each enabled CPU entry's APIC id (x2APIC id for type 2) and node. */
	unsigned int nr_cpu_aff;
	struct numa_cpu_aff {
		u32 apic_id;
		u8 node;
	} cpu_aff[NUMA_MAX_CPU_AFF];
	u64 bytes[NUMA_MAX_NODES];
	unsigned int nr_ranges;
	struct numa_range range[NUMA_MAX_RANGES];
	bool have_slit;
	u8 distance[NUMA_MAX_NODES][NUMA_MAX_NODES];
	bool from_srat;
	/*
	 * What the parsers clipped or refused: @what names the table and field, @value is the
	 * firmware's value. On a -1 return, @why and @why_value say why the table was refused.
	 */
	unsigned int nr_notes;
	struct acpi_note note[NUMA_MAX_NOTES];
	u64 why_value;
};

/* Parse an SRAT (@len bytes from its ACPI header). Returns 0, or -1 with @why. */
int numa_parse_srat(const void *srat, size_t len, struct numa_info *out, const char **why);
/* Parse a SLIT into @io (nodes already known from the SRAT). */
int numa_parse_slit(const void *slit, size_t len, struct numa_info *io, const char **why);
/* The node of the CPU with @apic_id (from the SRAT's affinity entries), or -1. */
int numa_node_of_apic(const struct numa_info *n, u32 apic_id);
/* The node holding physical address @pa, or -1. */
int numa_node_of(const struct numa_info *n, u64 pa);

/*
 * Keep only what lies in RAM: each node range becomes its intersections with the sorted,
 * disjoint RAM runs [start, end) of @ram (@nr of them), and each node's bytes are recounted.
 * A range with no RAM at all is dropped with a note; pieces beyond NUMA_MAX_RANGES too.
 */
void numa_clip_to_ram(struct numa_info *n, const u64 (*ram)[2], unsigned int nr);

#ifdef CK_KERNEL
struct boot_info;
/*
 * Read SRAT and SLIT (one node covering everything when there is no SRAT), keep the node
 * ranges to the RAM of @bi's map; print them.
 */
void numa_init(const struct boot_info *bi);
const struct numa_info *numa(void);
#endif

#endif
