// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bootmem.c - the firmware memory map's sanitizer (kernel/arch/memmap.c) and the boot
 * allocator (kernel/arch/bootmem.c) on hostile maps: page counts that wrap past 2^64,
 * unaligned bases near 2^64, entries listed twice or overlapping other types, a usable entry
 * over the image, an unsorted map, a map with no usable RAM. The sanitizer's findings are
 * read from the list it returns. Then the soak's hand-over of all free memory but a reserve.
 */
#include <stdint.h>

#include "kernel/arch/bootmem.h"
#include "kernel/arch/memmap.h"
#include "tests/host/host_test.h"

static struct boot_info bi;
static struct memmap_findings found;
static char warned[8192];
static unsigned int warns;

static void reset(void)
{
	memset(&bi, 0, sizeof(bi));
	bi.image_base = 0x7000000;
	bi.image_size = 0x200000;
	memset(&found, 0xa5, sizeof(found));	/* the sanitizer must empty it */
}

/* Run the sanitizer and turn its findings into one string, as the image prints them. */
static int sanitize(void)
{
	int ret = memmap_sanitize(&bi, &found);

	warned[0] = 0;
	warns = found.n + found.dropped;
	for (unsigned int i = 0; i < found.n; i++)
		snprintf(warned + strlen(warned), sizeof(warned) - strlen(warned),
			 "entry %u %s 0x%llx %s; ", found.f[i].entry, found.f[i].field,
			 (unsigned long long)found.f[i].value, found.f[i].what);
	return ret;
}

static void add(u64 base, u64 pages, u32 type)
{
	bi.mem[bi.nr_mem++] = (struct mem_range){ base, pages, type, 0 };
}

/* Allocate 4 KiB pages until none is left (at most @max); return how many. */
static unsigned long drain(u64 *got, unsigned long max)
{
	unsigned long n = 0;
	u64 a;

	while (n < max && (a = bootmem_alloc(SZ_4K, SZ_4K)))
		got[n++] = a;
	return n;
}

static u64 pages[1 << 16];

static void test_wrap(void)
{
	unsigned long n;

	reset();
	add(0x100000, 0x100, MEM_USABLE);
	add(0xfffffffffff00000ULL, 0x1000000000000ULL, MEM_USABLE);	/* end wraps to 0 */
	CHECK(sanitize() == 0, "sanitize");
	CHECK(strstr(warned, "NumberOfPages 0x1000000000000 runs past 2^64"),
	      "wrap named: %s", warned);
	bootmem_init(&bi);
	n = drain(pages, 1 << 16);
	CHECK(n == 0x100 + 0xff, "only real pages handed out: %lu", n);
	for (unsigned long i = 0; i < n; i++)
		CHECK(pages[i] >= 0x100000 && (pages[i] < 0x200000 ||
		      pages[i] >= 0xfffffffffff00000ULL), "page 0x%llx is listed",
		      (unsigned long long)pages[i]);
}

static void test_unaligned_top(void)
{
	reset();
	add(0x100000, 0x10, MEM_USABLE);
	add(0xfffffffffffff001ULL, 0, MEM_USABLE);
	add(0xffffffffffffe001ULL, 1, MEM_USABLE);
	CHECK(sanitize() == 0 && strstr(warned, "PhysicalStart 0xffffffffffffe001"),
	      "unaligned base named: %s", warned);
	bootmem_init(&bi);
	CHECK(bootmem_free_bytes() == 0x10000, "only the aligned entry is free: 0x%llx",
	      (unsigned long long)bootmem_free_bytes());
}

static void test_duplicate(void)
{
	unsigned long n;

	reset();
	add(0x200000, 4, MEM_USABLE);
	add(0x200000, 4, MEM_USABLE);
	CHECK(sanitize() == 0 && strstr(warned, "listed twice"), "named: %s", warned);
	bootmem_init(&bi);
	n = drain(pages, 16);
	CHECK(n == 4, "a range listed twice gives its pages once: %lu", n);
}

