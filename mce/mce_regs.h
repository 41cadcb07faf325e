/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mce_regs.h - machine-check MSRs and register bits (Intel SDM vol. 3 ch. 16, AMD APM vol. 2
 * ch. 9 and the SMCA register layout). Shared by the handler and its host tests.
 */
#ifndef CK_MCE_REGS_H
#define CK_MCE_REGS_H

#include "kernel/include/types.h"

#define MSR_IA32_MCG_CAP	0x179
#define MSR_IA32_MCG_STATUS	0x17a
#define MSR_IA32_MCG_CTL	0x17b

#define MCG_BANKCNT_MASK	0xffULL
#define MCG_CTL_P		BIT(8)
#define MCG_SER_P		BIT(24)
#define MCG_LMCE_P		BIT(27)

#define MCG_STATUS_RIPV		BIT(0)
#define MCG_STATUS_EIPV		BIT(1)
#define MCG_STATUS_MCIP		BIT(2)
#define MCG_STATUS_LMCES	BIT(3)
#define MCG_STATUS_SEAM_NR	BIT(12)		/* Intel TDX: the #MC came in SEAM non-root mode */

/* Legacy banks: four MSRs per bank from 0x400. */
#define MSR_MC_CTL(i)		(0x400 + 4 * (i))
#define MSR_MC_STATUS(i)	(0x401 + 4 * (i))
#define MSR_MC_ADDR(i)		(0x402 + 4 * (i))
#define MSR_MC_MISC(i)		(0x403 + 4 * (i))

/* AMD Scalable MCA banks: sixteen MSRs per bank from 0xc0002000. */
#define MSR_SMCA_CTL(i)		(0xc0002000 + 0x10 * (i))
#define MSR_SMCA_STATUS(i)	(0xc0002001 + 0x10 * (i))
#define MSR_SMCA_ADDR(i)	(0xc0002002 + 0x10 * (i))
#define MSR_SMCA_MISC(i)	(0xc0002003 + 0x10 * (i))
#define MSR_SMCA_IPID(i)	(0xc0002005 + 0x10 * (i))
#define MSR_SMCA_SYND(i)	(0xc0002006 + 0x10 * (i))

#define MCI_STATUS_VAL		BIT(63)
#define MCI_STATUS_OVER		BIT(62)
#define MCI_STATUS_UC		BIT(61)
#define MCI_STATUS_EN		BIT(60)
#define MCI_STATUS_MISCV	BIT(59)
#define MCI_STATUS_ADDRV	BIT(58)
#define MCI_STATUS_PCC		BIT(57)
#define MCI_STATUS_S		BIT(56)		/* Intel; AMD: TCC at 55, see below */
#define MCI_STATUS_AR		BIT(55)
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
