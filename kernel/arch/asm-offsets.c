// SPDX-License-Identifier: GPL-2.0-only
/*
 * asm-offsets.c - the structure offsets and constants of kernel/arch that its NASM code
 * uses, compiled only into build/gen/kernel/arch/asm-offsets.inc (kernel/include/asm-defs.h
 * says how; the image does not link this file). Today: the AP trampoline's parameter block
 * and slot table (kernel/arch/trampoline.h).
 */
#include "kernel/arch/trampoline.h"
#include "kernel/include/asm-defs.h"

void asm_offsets(void);

void asm_offsets(void)
{
	OFFSET(TP_PML4_LOW, tramp_params, pml4_low);
	OFFSET(TP_EFER, tramp_params, efer);
	OFFSET(TP_CR0, tramp_params, cr0);
	OFFSET(TP_LEAF_B, tramp_params, leaf_b);
	OFFSET(TP_NR_SLOTS, tramp_params, nr_slots);
	OFFSET(TP_CR3, tramp_params, cr3);
	OFFSET(TP_SLOTS, tramp_params, slots);
	OFFSET(TP_ENTRY, tramp_params, entry);
	DEFINE(TP_SIZE, sizeof(struct tramp_params));
	BLANK();
	OFFSET(TS_APIC_ID, tramp_slot, apic_id);
	OFFSET(TS_CLAIMED, tramp_slot, claimed);
	OFFSET(TS_STACK_TOP, tramp_slot, stack_top);
	OFFSET(TS_PERCPU, tramp_slot, percpu);
	DEFINE(TS_SIZE, sizeof(struct tramp_slot));
}
