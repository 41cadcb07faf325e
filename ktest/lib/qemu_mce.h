/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_mce.h - asking the runner for a real machine check: the serial line tools/ck-run.py
 * turns into QEMU's "mce" monitor command, and the early request of mce_case=early, which the
 * run makes before MCA is set up (so it lives below the run, not with the mce suite).
 */
#ifndef CK_KTEST_LIB_QEMU_MCE_H
#define CK_KTEST_LIB_QEMU_MCE_H

#include "kernel/include/types.h"
#include "mce/mce_regs.h"

#define QEMU_SRAR_STATUS	0xbd80000000000134ULL	/* VAL UC EN MISCV ADDRV S AR, 0x134 */
#define QEMU_PCC_STATUS		(QEMU_SRAR_STATUS | MCI_STATUS_PCC)
#define QEMU_MCG		(MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP)

/* Print the line the runner turns into QEMU's "mce" monitor command (bank 1, this CPU). */
void mce_inject_request(u64 status, u64 addr);
/* mce_case=early: request a #MC and wait for it; returns (with a line) if none arrived. */
void mce_inject_early(void);

#endif
