// SPDX-License-Identifier: GPL-2.0-only
/*
 * einj_io.c - read and write EINJ registers for real. Width comes from the access size
 * (1..4 = 8..64 bits) or, when that is 0, the bit width; I/O ports take at most 32 bits.
 */
#include "kernel/arch/paging.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "mce/einj_io.h"

static unsigned int width(const struct einj_gas *g)
{
	if (g->access_size >= 1 && g->access_size <= 4)
		return 8u << (g->access_size - 1);
	return g->bit_width ? g->bit_width : 64;
}

static void ensure_mapped(u64 addr)
{
	struct pg_leaf l;

	if (!pg_lookup(addr, &l))
		pg_set_attr(addr & ~0xfffULL, (addr & ~0xfffULL) + 0x1000, PG_MMIO);
}

static int rd(void *ctx, const struct einj_gas *g, u64 *v)
{
	unsigned int w = width(g);

	(void)ctx;
	if (g->space_id == GAS_SYSTEM_IO) {
		if (g->address > 0xffff || w > 32)
			return -1;
		*v = w == 8 ? inb((u16)g->address) : w == 16 ? inw((u16)g->address) :
		     inl((u16)g->address);
		return 0;
	}
	ensure_mapped(g->address);
	switch (w) {
	case 8:  *v = *(volatile u8 *)(uintptr_t)g->address; break;
	case 16: *v = *(volatile u16 *)(uintptr_t)g->address; break;
	case 32: *v = *(volatile u32 *)(uintptr_t)g->address; break;
	default: *v = *(volatile u64 *)(uintptr_t)g->address; break;
	}
	return 0;
}

static int wr(void *ctx, const struct einj_gas *g, u64 v)
{
	unsigned int w = width(g);

	(void)ctx;
	if (g->space_id == GAS_SYSTEM_IO) {
		if (g->address > 0xffff || w > 32)
			return -1;
		if (w == 8)
			outb((u16)g->address, (u8)v);
		else if (w == 16)
			outw((u16)g->address, (u16)v);
		else
			outl((u16)g->address, (u32)v);
		return 0;
	}
	ensure_mapped(g->address);
	switch (w) {
	case 8:  *(volatile u8 *)(uintptr_t)g->address = (u8)v; break;
	case 16: *(volatile u16 *)(uintptr_t)g->address = (u16)v; break;
	case 32: *(volatile u32 *)(uintptr_t)g->address = (u32)v; break;
	default: *(volatile u64 *)(uintptr_t)g->address = v; break;
	}
	return 0;
}

static int params(void *ctx, u64 addr, const struct einj_setwa_params *p)
{
	(void)ctx;
	ensure_mapped(addr);
	memcpy((void *)(uintptr_t)addr, p, sizeof(*p));
	return 0;
}

static int trigger(void *ctx, u64 addr, struct einj_table *out)
{
	const char *why;
	u32 size;

	(void)ctx;
	if (!addr || addr >= EINJ_PHYS_LIMIT - SZ_4K)
		return -1;	/* the firmware's register gave nonsense */
	ensure_mapped(addr);
	size = *(volatile u32 *)(uintptr_t)(addr + 8);
	if (size > 4096)
		return -1;
	return einj_parse_trigger((const void *)(uintptr_t)addr, size, out, &why);
}

const struct einj_io einj_kernel_io = {
	.read = rd, .write = wr, .write_params = params, .trigger_table = trigger,
	.busy_polls = 1000000,
};