static void test_overlap_types(void)
{
	unsigned long n;

	reset();
	add(0x300000, 16, MEM_USABLE);
	add(0x304000, 4, MEM_ACPI_NVS);		/* inside the usable entry */
	add(0x30e000, 8, MEM_RESERVED);		/* straddles its end */
	CHECK(sanitize() == 0 && warns == 2, "two overlaps named: %s", warned);
	bootmem_init(&bi);
	n = drain(pages, 64);
	CHECK(n == 10, "neither type's memory handed out: %lu", n);
	for (unsigned long i = 0; i < n; i++)
		CHECK(pages[i] < 0x304000 || (pages[i] >= 0x308000 && pages[i] < 0x30e000),
		      "page 0x%llx", (unsigned long long)pages[i]);
}

static void test_image(void)
{
	unsigned long n;

	reset();
	add(0x6f00000, 0x300, MEM_USABLE);		/* covers the image at 0x7000000 */
	add(0x7000000, 0x200, MEM_LOADER_CODE);
	CHECK(sanitize() == 0, "sanitize");
	bootmem_init(&bi);
	n = drain(pages, 0x1000);
	CHECK(n == 0x100, "the image's pages are not free: %lu", n);
	reset();
	add(0x6f00000, 0x300, MEM_USABLE);		/* and not even listed as loader code */
	sanitize();
	bootmem_init(&bi);
	n = drain(pages, 0x1000);
	CHECK(n == 0x100, "image carved out of a usable entry: %lu", n);
	for (unsigned long i = 0; i < n; i++)
		CHECK(pages[i] < 0x7000000 || pages[i] >= 0x7200000, "page 0x%llx in the image",
		      (unsigned long long)pages[i]);
}

static void test_sort_and_boot_services(void)
{
	reset();
	add(0x900000, 4, MEM_BOOT_SERVICES);
	add(0x400000, 4, MEM_USABLE);
	add(0x800000, 0, MEM_USABLE);
	add(0x100000, 4, MEM_USABLE);
	add(0x902000, 4, MEM_USABLE);		/* overlaps the boot-services entry */
	CHECK(sanitize() == 0 && bi.nr_mem == 4, "zero-page entry dropped");
	for (u32 i = 1; i < bi.nr_mem; i++)
		CHECK(bi.mem[i - 1].base <= bi.mem[i].base, "sorted at %u", i);
	bootmem_init(&bi);
	CHECK(bootmem_alloc(SZ_4K, SZ_4K) == 0x100000, "lowest first after sorting");
	bootmem_add_boot_services(&bi);
	CHECK(bootmem_free_bytes() == (3 + 4 + 2 + 2) * SZ_4K, "boot services only where no usable "
	      "entry overlaps: 0x%llx", (unsigned long long)bootmem_free_bytes());
}

/* More findings than the list holds: the first ones listed in order, the rest counted. */
static void test_many_findings(void)
{
	reset();
	add(0x100000, 4, MEM_USABLE);
	for (u32 i = 1; i <= MEMMAP_MAX_FINDINGS + 6; i++)
		add(0x10000000ULL + i * 0x10000 + 1, 1, MEM_USABLE);	/* unaligned */
	CHECK(sanitize() == 0, "still usable");
	CHECK(found.n == MEMMAP_MAX_FINDINGS && found.dropped == 6, "%u listed, %u counted",
	      found.n, found.dropped);
	for (unsigned int i = 0; i < found.n; i++)
		CHECK(found.f[i].entry == i + 1 && !strcmp(found.f[i].field, "PhysicalStart") &&
		      found.f[i].value == 0x10000000ULL + (i + 1) * 0x10000 + 1,
		      "finding %u names entry %u", i, found.f[i].entry);
	reset();
	add(0x200000, 4, MEM_USABLE);
	CHECK(sanitize() == 0 && found.n == 0 && found.dropped == 0,
	      "a clean map empties the list: %u", found.n);
}

