// SPDX-License-Identifier: GPL-2.0-only
/*
 * ksyms.c - look an address up in the sorted .ksyms table. The lookup is plain C and
 * host-tested; ksym_format adds the image bounds, which only the kernel knows.
 */
#include "kernel/lib/ksyms.h"

const char *ksyms_lookup(const struct ksyms_blob *blob, u64 off, u64 *delta)
{
	u32 lo = 0, hi = blob->count;

	if (!blob->count || off < blob->e[0].offset)
		return NULL;
	/* Find the last entry with offset <= off. */
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (blob->e[mid].offset <= off)
			lo = mid;
		else
			hi = mid;
	}
	*delta = off - blob->e[lo].offset;
	return (const char *)blob + blob->e[lo].name;
}

#ifdef CK_KERNEL
#include "kernel/lib/format.h"

extern const struct ksyms_blob ksyms_blob;
extern char ImageBase[], _etext[];

bool ksym_format(u64 addr, char *buf, size_t size)
{
	u64 base = (u64)(uintptr_t)ImageBase, delta;
	const char *name = NULL;

	if (addr >= base && addr < (u64)(uintptr_t)_etext)
		name = ksyms_lookup(&ksyms_blob, addr - base, &delta);
	if (name) {
		ck_snprintf(buf, size, "%s+0x%llx", name, (unsigned long long)delta);
		return true;
	}
	ck_snprintf(buf, size, "0x%llx (outside the image)", (unsigned long long)addr);
	return false;
}
#endif
