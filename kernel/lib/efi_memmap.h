/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * efi_memmap.h - the firmware's memory map (UEFI memory descriptors, as bytes) translated into
 * boot_info's ranges. Plain C, used by boot/ after ExitBootServices and tested on the host:
 * the descriptor size is the firmware's (often larger than the structure), and one smaller
 * than the structure gives no map at all instead of a loop.
 */
#ifndef CK_EFI_MEMMAP_H
#define CK_EFI_MEMMAP_H

#include "kernel/include/boot_info.h"

/* Fill @bi's mem[], nr_mem, memmap_entries_dropped and memmap_desc_size. */
void efi_memmap_translate(struct boot_info *bi, const void *map, size_t size,
			  size_t desc_size);
/* The MEM_* type of a UEFI memory type number. */
u32 efi_memmap_type(u32 efi_type);

#endif
