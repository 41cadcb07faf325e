/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bootmem.h - the boot allocator: physical pages from the free RAM of the sanitized firmware
 * map (kernel/arch/memmap.h), handed out once and never returned.
 */
#ifndef CK_BOOTMEM_H
#define CK_BOOTMEM_H

#include "kernel/include/boot_info.h"

/*
 * Take the free (conventional) RAM above 1 MiB from the sanitized map: only what no entry of
 * another type also claims, and never the image's own pages.
 */
void bootmem_init(const struct boot_info *bi);
/*
 * Add the firmware's boot-services memory. Only safe once the kernel runs on its own page
 * tables: the firmware's tables live there.
 */
void bootmem_add_boot_services(const struct boot_info *bi);

/* @size bytes aligned to @align (a power of two, at least 4 KiB); 0 when none is left. */
u64 bootmem_alloc(u64 size, u64 align);
/* The same, from free memory inside [@lo, @hi) only (a NUMA node's range). */
u64 bootmem_alloc_in(u64 size, u64 align, u64 lo, u64 hi);
u64 bootmem_free_bytes(void);

/* A run of free memory, [start, end), page-aligned. */
struct bootmem_range {
	u64 start, end;
};

#define BOOTMEM_RESERVE_ALIGN	SZ_2M

/*
 * Hand over all free memory but a reserve of @keep bytes (rounded up to 2 MiB) that stays for
 * later allocations: the reserve is the first 2 MiB-aligned @keep bytes of the lowest range
 * that holds them, the part of that range below the reserve is handed over too; when no
 * range holds them, the largest range stays whole. What is handed over goes to @out in
 * address order, at most @max ranges: ranges past those stay free, counted in *@left bytes.
 * (@max at least twice the free ranges hands everything over.) *@kept gets the bytes that
 * stay. Returns the number of ranges in @out. The memory handed
 * over is never given back.
 */
unsigned int bootmem_take_all(struct bootmem_range *out, unsigned int max, u64 keep,
			      u64 *kept, u64 *left);

#endif
