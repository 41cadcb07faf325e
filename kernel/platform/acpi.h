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

/* The common header every description table starts with (ACPI 6.x 5.2.6). */
#define ACPI_HDR_LEN		36
_Static_assert(sizeof(struct acpi_sdt_hdr) == ACPI_HDR_LEN, "ACPI table header");

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

/*
 * What a table parser (MADT, SRAT, SLIT) found, the same way for each: a note names a field
 * it ignored or clipped (@what says which, @value is the firmware's value); a refusal names
 * why the whole table is unusable. The parsers are plain C; the callers print.
 */
struct acpi_note {
	const char *what;
	u64 value;
};

/* Add a note to @list (@nr of @max used); past @max it is dropped. */
void acpi_note(struct acpi_note *list, unsigned int *nr, unsigned int max, const char *what,
	       u64 value);
/* Refuse the table: *@why = @what, *@why_value = @value. Returns -1, the parsers' failure. */
int acpi_refuse(const char **why, u64 *why_value, const char *what, u64 value);
/*
 * The checks every parser starts with: @len bytes hold at least @min, the signature is @sig
 * and the header's length field says @len. Returns 0, or acpi_refuse()'s -1 with the
 * table's own message ("MADT: header length differs from the table: length").
 */
int acpi_check_header(const void *table, size_t len, const char *sig, size_t min,
		      const char **why, u64 *why_value);

#ifdef CK_KERNEL
/* Validate RSDP, XSDT (or RSDT) and every table's checksum; report what was found. */
void acpi_init(const struct boot_info *bi);
/* The first table with @sig whose checksum is good, or NULL. */
const struct acpi_sdt_hdr *acpi_find(const char *sig);
/* Map every table found (they may sit outside RAM), after paging is up. */
void acpi_map_tables(void);

/*
 * The image's words for a parser's results, one form for every table: "@who: @table rejected:
 * WHY 0xVALUE@consequence" and "@who: NOTE 0xVALUE", as warnings.
 */
void acpi_print_refusal(const char *who, const char *table, const char *why, u64 value,
			const char *consequence);
void acpi_print_notes(const char *who, const struct acpi_note *list, unsigned int nr);

/* ACPI PM timer: I/O port and width (24 or 32 bits); false when the FADT has none. */
bool acpi_pm_timer(u16 *port, u32 *bits);
#endif

#endif
