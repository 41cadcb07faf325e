// SPDX-License-Identifier: GPL-2.0-only
/*
 * efi_memmap.c - UEFI memory descriptors to boot_info ranges (see the header).
 *
 * A descriptor (UEFI spec, EFI_MEMORY_DESCRIPTOR): u32 Type, 4 bytes of padding, u64
 * PhysicalStart, u64 VirtualStart, u64 NumberOfPages, u64 Attribute: 40 bytes; firmware
 * states its own stride, which may be larger.
 */
#include "kernel/include/unaligned.h"
#include "kernel/lib/efi_memmap.h"

u32 efi_memmap_type(u32 t)
{
	switch (t) {
	case 7:		return MEM_USABLE;		/* EfiConventionalMemory */
	case 1:		return MEM_LOADER_CODE;
	case 2:		return MEM_LOADER_DATA;
	case 3:
	case 4:		return MEM_BOOT_SERVICES;
	case 5:		return MEM_RUNTIME_CODE;
	case 6:		return MEM_RUNTIME_DATA;
	case 9:		return MEM_ACPI_RECLAIM;
	case 10:	return MEM_ACPI_NVS;
	case 11:
	case 12:	return MEM_MMIO;		/* MMIO and MMIO port space */
	case 14:	return MEM_PERSISTENT;		/* EfiPersistentMemory (UEFI 2.5) */
	case 8:		return MEM_UNUSABLE;
	default:	return MEM_RESERVED;
	}
}

void efi_memmap_translate(struct boot_info *bi, const void *map, size_t size,
			  size_t desc_size)
{
	const u8 *p = map;

	bi->nr_mem = 0;
	bi->memmap_entries_dropped = 0;
	bi->memmap_desc_size = desc_size > 0xffffffffu ? 0xffffffffu : (u32)desc_size;
	/* A descriptor smaller than the structure (0 would loop forever): no map at all. */
	if (desc_size < BOOT_MEMMAP_DESC_MIN || !map)
		return;
	for (size_t off = 0; off + desc_size <= size && off + desc_size > off; off += desc_size) {
		struct mem_range *r;

		if (bi->nr_mem == BOOT_MEMMAP_MAX) {
			bi->memmap_entries_dropped++;
			continue;
		}
		r = &bi->mem[bi->nr_mem++];
		r->fw_type = get_le32(p + off);
		r->type = efi_memmap_type(r->fw_type);
		r->base = get_le64(p + off + 8);
		r->pages = get_le64(p + off + 24);
	}
}
