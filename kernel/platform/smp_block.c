// SPDX-License-Identifier: GPL-2.0-only
/*
 * smp_block.c - each AP's block of memory, laid out once here: its percpu region (struct
 * percpu, then its instance of the per-CPU section), then an unmapped guard page and its
 * kernel stack, then a guard page and a stack for each of #DF, NMI and #MC. A stack that
 * overflows faults on its guard. The boot CPU's guarded IST stacks are the same parts, from
 * the #DF guard on, in a block of their own. smpboot.c allocates the blocks; the guard-page
 * question (smp_is_guard_page) is answered from the same table.
 */
#include "kernel/arch/desc.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/bootmem.h"
#include "kernel/console/printk.h"
#include "kernel/lib/string.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/smp_internal.h"

#define AP_STACK_SIZE	KERNEL_STACK_SIZE
#define GUARD		SZ_4K
/* Where an AP's instance of the per-CPU section starts in its percpu region. */
#define AREA_OFF	ALIGN_UP(sizeof(struct percpu), PERCPU_ALIGN)

enum ap_part {
	AP_PERCPU, AP_GUARD_STACK, AP_STACK, AP_GUARD_DF, AP_IST_DF, AP_GUARD_NMI, AP_IST_NMI,
	AP_GUARD_MC, AP_IST_MC, AP_NR_PARTS
};

/* The IST stacks in the order of the TSS slots (IST_DF, IST_NMI, IST_MC). */
static const enum ap_part ist_part[3] = { AP_IST_DF, AP_IST_NMI, AP_IST_MC };

static u64 part_off[AP_NR_PARTS + 1];	/* offset of each part; the last: the block size */
static u64 ap_blocks, nr_ap_blocks;	/* the APs' blocks, one after the other */
static u64 bsp_ist_block;		/* the boot CPU's parts AP_GUARD_DF.. */

static bool is_guard(enum ap_part p)
{
	return p == AP_GUARD_STACK || p == AP_GUARD_DF || p == AP_GUARD_NMI || p == AP_GUARD_MC;
}

static u64 part_size(enum ap_part p)
{
	switch (p) {
	case AP_PERCPU:
		return ALIGN_UP(AREA_OFF + percpu_section_size(), SZ_4K);
	case AP_STACK:
		return AP_STACK_SIZE;
	case AP_IST_DF:
	case AP_IST_NMI:
	case AP_IST_MC:
		return IST_STACK_SIZE;
	default:
		return GUARD;
	}
}

static void layout(void)
{
	for (unsigned int p = 0; p < AP_NR_PARTS; p++)
		part_off[p + 1] = part_off[p] + part_size(p);
}

u64 smp_block_size(void)
{
	if (!part_off[AP_NR_PARTS])
		layout();
	return part_off[AP_NR_PARTS];
}

/* Unmap the guards of parts [@from, AP_NR_PARTS) of a block whose part @from is at @base. */
static void unmap_guards(u64 base, enum ap_part from)
{
	for (unsigned int p = from; p < AP_NR_PARTS; p++)
		if (is_guard(p))
			pg_set_attr(base + part_off[p] - part_off[from],
				    base + part_off[p + 1] - part_off[from], 0);
}

/* The tops of the three IST stacks of a block whose part @from is at @base. */
static void ist_tops(u64 base, enum ap_part from, u64 top[3])
{
	for (unsigned int i = 0; i < 3; i++)
		top[i] = base + part_off[ist_part[i] + 1] - part_off[from];
}

void smp_block_bsp_ist(void)
{
	struct percpu *bsp = boot_cpu();
	u64 size = smp_block_size() - part_off[AP_GUARD_DF];
	u64 p = bootmem_alloc(size, SZ_2M);

	if (!p) {
		printk("smp: no memory for the boot CPU's guarded IST stacks: keeping the "
		       "unguarded ones\n");
		return;
	}
	bsp_ist_block = p;
	unmap_guards(p, AP_GUARD_DF);
	/* The CPU reads the TSS's IST slots at each exception: changing them is enough. */
	ist_tops(p, AP_GUARD_DF, bsp->ist_top);
	for (unsigned int i = 0; i < 3; i++)
		bsp->tss.ist[i] = bsp->ist_top[i];
}

bool smp_blocks_alloc(unsigned int n)
{
	ap_blocks = bootmem_alloc((u64)n * smp_block_size(), SZ_2M);
	nr_ap_blocks = ap_blocks ? n : 0;
	return ap_blocks != 0;
}

struct percpu *smp_block_percpu(unsigned int i, unsigned int cpu)
{
	u64 block = ap_blocks + (u64)i * smp_block_size();
	struct percpu *pc = (struct percpu *)(uintptr_t)block;

	memset(pc, 0, sizeof(*pc));
	percpu_set_area(pc, (void *)(uintptr_t)(block + AREA_OFF));
	unmap_guards(block, AP_PERCPU);
	pc->stack_top = block + part_off[AP_STACK + 1];
	ist_tops(block, AP_PERCPU, pc->ist_top);
	pc->cpu = cpu;
	return pc;
}

/* Whether offset @off into the parts [@from, AP_NR_PARTS) is in a guard page. */
static bool guard_at(u64 off, enum ap_part from)
{
	off += part_off[from];
	for (unsigned int p = from; p < AP_NR_PARTS; p++)
		if (off < part_off[p + 1])
			return is_guard(p);
	return false;
}

bool smp_is_guard_page(u64 pa)
{
	u64 bsp_size = smp_block_size() - part_off[AP_GUARD_DF];

	if (bsp_ist_block && pa >= bsp_ist_block && pa < bsp_ist_block + bsp_size)
		return guard_at(pa - bsp_ist_block, AP_GUARD_DF);
	if (!nr_ap_blocks || pa < ap_blocks || pa >= ap_blocks + nr_ap_blocks * smp_block_size())
		return false;
	return guard_at((pa - ap_blocks) % smp_block_size(), AP_PERCPU);
}
