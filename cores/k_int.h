/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * k_int.h - the cores suite's integer kernels: CRC32C by the SSE4.2 instruction, and a
 * chain of multiplies, divides, rotates and shifts.
 */
#ifndef CK_CORES_K_INT_H
#define CK_CORES_K_INT_H

#include "cores/kernel.h"

extern const struct cores_kernel cores_int_kernels[];
extern const unsigned int cores_nr_int_kernels;

/* CRC32C (Castagnoli, reflected, ~0 in and out) of @len bytes (a multiple of 8), by crc32q. */
u32 cores_crc32c_insn(const u8 *buf, size_t len);
/*
 * The reference: the table built from the polynomial bit by bit, then @crc carried over
 * @len bytes by the table (no ~ in or out: start with ~0 and invert the end).
 */
void cores_crc32c_table_init(u32 table[256]);
u32 cores_crc32c_table(const u32 table[256], u32 crc, const u8 *buf, size_t len);
/* The integer chain over @n words from @x, by the CPU's mul, div, rol, shr and sar. */
u64 cores_muldiv_chain(const u64 *w, size_t n, u64 x);

#endif
