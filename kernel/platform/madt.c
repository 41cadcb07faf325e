// SPDX-License-Identifier: GPL-2.0-only
/*
 * madt.c - parse the MADT's processor entries (see madt.h). Plain C: every length is checked
 * against the table before it is read.
 */
#include "kernel/include/unaligned.h"
#include "kernel/lib/string.h"
#include "kernel/platform/madt.h"

#define MADT_FIRST	(ACPI_HDR_LEN + 8)
#define MADT_LAPIC	0	/* 8 bytes */
#define MADT_LAPIC_ADDR	5	/* 12 bytes */
#define MADT_X2APIC	9	/* 16 bytes */

static void note(struct madt_info *m, const char *what, u64 value)
{
	acpi_note(m->note, &m->nr_notes, MADT_MAX_NOTES, what, value);
}

static int refuse(struct madt_info *m, const char **why, const char *what, u64 value)
{
	return acpi_refuse(why, &m->why_value, what, value);
}

static void add_cpu(struct madt_info *m, u32 id, u32 uid, u32 flags, bool x2apic)
{
	if (!(flags & (MADT_ENABLED | MADT_ONLINE_CAPABLE))) {
		m->nr_unusable++;
		return;
	}
	for (unsigned int i = 0; i < m->nr_cpus; i++)
		if (m->cpu[i].apic_id == id) {
			note(m, "MADT: a second entry for APIC ID, ignored: APIC ID", id);
			return;
		}
	if (m->nr_cpus == MADT_MAX_CPUS) {
		note(m, "MADT: CPUs beyond the 1024 kept are ignored: APIC ID", id);
		return;
	}
	m->cpu[m->nr_cpus++] = (struct madt_cpu){ id, uid, flags & MADT_ENABLED, x2apic };
	if (flags & MADT_ENABLED)
		m->nr_enabled++;
}

int madt_parse(const void *madt, size_t len, struct madt_info *out, const char **why)
{
	const u8 *b = madt;
	bool have_lapic = false, have_override = false;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (acpi_check_header(b, len, "APIC", MADT_FIRST, why, &out->why_value))
		return -1;
	out->lapic_addr = get_le32(b + ACPI_HDR_LEN);
	out->flags = get_le32(b + ACPI_HDR_LEN + 4);
	/* First pass: are there local APIC entries at all (for the x2APIC rule)? */
	for (size_t off = MADT_FIRST; off + 2 <= len; off += b[off + 1]) {
		if (b[off + 1] < 2 || off + b[off + 1] > len)
			return refuse(out, why, "MADT: an entry runs past the table: entry length",
				      b[off + 1]);
		if (b[off] == MADT_LAPIC && b[off + 1] >= 8 && b[off + 3] != 0xff &&
		    (get_le32(b + off + 4) & (MADT_ENABLED | MADT_ONLINE_CAPABLE)))
			have_lapic = true;
	}
	for (size_t off = MADT_FIRST; off + 2 <= len; off += b[off + 1]) {
		const u8 *e = b + off;

		if (e[0] == MADT_LAPIC && e[1] >= 8) {
			if (e[3] != 0xff)
				add_cpu(out, e[3], e[2], get_le32(e + 4), false);
		} else if (e[0] == MADT_X2APIC && e[1] >= 16) {
			u32 id = get_le32(e + 4);

			if (id == 0xffffffff)
				continue;
			if (have_lapic && id < 0xff &&
			    (get_le32(e + 8) & (MADT_ENABLED | MADT_ONLINE_CAPABLE))) {
				note(out, "MADT: x2APIC entry below 0xff beside local APIC entries, "
				     "ignored: x2APIC ID", id);
				continue;
			}
			add_cpu(out, id, get_le32(e + 12), get_le32(e + 8), true);
		} else if (e[0] == MADT_LAPIC_ADDR && e[1] >= 12) {
			u64 a = get_le64(e + 4);

			if (have_override) {
				note(out, "MADT: a second local APIC address override, ignored: "
				     "address", a);
			} else if (!a || (a & 0xfff)) {
				note(out, "MADT: local APIC address override is 0 or not 4 KiB "
				     "aligned, ignored: address", a);
			} else {
				out->lapic_addr = a;
				have_override = true;
			}
		}
	}
	if (!out->nr_enabled)
		return refuse(out, why, "MADT: no enabled processor: entries", out->nr_cpus);
	return 0;
}