static void test_no_ram(void)
{
	reset();
	CHECK(sanitize() == -1, "empty map is unusable");
	add(0x100000, 4, MEM_RESERVED);
	add(0x200000, 0, MEM_USABLE);
	CHECK(sanitize() == -1, "no usable entry is unusable");
}

/*
 * The soak's hand-over: everything but a 2 MiB-aligned reserve, worked out by hand for three
 * free ranges (the image sits above them all).
 */
static void take_map(void)
{
	reset();
	add(0x100000, 0x400, MEM_USABLE);		/* [1 MiB, 5 MiB) */
	add(0x1000000, 0x2000, MEM_USABLE);		/* [16 MiB, 48 MiB) */
	add(0x5001000, 0xfff, MEM_USABLE);		/* [80 MiB + 4 KiB, 96 MiB) */
	CHECK(sanitize() == 0, "sanitize");
	bootmem_init(&bi);
}

static void test_take_all(void)
{
	static const struct bootmem_range want[] = {
		{ 0x100000, 0x500000 }, { 0x1400000, 0x3000000 }, { 0x5001000, 0x6000000 },
	};
	struct bootmem_range out[8];
	u64 kept, left, total;
	unsigned int n;

	take_map();
	total = bootmem_free_bytes();
	/* 3 MiB rounds to 4: [2 MiB, 6 MiB) does not fit the first range, [16, 20) MiB does. */
	n = bootmem_take_all(out, 8, 3 << 20, &kept, &left);
	CHECK(n == 3 && kept == 4 << 20 && left == 0, "n %u kept %#llx left %#llx", n,
	      (unsigned long long)kept, (unsigned long long)left);
	for (unsigned int i = 0; i < n && i < 3; i++)
		CHECK(out[i].start == want[i].start && out[i].end == want[i].end,
		      "range %u: %#llx-%#llx", i, (unsigned long long)out[i].start,
		      (unsigned long long)out[i].end);
	CHECK(bootmem_free_bytes() == 4 << 20, "the reserve stays free");
	CHECK(total == (36ULL << 20) + 0xfff000, "hand-counted total");
	CHECK(bootmem_alloc(1 << 20, SZ_2M) == 0x1000000 &&
	      bootmem_alloc(1 << 20, SZ_2M) == 0x1200000 && bootmem_alloc(SZ_4K, SZ_4K) == 0x1100000,
	      "later allocations come from the reserve");
	CHECK(drain(pages, 1 << 16) == 511 && pages[0] >= 0x1101000 && pages[510] < 0x1400000,
	      "and nothing else is left");

	/* Room for one range only: the others stay free and are counted. */
	take_map();
	n = bootmem_take_all(out, 1, 3 << 20, &kept, &left);
	CHECK(n == 1 && out[0].start == 0x100000 && out[0].end == 0x500000,
	      "the lowest range goes first");
	CHECK(left == 0x1c00000 + 0xfff000 && kept == 4 << 20 &&
	      bootmem_free_bytes() == kept + left, "left %#llx kept %#llx",
	      (unsigned long long)left, (unsigned long long)kept);

	/* A reserve no range holds: the largest range stays whole. */
	take_map();
	n = bootmem_take_all(out, 8, 1ULL << 30, &kept, &left);
	CHECK(n == 2 && kept == 32 << 20 && out[1].start == 0x5001000,
	      "n %u kept %#llx", n, (unsigned long long)kept);

	/* No reserve: everything goes. */
	take_map();
	n = bootmem_take_all(out, 8, 0, &kept, &left);
	CHECK(n == 3 && kept == 0 && !bootmem_free_bytes() && !bootmem_alloc(SZ_4K, SZ_4K),
	      "keep 0: n %u, nothing stays", n);
}

int main(void)
{
	return RUN_TESTS(test_wrap, test_unaligned_top, test_duplicate, test_overlap_types,
			 test_image, test_sort_and_boot_services, test_many_findings, test_no_ram,
			 test_take_all);
}
