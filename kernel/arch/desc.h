/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * desc.h - the kernel's own GDT, TSS (with IST stacks) and IDT.
 */
#ifndef CK_DESC_H
#define CK_DESC_H

#include "kernel/include/types.h"

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define KERNEL_TSS	0x18

/* Interrupt-stack-table slots: these vectors always switch to a known-good stack. */
#define IST_DF		1
#define IST_NMI		2
#define IST_MC		3
#define IST_STACK_SIZE	(16 * 1024)

void gdt_init(void);
void idt_init(void);
/* Load the (shared) IDT on this CPU. */
void idt_load(void);
/* This CPU's top of IST stack @ist (1-based), for tests that check a handler ran on it. */
u64 ist_stack_top(unsigned int ist);

#endif
