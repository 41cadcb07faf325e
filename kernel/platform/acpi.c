// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi.c - walk RSDP -> XSDT (or RSDT) -> tables. Nothing here trusts the firmware: every
 * checksum is verified and a bad or missing table is reported and skipped, never fatal.
 */
#include "kernel/include/unaligned.h"
#include "kernel/lib/string.h"
#include "kernel/platform/acpi.h"

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

static u8 sum(const void *p, size_t n)
{
	const u8 *b = p;
	u8 s = 0;

	while (n--)
		s += *b++;
	return s;
}

/*
 * The RSDP at @addr, or NULL. Revision 0 is the 20-byte ACPI 1.0 structure; from revision 2
 * the extended checksum covers the 36 bytes the spec defines, whatever the length field says
 * (a length beyond them is clipped and named; one below them loses the XSDT).
 */
static const struct rsdp *check_rsdp(struct acpi_walk *w, u64 addr, bool *xsdt_ok)
{
	const struct rsdp *r;

	*xsdt_ok = false;
	if (!addr)
		return NULL;
	r = w->map(w->ctx, addr, ACPI_RSDP_V1_LEN);
	if (!r) {
		w->warn(w->ctx, "RSDP", "address", addr, "is not readable memory, ignored");
		return NULL;
	}
	if (memcmp(r->signature, "RSD PTR ", 8) || sum(r, ACPI_RSDP_V1_LEN)) {
		w->warn(w->ctx, "RSDP", "signature or checksum", addr, "bad, ignored");
		return NULL;
	}
	if (r->revision < 2)
		return r;
	if (!w->map(w->ctx, addr, ACPI_RSDP_V2_LEN)) {
		w->warn(w->ctx, "RSDP", "address", addr,
			"revision 2 structure is not readable: using the RSDT");
		return r;
	}
	if (r->length < ACPI_RSDP_V2_LEN) {
		w->warn(w->ctx, "RSDP", "Length", r->length,
			"is below the 36 bytes of revision 2: using the RSDT");
		return r;
	}
	if (r->length > ACPI_RSDP_V2_LEN)
		w->warn(w->ctx, "RSDP", "Length", r->length,
			"is beyond the 36 bytes of revision 2: clipped to 36");
	if (sum(r, ACPI_RSDP_V2_LEN)) {
		w->warn(w->ctx, "RSDP", "Extended Checksum", r->ext_checksum,
			"is bad: using the RSDT");
		return r;
	}
	*xsdt_ok = r->xsdt != 0;
	return r;
}

/*
 * The table at @addr when it is readable whole and its checksum holds; else NULL + @warn,
 * naming it @what (its own signature when @what is NULL).
 */
static const struct acpi_sdt_hdr *check_table(struct acpi_walk *w, u64 addr, u32 max_len,
					      const char *what)
{
	const struct acpi_sdt_hdr *h = w->map(w->ctx, addr, sizeof(*h));
	char sig[5] = "????";

	if (!h) {
		w->warn(w->ctx, what ? what : "table", "address", addr,
			"is not readable memory, skipped");
		return NULL;
	}
	for (int i = 0; i < 4; i++)
		if (h->signature[i] >= 0x20 && h->signature[i] < 0x7f)
			sig[i] = h->signature[i];
	if (!what)
		what = sig;
	if (h->length < sizeof(*h) || h->length > max_len) {
		w->warn(w->ctx, what, "Length", h->length,
			"is below the header or beyond the limit, skipped");
		return NULL;
	}
	if (!w->map(w->ctx, addr, h->length)) {
		w->warn(w->ctx, what, "Length", h->length,
			"runs past readable memory, skipped");
		return NULL;
	}
	if (sum(h, h->length)) {
		w->warn(w->ctx, what, "Checksum", h->checksum, "is bad, skipped");
		return NULL;
	}
	return h;
}

static void add_table(struct acpi_walk *w, u64 addr)
{
	const struct acpi_sdt_hdr *h;

	if (!addr)
		return;
	h = check_table(w, addr, ACPI_TABLE_MAX_LEN, NULL);
	if (!h)
		return;
	if (w->nr_tables == ACPI_MAX_TABLES) {
		w->warn(w->ctx, w->use_xsdt ? "XSDT" : "RSDT", "entry", addr,
			"is beyond the 64 tables kept, skipped");
		return;
	}
	w->tables[w->nr_tables++] = h;
}

void acpi_walk(struct acpi_walk *w, u64 rsdp, u64 rsdp1)
{
	const struct rsdp *r;
	const char *name;
	bool xsdt_ok;
	u32 entries, esize;

	w->nr_tables = 0;
	w->root = NULL;
	w->revision = 0;
	w->use_xsdt = false;
	w->have_rsdp = false;
	r = check_rsdp(w, rsdp, &xsdt_ok);
	if (!r)
		r = check_rsdp(w, rsdp1, &xsdt_ok);
	if (!r)
		return;
	w->have_rsdp = true;
	w->revision = r->revision;
	memcpy(w->oem_id, r->oem_id, sizeof(w->oem_id));
	w->use_xsdt = xsdt_ok;
	name = xsdt_ok ? "XSDT" : "RSDT";
	esize = xsdt_ok ? 8 : 4;
	w->root = check_table(w, xsdt_ok ? r->xsdt : r->rsdt, ACPI_ROOT_MAX_LEN, name);
	if (w->root && memcmp(w->root->signature, name, 4)) {
		w->warn(w->ctx, name, "Signature", get_le32((const u8 *)w->root->signature),
			"is wrong: no ACPI tables");
		w->root = NULL;
	}
	if (!w->root)
		return;
	if ((w->root->length - sizeof(*w->root)) % esize)
		w->warn(w->ctx, name, "Length", w->root->length,
			"is not a whole number of entries: the last is ignored");
	entries = (w->root->length - sizeof(*w->root)) / esize;
	for (u32 i = 0; i < entries; i++) {
		u64 a = 0;

		memcpy(&a, (const u8 *)(w->root + 1) + i * esize, esize);
		add_table(w, a);
	}
}

