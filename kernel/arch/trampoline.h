/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trampoline.h - what the boot CPU hands the AP trampoline (kernel/arch/trampoline.asm).
 *
 * The blob ends with one parameter block, struct tramp_params at smp_tramp_params, which the
 * boot CPU fills through this struct once the blob is copied below 1 MiB (as Linux fills its
 * struct trampoline_header). The block names the table in which each AP finds its stack and
 * its percpu by its APIC id, struct tramp_slot. The assembler takes every offset and size
 * from kernel/arch/asm-offsets.c (build/gen/kernel/arch/asm-offsets.inc), so neither layout
 * is written twice.
 */
#ifndef CK_TRAMPOLINE_H
#define CK_TRAMPOLINE_H

#include "kernel/include/types.h"

/* One AP's entry in the table; an AP claims it with lock bts on @claimed, bit 0. */
struct tramp_slot {
	u32 apic_id;
	u32 claimed;
	u64 stack_top;		/* 0: no stack, the AP halts */
	u64 percpu;		/* struct percpu *: smp_ap_entry()'s argument */
};

struct tramp_params {
	u32 pml4_low;		/* below 4 GiB: a copy of the kernel's PML4 for 32-bit CR3 */
	u32 efer;		/* the EFER bits long mode needs, as the boot CPU has them */
	u32 cr0;		/* the boot CPU's CR0 (PG, PE, WP, ...) */
	u32 leaf_b;		/* 1: an AP names itself by CPUID leaf 0Bh's 32-bit id */
	u32 nr_slots;
	u32 reserved;
	u64 cr3;		/* the kernel's own CR3, loaded once in 64-bit mode */
	u64 slots;		/* struct tramp_slot[nr_slots] */
	u64 entry;		/* where an AP jumps with its percpu in RDI: smp_ap_entry */
};

/* The blob: [smp_tramp_start, smp_tramp_end), its parameter block at smp_tramp_params. */
extern char smp_tramp_start[], smp_tramp_params[], smp_tramp_end[];

#endif
