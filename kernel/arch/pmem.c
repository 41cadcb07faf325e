// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmem.c - a first-fit physical allocator over the free ranges of the firmware map.
 *
 * Memory is never returned: the kernel allocates page tables and test buffers once. The
 * lowest fitting range wins, so early allocations (page tables) stay below 4 GiB, where the
 * firmware's identity map is sure to reach them before the kernel's own tables are live.
 */
#include "kernel/arch/pmem.h"
#include "kernel/lib/string.h"

#define PMEM_MAX_RANGES	256
#define LOW_LIMIT	0x100000ULL	/* leave the first MiB alone (real-mode leftovers) */

struct range {
	u64 start, end;
};

static struct range free_ranges[PMEM_MAX_RANGES];
static unsigned int nr_free;
static unsigned int dropped;
static const struct boot_info *map;

#ifdef CK_KERNEL
#include "kernel/console/printk.h"

static void default_warn(u32 entry, const char *field, u64 value, const char *what)
{
	pr_warn("memory map: entry %u %s 0x%llx %s\n", entry, field, (unsigned long long)value,
		what);
}

void (*pmem_warn)(u32 entry, const char *field, u64 value, const char *what) = default_warn;
#else
void (*pmem_warn)(u32 entry, const char *field, u64 value, const char *what);
#endif

static void warn(u32 entry, const char *field, u64 value, const char *what)
{
	if (pmem_warn)
		pmem_warn(entry, field, value, what);
}

u64 mem_end(const struct mem_range *r)
{
	return r->base + r->pages * SZ_4K;
}

int mem_sanitize(struct boot_info *bi)
{
	u32 n = 0;

	if (bi->nr_mem > BOOT_MEMMAP_MAX) {
		warn(bi->nr_mem, "count", bi->nr_mem, "is beyond the entries boot/ keeps: clipped");
		bi->nr_mem = BOOT_MEMMAP_MAX;
	}
	for (u32 i = 0; i < bi->nr_mem; i++) {
		struct mem_range r = bi->mem[i];
		u64 max_pages = (~0ULL - r.base) / SZ_4K;

		if (!r.pages)
			continue;	/* says nothing: dropped quietly, as Linux does */
		if (r.pages > max_pages) {
			warn(i, "NumberOfPages", r.pages, "runs past 2^64: clipped");
			r.pages = max_pages;
			if (!r.pages)
				continue;
		}
		if (r.base & (SZ_4K - 1)) {
			warn(i, "PhysicalStart", r.base, "is not 4 KiB aligned: not used");
			r.type = MEM_RESERVED;
		}
		if (r.type >= MEM_TYPE_COUNT) {
			warn(i, "type", r.type, "is unknown: reserved");
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
	for (u32 i = 1, last = 0; i < n; i++) {
		if (bi->mem[i].base < mem_end(&bi->mem[last]))
			warn(i, "PhysicalStart", bi->mem[i].base, bi->mem[i].type ==
			     bi->mem[last].type ? "overlaps an entry of its type (listed twice?)" :
			     "overlaps an entry of another type: neither is free there");
		if (mem_end(&bi->mem[i]) > mem_end(&bi->mem[last]))
			last = i;
	}
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

/* Put [start, end) into the sorted free list, merging with what it touches or overlaps. */
static void insert_free(u64 start, u64 end)
{
	unsigned int i = 0;

	if (start >= end)
		return;
	while (i < nr_free && free_ranges[i].end < start)
		i++;
	if (i < nr_free && free_ranges[i].start <= end) {
		struct range *r = &free_ranges[i];

		r->start = MIN(r->start, start);
		r->end = MAX(r->end, end);
		while (i + 1 < nr_free && free_ranges[i + 1].start <= r->end) {
			r->end = MAX(r->end, free_ranges[i + 1].end);
			memmove(&free_ranges[i + 1], &free_ranges[i + 2],
				(nr_free - i - 2) * sizeof(*r));
			nr_free--;
		}
		return;
	}
	if (nr_free == PMEM_MAX_RANGES) {
		dropped++;
		return;
	}
	memmove(&free_ranges[i + 1], &free_ranges[i], (nr_free - i) * sizeof(struct range));
	free_ranges[i] = (struct range){ start, end };
	nr_free++;
}

/* Page-align [start, end) inward without wrapping; keep what is above 1 MiB and not image. */
static void add_free(u64 start, u64 end)
{
	u64 img = map->image_base & ~(SZ_4K - 1);
	u64 img_end = map->image_base + map->image_size;

	if (start > ~0ULL - (SZ_4K - 1))
		return;
	start = MAX(ALIGN_UP(start, SZ_4K), LOW_LIMIT);
	end = ALIGN_DOWN(end, SZ_4K);
	if (img_end < map->image_base)
		img_end = ~0ULL;
	img_end = img_end > ~0ULL - (SZ_4K - 1) ? ~0ULL & ~(SZ_4K - 1) : ALIGN_UP(img_end, SZ_4K);
	if (start >= end)
		return;
	if (map->image_size && start < img_end && img < end) {
		insert_free(start, MIN(end, img));
		insert_free(MAX(start, img_end), end);
		return;
	}
	insert_free(start, end);
}

/*
 * Add what entry @i covers that no entry of another type also claims (the map is sorted:
 * mem_sanitize()). An overlap of two types leaves the memory to neither.
 */
static void add_entry(const struct boot_info *bi, u32 i)
{
	const struct mem_range *e = &bi->mem[i];
	u64 cur = e->base, end = mem_end(e);

	for (u32 j = 0; j < bi->nr_mem && bi->mem[j].base < end; j++) {
		const struct mem_range *c = &bi->mem[j];

		if (c->type == e->type || mem_end(c) <= cur)
			continue;
		if (c->base > cur)
			add_free(cur, c->base);
		cur = MAX(cur, mem_end(c));
		if (cur >= end)
			return;
	}
	add_free(cur, end);
}

static void add_type(const struct boot_info *bi, u32 type)
{
	for (u32 i = 0; i < bi->nr_mem; i++)
		if (bi->mem[i].type == type)
			add_entry(bi, i);
}

void pmem_init(const struct boot_info *bi)
{
	map = bi;
	nr_free = 0;
	dropped = 0;
	add_type(bi, MEM_USABLE);
#ifdef CK_KERNEL
	if (dropped)
		pr_warn("pmem: %u free ranges beyond %d ignored\n", dropped, PMEM_MAX_RANGES);
#endif
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
			insert_free(head, a);	/* may shift r; it is not used again */
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

#ifdef CK_KERNEL
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
#endif
