/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * desc.h - the kernel's own GDT, TSS (with IST stacks) and IDT.
 */
#ifndef CK_DESC_H
#define CK_DESC_H

#include "kernel/include/page_types.h"
#include "kernel/include/types.h"

/* GDT slots (the TSS descriptor takes two) and their ring-0 selectors. */
#define GDT_ENTRY_KERNEL_CS	1
#define GDT_ENTRY_KERNEL_DS	2
#define GDT_ENTRY_TSS		3
#define GDT_ENTRIES		5
#define KERNEL_CS		(GDT_ENTRY_KERNEL_CS * 8)
#define KERNEL_DS		(GDT_ENTRY_KERNEL_DS * 8)
#define KERNEL_TSS		(GDT_ENTRY_TSS * 8)

/* Interrupt-stack-table slots: these vectors always switch to a known-good stack. */
#define IST_DF		1
#define IST_NMI		2
#define IST_MC		3

void gdt_init(void);
void idt_init(void);
/* Load the (shared) IDT on this CPU. */
void idt_load(void);
/* This CPU's top of IST stack @ist (1-based), for tests that check a handler ran on it. */
u64 ist_stack_top(unsigned int ist);

#endif
