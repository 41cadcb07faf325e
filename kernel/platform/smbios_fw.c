// SPDX-License-Identifier: GPL-2.0-only
/*
 * smbios_fw.c - the firmware's SMBIOS table as the run's DIMM map: the entry point boot/
 * found in the configuration table (the 64-bit SMBIOS 3 one first, then the 32-bit 2.x one),
 * the structure table it names, parsed by smbios.c and reported one line per memory device.
 *
 * It runs once, early (init/main.c, right after ACPI): the firmware's page tables still map
 * every range of its memory map, and no boot-services memory has been reused yet, so a table
 * a firmware left there is still whole. Only ranges of the firmware's memory map (or below
 * 1 MiB, the legacy BIOS area) are read. The parsed map is kept for the soak; the table itself
 * is not needed afterwards.
 */
#include "kernel/console/printk.h"
#include "kernel/include/boot_info.h"
#include "kernel/platform/smbios.h"

#define LOW_MEMORY_END	0x100000ULL
#define ENTRY_READ_MIN	0x20		/* both entry point layouts fit in 32 bytes */
#define RANGES_SHOWN	4

static struct smbios_dimms dimms;
static bool have_dimms;

const struct smbios_dimms *smbios_dimms_get(void)
{
	return have_dimms ? &dimms : NULL;
}

/* How many of the @want bytes at @addr may be read: up to the end of its map entry. */
static u64 readable(const struct boot_info *bi, u64 addr, u64 want)
{
	if (!addr || addr + want < addr)
		return 0;
	if (addr < LOW_MEMORY_END)
		return MIN(want, LOW_MEMORY_END - addr);
	for (u32 i = 0; i < bi->nr_mem; i++) {
		u64 s = bi->mem[i].base, pages = bi->mem[i].pages;

		if (pages > (~0ULL - s) / SZ_4K)
			continue;
		if (addr >= s && addr < s + pages * SZ_4K)
			return MIN(want, s + pages * SZ_4K - addr);
	}
	return 0;
}

/* The entry point at @addr, checked; false (with one warning line) when it is unusable. */
static bool take_entry(const struct boot_info *bi, u64 addr, u32 len_field, const char *what,
		       struct smbios_entry *e)
{
	u64 n = readable(bi, addr, len_field > ENTRY_READ_MIN ? len_field : ENTRY_READ_MIN);
	const char *why = NULL;

	if (!n) {
		pr_warn("SMBIOS: the %s entry point at 0x%llx is outside the firmware's memory "
			"map, ignored\n", what, (unsigned long long)addr);
		return false;
	}
	if (smbios_parse_entry((const void *)(uintptr_t)addr, n, e, &why)) {
		pr_warn("%s (at 0x%llx), ignored\n", why, (unsigned long long)addr);
		return false;
	}
	return true;
}

static void put_size(const struct smbios_device *d, char *buf, size_t size)
{
	if (d->size_kind == SMBIOS_SIZE_EMPTY)
		ck_snprintf(buf, size, "empty slot");
	else if (d->size_kind == SMBIOS_SIZE_UNKNOWN)
		ck_snprintf(buf, size, "size unknown");
	else if (d->size % (1ULL << 20))
		ck_snprintf(buf, size, "%llu KiB", (unsigned long long)(d->size >> 10));
	else
		ck_snprintf(buf, size, "%llu MiB", (unsigned long long)(d->size >> 20));
}

