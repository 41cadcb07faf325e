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

#define ACPI_MAX_TABLES		64
#define ACPI_RSDP_V1_LEN	20
#define ACPI_RSDP_V2_LEN	36	/* revision 2 and later: the length the spec defines */
#define ACPI_ROOT_MAX_LEN	(36 + 8 * 1024)	/* XSDT/RSDT: at most 1024 entries read */
#define ACPI_TABLE_MAX_LEN	(16U << 20)

/*
 * The walk itself, plain C: every read goes through @map, which returns a pointer to @len
 * bytes at physical @addr or NULL when they are not readable memory (the image checks the
 * firmware map, the host tests a buffer). Each table, field and value refused or clipped
 * is passed to @warn once; the walk never fails as a whole, it finds fewer tables.
 */
struct acpi_walk {
	const void *(*map)(void *ctx, u64 addr, u64 len);
	void (*warn)(void *ctx, const char *table, const char *field, u64 value,
		     const char *what);
	void *ctx;
	/* Results. */
	bool have_rsdp;
	u8 revision;
	bool use_xsdt;
	char oem_id[6];
	const struct acpi_sdt_hdr *root;
	unsigned int nr_tables;
	const struct acpi_sdt_hdr *tables[ACPI_MAX_TABLES];
};

/* Walk from the ACPI 2.0 RSDP @rsdp, else the 1.0 one @rsdp1 (0: none). */
void acpi_walk(struct acpi_walk *w, u64 rsdp, u64 rsdp1);

#ifdef CK_KERNEL
/* Validate RSDP, XSDT (or RSDT) and every table's checksum; report what was found. */
void acpi_init(const struct boot_info *bi);
/* The first table with @sig whose checksum is good, or NULL. */
const struct acpi_sdt_hdr *acpi_find(const char *sig);
/* Map every table found (they may sit outside RAM), after paging is up. */
void acpi_map_tables(void);

/* ACPI PM timer: I/O port and width (24 or 32 bits); false when the FADT has none. */
bool acpi_pm_timer(u16 *port, u32 *bits);
#endif

#endif
