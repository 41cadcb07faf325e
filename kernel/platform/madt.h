/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madt.h - the processors of the ACPI MADT (ACPI 6.x section 5.2.12): local APIC (type 0)
 * and local x2APIC (type 9) entries, and the local APIC address override (type 5). Plain C,
 * host-tested and fuzzed; the SMP bring-up uses it.
 */
#ifndef CK_MADT_H
#define CK_MADT_H

#include "kernel/platform/acpi.h"

#define MADT_MAX_CPUS		1024
#define MADT_MAX_NOTES		4
#define MADT_ENABLED		BIT(0)
#define MADT_ONLINE_CAPABLE	BIT(1)

struct madt_cpu {
	u32 apic_id;
	u32 uid;		/* ACPI processor UID */
	bool enabled;		/* usable now; else online-capable (may be enabled later) */
	bool x2apic;		/* from a type 9 entry */
};

struct madt_info {
	u64 lapic_addr;		/* the override when there is a valid one */
	u32 flags;		/* bit 0: PC-AT compatible 8259s */
	unsigned int nr_cpus, nr_enabled;
	unsigned int nr_unusable;	/* entries neither enabled nor online-capable (skipped) */
	struct madt_cpu cpu[MADT_MAX_CPUS];
	/* What was ignored (@what names the field, @value is the firmware's value). */
	unsigned int nr_notes;
	struct acpi_note note[MADT_MAX_NOTES];
	u64 why_value;		/* on a -1 return: the value @why names */
};

/*
 * Parse a MADT (@len bytes from its ACPI header). CPUs neither enabled nor online-capable,
 * APIC ID 0xff (type 0) or 0xffffffff (type 9) are skipped; a second entry for an APIC ID,
 * an x2APIC entry below 0xff when local APIC entries exist (as Linux), an override at 0 or
 * not 4 KiB aligned, and CPUs beyond MADT_MAX_CPUS are ignored with a note. Returns 0, or -1
 * with @why when the table itself is malformed or lists no usable CPU.
 */
int madt_parse(const void *madt, size_t len, struct madt_info *out, const char **why);

#endif