void acpi_note(struct acpi_note *list, unsigned int *nr, unsigned int max, const char *what,
	       u64 value)
{
	if (*nr < max)
		list[(*nr)++] = (struct acpi_note){ what, value };
}

int acpi_refuse(const char **why, u64 *why_value, const char *what, u64 value)
{
	*why = what;
	*why_value = value;
	return -1;
}

/* Each parsed table's two header messages, so a refusal names the table it is about. */
static const struct {
	char sig[4];
	const char *too_short, *bad_length;
} header_msgs[] = {
	{ { 'A', 'P', 'I', 'C' }, "MADT: not a MADT, or shorter than its header: length",
	  "MADT: header length differs from the table: length" },
	{ { 'S', 'R', 'A', 'T' }, "SRAT: not an SRAT, or shorter than its header: length",
	  "SRAT: header length differs from the table: length" },
	{ { 'S', 'L', 'I', 'T' }, "SLIT: not a SLIT, or shorter than its header: length",
	  "SLIT: header length differs from the table: length" },
};

int acpi_check_header(const void *table, size_t len, const char *sig, size_t min,
		      const char **why, u64 *why_value)
{
	const char *too_short = "ACPI: not the table expected, or shorter than its header: length";
	const char *bad_length = "ACPI: header length differs from the table: length";
	const u8 *b = table;

	for (size_t i = 0; i < ARRAY_SIZE(header_msgs); i++)
		if (!memcmp(header_msgs[i].sig, sig, 4)) {
			too_short = header_msgs[i].too_short;
			bad_length = header_msgs[i].bad_length;
		}
	if (len < min || memcmp(b, sig, 4))
		return acpi_refuse(why, why_value, too_short, len);
	if (get_le32(b + 4) != len)
		return acpi_refuse(why, why_value, bad_length, get_le32(b + 4));
	return 0;
}

#ifdef CK_KERNEL
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"

static const struct acpi_sdt_hdr *const *tables;
static unsigned int nr_tables;
static const struct acpi_sdt_hdr *root;
static const struct boot_info *boot;

/* Firmware tables live in memory the firmware map lists (any type), or below 1 MiB. */
static const void *kernel_map(void *ctx, u64 addr, u64 len)
{
	u64 end = addr + len;

	(void)ctx;
	if (!addr || end < addr)
		return NULL;
	if (end <= 0x100000)
		return (const void *)(uintptr_t)addr;
	for (u32 i = 0; i < boot->nr_mem; i++) {
		u64 s = boot->mem[i].base, pages = boot->mem[i].pages;

		if (pages > (~0ULL - s) / SZ_4K)
			continue;
		if (addr >= s && end <= s + pages * SZ_4K)
			return (const void *)(uintptr_t)addr;
	}
	return NULL;
}

static void kernel_warn(void *ctx, const char *table, const char *field, u64 value,
			const char *what)
{
	(void)ctx;
	pr_warn("ACPI: %s %s 0x%llx %s\n", table, field, (unsigned long long)value, what);
}

static struct acpi_walk walk = { .map = kernel_map, .warn = kernel_warn };

void acpi_init(const struct boot_info *bi)
{
	boot = bi;
	acpi_walk(&walk, bi->rsdp, bi->rsdp1);
	tables = walk.tables;
	nr_tables = walk.nr_tables;
	root = walk.root;
	if (!walk.have_rsdp) {
		printk("ACPI: the firmware gave no usable RSDP: no ACPI tables (no PM timer, "
		       "one NUMA node)\n");
		return;
	}
	if (!root) {
		printk("ACPI: no usable XSDT or RSDT: no ACPI tables (no PM timer, one NUMA "
		       "node)\n");
		return;
	}
	printk("ACPI: rev %u %s at 0x%llx, OEM '%.6s', %u tables:", walk.revision,
	       walk.use_xsdt ? "XSDT" : "RSDT", (unsigned long long)(uintptr_t)root,
	       walk.oem_id, nr_tables);
	for (unsigned int i = 0; i < nr_tables; i++)
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

void acpi_print_refusal(const char *who, const char *table, const char *why, u64 value,
			const char *consequence)
{
	pr_warn("%s: %s rejected: %s 0x%llx%s\n", who, table, why, (unsigned long long)value,
		consequence);
}

void acpi_print_notes(const char *who, const struct acpi_note *list, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		pr_warn("%s: %s 0x%llx\n", who, list[i].what, (unsigned long long)list[i].value);
}

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
#endif
