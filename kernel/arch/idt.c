// SPDX-License-Identifier: GPL-2.0-only
/*
 * idt.c - point all 32 exception vectors at the stubs in kernel/entry.asm. Vectors 32-255
 * stay not-present: the kernel runs with interrupts off, and a stray "int n" then raises #GP,
 * which is reported like any other unexpected exception.
 */
#include "kernel/arch/desc.h"
#include "kernel/arch/traps.h"

struct idt_gate {
	u16 off0;
	u16 sel;
	u8 ist;
	u8 type;
	u16 off1;
	u32 off2;
	u32 reserved;
} __packed;

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;

extern char exc_stubs_start[];
extern const u64 exc_stub_stride;
static struct idt_gate idt[256] __aligned(16);

static unsigned int ist_for(unsigned int v)
{
	switch (v) {
	case X86_TRAP_DF:	return IST_DF;
	case X86_TRAP_NMI:	return IST_NMI;
	case X86_TRAP_MC:	return IST_MC;
	default:		return 0;
	}
}

void idt_init(void)
{
	struct desc_ptr p = { .limit = sizeof(idt) - 1, .base = (u64)(uintptr_t)idt };

	for (unsigned int v = 0; v < 32; v++) {
		u64 a = (u64)(uintptr_t)exc_stubs_start + v * exc_stub_stride;

		idt[v].off0 = a & 0xffff;
		idt[v].off1 = (a >> 16) & 0xffff;
		idt[v].off2 = a >> 32;
		idt[v].sel = KERNEL_CS;
		idt[v].ist = ist_for(v);
		idt[v].type = 0x8e;	/* present, DPL 0, 64-bit interrupt gate */
	}
	__asm__ volatile("lidt %0" : : "m"(p) : "memory");
}
