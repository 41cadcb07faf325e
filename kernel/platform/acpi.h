/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * acpi.h - find ACPI tables from the RSDP and read the few fields the kernel uses.
 */
#ifndef CK_ACPI_H
#define CK_ACPI_H

#include "kernel/include/boot_info.h"

struct acpi_sdt_hdr {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __packed;

/* Validate RSDP, XSDT (or RSDT) and every table's checksum; report what was found. */
void acpi_init(const struct boot_info *bi);
/* The first table with @sig whose checksum is good, or NULL. */
const struct acpi_sdt_hdr *acpi_find(const char *sig);
/* Map every table found (they may sit outside RAM), after paging is up. */
void acpi_map_tables(void);

/* ACPI PM timer: I/O port and width (24 or 32 bits); false when the FADT has none. */
bool acpi_pm_timer(u16 *port, u32 *bits);

#endif
