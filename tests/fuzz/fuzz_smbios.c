// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_smbios.c - libFuzzer target for the SMBIOS entry point and structure table parsers
 * (kernel/platform/smbios.c). The input is tried as both. Properties of a table that parses:
 * counts within their limits; every type 20 range non-empty and tied to a type 17 whose
 * handle it names; every name NUL-terminated printable ASCII; a lookup at the start and the
 * last byte of each range finds its device; a lookup's answer agrees with its count. A
 * refusal always says why. An entry point that parses came from a checksummed anchor.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/platform/smbios.h"

static void check_name(const char *s)
{
	size_t n = strnlen(s, SMBIOS_NAME_MAX);

	if (n == SMBIOS_NAME_MAX)
		abort();
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f)
			abort();
}

static void check_lookup(const struct smbios_dimms *d, u64 pa, u16 want)
{
	u16 idx[4];
	unsigned int n;
	enum smbios_where w = smbios_dimm_of(d, pa, idx, 4, &n);
	bool found = false;

	if (!n || (w == SMBIOS_ONE_DIMM) != (n == 1) || (w == SMBIOS_INTERLEAVED) != (n > 1))
		abort();
	for (unsigned int i = 0; i < n && i < 4; i++) {
		if (idx[i] >= d->nr_devices)
			abort();
		found |= idx[i] == want;
	}
	if (n <= 4 && !found)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct smbios_dimms d;
	struct smbios_entry e;
	const char *why = NULL;
	u64 v;

	if (smbios_parse_entry(data, size, &e, &why) == 0) {
		if (size < 0x18 || (memcmp(data, "_SM_", 4) && memcmp(data, "_SM3_", 5)))
			abort();
	} else if (!why) {
		abort();
	}
	why = NULL;
	if (smbios_parse(data, size, &d, &why, &v)) {
		if (!why)
			abort();
		return 0;
	}
	if (d.nr_devices > SMBIOS_MAX_DEVICES || d.nr_maps > SMBIOS_MAX_MAPS ||
	    d.nr_arrays > SMBIOS_MAX_ARRAYS || d.nr_notes > SMBIOS_MAX_NOTES ||
	    d.nr_notes > d.nr_noted || d.nr_structs > SMBIOS_MAX_STRUCTS)
		abort();
	for (unsigned int i = 0; i < d.nr_devices; i++) {
		check_name(d.devices[i].locator);
		check_name(d.devices[i].bank);
		if (!d.devices[i].locator[0])
			abort();
	}
	for (unsigned int i = 0; i < d.nr_maps; i++) {
		const struct smbios_range *r = &d.maps[i];

		if (r->start >= r->end || r->device >= d.nr_devices ||
		    d.devices[r->device].handle != r->ref)
			abort();
		check_lookup(&d, r->start, r->device);
		check_lookup(&d, r->end - 1, r->device);
	}
	for (unsigned int i = 0; i < d.nr_arrays; i++)
		if (d.arrays[i].start >= d.arrays[i].end)
			abort();
	return 0;
}
