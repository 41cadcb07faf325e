/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * apicdef.h - the local APIC's registers and bits as the SDM names them, and where
 * IA32_APIC_BASE puts the xAPIC page, as Linux's asm/apicdef.h: numbers only, for the APIC
 * driver (kernel/arch/apic.h), for paging (which maps the page) and for the CMCI code that
 * drives the LVT through its own accessors. Registers are named by their xAPIC offset; in
 * x2APIC mode the MSR is MSR_X2APIC_REG(offset) (kernel/include/msr-index.h; SDM vol. 3,
 * "x2APIC Register Address Space"). IA32_APIC_BASE's bits are named there too.
 */
#ifndef CK_APICDEF_H
#define CK_APICDEF_H

#include "kernel/include/msr-index.h"
#include "kernel/include/page_types.h"
#include "kernel/include/types.h"

#define APIC_ID		0x20
#define APIC_VERSION	0x30
#define APIC_EOI	0xb0
#define APIC_SVR	0xf0
#define APIC_ESR	0x280
#define APIC_LVT_CMCI	0x2f0	/* corrected machine-check interrupt (Intel, max LVT >= 6) */
#define APIC_ICR	0x300
#define APIC_ICR_HIGH	0x310
#define APIC_LVT_TIMER	0x320
#define APIC_LVT_LINT0	0x350
#define APIC_LVT_LINT1	0x360
#define APIC_LVT_ERROR	0x370

#define APIC_SVR_ENABLE		BIT(8)
#define APIC_VERSION_MAXLVT_SHIFT	16	/* bits 23:16: the highest LVT entry's index */
#define APIC_MAXLVT_CMCI	6	/* the LVT CMCI entry exists from this max LVT on */
#define APIC_LVT_MASKED		BIT(16)
#define APIC_LVT_DM_NMI		(4U << 8)
#define APIC_XAPIC_ID_SHIFT	24	/* xAPIC: the 8-bit id in bits 31:24 of APIC_ID */
#define APIC_ICR_DEST_SHIFT	24	/* xAPIC: destination in bits 31:24 of ICR_HIGH */

/*
 * The physical address IA32_APIC_BASE @msr holds: bits MAXPHYADDR-1:12 (SDM vol. 3, "Local
 * APIC Status and Location"). A fixed 36-bit mask would lose the high bits of a base that
 * firmware relocated above 64 GiB.
 */
static inline u64 apic_base_addr(u64 msr, unsigned int phys_bits)
{
	return msr & PHYS_ADDR_MASK(phys_bits) & ~((1ULL << APIC_BASE_ADDR_SHIFT) - 1);
}

#endif
