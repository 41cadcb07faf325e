/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * k_fma.h - the cores suite's fused multiply-add kernels (cores/fma.asm) and their exact
 * integer reference.
 */
#ifndef CK_CORES_K_FMA_H
#define CK_CORES_K_FMA_H

#include "cores/kernel.h"

extern const struct cores_kernel cores_fma_kernels[];
extern const unsigned int cores_nr_fma_kernels;

void cores_fma_avx2(const u64 *buf, size_t nchunks, u64 *lanes);
void cores_fma_avx512(const u64 *buf, size_t nchunks, u64 *lanes);

/*
 * The reference's step: for a and b in [1, 2) given by their bit patterns, the bits of
 * p = a * b rounded to nearest (ties to even) and of e = a * b - p, from the exact product
 * of the two 53-bit significands in 128-bit integers, no floating point.
 */
void cores_fma_ref(u64 a, u64 b, u64 *p, u64 *e);

#endif
