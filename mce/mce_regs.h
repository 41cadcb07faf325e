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

/* STATUS[46:45] on an SMCA UMC bank: the ECC type (amd64_edac's ecc_type). */
#define MCI_STATUS_ECC_SHIFT	45
#define MCI_STATUS_ECC_MASK	3ULL
#define MCI_ECC_UNCORRECTED	1
#define MCI_ECC_CORRECTED	2
/* The extended error code: STATUS[21:16] on SMCA (six bits; legacy banks use five). */
#define MCI_STATUS_XEC_SHIFT	16
#define SMCA_XEC_MASK		0x3fULL
#define SMCA_UMC_XEC_DRAM_ECC	0		/* a UMC bank's "DRAM ECC error" */

/* MCA_IPID (SMCA): which block a bank belongs to and which instance of it. */
#define SMCA_IPID_INSTANCE_MASK	0xffffffffULL	/* InstanceId, bits 31..0 */
#define SMCA_IPID_HWID_SHIFT	32		/* HardwareID, bits 43..32 */
#define SMCA_IPID_HWID_MASK	0xfffULL
#define SMCA_IPID_MCATYPE_SHIFT	48		/* McaType, bits 63..48 */
#define SMCA_IPID_MCATYPE_MASK	0xffffULL
#define SMCA_UMC_CHANNEL_SHIFT	20		/* a CPU UMC's channel: InstanceId bits 31..20 */
#define SMCA_HWID_UMC		0x96		/* Unified Memory Controller */
#define SMCA_MCATYPE_UMC	0		/* UMC of a CPU node */
#define SMCA_MCATYPE_UMC_V2	1		/* UMC v2, on GPU nodes */

/* MCA_SYND (SMCA) of a UMC DRAM ECC error. */
#define SMCA_SYND_CS_MASK	0x7ULL		/* the chip select, ErrorInformation bits 2..0 */
#define SMCA_SYND_LEN_SHIFT	18		/* the syndrome length, bits 23..18 */
#define SMCA_SYND_LEN_MASK	0x3fULL

#define MCI_MISC_LSB(m)		((unsigned int)((m) & 0x3f))
#define MCI_MISC_MODE(m)	((unsigned int)(((m) >> 6) & 7))
#define MCI_MISC_MODE_PHYS	2

#define MCACOD_DATA_LOAD	0x0134		/* memory hierarchy, data read, L2 (generic) */
#define MCACOD_INSN_FETCH	0x0150
#define MCACOD_FILTER_MASK	0xefff		/* bit 12 is the "filtered" flag */

#endif
