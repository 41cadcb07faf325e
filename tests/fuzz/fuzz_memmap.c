// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_memmap.c - libFuzzer target for the memory-map sanitizer and the boot allocator. The
 * input gives the image's place (16 bytes), then entries of 20 bytes (base, pages, type),
 * then allocation requests of 3 bytes (size in pages, alignment shift, boot services now?).
 * Properties: the sanitized map is sorted and does not wrap; every allocation is aligned,
 * above 1 MiB, outside the image, covered by entries of a free type and by no other type,
 * and overlaps no other allocation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/arch/bootmem.h"
#include "kernel/arch/memmap.h"

#define MAX_ALLOCS	64

static struct boot_info bi;
static struct memmap_findings found;
static u64 got[MAX_ALLOCS][2];

static u64 rd64(const uint8_t *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return v;
}

static bool free_type(u32 t, bool bs)
{
	return t == MEM_USABLE || (bs && t == MEM_BOOT_SERVICES);
}

static void check_alloc(u64 a, u64 size, u64 align, bool bs)
{
	u64 end = a + size, cur = a;

	if (a & (align - 1) || a < 0x100000 || end < a)
		abort();
	if (bi.image_size && a < bi.image_base + bi.image_size && bi.image_base < end &&
	    bi.image_base + bi.image_size > bi.image_base)
		abort();
	for (u32 i = 0; i < bi.nr_mem; i++) {
		const struct mem_range *r = &bi.mem[i];

		if (!free_type(r->type, bs) && r->base < end && a < memmap_end(r))
			abort();	/* claimed by a type that is not free */
	}
	while (cur < end) {
		u32 i;

		for (i = 0; i < bi.nr_mem; i++)
			if (free_type(bi.mem[i].type, bs) && bi.mem[i].base <= cur &&
			    cur < memmap_end(&bi.mem[i]))
				break;
		if (i == bi.nr_mem)
			abort();	/* not listed as free memory */
		cur = memmap_end(&bi.mem[i]);
		if (!cur)
			break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int n = 0;
	bool bs = false;

	if (size < 16)
		return 0;
	memset(&bi, 0, sizeof(bi));
	bi.image_base = rd64(data) & ~0xfffULL;
	bi.image_size = rd64(data + 8) & 0xffffffULL;
	data += 16;
	size -= 16;
	/* The first byte says how many entries follow; the rest are allocation requests. */
	if (!size)
		return 0;
	u32 want = data[0];

	data++;
	size--;
	while (want-- && size >= 20 && bi.nr_mem < BOOT_MEMMAP_MAX) {
		u32 t;

		memcpy(&t, data + 16, 4);
		bi.mem[bi.nr_mem++] = (struct mem_range){ rd64(data), rd64(data + 8),
							   t % (MEM_TYPE_COUNT + 2), t };
		data += 20;
		size -= 20;
	}
	if (memmap_sanitize(&bi, &found))
		return 0;
	for (u32 i = 0; i < bi.nr_mem; i++)
		if (!bi.mem[i].pages || memmap_end(&bi.mem[i]) <= bi.mem[i].base ||
		    bi.mem[i].type >= MEM_TYPE_COUNT ||
		    (i && bi.mem[i - 1].base > bi.mem[i].base))
			abort();
	bootmem_init(&bi);
	while (size >= 3 && n < MAX_ALLOCS) {
		u64 sz = ((u64)data[0] + 1) * SZ_4K, align = 1ULL << (12 + data[1] % 20), a;

		if (data[2] & 1 && !bs) {
			bootmem_add_boot_services(&bi);
			bs = true;
		}
		a = bootmem_alloc(sz, align);
		data += 3;
		size -= 3;
		if (!a)
			continue;
		check_alloc(a, sz, align, bs);
		for (unsigned int i = 0; i < n; i++)
			if (a < got[i][1] && got[i][0] < a + sz)
				abort();	/* handed out twice */
		got[n][0] = a;
		got[n][1] = a + sz;
		n++;
	}
	return 0;
}
