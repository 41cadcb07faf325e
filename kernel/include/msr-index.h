/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msr-index.h - the model-specific registers the kernel reads or writes, by their manual
 * names, and the bits it uses in each (Intel SDM vol. 4 "Model-Specific Registers", AMD APM
 * vol. 2 appendix A). Numbers only: the access is in x86.h, the policy in the callers.
 */
#ifndef CK_MSR_INDEX_H
#define CK_MSR_INDEX_H

#include "kernel/include/types.h"

/* Architectural (Intel's IA32_ names; AMD implements the same numbers). */
#define MSR_IA32_APIC_BASE		0x1b
#define APIC_BASE_BSP			BIT(8)	/* this is the boot processor */
#define APIC_BASE_EXTD			BIT(10)	/* x2APIC mode */
#define APIC_BASE_EN			BIT(11)	/* APIC globally enabled */
#define APIC_BASE_ADDR_SHIFT		12	/* base in bits MAXPHYADDR-1:12 */

#define MSR_SMI_COUNT			0x34	/* Intel, read-only: SMIs since reset */

#define MSR_IA32_FEATURE_CONTROL	0x3a
#define FEATURE_CONTROL_LOCKED		BIT(0)
#define FEATURE_CONTROL_LMCE		BIT(20)

#define MSR_IA32_UCODE_REV		0x8b	/* Intel: revision in bits 63:32; AMD: 31:0 */

/* Protected Processor Inventory Number (Intel SDM vol. 4; AMD PPR): control, then the number. */
#define MSR_PPIN_CTL			0x4e
#define MSR_PPIN			0x4f
#define MSR_AMD_PPIN_CTL		0xc00102f0
#define MSR_AMD_PPIN			0xc00102f1
#define PPIN_CTL_LOCKOUT		BIT(0)	/* the control is locked (writes ignored) */
#define PPIN_CTL_ENABLE			BIT(1)	/* MSR_PPIN readable */

#define MSR_IA32_MPERF			0xe7
#define MSR_IA32_APERF			0xe8

#define MSR_MTRRcap			0xfe
#define MTRRCAP_VCNT_MASK		0xffULL	/* number of variable ranges */
#define MTRRCAP_FIX			BIT(8)	/* fixed ranges supported */

#define MSR_IA32_MCG_CAP		0x179
#define MCG_BANKCNT_MASK		0xffULL
#define MCG_CAP_COUNT(c)		((unsigned int)((c) & MCG_BANKCNT_MASK))
#define MCG_CTL_P			BIT(8)
#define MCG_CMCI_P			BIT(10)
#define MCG_SER_P			BIT(24)
#define MCG_LMCE_P			BIT(27)
#define MSR_IA32_MCG_STATUS		0x17a
#define MCG_STATUS_RIPV			BIT(0)
#define MCG_STATUS_EIPV			BIT(1)
#define MCG_STATUS_MCIP			BIT(2)
#define MCG_STATUS_LMCES		BIT(3)
#define MCG_STATUS_SEAM_NR		BIT(12)	/* Intel TDX: the #MC came in SEAM non-root mode */
#define MSR_IA32_MCG_CTL		0x17b

#define MSR_IA32_MISC_ENABLE		0x1a0
#define MISC_ENABLE_FAST_STRING		BIT(0)

/* Variable MTRR n: PHYSBASE at 0x200 + 2n, PHYSMASK at 0x201 + 2n. */
#define MSR_MTRR_PHYSBASE(n)		(0x200 + 2 * (n))
#define MSR_MTRR_PHYSMASK(n)		(0x201 + 2 * (n))
#define MTRR_PHYSBASE_TYPE_MASK		0xffULL
#define MTRR_PHYSMASK_VALID		BIT(11)
#define MSR_MTRR_FIX64K_00000		0x250
#define MSR_MTRR_FIX16K_80000		0x258
#define MSR_MTRR_FIX16K_A0000		0x259
#define MSR_MTRR_FIX4K_C0000		0x268	/* eight of them, to 0x26f */

#define MSR_IA32_PAT			0x277

/* Corrected-error interrupt control of bank i (Intel, with MCG_CAP.CMCI_P). */
#define MSR_MC_CTL2(i)			(0x280 + (i))
#define MCI_CTL2_CMCI_EN		BIT(30)
#define MCI_CTL2_CMCI_THRESHOLD_MASK	0x7fffULL	/* corrected errors per CMCI, 14:0 */

#define MSR_MTRRdefType			0x2ff
#define MTRR_DEF_TYPE_MASK		0xffULL
#define MTRR_DEF_FE			BIT(10)	/* fixed ranges enabled */
#define MTRR_DEF_E			BIT(11)	/* MTRRs enabled */

/* Legacy machine-check banks: four MSRs per bank from 0x400. */
#define MSR_MC_CTL(i)			(0x400 + 4 * (i))
#define MSR_MC_STATUS(i)		(0x401 + 4 * (i))
#define MSR_MC_ADDR(i)			(0x402 + 4 * (i))
#define MSR_MC_MISC(i)			(0x403 + 4 * (i))

#define MSR_IA32_MCG_EXT_CTL		0x4d0
#define MCG_EXT_CTL_LMCE_EN		BIT(0)

#define MSR_IA32_TSC_DEADLINE		0x6e0

/* x2APIC: register at xAPIC offset R is MSR 0x800 + R / 16 (SDM vol. 3, "x2APIC"). */
#define MSR_X2APIC_BASE			0x800
#define MSR_X2APIC_REG(off)		(MSR_X2APIC_BASE + ((off) >> 4))
#define MSR_X2APIC_ICR			0x830	/* the 64-bit ICR, one MSR in x2APIC mode */

/* AMD64 architectural MSRs. */
#define MSR_EFER			0xc0000080
#define EFER_SCE			BIT(0)	/* SYSCALL/SYSRET */
#define EFER_LME			BIT(8)	/* long mode enable */
#define EFER_LMA			BIT(10)	/* long mode active */
#define EFER_NXE			BIT(11)	/* no-execute page bit */
#define MSR_FS_BASE			0xc0000100
#define MSR_GS_BASE			0xc0000101
#define MSR_KERNEL_GS_BASE		0xc0000102

/* AMD Scalable MCA banks: sixteen MSRs per bank from 0xc0002000. */
#define MSR_SMCA_CTL(i)			(0xc0002000 + 0x10 * (i))
#define MSR_SMCA_STATUS(i)		(0xc0002001 + 0x10 * (i))
#define MSR_SMCA_ADDR(i)		(0xc0002002 + 0x10 * (i))
#define MSR_SMCA_MISC(i)		(0xc0002003 + 0x10 * (i))
#define MSR_SMCA_IPID(i)		(0xc0002005 + 0x10 * (i))
#define MSR_SMCA_SYND(i)		(0xc0002006 + 0x10 * (i))
/* Deferred errors are also logged here, apart from MCA_STATUS/MCA_ADDR. */
#define MSR_SMCA_DESTAT(i)		(0xc0002008 + 0x10 * (i))
#define MSR_SMCA_DEADDR(i)		(0xc0002009 + 0x10 * (i))

#endif
