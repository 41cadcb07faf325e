/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * paging.h - the kernel's identity page tables.
 *
 * All RAM of the firmware map and the MMIO the kernel touches are mapped 1:1 with the
 * largest page the range and the CPU allow: 1 GiB where CPUID.80000001h:EDX[26] (pdpe1gb)
 * is set, else 2 MiB, and 4 KiB only at unaligned edges or where a caller asked for it.
 * NX and CR0.WP are on: the image's .text is read-only and executable, everything else
 * no-execute, except UEFI runtime code.
 *
 * Beside it, a second address space: the window [PG_SPACE_BASE, PG_SPACE_BASE + PG_SPACE_SIZE),
 * one PML4 entry in the upper half that the identity map never reaches. A caller maps
 * physical memory there with leaves of one size (4 KiB, 2 MiB or 1 GiB), clears a leaf and
 * maps it again to other memory: what page migration does to a process's mapping
 * (bench/migrate.c). pg_walk and pg_stats see the identity map only.
 */
#ifndef CK_PAGING_H
#define CK_PAGING_H

#include "kernel/include/boot_info.h"

/* Memory types, programmed into IA32_PAT in this order (Linux's layout). */
enum pg_cache {
	PG_CACHE_WB = 0,
	PG_CACHE_WC = 1,
	PG_CACHE_UC_MINUS = 2,
	PG_CACHE_UC = 3,
	PG_CACHE_WP = 5,
	PG_CACHE_WT = 7,
};

/* Attributes for pg_map / pg_set_attr. */
#define PG_PRESENT	BIT(0)
#define PG_WRITE	BIT(1)
#define PG_EXEC		BIT(2)
#define PG_CACHE(c)	((u64)(c) << 8)
#define PG_CACHE_OF(a)	(((a) >> 8) & 7)

#define PG_RAM		(PG_PRESENT | PG_WRITE | PG_CACHE(PG_CACHE_WB))
#define PG_MMIO		(PG_PRESENT | PG_WRITE | PG_CACHE(PG_CACHE_UC))

#define PAT_LINUX	0x0407050600070106ULL

struct pg_leaf {
	u64 va, pa;
	u64 size;		/* 4 KiB, 2 MiB or 1 GiB */
	u64 pte;		/* raw entry */
	bool present, writable, exec;
	enum pg_cache cache;
};

struct pg_stats {
	u64 leaves_1g, leaves_2m, leaves_4k;
	u64 tables;		/* page-table pages in use */
	u64 mtrr_refused;	/* large leaves not used: MTRR types differ inside */
	u64 mapped_bytes;
};

/* Build the tables from the map and switch CR3 to them. Returns false on failure. */
bool paging_init(const struct boot_info *bi);
bool pg_gbpages(void);
u64 pg_max_phys(void);

/* Identity-map [start, end) (4 KiB aligned) with @attr, splitting larger pages as needed. */
int pg_map(u64 start, u64 end, u64 attr);
/*
 * Same as pg_map for ranges already mapped: large leaves at the edges are split first with
 * their old attributes and the TLB flushed, then the attributes change and the TLB (and the
 * caches, on a type change) is flushed again.
 */
int pg_set_attr(u64 start, u64 end, u64 attr);

/*
 * Make the 4 KiB leaf that maps @va present or not present, its other attributes kept, and
 * flush that one entry from this CPU's TLB. No split, no allocation, no full flush: safe in
 * an exception handler. False when @va is not mapped by a 4 KiB leaf (pg_set_attr on the
 * page makes one). Other CPUs may keep the old entry until they flush their own TLB.
 */
bool pg_set_present_4k(u64 va, bool present);

/* The leaf that maps @va; false when no entry at any level is present. */
bool pg_lookup(u64 va, struct pg_leaf *leaf);
/* Call @fn for each present leaf in address order; stops when @fn returns false. */
void pg_walk(bool (*fn)(const struct pg_leaf *leaf, void *ctx), void *ctx);
void pg_stats(struct pg_stats *st);

#define PG_SPACE_BASE	0xffffc00000000000ULL	/* PML4 entry 384 */
#define PG_SPACE_SIZE	(1ULL << 39)		/* that entry's 512 GiB */

/*
 * Map @va to @pa with one leaf of @size (SZ_4K, SZ_2M, or SZ_1G where pg_gbpages()), both
 * aligned to it, inside the window, with @attr. The slot must be empty; tables on the way
 * are made as needed (from the boot allocator, kept). A not-present slot needs no TLB
 * invalidation before it is filled (the TLB holds only present translations). Returns 0,
 * or -1 with nothing changed: bad arguments, a slot in use or of another size, a leaf
 * across two MTRR types, no memory for a table.
 */
int pg_space_map(u64 va, u64 pa, u64 size, u64 attr);
/*
 * Clear the leaf of @size at @va in the window; *@pa (when not NULL) gets what it mapped.
 * The TLBs are the caller's: invlpg on this CPU, smp_flush_tlb() on all. 0, or -1 when no
 * present leaf of @size is there.
 */
int pg_space_unmap(u64 va, u64 size, u64 *pa);

#endif
