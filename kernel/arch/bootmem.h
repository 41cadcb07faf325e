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

#endif
