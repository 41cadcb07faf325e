// SPDX-License-Identifier: GPL-2.0-only
/*
 * bootmem.c - a first-fit physical allocator over the free ranges of the sanitized firmware
 * map (kernel/arch/memmap.h).
 *
 * Memory is never returned: the kernel allocates page tables and test buffers once. The
 * lowest fitting range wins, so early allocations (page tables) stay below 4 GiB, where the
 * firmware's identity map is sure to reach them before the kernel's own tables are live.
 */
#include "kernel/arch/bootmem.h"
#include "kernel/arch/memmap.h"
#include "kernel/include/page_types.h"
#include "kernel/lib/string.h"

#ifdef CK_KERNEL
#include "kernel/console/printk.h"
#endif

#define BOOTMEM_MAX_RANGES	256

struct range {
	u64 start, end;
};

static struct range free_ranges[BOOTMEM_MAX_RANGES];
static unsigned int nr_free;
static unsigned int dropped;
static const struct boot_info *map;

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
	if (nr_free == BOOTMEM_MAX_RANGES) {
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
	start = MAX(ALIGN_UP(start, SZ_4K), LOW_MEMORY_END);
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
 * memmap_sanitize()). An overlap of two types leaves the memory to neither.
 */
static void add_entry(const struct boot_info *bi, u32 i)
{
	const struct mem_range *e = &bi->mem[i];
	u64 cur = e->base, end = memmap_end(e);

	for (u32 j = 0; j < bi->nr_mem && bi->mem[j].base < end; j++) {
		const struct mem_range *c = &bi->mem[j];

		if (c->type == e->type || memmap_end(c) <= cur)
			continue;
		if (c->base > cur)
			add_free(cur, c->base);
		cur = MAX(cur, memmap_end(c));
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

void bootmem_init(const struct boot_info *bi)
{
	map = bi;
	nr_free = 0;
	dropped = 0;
	add_type(bi, MEM_USABLE);
#ifdef CK_KERNEL
	if (dropped)
		pr_warn("bootmem: %u free ranges beyond %d ignored\n", dropped, BOOTMEM_MAX_RANGES);
#endif
}

void bootmem_add_boot_services(const struct boot_info *bi)
{
	add_type(bi, MEM_BOOT_SERVICES);
}

u64 bootmem_alloc(u64 size, u64 align)
{
	return bootmem_alloc_in(size, align, 0, ~0ULL);
}

u64 bootmem_alloc_in(u64 size, u64 align, u64 lo, u64 hi)
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

u64 bootmem_free_bytes(void)
{
	u64 sum = 0;

	for (unsigned int i = 0; i < nr_free; i++)
		sum += free_ranges[i].end - free_ranges[i].start;
	return sum;
}


/* Where the reserve of @keep bytes lies: the lowest aligned fit, else the largest range. */
static struct range reserve_of(u64 keep)
{
	unsigned int largest = 0;

	for (unsigned int i = 0; i < nr_free; i++) {
		const struct range *r = &free_ranges[i];
		u64 a = ALIGN_UP(r->start, BOOTMEM_RESERVE_ALIGN);

		if (a >= r->start && a + keep >= a && a + keep <= r->end)
			return (struct range){ a, a + keep };
		if (r->end - r->start > free_ranges[largest].end - free_ranges[largest].start)
			largest = i;
	}
	return nr_free ? free_ranges[largest] : (struct range){ 0, 0 };
}

unsigned int bootmem_take_all(struct bootmem_range *out, unsigned int max, u64 keep,
			      u64 *kept, u64 *left)
{
	struct range res, stay[BOOTMEM_MAX_RANGES + 2];
	unsigned int n = 0, nr_stay = 0;

	keep = ALIGN_UP(keep, BOOTMEM_RESERVE_ALIGN);
	res = reserve_of(keep);
	*left = 0;
	for (unsigned int i = 0; i < nr_free; i++) {
		struct range r = free_ranges[i], part[2] = { r, { 0, 0 } };

		if (res.start >= r.start && res.end <= r.end && res.end > res.start) {
			part[0] = (struct range){ r.start, res.start };
			part[1] = (struct range){ res.end, r.end };
			stay[nr_stay++] = res;
		}
		for (unsigned int k = 0; k < 2; k++) {
			if (part[k].start >= part[k].end)
				continue;
			if (n < max) {
				out[n++] = (struct bootmem_range){ part[k].start, part[k].end };
			} else {
				*left += part[k].end - part[k].start;
				stay[nr_stay++] = part[k];
			}
		}
	}
	/* The list stays sorted: every range kept is a piece of one that was, in order. */
	if (nr_stay > BOOTMEM_MAX_RANGES) {
		dropped += nr_stay - BOOTMEM_MAX_RANGES;	/* @max under the range count */
		nr_stay = BOOTMEM_MAX_RANGES;
	}
	memcpy(free_ranges, stay, nr_stay * sizeof(stay[0]));
	nr_free = nr_stay;
	*kept = bootmem_free_bytes() - *left;
	return n;
}
