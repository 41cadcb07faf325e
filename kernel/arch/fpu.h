/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpu.h - the vector state the kernel enables. The image owns the SIMD registers outright:
 * only copy/ routines that say so in their contracts use them, and nothing is saved across
 * them because no other code in the image keeps values there (it is built with
 * -mgeneral-regs-only).
 */
#ifndef CK_FPU_H
#define CK_FPU_H

#include "kernel/include/types.h"

struct fpu_state {
	bool sse, avx, avx512;
	u64 xcr0;
};

/* Enable SSE, and AVX and AVX-512 state through XCR0 where the CPU has them. */
void fpu_init(void);
/* An AP: the boot CPU's choice (same CR0/CR4 bits, same XCR0), silently. */
void fpu_init_ap(void);
const struct fpu_state *fpu_state(void);

#endif
