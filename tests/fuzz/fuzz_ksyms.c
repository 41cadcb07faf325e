// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ksyms.c - libFuzzer target for the symbol lookup. The input gives up to 255 symbol
 * offsets (4 bytes each, after a count byte) and then lookup addresses (4 bytes each); the
 * harness sorts the offsets into a blob like gen-ksyms.sh writes. Property: the lookup
 * answers what a linear scan does (the last symbol at or below the address, or none).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/ksyms.h"

#define MAX_SYMS	255

static union {
	struct ksyms_blob b;
	uint8_t raw[sizeof(struct ksyms_blob) + MAX_SYMS * sizeof(struct ksyms_entry) +
		    MAX_SYMS * 4];
} blob;

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t offs[MAX_SYMS], n;
	size_t names;

	if (!size)
		return 0;
	n = data[0];
	data++;
	size--;
	if ((size_t)n * 4 > size)
		n = (uint32_t)(size / 4);
	memcpy(offs, data, n * 4);
	data += n * 4;
	size -= n * 4;
	qsort(offs, n, 4, cmp_u32);
	blob.b.count = n;
	names = sizeof(struct ksyms_blob) + n * sizeof(struct ksyms_entry);
	for (uint32_t i = 0; i < n; i++) {
		blob.b.e[i].offset = offs[i];
		blob.b.e[i].name = (uint32_t)(names + i * 4);
		blob.raw[names + i * 4] = (uint8_t)('a' + i % 26);
		blob.raw[names + i * 4 + 1] = (uint8_t)('a' + i / 26);
		blob.raw[names + i * 4 + 2] = 0;
	}
	while (size >= 4) {
		uint32_t addr, want = UINT32_MAX;
		uint64_t delta = 0;
		const char *name;

		memcpy(&addr, data, 4);
		data += 4;
		size -= 4;
		for (uint32_t i = 0; i < n; i++)
			if (offs[i] <= addr)
				want = i;
		name = ksyms_lookup(&blob.b, addr, &delta);
		if (want == UINT32_MAX) {
			if (name)
				abort();
			continue;
		}
		/* Equal offsets: any of them is right, as long as the delta is. */
		if (!name || delta != addr - offs[want] ||
		    (const uint8_t *)name < blob.raw + names ||
		    (const uint8_t *)name >= blob.raw + names + n * 4)
			abort();
	}
	return 0;
}
