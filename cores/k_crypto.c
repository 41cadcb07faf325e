// SPDX-License-Identifier: GPL-2.0-only
/*
 * k_crypto.c - the crypto kernels over the seeded buffer, each CPU asking its own CPUID:
 *   aes128  AES-128 in CBC over the 512 blocks (AESENC, AESENCLAST), with 11 round keys
 *           taken from the seed (any 11 keys are valid round keys to the instructions), the
 *           chain starting from the seed; the digest folds the last block. The reference
 *           is FIPS-197's cipher byte by byte (crypto_ref.c), the S-box built from its
 *           definition, the blocks and keys taken straight from the seed.
 *   clmul   cores/crypto.asm's chain of Feistel steps, four PCLMULQDQ products a block (each
 *           of its four selectors once); the reference multiplies by shift and xor.
 *   sha256  SHA-256 of the 8 KiB by SHA256MSG1/MSG2/RNDS2; the reference is FIPS 180-4's,
 *           its constants computed from the primes (the kernel's are typed from the
 *           standard). The digest folds the hash.
 */
#include "cores/crypto_ref.h"
#include "cores/k_crypto.h"

#define AES_BLOCKS	(CORES_BUF / 16)
#define AES_KEY_SALT	0x6165732d6b657973ULL	/* "aes-keys" */

static void fill(const struct cores_area *a, u64 seed)
{
	u64 *w = (u64 *)a->src;

	for (size_t i = 0; i < CORES_WORDS; i++)
		w[i] = cores_word(seed, i);
}

static void put64(u8 *p, u64 v)
{
	for (int b = 0; b < 8; b++)
		p[b] = (u8)(v >> (8 * b));
}

static u64 get64(const u8 *p)
{
	u64 v = 0;

	for (int b = 7; b >= 0; b--)
		v = v << 8 | p[b];
	return v;
}

/* The 11 round keys and the starting block, from the seed alone. */
static void aes_keys(u64 seed, u8 rk[176], u8 state[16])
{
	for (int i = 0; i < 22; i++)
		put64(rk + 8 * i, cores_word(seed ^ AES_KEY_SALT, i));
	put64(state, seed);
	put64(state + 8, ~seed);
}

static u64 fold16(const u8 *p)
{
	return cores_fold(cores_fold(CORES_FOLD_INIT, get64(p)), get64(p + 8));
}

static u64 aes_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u8 rk[176], state[16];

	fill(a, seed);
	aes_keys(seed, rk, state);
	cores_aes128_cbc(a->src, AES_BLOCKS, rk, state);
	return fold16(state);
}

static u64 aes_known(const struct cores_kernel *k, u64 seed)
{
	u8 sbox[256], rk[176], state[16], in[16];

	cores_aes_sbox(sbox);
	aes_keys(seed, rk, state);
	for (size_t b = 0; b < AES_BLOCKS; b++) {
		put64(in, get64(state) ^ cores_word(seed, 2 * b));
		put64(in + 8, get64(state + 8) ^ cores_word(seed, 2 * b + 1));
		cores_aes128_encrypt_ref(sbox, rk, in, state);
	}
	return fold16(state);
}

static u64 clmul_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u64 state[2] = { seed, ~seed };

	fill(a, seed);
	cores_clmul_chain((const u64 *)a->src, CORES_WORDS / 2, state);
	return cores_fold(cores_fold(CORES_FOLD_INIT, state[0]), state[1]);
}

static u64 fold_product(u64 x, u64 y)
{
	u64 lo, hi;

	cores_clmul_ref(x, y, &lo, &hi);
	return lo ^ hi;
}

static u64 clmul_known(const struct cores_kernel *k, u64 seed)
{
	u64 a = seed, b = ~seed;

	for (size_t i = 0; i < CORES_WORDS / 2; i++) {
		u64 c = cores_word(seed, 2 * i), d = cores_word(seed, 2 * i + 1);

		b ^= fold_product(a, c);
		a ^= fold_product(b, d);
		b ^= fold_product(a, d);
		a ^= fold_product(b, c);
		a ^= c;
		b ^= d;
	}
	return cores_fold(cores_fold(CORES_FOLD_INIT, a), b);
}

/* FIPS 180-4 5.3.3, typed: the kernel's own starting hash. */
static const u32 sha256_h0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* H0..H7 as { F, E, B, A, H, G, D, C } and back (cores/crypto.asm). */
static const u8 abef_cdgh[8] = { 5, 4, 1, 0, 7, 6, 3, 2 };

void cores_sha256_insn(const u8 *data, size_t len, u8 out[32])
{
	u32 st[8];
	u8 tail[128] = { 0 };
	size_t full = len / 64, rest = len % 64, n = rest < 56 ? 64 : 128;

	for (int i = 0; i < 8; i++)
		st[i] = sha256_h0[abef_cdgh[i]];
	cores_sha256_ni(st, data, full);
	for (size_t i = 0; i < rest; i++)
		tail[i] = data[64 * full + i];
	tail[rest] = 0x80;
	for (int i = 0; i < 8; i++)
		tail[n - 1 - i] = (u8)((u64)len * 8 >> (8 * i));
	cores_sha256_ni(st, tail, n / 64);
	for (int i = 0; i < 8; i++)
		for (int b = 0; b < 4; b++)
			out[4 * abef_cdgh[i] + b] = (u8)(st[i] >> (24 - 8 * b));
}

static u64 fold32(const u8 h[32])
{
	u64 d = CORES_FOLD_INIT;

	for (int i = 0; i < 4; i++)
		d = cores_fold(d, get64(h + 8 * i));
	return d;
}

static u64 sha_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u8 h[32];

	fill(a, seed);
	cores_sha256_insn(a->src, CORES_BUF, h);
	return fold32(h);
}

static u64 sha_known(const struct cores_kernel *k, u64 seed)
{
	struct cores_sha256_ref s;
	u8 h[32], b[8];

	cores_sha256_ref_init(&s);
	for (size_t i = 0; i < CORES_WORDS; i++) {
		put64(b, cores_word(seed, i));
		cores_sha256_ref_update(&s, b, 8);
	}
	cores_sha256_ref_final(&s, h);
	return fold32(h);
}

static const char *aes_cannot(const struct cores_kernel *k)
{
	return cores_cpu_has(X86_FEATURE_AES) ? NULL : "no AES-NI (CPUID)";
}

static const char *clmul_cannot(const struct cores_kernel *k)
{
	return cores_cpu_has(X86_FEATURE_PCLMULQDQ) ? NULL : "no PCLMULQDQ (CPUID)";
}

static const char *sha_cannot(const struct cores_kernel *k)
{
	return cores_cpu_has(X86_FEATURE_SHA_NI) ? NULL : "no SHA extensions (CPUID)";
}

const struct cores_kernel cores_crypto_kernels[] = {
	{ .name = "aes128", .family = "integer", .cannot = aes_cannot, .run = aes_run,
	  .known = aes_known, .fn = (const void *)cores_aes128_cbc },
	{ .name = "clmul", .family = "integer", .cannot = clmul_cannot, .run = clmul_run,
	  .known = clmul_known, .fn = (const void *)cores_clmul_chain },
	{ .name = "sha256", .family = "integer", .cannot = sha_cannot, .run = sha_run,
	  .known = sha_known, .fn = (const void *)cores_sha256_ni },
};
const unsigned int cores_nr_crypto_kernels = ARRAY_SIZE(cores_crypto_kernels);
