/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mce_regs.h - machine-check MSRs and register bits (Intel SDM vol. 3 ch. 16, AMD APM vol. 2
 * ch. 9 and the SMCA register layout). Shared by the handler and its host tests.
 */
#ifndef CK_MCE_REGS_H
#define CK_MCE_REGS_H

#include "kernel/include/msr-index.h"
#include "kernel/include/types.h"

/* The MSR numbers and the MCG_CAP/MCG_STATUS bits are in kernel/include/msr-index.h. */

#define MCI_STATUS_VAL		BIT(63)
#define MCI_STATUS_OVER		BIT(62)
#define MCI_STATUS_UC		BIT(61)
#define MCI_STATUS_EN		BIT(60)
#define MCI_STATUS_MISCV	BIT(59)
#define MCI_STATUS_ADDRV	BIT(58)
#define MCI_STATUS_PCC		BIT(57)
#define MCI_STATUS_S		BIT(56)		/* Intel; AMD: TCC at 55, see below */
#define MCI_STATUS_AR		BIT(55)
#define MCI_STATUS_SYNDV	BIT(53)		/* AMD SMCA: MCA_SYND holds a syndrome */
#define MCI_STATUS_DEFERRED	BIT(44)		/* AMD */
#define MCI_STATUS_POISON	BIT(43)		/* AMD */
#define MCI_STATUS_MCACOD	0xffffULL

#define MCI_MISC_LSB(m)		((unsigned int)((m) & 0x3f))
#define MCI_MISC_MODE(m)	((unsigned int)(((m) >> 6) & 7))
#define MCI_MISC_MODE_PHYS	2

#define MCACOD_DATA_LOAD	0x0134		/* memory hierarchy, data read, L2 (generic) */
#define MCACOD_INSN_FETCH	0x0150
#define MCACOD_FILTER_MASK	0xefff		/* bit 12 is the "filtered" flag */

#endif
