// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_acpi.c - libFuzzer target for the RSDP -> XSDT/RSDT walk. The input is physical
 * memory from 0x1000 on; the RSDP is at its start, the ACPI 1.0 one 64 bytes later. Besides
 * "no crash" (ASan catches any read outside the input), every table the walk keeps must lie
 * inside the input, be as long as its header says and sum to zero.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/platform/acpi.h"

#define BASE	0x1000ULL

static const uint8_t *mem;
static size_t mem_len;

static const void *map(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	if (addr < BASE || len > mem_len || addr - BASE > mem_len - len)
		return NULL;
	return mem + (addr - BASE);
}

static void warn(void *ctx, const char *table, const char *field, uint64_t value,
		 const char *what)
{
	(void)ctx;
	(void)value;
	if (!table || !field || !what)
		abort();	/* every message names its table and field */
}

static void check_table(const struct acpi_sdt_hdr *h)
{
	const uint8_t *p = (const uint8_t *)h;
	uint8_t s = 0;

	if (p < mem || h->length < sizeof(*h) || h->length > mem_len ||
	    (size_t)(p - mem) > mem_len - h->length)
		abort();
	for (uint32_t i = 0; i < h->length; i++)
		s += p[i];
	if (s)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_walk w = { .map = map, .warn = warn };

	mem = data;
	mem_len = size;
	acpi_walk(&w, BASE, BASE + 64);
	if (w.nr_tables > ACPI_MAX_TABLES || (w.nr_tables && !w.root))
		abort();
	if (w.root)
		check_table(w.root);
	for (unsigned int i = 0; i < w.nr_tables; i++)
		check_table(w.tables[i]);
	return 0;
}
