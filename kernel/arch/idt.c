// SPDX-License-Identifier: GPL-2.0-only
/*
 * idt.c - point all 32 exception vectors at the stubs in kernel/arch/entry.asm, and the four
 * interrupt vectors the kernel uses at theirs: VECTOR_WAKEUP (an IPI that wakes an idle AP
 * to look at its work slot), VECTOR_CMCI (the corrected machine-check interrupt, dispatched
 * by kernel/arch/traps.c to whoever registered for it: mce/), VECTOR_TLB (the TLB-shootdown
 * IPI of kernel/platform/smp_tlb.c) and VECTOR_SPURIOUS. The other vectors stay not-present:
 * the boot CPU runs with interrupts off, APs enable them only inside "sti; hlt" and in
 * smp_tlb_window(), and a stray vector then raises #NP, which is reported like any other
 * unexpected exception. One IDT serves every CPU.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/desc.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/include/segment.h"

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
extern char irq_wakeup_stub[], irq_cmci_stub[], irq_tlb_stub[], irq_spurious_stub[];
static struct idt_gate idt[256] __aligned(16);

static void set_gate(unsigned int v, u64 a, unsigned int ist)
{
	idt[v].off0 = a & 0xffff;
	idt[v].off1 = (a >> 16) & 0xffff;
	idt[v].off2 = a >> 32;
	idt[v].sel = KERNEL_CS;
	idt[v].ist = ist;
	idt[v].type = DESC_P | DESC_TYPE_INTR64;	/* DPL 0 */
}

static unsigned int ist_for(unsigned int v)
{
	switch (v) {
	case X86_TRAP_DF:	return IST_DF;
	case X86_TRAP_NMI:	return IST_NMI;
	case X86_TRAP_MC:	return IST_MC;
	default:		return 0;
	}
}

void idt_load(void)
{
	struct desc_ptr p = { .limit = sizeof(idt) - 1, .base = (u64)(uintptr_t)idt };

	__asm__ volatile("lidt %0" : : "m"(p) : "memory");
}

void idt_init(void)
{
	for (unsigned int v = 0; v < 32; v++)
		set_gate(v, (u64)(uintptr_t)exc_stubs_start + v * exc_stub_stride, ist_for(v));
	set_gate(VECTOR_WAKEUP, (u64)(uintptr_t)irq_wakeup_stub, 0);
	set_gate(VECTOR_CMCI, (u64)(uintptr_t)irq_cmci_stub, 0);
	set_gate(VECTOR_TLB, (u64)(uintptr_t)irq_tlb_stub, 0);
	set_gate(VECTOR_SPURIOUS, (u64)(uintptr_t)irq_spurious_stub, 0);
	idt_load();
	/* NMIs from here on leave notes; the console prints them between lines. */
	console_set_deferred(nmi_note_next);
}
