// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmem.c - a first-fit physical allocator over the free ranges of the firmware map.
 *
 * Memory is never returned: the kernel allocates page tables and test buffers once. The
 * lowest fitting range wins, so early allocations (page tables) stay below 4 GiB, where the
 * firmware's identity map is sure to reach them before the kernel's own tables are live.
 */
#include "kernel/arch/pmem.h"
#include "kernel/console/printk.h"

#define PMEM_MAX_RANGES	256
#define LOW_LIMIT	0x100000ULL	/* leave the first MiB alone (real-mode leftovers) */

struct range {
	u64 start, end;
};

static struct range free_ranges[PMEM_MAX_RANGES];
static unsigned int nr_free;
static unsigned int dropped;

static const char *const type_names[MEM_TYPE_COUNT] = {
	[MEM_RESERVED] = "reserved",		[MEM_USABLE] = "usable",
	[MEM_LOADER_CODE] = "loader code",	[MEM_LOADER_DATA] = "loader data",
	[MEM_BOOT_SERVICES] = "boot services",	[MEM_RUNTIME_CODE] = "runtime code",
	[MEM_RUNTIME_DATA] = "runtime data",	[MEM_ACPI_RECLAIM] = "ACPI reclaim",
	[MEM_ACPI_NVS] = "ACPI NVS",		[MEM_MMIO] = "MMIO",
	[MEM_PERSISTENT] = "persistent",	[MEM_UNUSABLE] = "unusable",
};

const char *mem_type_name(u32 type)
{
	return type < MEM_TYPE_COUNT ? type_names[type] : "?";
}

bool mem_type_is_ram(u32 type)
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

void mem_for_each_ram_run(const struct boot_info *bi, void (*fn)(u64 start, u64 end, void *ctx),
			  void *ctx)
{
	for (u32 i = 0; i < bi->nr_mem; i++) {
		u64 start = bi->mem[i].base, end = start + bi->mem[i].pages * SZ_4K;

		if (!mem_type_is_ram(bi->mem[i].type))
			continue;
		while (i + 1 < bi->nr_mem && mem_type_is_ram(bi->mem[i + 1].type) &&
		       bi->mem[i + 1].base == end) {
			i++;
			end += bi->mem[i].pages * SZ_4K;
		}
		fn(start, end, ctx);
	}
}

static void add_free(u64 start, u64 end)
{
	start = MAX(ALIGN_UP(start, SZ_4K), LOW_LIMIT);
	end = ALIGN_DOWN(end, SZ_4K);
	if (start >= end)
		return;
	if (nr_free == PMEM_MAX_RANGES) {
		dropped++;
		return;
	}
	/* Keep the list sorted by address. */
	unsigned int i = nr_free++;

	while (i && free_ranges[i - 1].start > start) {
		free_ranges[i] = free_ranges[i - 1];
		i--;
	}
	free_ranges[i] = (struct range){ start, end };
}

static void add_type(const struct boot_info *bi, u32 type)
{
	for (u32 i = 0; i < bi->nr_mem; i++)
		if (bi->mem[i].type == type)
			add_free(bi->mem[i].base, bi->mem[i].base + bi->mem[i].pages * SZ_4K);
}

void pmem_init(const struct boot_info *bi)
{
	nr_free = 0;
	add_type(bi, MEM_USABLE);
	if (dropped)
		pr_warn("pmem: %u free ranges beyond %d ignored\n", dropped, PMEM_MAX_RANGES);
}

void pmem_add_boot_services(const struct boot_info *bi)
{
	add_type(bi, MEM_BOOT_SERVICES);
}

u64 pmem_alloc(u64 size, u64 align)
{
	return pmem_alloc_in(size, align, 0, ~0ULL);
}

u64 pmem_alloc_in(u64 size, u64 align, u64 lo, u64 hi)
{
	size = ALIGN_UP(size, SZ_4K);
	if (align < SZ_4K)
		align = SZ_4K;
	for (unsigned int i = 0; i < nr_free; i++) {
		struct range *r = &free_ranges[i];
		u64 a = ALIGN_UP(MAX(r->start, lo), align);

		if (a < r->start || a + size > r->end || a + size < a || a + size > hi)
			continue;
		if (a > r->start) {
			u64 head = r->start;

			r->start = a + size;
			add_free(head, a);	/* may shift r; it is not used again */
		} else {
			r->start = a + size;
		}
		return a;
	}
	return 0;
}

u64 pmem_free_bytes(void)
{
	u64 sum = 0;

	for (unsigned int i = 0; i < nr_free; i++)
		sum += free_ranges[i].end - free_ranges[i].start;
	return sum;
}

void mem_report(const struct boot_info *bi)
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
			       (unsigned long long)end - 1, mem_type_name(r->type),
			       (unsigned long long)(end - start) >> 10);
		i = j;
	}
	if (lines > 64)
		printk("  ... %u more merged ranges not shown\n", lines - 64);
	for (i = 0; i < bi->nr_mem; i++) {
		u64 end = bi->mem[i].base + bi->mem[i].pages * SZ_4K;

		if (mem_type_is_ram(bi->mem[i].type)) {
			ram += bi->mem[i].pages * SZ_4K;
			top = MAX(top, end);
		}
	}
	printk("memory map: %llu MiB of RAM, highest RAM address 0x%llx\n",
	       (unsigned long long)ram >> 20, (unsigned long long)top - 1);
}
