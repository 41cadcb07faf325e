// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bootmem.c - the firmware memory map's sanitizer (kernel/arch/memmap.c) and the boot
 * allocator (kernel/arch/bootmem.c) on hostile maps: page counts that wrap past 2^64,
 * unaligned bases near 2^64, entries listed twice or overlapping other types, a usable entry
 * over the image, an unsorted map, a map with no usable RAM. The sanitizer's findings are
 * read from the list it returns.
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

int main(void)
{
	return RUN_TESTS(test_wrap, test_unaligned_top, test_duplicate, test_overlap_types,
			 test_image, test_sort_and_boot_services, test_many_findings, test_no_ram);
}
