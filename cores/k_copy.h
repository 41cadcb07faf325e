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

/*
 * The digest of another CPU's destination, checked here (the copy pairs): the same fold, its
 * own symbol so that the checker of a pair can be told from the writer's own check.
 */
u64 cores_copy_check_other(const u8 *dst, size_t len);

#endif
