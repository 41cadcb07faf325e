// SPDX-License-Identifier: GPL-2.0-only
/*
 * memmap.c - the firmware memory map made safe to use, its types, its RAM runs and its
 * report (see memmap.h). The sanitizer is plain C: it lists what it changed and the caller
 * prints the list (the host tests read it).
 */
#include "kernel/arch/memmap.h"

u64 memmap_end(const struct mem_range *r)
{
	return r->base + r->pages * SZ_4K;
}

/* The sanitizer's findings: each one listed once, those past the list's end counted. */
static void note(struct memmap_findings *found, u32 entry, const char *field, u64 value,
		 const char *what)
{
	if (found->n == MEMMAP_MAX_FINDINGS) {
		found->dropped++;
		return;
	}
	found->f[found->n++] = (struct memmap_finding){ entry, field, value, what };
}

/* Name every entry that starts inside an earlier one (the map is sorted). */
static void note_overlaps(const struct boot_info *bi, struct memmap_findings *found)
{
	for (u32 i = 1, last = 0; i < bi->nr_mem; i++) {
		if (bi->mem[i].base < memmap_end(&bi->mem[last]))
			note(found, i, "PhysicalStart", bi->mem[i].base, bi->mem[i].type ==
			     bi->mem[last].type ? "overlaps an entry of its type (listed twice?)" :
			     "overlaps an entry of another type: neither is free there");
		if (memmap_end(&bi->mem[i]) > memmap_end(&bi->mem[last]))
			last = i;
	}
}

int memmap_sanitize(struct boot_info *bi, struct memmap_findings *found)
{
	u32 n = 0;

	found->n = 0;
	found->dropped = 0;
	if (bi->nr_mem > BOOT_MEMMAP_MAX) {
		note(found, bi->nr_mem, "count", bi->nr_mem,
		     "is beyond the entries boot/ keeps: clipped");
		bi->nr_mem = BOOT_MEMMAP_MAX;
	}
	for (u32 i = 0; i < bi->nr_mem; i++) {
		struct mem_range r = bi->mem[i];
		u64 max_pages = (~0ULL - r.base) / SZ_4K;

		if (!r.pages)
			continue;	/* says nothing: dropped quietly, as Linux does */
		if (r.pages > max_pages) {
			note(found, i, "NumberOfPages", r.pages, "runs past 2^64: clipped");
			r.pages = max_pages;
			if (!r.pages)
				continue;
		}
		if (r.base & (SZ_4K - 1)) {
			note(found, i, "PhysicalStart", r.base, "is not 4 KiB aligned: not used");
			r.type = MEM_RESERVED;
		}
		if (r.type >= MEM_TYPE_COUNT) {
			note(found, i, "type", r.type, "is unknown: reserved");
			r.type = MEM_RESERVED;
		}
		/* Insertion sort by base: UEFI does not promise any order. */
		u32 j = n++;

		while (j && bi->mem[j - 1].base > r.base) {
			bi->mem[j] = bi->mem[j - 1];
			j--;
		}
		bi->mem[j] = r;
	}
	bi->nr_mem = n;
	note_overlaps(bi, found);
	for (u32 i = 0; i < n; i++)
		if (bi->mem[i].type == MEM_USABLE || bi->mem[i].type == MEM_BOOT_SERVICES)
			return 0;
	return -1;
}

static const char *const type_names[MEM_TYPE_COUNT] = {
	[MEM_RESERVED] = "reserved",		[MEM_USABLE] = "usable",
	[MEM_LOADER_CODE] = "loader code",	[MEM_LOADER_DATA] = "loader data",
	[MEM_BOOT_SERVICES] = "boot services",	[MEM_RUNTIME_CODE] = "runtime code",
	[MEM_RUNTIME_DATA] = "runtime data",	[MEM_ACPI_RECLAIM] = "ACPI reclaim",
	[MEM_ACPI_NVS] = "ACPI NVS",		[MEM_MMIO] = "MMIO",
	[MEM_PERSISTENT] = "persistent",	[MEM_UNUSABLE] = "unusable",
};

const char *memmap_type_name(u32 type)
{
	return type < MEM_TYPE_COUNT ? type_names[type] : "?";
}

bool memmap_type_is_ram(u32 type)
{
	switch (type) {
	case MEM_USABLE:
	case MEM_LOADER_CODE:
	case MEM_LOADER_DATA:
	case MEM_BOOT_SERVICES:
	case MEM_RUNTIME_CODE:
	case MEM_RUNTIME_DATA:
	case MEM_ACPI_RECLAIM:
	case MEM_ACPI_NVS:
	case MEM_PERSISTENT:
		return true;
	default:
		return false;
	}
}

void memmap_for_each_ram_run(const struct boot_info *bi,
			     void (*fn)(u64 start, u64 end, void *ctx), void *ctx)
{
	for (u32 i = 0; i < bi->nr_mem; i++) {
		u64 start = bi->mem[i].base, end = start + bi->mem[i].pages * SZ_4K;

		if (!memmap_type_is_ram(bi->mem[i].type))
			continue;
		while (i + 1 < bi->nr_mem && memmap_type_is_ram(bi->mem[i + 1].type) &&
		       bi->mem[i + 1].base == end) {
			i++;
			end += bi->mem[i].pages * SZ_4K;
		}
		fn(start, end, ctx);
	}
}

#ifdef CK_KERNEL
#include "kernel/console/printk.h"

void memmap_print_findings(const struct memmap_findings *found)
{
	for (unsigned int i = 0; i < found->n; i++)
		pr_warn("memory map: entry %u %s 0x%llx %s\n", found->f[i].entry, found->f[i].field,
			(unsigned long long)found->f[i].value, found->f[i].what);
	if (found->dropped)
		pr_warn("memory map: %u more findings not listed\n", found->dropped);
}

void memmap_report(const struct boot_info *bi)
{
	u64 ram = 0, top = 0;
	u32 i = 0, lines = 0;

	printk("memory map: %u firmware entries%s\n", bi->nr_mem,
	       bi->memmap_entries_dropped ? " (some dropped: map larger than the kernel keeps)" :
	       "");
	while (i < bi->nr_mem) {
		const struct mem_range *r = &bi->mem[i];
		u64 start = r->base, end = r->base + r->pages * SZ_4K;
		u32 j = i + 1;

		/* Merge following entries of the same type that continue this one. */
		while (j < bi->nr_mem && bi->mem[j].type == r->type && bi->mem[j].base == end) {
			end += bi->mem[j].pages * SZ_4K;
			j++;
		}
		if (lines++ < 64)
			printk("  [%012llx-%012llx] %-13s %8llu KiB\n", (unsigned long long)start,
			       (unsigned long long)end - 1, memmap_type_name(r->type),
			       (unsigned long long)(end - start) >> 10);
		i = j;
	}
	if (lines > 64)
		printk("  ... %u more merged ranges not shown\n", lines - 64);
	for (i = 0; i < bi->nr_mem; i++) {
		u64 end = bi->mem[i].base + bi->mem[i].pages * SZ_4K;

		if (memmap_type_is_ram(bi->mem[i].type)) {
			ram += bi->mem[i].pages * SZ_4K;
			top = MAX(top, end);
		}
	}
	printk("memory map: %llu MiB of RAM, highest RAM address 0x%llx\n",
	       (unsigned long long)ram >> 20, (unsigned long long)top - 1);
}
#endif
