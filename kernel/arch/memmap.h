/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memmap.h - the firmware memory map as the kernel sees it (Linux keeps its e820 table in
 * the same place): made safe to use, its types named, its RAM walked in runs, and printed.
 * The boot allocator (bootmem.h) takes its free memory from it.
 */
#ifndef CK_MEMMAP_H
#define CK_MEMMAP_H

#include "kernel/include/boot_info.h"

/* RAM the kernel maps write-back: everything that is memory rather than a device. */
bool memmap_type_is_ram(u32 type);
const char *memmap_type_name(u32 type);

/*
 * Call @fn for each run of adjacent RAM entries of the (sorted) map, as [start, end): the
 * unit paging maps with large pages and pages_setup gives frames to.
 */
void memmap_for_each_ram_run(const struct boot_info *bi,
			     void (*fn)(u64 start, u64 end, void *ctx), void *ctx);

/* The end of @r; memmap_sanitize() makes sure it does not wrap. */
u64 memmap_end(const struct mem_range *r);

/* One thing the sanitizer changed or found: entry @entry's @field was @value, @what. */
struct memmap_finding {
	u32 entry;
	const char *field;
	u64 value;
	const char *what;
};

#define MEMMAP_MAX_FINDINGS	64

struct memmap_findings {
	unsigned int n;
	unsigned int dropped;		/* findings beyond MEMMAP_MAX_FINDINGS, counted only */
	struct memmap_finding f[MEMMAP_MAX_FINDINGS];
};

/*
 * Make the firmware map safe to use, in place: entries of no pages dropped, page counts that
 * run past 2^64 clipped, unaligned or unknown entries reserved, the map sorted by address,
 * overlaps named. Each change is listed once in @found (emptied first), for the caller to
 * print. Returns -1 when no entry is usable RAM (the caller panics).
 */
int memmap_sanitize(struct boot_info *bi, struct memmap_findings *found);

#ifdef CK_KERNEL
/* One warning line per finding ("memory map: entry N FIELD 0xVALUE WHAT"). */
void memmap_print_findings(const struct memmap_findings *found);
/* Print the map, adjacent entries of one type merged, with totals. */
void memmap_report(const struct boot_info *bi);
#endif

#endif
