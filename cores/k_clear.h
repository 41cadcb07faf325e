/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * k_clear.h - the cores suite's clear kernels: each clear primitive the image may dispatch
 * for clear_page() and clear_pages(), over a destination first filled with the seeded data.
 */
#ifndef CK_CORES_K_CLEAR_H
#define CK_CORES_K_CLEAR_H

#include "cores/kernel.h"

extern const struct cores_kernel cores_clear_kernels[];
extern const unsigned int cores_nr_clear_kernels;

/* The digest of the cleared buffer (@len bytes, a multiple of 8): the kernels' checker. */
u64 cores_clear_digest(const u8 *dst, size_t len);

#endif
