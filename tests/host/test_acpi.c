// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_acpi.c - the RSDP -> XSDT/RSDT walk over a fake physical memory: RSDP lengths from 0
 * to 4 GiB, root tables whose length or entries point past readable memory, bad checksums,
 * and more entries than the kernel keeps. Every refusal must name its table, field and value.
 */
#include <stdint.h>

#include "kernel/platform/acpi.h"
#include "tests/host/host_test.h"

#define PHYS_BASE	0x10000ULL
#define PHYS_SIZE	0x20000ULL

static unsigned char phys[PHYS_SIZE];
static char last_warn[8192];
static int warns;

static const void *map(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	if (addr < PHYS_BASE || len > PHYS_SIZE || addr - PHYS_BASE > PHYS_SIZE - len)
		return NULL;
	return phys + (addr - PHYS_BASE);
}

static void warn(void *ctx, const char *table, const char *field, uint64_t value,
		 const char *what)
{
	(void)ctx;
	warns++;
	snprintf(last_warn + strlen(last_warn), sizeof(last_warn) - strlen(last_warn),
		 "%s %s 0x%llx %s; ", table, field, (unsigned long long)value, what);
}

static unsigned char *at(uint64_t pa)
{
	return phys + (pa - PHYS_BASE);
}

static void fix_sum(unsigned char *p, size_t len, size_t sum_off)
{
	unsigned char s = 0;

	p[sum_off] = 0;
	for (size_t i = 0; i < len; i++)
		s += p[i];
	p[sum_off] = (unsigned char)-s;
}

static void table(uint64_t pa, const char *sig, uint32_t len)
{
	unsigned char *t = at(pa);

	memset(t, 0, len);
	memcpy(t, sig, 4);
	memcpy(t + 4, &len, 4);
	fix_sum(t, len, 9);
}

/* RSDP at 0x10000, XSDT at 0x11000 listing @n tables at 0x12000 + i * 0x100. */
static void build(uint32_t rsdp_len, unsigned int n)
{
	unsigned char *r = at(PHYS_BASE);
	uint64_t xsdt = 0x11000, rsdt = 0;
	uint32_t xlen = 36 + 8 * n;

	memset(phys, 0, sizeof(phys));
	for (unsigned int i = 0; i < n; i++) {
		uint64_t a = 0x13000 + i * 0x100;

		table(a, i & 1 ? "SSDT" : "APIC", 0x40);
		memcpy(at(xsdt) + 36 + 8 * i, &a, 8);
	}
	memcpy(at(xsdt), "XSDT", 4);
	memcpy(at(xsdt) + 4, &xlen, 4);
	fix_sum(at(xsdt), xlen, 9);
	memcpy(r, "RSD PTR ", 8);
	r[15] = 2;
	memcpy(r + 16, &rsdt, 4);
	memcpy(r + 20, &rsdp_len, 4);
	memcpy(r + 24, &xsdt, 8);
	fix_sum(r, 20, 8);
	fix_sum(r, 36, 32);
}

static struct acpi_walk w = { .map = map, .warn = warn };

static void walk(void)
{
	warns = 0;
	last_warn[0] = 0;
	acpi_walk(&w, PHYS_BASE, 0);
}

static void test_good(void)
{
	build(36, 5);
	walk();
	CHECK(warns == 0 && w.use_xsdt && w.nr_tables == 5 && w.revision == 2,
	      "5 tables, no warning: %u, %s", w.nr_tables, last_warn);
}

static void test_rsdp_length(void)
{
	build(0xffffffffu, 3);	/* ASan: the old walk summed 4 GiB */
	walk();
	CHECK(w.use_xsdt && w.nr_tables == 3 && warns == 1 &&
	      strstr(last_warn, "RSDP Length 0xffffffff") && strstr(last_warn, "clipped"),
	      "4 GiB RSDP length clipped and named: %s", last_warn);
	build(24, 3);
	walk();
	CHECK(!w.use_xsdt && w.nr_tables == 0 && strstr(last_warn, "RSDP Length 0x18"),
	      "RSDP length 24 < 36: RSDT only: %s", last_warn);
}

