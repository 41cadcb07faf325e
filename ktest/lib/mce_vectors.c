// SPDX-License-Identifier: GPL-2.0-only
/*
 * mce_vectors.c - the vectors of mce_vectors.h. Bits are spelled out per row so a reader can
 * check each against the rule it targets.
 */
#include "ktest/lib/mce_vectors.h"
#include "mce/mce_regs.h"

#define VAL	MCI_STATUS_VAL
#define OVER	MCI_STATUS_OVER
#define UC	MCI_STATUS_UC
#define EN	MCI_STATUS_EN
#define MISCV	MCI_STATUS_MISCV
#define ADDRV	MCI_STATUS_ADDRV
#define PCC	MCI_STATUS_PCC
#define S	MCI_STATUS_S
#define AR	MCI_STATUS_AR
#define DEF	MCI_STATUS_DEFERRED
#define OK_MCG	(MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP)
#define SRAR	(VAL | UC | EN | MISCV | ADDRV | S | AR)

#define LOCAL	(OK_MCG | MCG_STATUS_LMCES)
#define POISON	MCI_STATUS_POISON
#define SEAM_NR	MCG_STATUS_SEAM_NR
/* Any CPU, bank 1. */
#define ANY_CPU	0, 0, 0, 0
#define R(name, amd, ser, fixup, status, mcg, end)				\
	{ name, amd, ser, fixup, status, mcg, true, VEC_##end, false, ANY_CPU }

/*
 * Rows graded "keep" or "log" are not claimed by a broadcast #MC on Intel: those vectors set
 * LMCES (a local machine check) so that they resume, as Linux does; the walk in
 * tests/host/test_mce_oracle.c covers the broadcast case too.
 */
const struct mce_vector mce_vectors[] = {
	/* Intel, SER_P set unless the row is about it. */
	{ "no valid error", false, true, false, EN | UC, OK_MCG, false, VEC_PANIC, false,
	  ANY_CPU },
	R("error reporting not enabled in the bank", false, true, true, VAL | UC, OK_MCG, PANIC),
	R("processor context corrupt (PCC)", false, true, true, SRAR | PCC | 0x134, OK_MCG, PANIC),
	R("MCIP clear: no machine check in progress", false, true, true, SRAR | 0x134,
	  MCG_STATUS_RIPV | MCG_STATUS_EIPV, PANIC),
	R("neither RIPV nor EIPV: no reliable instruction pointer", false, true, true,
	  SRAR | 0x134, MCG_STATUS_MCIP, PANIC),
	R("in kernel and RIPV clear: no restart IP", false, true, true, SRAR | 0x134,
	  MCG_STATUS_MCIP | MCG_STATUS_EIPV, PANIC),
	R("corrected error", false, false, false, VAL | EN | MISCV | ADDRV | 0x9f, LOCAL, RESUME),
	R("action optional: memory scrubbing (SRAO)", false, true, false,
	  VAL | UC | EN | MISCV | ADDRV | S | 0xc3, OK_MCG, RESUME),
	R("action optional: L3 explicit writeback (SRAO)", false, true, false,
	  VAL | UC | EN | MISCV | ADDRV | S | 0x17a, OK_MCG, RESUME),
	/* Skylake-SP stepping 4, memory-controller bank 13: MSCOD 0x0010, MCACOD 0x00c2. */
	{ "patrol scrub error reported as corrected (Skylake-SP): action optional", false, true,
	  false, VAL | EN | MISCV | ADDRV | 0x001000c2, LOCAL, true, VEC_RESUME, false,
	  .bank = 13, .family = 6, .model = 0x55, .stepping = 4 },
	R("uncorrected, no action required (UCNA)", false, true, false,
	  VAL | UC | EN | MISCV | ADDRV | 0x9f, LOCAL, RESUME),
	R("illegal combination: UCNA with AR set", false, true, true, VAL | UC | EN | AR | 0x134,
	  OK_MCG, PANIC),
	R("not signalled (S clear)", false, true, false, VAL | EN | 0x9f, LOCAL, RESUME),
	R("action required with overflow (OVER): earlier error lost", false, true, true,
	  SRAR | OVER | 0x134, OK_MCG, PANIC),
	R("action required, but RIPV without EIPV: the interrupted thread is unaffected", false,
	  true, true, SRAR | 0x134, MCG_STATUS_RIPV | MCG_STATUS_MCIP | MCG_STATUS_LMCES, RESUME),
	R("data load in error-recoverable area of kernel", false, true, true, SRAR | 0x134,
	  OK_MCG, RECOVER),
	R("data load in SEAM non-root mode (a TDX guest)", false, true, false, SRAR | 0x134,
	  OK_MCG | SEAM_NR, RESUME),
	R("instruction fetch in SEAM non-root mode (a TDX guest)", false, true, false,
	  SRAR | 0x150, OK_MCG | SEAM_NR, RESUME),
	R("data load in unrecoverable area of kernel", false, true, false, SRAR | 0x134, OK_MCG,
	  PANIC),
	R("instruction fetch error in kernel", false, true, false, SRAR | 0x150, OK_MCG, PANIC),
	R("action required, unknown error type", false, true, true, SRAR | 0x0005, OK_MCG, PANIC),
	R("action optional, unknown error type", false, true, false,
	  VAL | UC | EN | MISCV | ADDRV | S | 0x0005, OK_MCG, RESUME),
	R("action optional with overflow (OVER)", false, true, false,
	  VAL | OVER | UC | EN | MISCV | ADDRV | S | 0x0005, OK_MCG, RESUME),
	R("uncorrected error with overflow (OVER)", false, false, true, VAL | OVER | UC | EN | 0x5,
	  OK_MCG, PANIC),
	R("uncorrected error in kernel", false, false, false, VAL | UC | EN | 0x5, OK_MCG, PANIC),
	{ "uncorrected error at a machine-check-safe fixup", false, false, true,
	  VAL | UC | EN | MISCV | ADDRV | 0x134, OK_MCG, true, VEC_PANIC, true, ANY_CPU },
	R("no rule matched", false, true, false, VAL | EN | S | 0x9f, OK_MCG, RESUME),
	/* AMD, SUCCOR set unless the row is about it; AMD machine checks are always local. */
	{ "no valid error", true, true, false, UC | EN, OK_MCG, false, VEC_RESUME, false,
	  ANY_CPU },
	R("processor context corrupt (PCC)", true, true, true, SRAR | PCC | 0x134, OK_MCG, PANIC),
	R("deferred error", true, true, false, VAL | EN | ADDRV | DEF | POISON | 0x9f, OK_MCG,
	  RESUME),
	R("corrected error", true, true, false, VAL | EN | ADDRV | 0x9f, OK_MCG, RESUME),
	R("uncorrected error with overflow and no McaOverflowRecov", true, true, true,
	  VAL | UC | EN | ADDRV | OVER | POISON | 0x134, OK_MCG, PANIC),
	R("uncorrected error and no SUCCOR: recovery not supported", true, false, true,
	  VAL | UC | EN | ADDRV | POISON | 0x134, OK_MCG, PANIC),
	R("uncorrected error in kernel at a machine-check-safe fixup", true, true, true,
	  VAL | UC | EN | ADDRV | POISON | 0x134, OK_MCG, RECOVER),
	R("uncorrected error in kernel without fixup", true, true, false,
	  VAL | UC | EN | ADDRV | POISON | 0x134, OK_MCG, PANIC),
};

const unsigned int mce_nr_vectors = sizeof(mce_vectors) / sizeof(mce_vectors[0]);
