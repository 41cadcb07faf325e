// SPDX-License-Identifier: GPL-2.0-only
/*
 * gdt.c - replace the firmware's GDT with the kernel's: flat 64-bit code and data and a TSS
 * whose IST slots give #DF, NMI and #MC stacks of their own. Each CPU has its own GDT and
 * TSS in its struct percpu (kernel/arch/percpu.h); the boot CPU's is static, CPU 0, and its
 * per-CPU variables are the per-CPU section itself (offset 0).
 */
#include "kernel/arch/desc.h"
#include "kernel/arch/percpu.h"
#include "kernel/include/page_types.h"
#include "kernel/include/segment.h"
#include "kernel/include/x86.h"

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;

static struct percpu boot_percpu;
static u8 boot_ist_stacks[3][IST_STACK_SIZE] __aligned(PAGE_SIZE);

struct percpu *boot_cpu(void)
{
	return &boot_percpu;
}

u64 ist_stack_top(unsigned int ist)
{
	return this_cpu()->ist_top[ist - 1];
}

void gdt_load_cpu(struct percpu *pc)
{
	u64 base = (u64)(uintptr_t)&pc->tss, limit = sizeof(pc->tss) - 1;
	struct desc_ptr p = { .limit = sizeof(pc->gdt) - 1, .base = (u64)(uintptr_t)pc->gdt };
	u64 *gdt = pc->gdt;

	pc->self = pc;
	for (unsigned int i = 0; i < 3; i++)
		pc->tss.ist[i] = pc->ist_top[i];
	pc->tss.iomap_base = sizeof(pc->tss);	/* no I/O bitmap */

	gdt[0] = 0;
	gdt[GDT_ENTRY_KERNEL_CS] = DESC_CODE64;
	gdt[GDT_ENTRY_KERNEL_DS] = DESC_DATA;
	/* 16 bytes: the low eight as a segment's, then bits 63:32 of the base. */
	gdt[GDT_ENTRY_TSS] = SEG_DESC(base, limit, DESC_P | DESC_TYPE_TSS64, 0);
	gdt[GDT_ENTRY_TSS + 1] = base >> 32;

	__asm__ volatile(
		"lgdt %[p]\n"
		"pushq %[cs]\n"
		"leaq 1f(%%rip), %%rax\n"
		"pushq %%rax\n"
		"lretq\n"
		"1:\n"
		"movl %[ds], %%eax\n"
		"movl %%eax, %%ds\n"
		"movl %%eax, %%es\n"
		"movl %%eax, %%ss\n"
		"xorl %%eax, %%eax\n"
		"movl %%eax, %%fs\n"
		"movl %%eax, %%gs\n"
		"movw %[tr], %%ax\n"
		"ltr %%ax\n"
		:
		: [p] "m"(p), [cs] "i"(KERNEL_CS), [ds] "i"(KERNEL_DS), [tr] "i"(KERNEL_TSS)
		: "rax", "memory");
	/* After the null selector went into %gs: its base is the MSR's from here on. */
	wrmsr(MSR_GS_BASE, (u64)(uintptr_t)pc);
}

void gdt_init(void)
{
	for (unsigned int i = 0; i < 3; i++)
		boot_percpu.ist_top[i] = (u64)(uintptr_t)&boot_ist_stacks[i][IST_STACK_SIZE];
	boot_percpu.state = CPU_ONLINE;
	gdt_load_cpu(&boot_percpu);
	percpu_register(&boot_percpu);
}
