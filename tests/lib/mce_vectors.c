// SPDX-License-Identifier: GPL-2.0-only
/*
 * mce_vectors.c - the vectors of mce_vectors.h. Bits are spelled out per row so a reader can
 * check each against the rule it targets.
 */
#include "mce/mce_regs.h"
#include "tests/lib/mce_vectors.h"

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

const struct mce_vector mce_vectors[] = {
	/* Intel, SER_P set unless the row is about it. */
	{ "no valid error", false, true, false, EN | UC, OK_MCG, false },
	{ "error reporting not enabled in the bank", false, true, false, VAL | UC, OK_MCG, true },
	{ "processor context corrupt (PCC)", false, true, true, SRAR | PCC | 0x134, OK_MCG, true },
	{ "MCIP clear: no machine check in progress", false, true, true, SRAR | 0x134,
	  MCG_STATUS_RIPV | MCG_STATUS_EIPV, true },
	{ "neither RIPV nor EIPV: no reliable instruction pointer", false, true, true,
	  SRAR | 0x134, MCG_STATUS_MCIP, true },
	{ "corrected error", false, true, false, VAL | EN | MISCV | ADDRV | 0x9f, OK_MCG, true },
	{ "uncorrected error on a CPU without software error recovery (no SER_P)", false, false,
	  true, SRAR | 0x134, OK_MCG, true },
	{ "action optional: memory scrubbing (SRAO)", false, true, false,
	  VAL | UC | EN | MISCV | ADDRV | S | 0xc3, OK_MCG, true },
	{ "action optional: L3 explicit writeback (SRAO)", false, true, false,
	  VAL | UC | EN | MISCV | ADDRV | S | 0x17a, OK_MCG, true },
	{ "uncorrected, no action required (UCNA)", false, true, false,
	  VAL | UC | EN | MISCV | ADDRV | 0x9f, OK_MCG, true },
	{ "uncorrected but not signalled (S clear)", false, true, false, VAL | UC | EN | AR | 0x134,
	  OK_MCG, true },
	{ "action required with overflow (OVER): earlier error lost", false, true, true,
	  SRAR | OVER | 0x134, OK_MCG, true },
	{ "data load in error-recoverable area of kernel", false, true, true, SRAR | 0x134,
	  OK_MCG, true },
	{ "data load in unrecoverable area of kernel", false, true, false, SRAR | 0x134, OK_MCG,
	  true },
	{ "instruction fetch error in kernel", false, true, true, SRAR | 0x150, OK_MCG, true },
	{ "action required, unknown error type", false, true, true, SRAR | 0x0005, OK_MCG, true },
	{ "action optional, unknown error type", false, true, false,
	  VAL | UC | EN | MISCV | ADDRV | S | 0x0005, OK_MCG, true },
	/* AMD, SUCCOR set unless the row is about it. */
	{ "no valid error", true, true, false, UC | EN, OK_MCG, false },
	{ "processor context corrupt (PCC)", true, true, true, SRAR | PCC | 0x134, OK_MCG, true },
	{ "MCIP clear: no machine check in progress", true, true, true, SRAR | 0x134,
	  MCG_STATUS_RIPV | MCG_STATUS_EIPV, true },
	{ "neither RIPV nor EIPV: no reliable instruction pointer", true, true, true,
	  SRAR | 0x134, MCG_STATUS_MCIP, true },
	{ "corrected error", true, true, false, VAL | EN | ADDRV | 0x9f, OK_MCG, true },
	{ "deferred error (never raises #MC)", true, true, false, VAL | UC | EN | ADDRV | DEF |
	  0x9f, OK_MCG, true },
	{ "uncorrected error and no SUCCOR: recovery not supported", true, false, true,
	  SRAR | 0x134, OK_MCG, true },
	{ "uncorrected error in kernel at a machine-check-safe fixup", true, true, true,
	  SRAR | 0x134, OK_MCG, true },
	{ "uncorrected error in kernel without fixup", true, true, false, SRAR | 0x134, OK_MCG,
	  true },
};

const unsigned int mce_nr_vectors = sizeof(mce_vectors) / sizeof(mce_vectors[0]);
