/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * apic.h - the local APIC of the running CPU, in whichever mode the firmware left it:
 * xAPIC (MMIO at the base IA32_APIC_BASE names, 8-bit ids) or x2APIC (MSRs 0x800-0x8ff,
 * 32-bit ids). The registers, their bits and the base are named in
 * kernel/include/apicdef.h.
 */
#ifndef CK_APIC_H
#define CK_APIC_H

#include "kernel/arch/apic_start.h"
#include "kernel/arch/cpuid.h"
#include "kernel/include/apicdef.h"

/* Spins on the xAPIC ICR's delivery-status bit before a new IPI goes out regardless. */
#define APIC_ICR_IDLE_SPINS	1000000

/* Vectors the kernel uses besides the 32 exceptions. */
#define VECTOR_WAKEUP		0xf0	/* "look at your work slot" */
#define VECTOR_TLB		0xf1	/* "invalidate what your TLB slot names, then ack" */
#define VECTOR_CMCI		0xf9	/* CMCI: Linux's THRESHOLD_APIC_VECTOR */
#define VECTOR_SPURIOUS		0xff

enum apic_mode { APIC_MODE_OFF, APIC_MODE_XAPIC, APIC_MODE_X2APIC };

/*
 * Find the boot CPU's APIC mode and map the xAPIC page (uncached). @madt_addr is the
 * MADT's address (0: none); a difference from IA32_APIC_BASE is noted in @note.
 * Returns false when the APIC is disabled.
 */
bool apic_init(u64 madt_addr, const char **note);
enum apic_mode apic_mode(void);
const char *apic_mode_name(enum apic_mode m);
bool apic_x2apic_capable(void);
/* Switch this CPU to x2APIC (the boot CPU once; each AP follows the boot CPU's mode). */
bool apic_enable_x2apic(void);
/* An AP: match the boot CPU's mode. */
void apic_ap_mode(void);

u32 apic_read(u32 reg);
void apic_write(u32 reg, u32 val);
u32 apic_id(void);
void apic_eoi(void);
void apic_icr_write(u32 dest, u32 low);
bool apic_icr_busy(void);
u32 apic_esr(void);
/* The highest LVT entry's index (the version register's bits 23:16). */
unsigned int apic_max_lvt(void);
/* Software-enable this CPU's APIC with the spurious vector; APs mask every LVT (as Linux). */
void apic_cpu_setup(bool bsp);
void apic_send_ipi(u32 dest, u8 vector);
/*
 * NMI to one CPU (the panic path). Never "all but self": a CPU still in firmware code would
 * take it through the firmware's IDT, in memory the kernel has reused.
 */
void apic_send_nmi(u32 dest);

#endif
