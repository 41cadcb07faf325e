/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * percpu.h - what each CPU owns: its GDT and TSS (with the IST stacks of #DF, NMI and #MC),
 * its kernel stack, its APIC id and its work slot. %gs points at the CPU's struct percpu,
 * whose first field points at itself, so this_cpu() is one load.
 *
 * The boot CPU's percpu is static (set up by gdt_init() before anything can fault); the
 * APs' come from kernel/platform/smp.c, which also owns the work slot's protocol.
 */
#ifndef CK_PERCPU_H
#define CK_PERCPU_H

#include "kernel/include/types.h"

struct tss64 {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

enum cpu_state {
	CPU_ABSENT,		/* listed, not started (not enabled, or beyond smp=) */
	CPU_STARTING,		/* INIT-SIPI-SIPI sent, not checked in yet */
	CPU_ONLINE,		/* running the kernel, idle or working */
	CPU_FAILED,		/* did not answer in time; if it does later it parks */
	CPU_LATE,		/* answered after it was given up: parked, unused */
	CPU_STOPPED,		/* parked by the panic path's NMI */
};

struct percpu {
	struct percpu *self;		/* %gs:0 */
	unsigned int cpu;		/* logical number: 0 is the boot CPU */
	u32 apic_id;
	int node;			/* NUMA node (0 without a SRAT) */
	volatile u32 state;		/* enum cpu_state */
	u64 stack_top;
	u64 ist_top[3];			/* #DF, NMI, #MC */
	u64 gdt[5] __aligned(16);
	struct tss64 tss __aligned(16);
	/* Work slot: the caller writes fn/arg, then bumps seq; the CPU runs it and sets done. */
	void (*volatile fn)(void *arg);
	void *volatile arg;
	volatile u64 seq, done;
	volatile u32 posting;		/* a poster is filling the slot (one at a time) */
	bool in_work;			/* running its slot's function now */
	/* Failure report of the start. */
	const char *fail_step;
	u32 fail_esr;
	u64 start_us;			/* from the first SIPI to the check-in */
	void *mce;			/* the machine-check layer's per-CPU record */
};

#define MSR_GS_BASE	0xc0000101

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(p));
	return p;
}

static inline unsigned int smp_processor_id(void)
{
	return this_cpu()->cpu;
}

/* Load @pc's GDT and TSS on this CPU and point %gs at it. */
void gdt_load_cpu(struct percpu *pc);
/* The boot CPU's percpu. */
struct percpu *boot_cpu(void);

#endif
