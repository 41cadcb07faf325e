/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * k_crypto.h - the cores suite's crypto kernels: AES-128 rounds by AES-NI, carry-less
 * multiplies by PCLMULQDQ and SHA-256 by the SHA extensions (cores/crypto.asm), each
 * against its software reference (cores/crypto_ref.h).
 */
#ifndef CK_CORES_K_CRYPTO_H
#define CK_CORES_K_CRYPTO_H

#include "cores/kernel.h"

extern const struct cores_kernel cores_crypto_kernels[];
extern const unsigned int cores_nr_crypto_kernels;

/* cores/crypto.asm (what each computes is said there). */
void cores_aes128_cbc(const u8 *buf, size_t nblocks, const u8 *rk, u8 *state);
void cores_clmul_chain(const u64 *buf, size_t nblocks, u64 *state);
void cores_sha256_ni(u32 *state, const u8 *data, size_t nblocks);

/* SHA-256 of @len bytes by the SHA extensions (the padding done here, in C). */
void cores_sha256_insn(const u8 *data, size_t len, u8 out[32]);

#endif
