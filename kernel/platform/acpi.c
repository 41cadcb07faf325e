// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi.c - walk RSDP -> XSDT (or RSDT) -> tables. Nothing here trusts the firmware: every
 * checksum is verified and a bad or missing table is reported and skipped, never fatal.
 */
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/lib/string.h"
#include "kernel/platform/acpi.h"

#define ACPI_MAX_TABLES	64

struct rsdp {
	char signature[8];
	u8 checksum;
	char oem_id[6];
	u8 revision;
	u32 rsdt;
	u32 length;
	u64 xsdt;
	u8 ext_checksum;
	u8 reserved[3];
} __packed;

static const struct acpi_sdt_hdr *tables[ACPI_MAX_TABLES];
static unsigned int nr_tables;
static const struct acpi_sdt_hdr *root;

static u8 sum(const void *p, size_t n)
{
	const u8 *b = p;
	u8 s = 0;

	while (n--)
		s += *b++;
	return s;
}

static bool table_ok(const struct acpi_sdt_hdr *h)
{
	return h->length >= sizeof(*h) && h->length < (64U << 20) && sum(h, h->length) == 0;
}

static const struct rsdp *check_rsdp(u64 addr, const char *what)
{
	const struct rsdp *r = (const void *)(uintptr_t)addr;

	if (!addr)
		return NULL;
	if (memcmp(r->signature, "RSD PTR ", 8) || sum(r, 20)) {
		pr_warn("ACPI: %s RSDP at 0x%llx has a bad signature or checksum, ignored\n",
			what, (unsigned long long)addr);
		return NULL;
	}
	if (r->revision >= 2 && (r->length < sizeof(*r) || sum(r, r->length))) {
		pr_warn("ACPI: %s RSDP extended checksum is bad, using the RSDT only\n", what);
		return r;
	}
	return r;
}

static void add_table(u64 addr)
{
	const struct acpi_sdt_hdr *h = (const void *)(uintptr_t)addr;

	if (!addr)
		return;
	if (!table_ok(h)) {
		pr_warn("ACPI: table at 0x%llx ('%.4s') fails its checksum, skipped\n",
			(unsigned long long)addr, h->signature);
		return;
	}
	if (nr_tables == ACPI_MAX_TABLES) {
		pr_warn("ACPI: more than %d tables, '%.4s' skipped\n", ACPI_MAX_TABLES,
			h->signature);
		return;
	}
	tables[nr_tables++] = h;
}

void acpi_init(const struct boot_info *bi)
{
	const struct rsdp *r = check_rsdp(bi->rsdp, "ACPI 2.0");
	bool use_xsdt;
	u32 entries, i;

	nr_tables = 0;
	root = NULL;
	if (!r)
		r = check_rsdp(bi->rsdp1, "ACPI 1.0");
	if (!r) {
		printk("ACPI: the firmware gave no usable RSDP: no ACPI tables (no PM timer, "
		       "one NUMA node)\n");
		return;
	}
	use_xsdt = r->revision >= 2 && r->xsdt && !sum(r, r->length);
	root = (const void *)(uintptr_t)(use_xsdt ? r->xsdt : r->rsdt);
	if (!root || !table_ok(root) ||
	    memcmp(root->signature, use_xsdt ? "XSDT" : "RSDT", 4)) {
		pr_warn("ACPI: %s at 0x%llx is invalid: no ACPI tables\n",
			use_xsdt ? "XSDT" : "RSDT", (unsigned long long)(uintptr_t)root);
		root = NULL;
		return;
	}
	entries = (root->length - sizeof(*root)) / (use_xsdt ? 8 : 4);
	for (i = 0; i < entries; i++) {
		const u8 *p = (const u8 *)(root + 1) + i * (use_xsdt ? 8 : 4);
		u64 a = 0;

		memcpy(&a, p, use_xsdt ? 8 : 4);
		add_table(a);
	}
	printk("ACPI: rev %u %s at 0x%llx, OEM '%.6s', %u tables:", r->revision,
	       use_xsdt ? "XSDT" : "RSDT", (unsigned long long)(uintptr_t)root, r->oem_id,
	       nr_tables);
	for (i = 0; i < nr_tables; i++)
		printk(" %.4s", tables[i]->signature);
	printk("\n");
}

const struct acpi_sdt_hdr *acpi_find(const char *sig)
{
	for (unsigned int i = 0; i < nr_tables; i++)
		if (!memcmp(tables[i]->signature, sig, 4))
			return tables[i];
	return NULL;
}

void acpi_map_tables(void)
{
	if (root)
		pg_set_attr((u64)(uintptr_t)root, (u64)(uintptr_t)root + root->length,
			    PG_PRESENT | PG_CACHE(PG_CACHE_WB));
	for (unsigned int i = 0; i < nr_tables; i++) {
		u64 a = (u64)(uintptr_t)tables[i];
		struct pg_leaf l;

		if (!pg_lookup(a, &l))
			pg_set_attr(a, a + tables[i]->length, PG_PRESENT | PG_CACHE(PG_CACHE_WB));
	}
}

/* FADT offsets (ACPI 6.x, table 5.9). */
#define FADT_PM_TMR_BLK		76
#define FADT_PM_TMR_LEN		91
#define FADT_FLAGS		112
#define FADT_X_PM_TMR_BLK	208
#define FADT_TMR_VAL_EXT	BIT(8)
#define GAS_SYSTEM_IO		1

bool acpi_pm_timer(u16 *port, u32 *bits)
{
	const struct acpi_sdt_hdr *f = acpi_find("FACP");
	const u8 *b = (const u8 *)f;
	u32 blk = 0, flags = 0;

	if (!f || f->length < FADT_FLAGS + 4)
		return false;
	memcpy(&flags, b + FADT_FLAGS, 4);
	if (f->length >= FADT_X_PM_TMR_BLK + 12 && b[FADT_X_PM_TMR_BLK] == GAS_SYSTEM_IO) {
		u64 x = 0;

		memcpy(&x, b + FADT_X_PM_TMR_BLK + 4, 8);
		if (x && x <= 0xffff)
			blk = (u32)x;
	}
	if (!blk) {
		memcpy(&blk, b + FADT_PM_TMR_BLK, 4);
		if (b[FADT_PM_TMR_LEN] < 4)
			blk = 0;
	}
	if (!blk || blk > 0xffff)
		return false;
	*port = (u16)blk;
	*bits = (flags & FADT_TMR_VAL_EXT) ? 32 : 24;
	return true;
}
