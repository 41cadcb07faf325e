/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * k_copy.h - the cores suite's copy kernels: each copy primitive the image may dispatch.
 */
#ifndef CK_CORES_K_COPY_H
#define CK_CORES_K_COPY_H

#include "cores/kernel.h"

extern const struct cores_kernel cores_copy_kernels[];
extern const unsigned int cores_nr_copy_kernels;

/* The digest of what arrived in @dst (@len bytes, a multiple of 8): the kernels' checker. */
u64 cores_copy_digest(const u8 *dst, size_t len);

#endif
