// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_efi_memmap.c - the firmware's memory descriptors to boot_info ranges: the 40-byte
 * layout of the UEFI spec written out by hand, a firmware stride larger than the structure,
 * a descriptor size of 0 or one too small (no map, and no endless loop), and the cap.
 */
#include "kernel/lib/efi_memmap.h"
#include "tests/host/host_test.h"

static struct boot_info bi;

static void put_desc(u8 *p, u32 type, u64 base, u64 pages)
{
	memset(p, 0xee, 40);
	memcpy(p, &type, 4);
	memcpy(p + 8, &base, 8);
	memcpy(p + 16, &base, 8);	/* VirtualStart: not used */
	memcpy(p + 24, &pages, 8);
}

static void test_strides(void)
{
	static u8 map[3 * 48];

	put_desc(map, 7, 0x100000, 256);
	put_desc(map + 48, 11, 0xfe000000, 16);
	put_desc(map + 96, 3, 0x200000, 1);
	efi_memmap_translate(&bi, map, sizeof(map), 48);
	CHECK(bi.nr_mem == 3 && bi.memmap_desc_size == 48, "three entries at stride 48: %u",
	      bi.nr_mem);
	CHECK(bi.mem[0].type == MEM_USABLE && bi.mem[0].base == 0x100000 &&
	      bi.mem[0].pages == 256, "conventional memory");
	CHECK(bi.mem[1].type == MEM_MMIO && bi.mem[1].fw_type == 11, "MMIO");
	CHECK(bi.mem[2].type == MEM_BOOT_SERVICES, "boot services data");
	efi_memmap_translate(&bi, map, sizeof(map) - 1, 48);
	CHECK(bi.nr_mem == 2, "a partial last descriptor is not read");
}

static void test_bad_descriptor_size(void)
{
	static u8 map[4096];

	efi_memmap_translate(&bi, map, sizeof(map), 0);
	CHECK(bi.nr_mem == 0 && bi.memmap_desc_size == 0, "size 0: no map (and no loop)");
	efi_memmap_translate(&bi, map, sizeof(map), 39);
	CHECK(bi.nr_mem == 0 && bi.memmap_desc_size == 39, "smaller than the structure: no map");
	efi_memmap_translate(&bi, map, sizeof(map), (size_t)1 << 62);
	CHECK(bi.nr_mem == 0, "a stride larger than the map: no entry");
}

static void test_cap(void)
{
	static u8 map[(BOOT_MEMMAP_MAX + 5) * 40];

	for (int i = 0; i < BOOT_MEMMAP_MAX + 5; i++)
		put_desc(map + i * 40, 7, (u64)i << 20, 1);
	efi_memmap_translate(&bi, map, sizeof(map), 40);
	CHECK(bi.nr_mem == BOOT_MEMMAP_MAX && bi.memmap_entries_dropped == 5,
	      "%u kept, %u dropped", bi.nr_mem, bi.memmap_entries_dropped);
}

int main(void)
{
	return RUN_TESTS(test_strides, test_bad_descriptor_size, test_cap);
}
