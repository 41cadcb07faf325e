// SPDX-License-Identifier: GPL-2.0-only
/*
 * smbios_load.c - the firmware's SMBIOS table found, checked, parsed and described
 * (smbios_load() in smbios.h): the entry point boot/ found in the configuration table (the
 * 64-bit SMBIOS 3 one first, then the 32-bit 2.x one), the structure table it names, parsed
 * by smbios.c, and one line per memory device. Plain C over boot_info's memory map: every
 * line goes to the caller (smbios_fw.c prints it; tests/host/test_smbios_fw.c keeps it).
 *
 * Only ranges of the firmware's memory map (or below 1 MiB, the legacy BIOS area) are read,
 * each up to its end.
 */
#include <stdarg.h>

#include "kernel/include/boot_info.h"
#include "kernel/include/page_types.h"
#include "kernel/lib/format.h"
#include "kernel/platform/smbios.h"

#define ENTRY_READ_MIN	0x20		/* both entry point layouts fit in 32 bytes */
#define RANGES_SHOWN	4
#define LINE_MAX	384		/* the longest line: a device's, about 300 */

struct out {
	smbios_say_fn say;
	void *ctx;
};

static void __printf(3, 4) say(const struct out *o, bool warn, const char *fmt, ...)
{
	char line[LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	ck_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	o->say(o->ctx, warn, line);
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
static bool take_entry(const struct out *o, const struct boot_info *bi, u64 addr,
		       u32 len_field, const char *what, struct smbios_entry *e)
{
	u64 n = readable(bi, addr, len_field > ENTRY_READ_MIN ? len_field : ENTRY_READ_MIN);
	const char *why = NULL;

	if (!n) {
		say(o, true, "SMBIOS: the %s entry point at 0x%llx is outside the firmware's "
		    "memory map, ignored", what, (unsigned long long)addr);
		return false;
	}
	if (smbios_parse_entry((const void *)(uintptr_t)addr, n, e, &why)) {
		say(o, true, "%s (at 0x%llx), ignored", why, (unsigned long long)addr);
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
static void report_device(const struct out *o, const struct smbios_dimms *d, unsigned int i)
{
	char name[2 * SMBIOS_NAME_MAX + 2], size[32], ranges[160];
	unsigned int shown = 0, more = 0;
	size_t len = 0;

	ranges[0] = '\0';
	for (unsigned int m = 0; m < d->nr_maps; m++) {
		const struct smbios_range *r = &d->maps[m];

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
	smbios_dimm_name(d, i, name, sizeof(name));
	put_size(&d->devices[i], size, sizeof(size));
	say(o, false, "SMBIOS: DIMM \"%s\": %s%s", name, size, ranges);
}

static void describe_dimms(const struct out *o, const struct smbios_dimms *d,
			   const struct smbios_entry *e, u64 len)
{
	say(o, false, "SMBIOS: %u.%u entry point (%s), structure table at 0x%llx, %llu bytes, "
	    "%u structures: %u memory devices, %u array ranges, %u device ranges", e->major,
	    e->minor, e->v3 ? "64-bit _SM3_" : "32-bit _SM_", (unsigned long long)e->table_addr,
	    (unsigned long long)len, d->nr_structs, d->nr_devices, d->nr_arrays, d->nr_maps);
	for (unsigned int i = 0; i < d->nr_notes; i++)
		say(o, true, "%s 0x%llx", d->note[i].what, (unsigned long long)d->note[i].value);
	if (d->nr_noted > d->nr_notes)
		say(o, true, "SMBIOS: ... and %u more such notes", d->nr_noted - d->nr_notes);
	for (unsigned int i = 0; i < d->nr_devices; i++)
		report_device(o, d, i);
	if (!d->nr_maps)
		say(o, false, "SMBIOS: no DIMM map from firmware: errors are attributed to a node "
		    "and a range");
	else
		say(o, false, "SMBIOS: DIMM map from firmware: %u device mapped address ranges "
		    "(type 20)", d->nr_maps);
}

/* The structure table @e names, parsed into @d; false (one warning line) when refused. */
static bool take_table(const struct out *o, const struct boot_info *bi,
		       const struct smbios_entry *e, struct smbios_dimms *d)
{
	u64 n = readable(bi, e->table_addr, e->table_len), why_value = 0;
	const char *why = NULL;

	if (!e->table_len || !n) {
		say(o, true, "SMBIOS: the structure table at 0x%llx (%u bytes) is %s, ignored",
		    (unsigned long long)e->table_addr, e->table_len,
		    e->table_len ? "outside the firmware's memory map" : "empty");
		return false;
	}
	if (n < e->table_len)
		say(o, true, "SMBIOS: the structure table at 0x%llx runs %llu bytes past its "
		    "memory map entry: read up to the entry's end",
		    (unsigned long long)e->table_addr, (unsigned long long)(e->table_len - n));
	if (smbios_parse((const void *)(uintptr_t)e->table_addr, n, d, &why, &why_value)) {
		say(o, true, "%s 0x%llx: the structure table at 0x%llx is rejected", why,
		    (unsigned long long)why_value, (unsigned long long)e->table_addr);
		return false;
	}
	describe_dimms(o, d, e, n);
	return true;
}

bool smbios_load(const struct boot_info *bi, struct smbios_dimms *d, smbios_say_fn say_fn,
		 void *ctx)
{
	const struct out o = { say_fn, ctx };
	struct smbios_entry e;
	u64 refused = 0;	/* a table already refused: the 2.x entry may name it again */
	bool have = false;

	if (!bi->smbios3 && !bi->smbios)
		say(&o, false, "SMBIOS: the firmware gave no SMBIOS table");
	if (bi->smbios3 && take_entry(&o, bi, bi->smbios3, bi->smbios3_len, "SMBIOS 3", &e)) {
		have = take_table(&o, bi, &e, d);
		refused = have ? 0 : e.table_addr;
	}
	if (!have && bi->smbios &&
	    take_entry(&o, bi, bi->smbios, bi->smbios_len, "SMBIOS 2", &e) &&
	    e.table_addr != refused)
		have = take_table(&o, bi, &e, d);
	if (!have)
		say(&o, false, "SMBIOS: no DIMM map from firmware: errors are attributed to a node "
		    "and a range");
	return have;
}