static void test_root_bounds(void)
{
	uint32_t len = 0x100000;	/* 1 MiB: past the fake memory */

	build(36, 3);
	memcpy(at(0x11000) + 4, &len, 4);
	walk();
	CHECK(!w.root && w.nr_tables == 0 && strstr(last_warn, "XSDT Length 0x100000"),
	      "XSDT longer than memory refused: %s", last_warn);
	len = 0x7fffffff;
	memcpy(at(0x11000) + 4, &len, 4);
	walk();
	CHECK(!w.root && strstr(last_warn, "XSDT Length 0x7fffffff"),
	      "XSDT length beyond the cap refused: %s", last_warn);
}

static void test_tables(void)
{
	uint64_t wild = 0xfffffffffffff000ULL;

	build(36, 4);
	memcpy(at(0x11000) + 36 + 8, &wild, 8);		/* entry 1 points nowhere */
	at(0x13200)[10] ^= 1;				/* entry 2: bad checksum */
	fix_sum(at(0x11000), 36 + 32, 9);
	walk();
	CHECK(w.nr_tables == 2 && warns == 2, "two tables skipped: %u kept, %d warnings",
	      w.nr_tables, warns);
	CHECK(strstr(last_warn, "APIC Checksum") &&
	      strstr(last_warn, "table address 0xfffffffffffff000"), "bad checksum named: %s", last_warn);
	build(36, 4);
	{
		uint32_t huge = 0x1000;		/* table 3 claims to run past the end of RAM */

		memcpy(at(0x13300) + 4, &huge, 4);
		fix_sum(at(0x13300), 0x40, 9);
		memmove(at(0x2ff00), at(0x13300), 0x40);
		wild = 0x2ff00;
		memcpy(at(0x11000) + 36 + 24, &wild, 8);
		fix_sum(at(0x11000), 36 + 32, 9);
		walk();
		CHECK(w.nr_tables == 3 && strstr(last_warn, "SSDT Length 0x1000") &&
		      strstr(last_warn, "past"), "table past memory refused: %s", last_warn);
	}
}

static void test_many(void)
{
	build(36, 100);
	walk();
	CHECK(w.nr_tables == ACPI_MAX_TABLES && warns == 100 - ACPI_MAX_TABLES,
	      "64 kept, each extra named: %d", warns);
}

/* The parsers' shared header check and note list: each refusal names its table. */
static void test_parser_helpers(void)
{
	static u8 t[64];
	struct acpi_note notes[2];
	unsigned int nr = 0;
	const char *why = NULL;
	u64 v = 0;

	memcpy(t, "SRAT", 4);
	t[4] = 48;
	CHECK(acpi_check_header(t, 48, "SRAT", 48, &why, &v) == 0, "a sound header passes");
	CHECK(acpi_check_header(t, 40, "SRAT", 48, &why, &v) == -1 && v == 40 &&
	      !strncmp(why, "SRAT: not an SRAT", 17), "short: %s 0x%llx", why,
	      (unsigned long long)v);
	CHECK(acpi_check_header(t, 52, "SRAT", 48, &why, &v) == -1 && v == 48 &&
	      !strncmp(why, "SRAT: header length differs", 27), "length: %s", why);
	memcpy(t, "APIC", 4);
	CHECK(acpi_check_header(t, 56, "APIC", 44, &why, &v) == -1 && v == 48 &&
	      !strncmp(why, "MADT: ", 6), "the MADT named by its name: %s", why);
	CHECK(acpi_check_header(t, 48, "SLIT", 44, &why, &v) == -1 && v == 48 &&
	      !strncmp(why, "SLIT: not a SLIT", 16), "wrong signature: %s", why);
	for (unsigned int i = 0; i < 3; i++)
		acpi_note(notes, &nr, 2, i ? "later" : "first", i);
	CHECK(nr == 2 && !strcmp(notes[0].what, "first") && notes[1].value == 1,
	      "notes kept up to the bound: %u", nr);
}

int main(void)
{
	return RUN_TESTS(test_good, test_rsdp_length, test_root_bounds, test_tables, test_many,
			 test_parser_helpers);
}
