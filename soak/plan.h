/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan.h - who soaks which memory. Plain C over explicit inputs, host-tested.
 *
 * In: the free RAM ranges the image can soak, each with its node (from the allocator and the
 * SRAT), each online CPU's node, the SLIT distances (or none), a chunk size. Out: a plan that
 * every CPU reads (never writes) to find its own slices of memory, and the coverage.
 *
 * The rules:
 *   - every CPU works on memory of its own node; a node's free pages are split between its
 *     CPUs in equal page counts (in address order, rank order);
 *   - a node with memory and no CPU (CXL memory) is worked by the CPUs of the node nearest to
 *     it by SLIT distance from that node's CPUs to its memory (SLIT entry [cpu node][memory
 *     node]), ties to the lowest node number; without a SLIT, or with every distance
 *     unreachable (255), by the lowest-numbered node that has CPUs, and the plan says so;
 *   - a node with CPUs and no free memory leaves its CPUs idle, and the plan says so;
 *   - ranges are trimmed to whole pages; the bytes left out are counted;
 *   - memory is handled in chunks of SOAK_CHUNK_MIN..SOAK_CHUNK_MAX bytes (a power of two,
 *     SOAK_CHUNK_DEFAULT unless asked), aligned in physical address, cut at slice ends.
 *
 * Coverage: every page of every trimmed range belongs to exactly one CPU's slices, so a pass
 * touches covered_pages of free_pages (the whole pages of the input).
 */
#ifndef CK_SOAK_PLAN_H
#define CK_SOAK_PLAN_H

#include "kernel/include/types.h"
#include "kernel/platform/numa.h"

#define SOAK_MAX_RANGES		128
#define SOAK_MAX_CPUS		1024
#define SOAK_CHUNK_MIN		(1ULL << 20)
#define SOAK_CHUNK_MAX		(1ULL << 30)
#define SOAK_CHUNK_DEFAULT	(64ULL << 20)
#define SOAK_MAX_NOTES		(2 * NUMA_MAX_NODES + 1)
#define SOAK_DISTANCE_UNREACHABLE	255

struct soak_range {
	u64 base, size;
	u8 node;
};

struct soak_plan_in {
	const struct soak_range *ranges;
	unsigned int nr_ranges;
	const u8 *cpu_node;		/* node of each online CPU, by its index in the soak */
	unsigned int nr_cpus;
	unsigned int nr_nodes;		/* 1..NUMA_MAX_NODES */
	/* SLIT distances [from][to], or NULL when the firmware gave none */
	const u8 (*distance)[NUMA_MAX_NODES];
	u64 chunk_bytes;		/* 0: SOAK_CHUNK_DEFAULT */
};

enum soak_worked_by {
	SOAK_BY_NOBODY,		/* no memory here */
	SOAK_BY_OWN,		/* its own CPUs */
	SOAK_BY_SLIT,		/* CPU-less: the nearest node by SLIT distance */
	SOAK_BY_NODE_ORDER,	/* CPU-less, no usable SLIT: the lowest node with CPUs */
};

enum soak_note_kind {
	SOAK_NOTE_SLIT,		/* node @a worked by node @b, distance @c */
	SOAK_NOTE_NO_SLIT,	/* node @a worked by node @b: no SLIT */
	SOAK_NOTE_UNREACHABLE,	/* node @a worked by node @b: the SLIT says unreachable */
	SOAK_NOTE_IDLE,		/* node @a has @b CPUs and no free memory: idle */
	SOAK_NOTE_TRIMMED,	/* @c bytes at range edges are not whole pages: left out */
};

struct soak_plan {
	unsigned int nr_nodes, nr_cpus, nr_ranges;
	u64 chunk_bytes;
	struct soak_range range[SOAK_MAX_RANGES];	/* trimmed, sorted by address */
	struct soak_plan_node {
		enum soak_worked_by by;
		u8 worker;		/* the node whose CPUs work this node's memory */
		u16 nr_cpus;		/* CPUs on this node */
		u64 pages;		/* free pages on this node */
	} node[NUMA_MAX_NODES];
	u8 cpu_node[SOAK_MAX_CPUS];
	u16 cpu_rank[SOAK_MAX_CPUS];	/* 0.. among the CPUs of its node */
	u64 free_bytes, free_pages;	/* as given, and its whole pages */
	u64 covered_bytes, covered_pages;
	unsigned int nr_notes;
	struct soak_note {
		enum soak_note_kind kind;
		u64 a, b, c;
	} note[SOAK_MAX_NOTES];
};

/* Returns 0, or -1 with @why (the plan is then unusable). */
int soak_plan_make(const struct soak_plan_in *in, struct soak_plan *p, const char **why);

struct soak_slice {
	u64 base, size;
	u8 node;		/* whose memory it is */
};

/* The @idx-th slice (0, 1, ...) of CPU @cpu, in address order per node; false past the last. */
bool soak_plan_slice(const struct soak_plan *p, unsigned int cpu, unsigned int idx,
		     struct soak_slice *s);
/* Where the chunk that starts at @at inside @s ends: the next chunk boundary or the slice end. */
u64 soak_chunk_end(const struct soak_plan *p, const struct soak_slice *s, u64 at);
/* Note @i as one line of text ("node 2 (no CPUs) is worked by node 0, SLIT distance 20"). */
void soak_plan_note_text(const struct soak_plan *p, unsigned int i, char *buf, size_t size);

#endif