/* One line per memory device: its name, size and the type 20 ranges that map it. */
static void report_device(unsigned int i)
{
	char name[2 * SMBIOS_NAME_MAX + 2], size[32], ranges[160];
	unsigned int shown = 0, more = 0;
	size_t len = 0;

	ranges[0] = '\0';
	for (unsigned int m = 0; m < dimms.nr_maps; m++) {
		const struct smbios_range *r = &dimms.maps[m];

		if (r->device != i)
			continue;
		if (shown++ < RANGES_SHOWN)
			ck_appendf(ranges, sizeof(ranges), &len, "%s0x%llx-0x%llx",
				   shown == 1 ? ", mapped at " : ", ", (unsigned long long)r->start,
				   (unsigned long long)r->end - 1);
		else
			more++;
	}
	if (more)
		ck_appendf(ranges, sizeof(ranges), &len, " and %u more ranges", more);
	smbios_dimm_name(&dimms, i, name, sizeof(name));
	put_size(&dimms.devices[i], size, sizeof(size));
	printk("SMBIOS: DIMM \"%s\": %s%s\n", name, size, ranges);
}

static void report(const struct smbios_entry *e, u64 len)
{
	printk("SMBIOS: %u.%u entry point (%s), structure table at 0x%llx, %llu bytes, %u "
	       "structures: %u memory devices, %u array ranges, %u device ranges\n", e->major,
	       e->minor, e->v3 ? "64-bit _SM3_" : "32-bit _SM_",
	       (unsigned long long)e->table_addr, (unsigned long long)len, dimms.nr_structs,
	       dimms.nr_devices, dimms.nr_arrays, dimms.nr_maps);
	for (unsigned int i = 0; i < dimms.nr_notes; i++)
		pr_warn("%s 0x%llx\n", dimms.note[i].what, (unsigned long long)dimms.note[i].value);
	if (dimms.nr_noted > dimms.nr_notes)
		pr_warn("SMBIOS: ... and %u more such notes\n", dimms.nr_noted - dimms.nr_notes);
	for (unsigned int i = 0; i < dimms.nr_devices; i++)
		report_device(i);
	if (!dimms.nr_maps)
		printk("SMBIOS: no DIMM map from firmware: errors are attributed to a node and a "
		       "range\n");
	else
		printk("SMBIOS: DIMM map from firmware: %u device mapped address ranges "
		       "(type 20)\n", dimms.nr_maps);
}

/* The structure table @e names, parsed into the map; false (one warning line) when refused. */
static bool take_table(const struct boot_info *bi, const struct smbios_entry *e)
{
	u64 n = readable(bi, e->table_addr, e->table_len), why_value = 0;
	const char *why = NULL;

	if (!e->table_len || !n) {
		pr_warn("SMBIOS: the structure table at 0x%llx (%u bytes) is %s, ignored\n",
			(unsigned long long)e->table_addr, e->table_len,
			e->table_len ? "outside the firmware's memory map" : "empty");
		return false;
	}
	if (n < e->table_len)
		pr_warn("SMBIOS: the structure table at 0x%llx runs %llu bytes past its memory map "
			"entry: read up to the entry's end\n", (unsigned long long)e->table_addr,
			(unsigned long long)(e->table_len - n));
	if (smbios_parse((const void *)(uintptr_t)e->table_addr, n, &dimms, &why, &why_value)) {
		pr_warn("%s 0x%llx: the structure table at 0x%llx is rejected\n", why,
			(unsigned long long)why_value, (unsigned long long)e->table_addr);
		return false;
	}
	report(e, n);
	return true;
}

void smbios_fw_init(const struct boot_info *bi)
{
	struct smbios_entry e;
	u64 refused = 0;	/* a table already refused: the 2.x entry may name it again */

	have_dimms = false;
	if (!bi->smbios3 && !bi->smbios)
		printk("SMBIOS: the firmware gave no SMBIOS table\n");
	if (bi->smbios3 && take_entry(bi, bi->smbios3, bi->smbios3_len, "SMBIOS 3", &e)) {
		have_dimms = take_table(bi, &e);
		refused = have_dimms ? 0 : e.table_addr;
	}
	if (!have_dimms && bi->smbios &&
	    take_entry(bi, bi->smbios, bi->smbios_len, "SMBIOS 2", &e) && e.table_addr != refused)
		have_dimms = take_table(bi, &e);
	if (!have_dimms)
		printk("SMBIOS: no DIMM map from firmware: errors are attributed to a node and a "
		       "range\n");
}
