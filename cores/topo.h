/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topo.h - where each CPU sits, for the cores suite's pairs and replays: its thread, core,
 * core complex (the CPUs that share its last-level cache) and package, from what the CPU's
 * own CPUID says (struct cores_topo_raw, read on it):
 *  - leaf 1Fh, else 0Bh (Intel SDM vol. 2A; AMD APM vol. 3): the x2APIC id and, per level,
 *    the shift that leaves the next level's id; the SMT level's shift gives the core, the
 *    last level's the package;
 *  - without them, leaf 1 (logical CPUs per package) and leaf 4 (cores per package), as
 *    Linux's detect_ht() does, or on AMD leaf 8000001Eh (threads per core) with leaf
 *    80000008h ECX[15:12] (the APIC id bits of the package);
 *  - the core complex: the last-level cache's "logical CPUs sharing it" of leaf 4 (Intel) or
 *    8000001Dh (AMD), rounded up to a power of two, as Linux's cacheinfo makes its llc_id;
 *    unknown: the package.
 * Plain C, host-tested.
 */
#ifndef CK_CORES_TOPO_H
#define CK_CORES_TOPO_H

#include "kernel/include/types.h"

#define CORES_TOPO_LEVELS	8

/* CPUID leaf 1Fh/0Bh level types (ECX[15:8]). */
enum { CORES_TOPO_INVALID, CORES_TOPO_SMT, CORES_TOPO_CORE };

struct cores_topo_raw {
	u32 apic;			/* leaf 1 EBX[31:24], the initial APIC id */
	bool ext;			/* leaf 1Fh or 0Bh is there (subleaf 0 EBX != 0) */
	u32 x2apic;			/* its EDX */
	unsigned int nr_levels;
	struct { u8 type, shift; } level[CORES_TOPO_LEVELS];	/* ECX[15:8], EAX[4:0] */
	bool htt;			/* leaf 1 EDX[28] */
	u32 logical;			/* leaf 1 EBX[23:16]: logical CPUs per package */
	u32 cores;			/* leaf 4 EAX[31:26] + 1 (Intel); 0: not read */
	u32 amd_threads;		/* leaf 8000001Eh EBX[15:8] + 1; 0: not there */
	u32 amd_pkg_bits;		/* leaf 80000008h ECX[15:12]; 0: not there */
	u32 llc_sharing;		/* the LLC's EAX[25:14] + 1; 0: not known */
};

struct cores_topo {
	u32 apic;
	u32 core, complex, package;	/* the APIC id with the lower levels' bits shifted out */
	u8 smt_shift, llc_shift, pkg_shift;
	const char *source;		/* which leaves said it */
};

/* How two CPUs sit, nearest first. */
enum cores_rel {
	CORES_REL_SAME,			/* one CPU */
	CORES_REL_SMT,			/* SMT siblings: one core */
	CORES_REL_COMPLEX,		/* other cores of one core complex */
	CORES_REL_OTHER_COMPLEX,	/* one package, other complexes */
	CORES_REL_OTHER_PACKAGE,
	CORES_NR_REL,
};

void cores_topo_decode(const struct cores_topo_raw *r, struct cores_topo *t);
/* The thread's number within its core: the APIC id's SMT bits. */
unsigned int cores_topo_thread(const struct cores_topo *t);
enum cores_rel cores_topo_rel(const struct cores_topo *a, const struct cores_topo *b);
/* "same_cpu", "smt_sibling", "same_complex", "other_complex", "other_package". */
const char *cores_rel_name(unsigned int rel);

/*
 * @idx[0..n) (indices into @t) sorted by package, complex, core, APIC id: a ring in this
 * order pairs SMT siblings and cores of one complex, and crosses complexes and packages at
 * their borders, with n pairs.
 */
void cores_topo_order(const struct cores_topo *t, unsigned int *idx, unsigned int n);

/*
 * For CPU @me, a CPU of @cand[0..n) at each relation (@pick[rel], ~0U when none is): the
 * last one of @cand at it (the highest-numbered when @cand is in CPU order).
 */
void cores_topo_pick(const struct cores_topo *t, unsigned int me, const unsigned int *cand,
		     unsigned int n, unsigned int pick[CORES_NR_REL]);

#endif
