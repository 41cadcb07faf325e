// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_extable.c - libFuzzer target for the exception-table sort, search and validation.
 * The input is a table of up to 256 entries (12 bytes each, relative offsets as in the
 * image, cut to +-1 GiB: a linked image is smaller than that, and a target 2 GiB away from
 * some slot has no 32-bit offset there, which the format cannot express). Properties: the
 * sort keeps every entry's absolute instruction and fixup addresses and its data, and orders
 * by instruction address; validation agrees with a plain scan; the search finds every
 * instruction and nothing between them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/include/extable.h"

#define MAX_ENTRIES	256

static struct exception_table_entry t[MAX_ENTRIES];
static uintptr_t insn[MAX_ENTRIES], fixup[MAX_ENTRIES];
static s32 data_[MAX_ENTRIES];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / sizeof(t[0]);
	long bad = -1;

	if (n > MAX_ENTRIES)
		n = MAX_ENTRIES;
	memcpy(t, data, n * sizeof(t[0]));
	for (size_t i = 0; i < n; i++) {
		t[i].insn = (s32)((u32)t[i].insn << 2) >> 2;
		t[i].fixup = (s32)((u32)t[i].fixup << 2) >> 2;
		insn[i] = ex_insn_addr(&t[i]);
		fixup[i] = ex_fixup_addr(&t[i]);
		data_[i] = t[i].data;
	}
	ex_sort(t, t + n);
	for (size_t i = 0; i < n; i++) {
		size_t j;

		if (i && ex_insn_addr(&t[i - 1]) > ex_insn_addr(&t[i]))
			abort();	/* not sorted */
		for (j = 0; j < n; j++)
			if (ex_insn_addr(&t[j]) == insn[i] && ex_fixup_addr(&t[j]) == fixup[i] &&
			    t[j].data == data_[i])
				break;
		if (j == n)
			abort();	/* an entry lost its targets */
		if (bad < 0 && (ex_type(&t[i]) == EX_TYPE_NONE || ex_type(&t[i]) > EX_TYPE_MAX ||
				(i && ex_insn_addr(&t[i - 1]) == ex_insn_addr(&t[i]))))
			bad = (long)i;
	}
	if (ex_validate(t, t + n) != bad)
		abort();
	for (size_t i = 0; i < n; i++) {
		const struct exception_table_entry *e = ex_search(t, t + n, ex_insn_addr(&t[i]));
		uintptr_t next = ex_insn_addr(&t[i]) + 1;

		if (!e || ex_insn_addr(e) != ex_insn_addr(&t[i]))
			abort();
		e = ex_search(t, t + n, next);
		if (e && ex_insn_addr(e) != next)
			abort();
		if (!e && i + 1 < n && ex_insn_addr(&t[i + 1]) == next)
			abort();
	}
	return 0;
}
