/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * k_bits.h - the cores suite's bit-manipulation kernels: POPCNT, LZCNT with TZCNT, and PDEP
 * with PEXT, each a chain over the seeded words, and their shift-and-mask references.
 */
#ifndef CK_CORES_K_BITS_H
#define CK_CORES_K_BITS_H

#include "cores/kernel.h"

extern const struct cores_kernel cores_bits_kernels[];
extern const unsigned int cores_nr_bits_kernels;

/* The chains over @n words from the state @x, by the CPU's instructions (k_bits.c says how). */
u64 cores_popcnt_chain(const u64 *w, size_t n, u64 x);
u64 cores_lzcnt_chain(const u64 *w, size_t n, u64 x);
u64 cores_pdep_chain(const u64 *w, size_t n, u64 x);

/* The references, one bit at a time. */
unsigned int cores_popcnt_ref(u64 v);
unsigned int cores_lzcnt_ref(u64 v);
unsigned int cores_tzcnt_ref(u64 v);
u64 cores_pdep_ref(u64 v, u64 mask);
u64 cores_pext_ref(u64 v, u64 mask);

#endif
