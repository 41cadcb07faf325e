/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu_here.h - what identifies the CPU that asks, read on it: its microcode revision and its
 * PPIN (Protected Processor Inventory Number), for reports that name one core of a machine
 * (the cores suite's machine checks). Run on the CPU in question.
 */
#ifndef CK_CPU_HERE_H
#define CK_CPU_HERE_H

#include "kernel/include/types.h"

/* This CPU's microcode revision (Intel SDM 9.11.7.1; AMD's patch level); false: unreadable. */
bool cpu_ucode_rev_here(u32 *rev);

/*
 * This CPU's PPIN as Linux's ppin_init() finds it: where CPUID says the MSRs exist (Intel
 * CPUID.(7,1):EBX[0], AMD CPUID 0x80000008 EBX[23]) or the Intel server model is one of those
 * that have them without the bit, the control is read; locked disabled gives none, disabled
 * is enabled once; then the number is read. False with @why saying why there is none.
 */
bool cpu_ppin_here(u64 *ppin, const char **why);

#endif
