/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmem.h - physical memory: the firmware map as the kernel sees it, and a page allocator.
 */
#ifndef CK_PMEM_H
#define CK_PMEM_H

#include "kernel/include/boot_info.h"

/* RAM the kernel maps write-back: everything that is memory rather than a device. */
bool mem_type_is_ram(u32 type);
const char *mem_type_name(u32 type);

/*
 * Call @fn for each run of adjacent RAM entries of the (sorted) map, as [start, end): the
 * unit paging maps with large pages and pages_setup gives frames to.
 */
void mem_for_each_ram_run(const struct boot_info *bi, void (*fn)(u64 start, u64 end, void *ctx),
			  void *ctx);

/* The end of @r; mem_sanitize() makes sure it does not wrap. */
u64 mem_end(const struct mem_range *r);
/*
 * Make the firmware map safe to use, in place: entries of no pages dropped, page counts that
 * run past 2^64 clipped, unaligned or unknown entries reserved, the map sorted by address,
 * overlaps named. Each change is reported through pmem_warn once. Returns -1 when no entry
 * is usable RAM (the caller panics).
 */
int mem_sanitize(struct boot_info *bi);
/* Where mem_sanitize() reports (the image prints; host tests collect). */
extern void (*pmem_warn)(u32 entry, const char *field, u64 value, const char *what);

/*
 * Take the free (conventional) RAM above 1 MiB from the sanitized map: only what no entry of
 * another type also claims, and never the image's own pages.
 */
void pmem_init(const struct boot_info *bi);
/*
 * Add the firmware's boot-services memory. Only safe once the kernel runs on its own page
 * tables: the firmware's tables live there.
 */
void pmem_add_boot_services(const struct boot_info *bi);

/* @size bytes aligned to @align (a power of two, at least 4 KiB); 0 when none is left. */
u64 pmem_alloc(u64 size, u64 align);
/* The same, from free memory inside [@lo, @hi) only (a NUMA node's range). */
u64 pmem_alloc_in(u64 size, u64 align, u64 lo, u64 hi);
u64 pmem_free_bytes(void);

#ifdef CK_KERNEL
/* Print the map, adjacent entries of one type merged, with totals. */
void mem_report(const struct boot_info *bi);
#endif

#endif
