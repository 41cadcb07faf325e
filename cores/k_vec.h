/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * k_vec.h - the cores suite's vector kernels (cores/vec.asm) and their scalar reference.
 */
#ifndef CK_CORES_K_VEC_H
#define CK_CORES_K_VEC_H

#include "cores/kernel.h"

extern const struct cores_kernel cores_vec_kernels[];
extern const unsigned int cores_nr_vec_kernels;

void cores_vec_sse2(const u64 *buf, size_t nchunks, u64 *lanes);
void cores_vec_avx2(const u64 *buf, size_t nchunks, u64 *lanes);
void cores_vec_avx512(const u64 *buf, size_t nchunks, u64 *lanes);
void cores_vec_avx512bw(const u64 *buf, size_t nchunks, u64 *lanes);

#endif
