// SPDX-License-Identifier: GPL-2.0-only
/*
 * gdt.c - replace the firmware's GDT with the kernel's: flat 64-bit code and data and a TSS
 * whose IST slots give #DF, NMI and #MC stacks of their own.
 */
#include "kernel/arch/desc.h"

struct tss64 {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;

static struct tss64 tss __aligned(16);
static u64 gdt[5] __aligned(16);
static u8 ist_stacks[3][IST_STACK_SIZE] __aligned(4096);

u64 ist_stack_top(unsigned int ist)
{
	return (u64)(uintptr_t)&ist_stacks[ist - 1][IST_STACK_SIZE];
}

void gdt_init(void)
{
	u64 base = (u64)(uintptr_t)&tss, limit = sizeof(tss) - 1;
	struct desc_ptr p = { .limit = sizeof(gdt) - 1, .base = (u64)(uintptr_t)gdt };
	unsigned int i;

	for (i = 1; i <= 3; i++)
		tss.ist[i - 1] = ist_stack_top(i);
	tss.iomap_base = sizeof(tss);	/* no I/O bitmap */

	gdt[0] = 0;
	gdt[1] = 0x00af9a000000ffffULL;	/* 64-bit code, DPL 0 */
	gdt[2] = 0x00cf92000000ffffULL;	/* data, DPL 0 */
	/* 16-byte available 64-bit TSS descriptor (type 9). */
	gdt[3] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
		 (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[4] = base >> 32;

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
}
