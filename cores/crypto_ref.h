/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crypto_ref.h - the software references of the cores suite's crypto kernels, written here
 * from the standards: AES (FIPS-197, byte by byte with an S-box built from its definition),
 * the carry-less multiply (shift and xor), SHA-256 (FIPS 180-4, its constants computed from
 * the primes' roots). tests/host/test_cores_refs.c holds them to the standards' vectors.
 */
#ifndef CK_CORES_CRYPTO_REF_H
#define CK_CORES_CRYPTO_REF_H

#include "kernel/include/types.h"

/* FIPS-197 5.1.1: the multiplicative inverse in GF(2^8), then the affine transformation. */
void cores_aes_sbox(u8 sbox[256]);
/* FIPS-197 5.2: AES-128's 11 round keys from @key, 16 bytes each, in order. */
void cores_aes128_expand_ref(const u8 sbox[256], const u8 key[16], u8 rk[176]);
/* FIPS-197 5.1: one block through the 10 rounds of @rk (any 11 round keys). */
void cores_aes128_encrypt_ref(const u8 sbox[256], const u8 rk[176], const u8 in[16],
			      u8 out[16]);

/* The 128-bit carry-less product of @a and @b, bit by bit. */
void cores_clmul_ref(u64 a, u64 b, u64 *lo, u64 *hi);

struct cores_sha256_ref {
	u32 h[8], k[64];
	u8 buf[64];
	u64 len;		/* bytes so far */
};

void cores_sha256_ref_init(struct cores_sha256_ref *s);
void cores_sha256_ref_update(struct cores_sha256_ref *s, const u8 *p, size_t n);
void cores_sha256_ref_final(struct cores_sha256_ref *s, u8 out[32]);

#endif
