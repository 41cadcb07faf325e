/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * k_x87.h - the cores suite's x87 kernel (cores/x87.asm); its stored known answers are
 * cores/x87_ref.h's.
 */
#ifndef CK_CORES_K_X87_H
#define CK_CORES_K_X87_H

#include "cores/kernel.h"

extern const struct cores_kernel cores_x87_kernels[];
extern const unsigned int cores_nr_x87_kernels;

void cores_x87(const u32 *num, size_t n, u64 *out);

#endif
