/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * percpu.h - what each CPU owns, in two parts.
 *
 * struct percpu is the architecture's part: the CPU's GDT and TSS (with the IST stacks of
 * #DF, NMI and #MC), its kernel stack, APIC id, logical number and run state. %gs points at
 * it and its first field points at itself, so this_cpu() is one %gs load.
 *
 * Every other layer keeps its per-CPU state in a type of its own, defined where it is used
 * with DEFINE_PER_CPU, in the per-CPU section (ck_percpu, linker.ld), as Linux does: the boot
 * CPU uses the section itself, each AP a copy of it in its block (kernel/platform/smpboot.c),
 * and percpu->offset (%gs:8) is the distance from the section to this CPU's copy.
 * this_cpu_ptr(&var) is this CPU's instance (one %gs load and an add), per_cpu_ptr(&var, cpu)
 * that of numbered CPU @cpu. Two rules follow from the copies:
 *  - per-CPU variables start zeroed on every CPU: they take no initialiser, because an AP's
 *    copy is zero-filled, not copied from the boot CPU's (which is in use by then);
 *  - they ask for at most PERCPU_ALIGN bytes of alignment (the copies are placed so).
 *
 * The boot CPU's percpu is static (set up by gdt_init() before anything can fault); the
 * APs' come from smpboot.c, which numbers the CPUs here with percpu_register().
 */
#ifndef CK_PERCPU_H
#define CK_PERCPU_H

#include "kernel/arch/desc.h"
#include "kernel/include/msr-index.h"
#include "kernel/include/types.h"

/* The most CPUs the kernel numbers (kernel/platform/madt.h's MADT_MAX_CPUS). */
#define NR_CPUS		1024
#define PERCPU_ALIGN	64

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
	CPU_STOPPED,		/* parked by the exit path's NMI, or by a report on another CPU */
};

struct percpu {
	struct percpu *self;		/* %gs:0 */
	long offset;			/* %gs:8: this CPU's copy of ck_percpu minus the section */
	unsigned int cpu;		/* logical number: 0 is the boot CPU */
	u32 apic_id;
	volatile u32 state;		/* enum cpu_state */
	u64 stack_top;
	u64 ist_top[3];			/* #DF, NMI, #MC */
	u64 gdt[GDT_ENTRIES] __aligned(16);
	struct tss64 tss __aligned(16);
};

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

/* ---- per-CPU variables ------------------------------------------------------------ */

#define DEFINE_PER_CPU(type, name)	__attribute__((section("ck_percpu"))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name

static inline long this_cpu_offset(void)
{
	long off;

	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(off) : "i"(offsetof(struct percpu, offset)));
	return off;
}

#define percpu_at(ptr, off)	((__typeof__(ptr))(void *)((uintptr_t)(ptr) + (uintptr_t)(off)))
#define this_cpu_ptr(ptr)	percpu_at(ptr, this_cpu_offset())
/* @cpu must be numbered (percpu_of(@cpu) not NULL). */
#define per_cpu_ptr(ptr, cpu)	percpu_at(ptr, percpu_of(cpu)->offset)

/* Bytes of the per-CPU section, that is of each AP's copy. */
size_t percpu_section_size(void);
/* Make the zeroed copy at @area (PERCPU_ALIGN-aligned) @pc's per-CPU instance. */
void percpu_set_area(struct percpu *pc, void *area);
/* Number the CPU of @pc as pc->cpu (< NR_CPUS); the boot CPU is numbered by gdt_init(). */
void percpu_register(struct percpu *pc);
/* Numbered CPU @cpu's percpu, or NULL. */
struct percpu *percpu_of(unsigned int cpu);
/* One more than the highest CPU number registered. */
unsigned int percpu_nr(void);

#endif
