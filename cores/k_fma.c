// SPDX-License-Identifier: GPL-2.0-only
/*
 * k_fma.c - the fused multiply-add kernels: cores/fma.asm's chains (4 lanes by FMA3 on YMM,
 * 8 by AVX-512F on ZMM), each lane a product and its rounding error, p = a * b and
 * e = fma(a, b, -p), fed back into the next b. The known answer is exact, not a tolerance:
 * the significands are multiplied as 53-bit integers into a 128-bit product, p is that
 * product rounded to 53 bits (to nearest, ties to even) and e the remainder, which fits in
 * 53 bits, so both are doubles built here bit by bit. Any correct FMA unit gives exactly
 * these bits; one that rounds the product before the add gives e = 0.
 */
#include "cores/k_fma.h"

#define FMA_ONE		0x3ff0000000000000ULL
#define FMA_MANT	0x000fffffffffffffULL
#define FMA_HIDDEN	(1ULL << 52)

typedef unsigned __int128 u128;

/* The double m * 2^-104 for 0 < m < 2^53, m's top bit at k (so m / 2^k * 2^(k - 104)). */
static u64 dbl_scaled(u64 m, unsigned int k)
{
	return (u64)(1023 + k - 104) << 52 | ((m << (52 - k)) & FMA_MANT);
}

static unsigned int top_bit(u64 m)
{
	unsigned int k = 0;

	while (m >> 1) {
		m >>= 1;
		k++;
	}
	return k;
}

void cores_fma_ref(u64 a, u64 b, u64 *p, u64 *e)
{
	u128 prod = (u128)(FMA_HIDDEN | (a & FMA_MANT)) * (FMA_HIDDEN | (b & FMA_MANT));
	unsigned int shift = prod >> 105 ? 53 : 52;
	u64 q = (u64)(prod >> shift), r = (u64)prod & ((1ULL << shift) - 1);
	u64 half = 1ULL << (shift - 1);
	__int128 err;

	if (r > half || (r == half && (q & 1)))
		q++;
	err = (__int128)(prod - ((u128)q << shift));
	if (q >> 53) {		/* rounded up to 2^53: one more binade */
		q >>= 1;
		shift++;
	}
	/* p = q * 2^(shift - 104) = (q / 2^52) * 2^(shift - 52), q in [2^52, 2^53) */
	*p = (u64)(1023 + shift - 52) << 52 | (q & FMA_MANT);
	if (!err) {
		*e = 0;		/* x - x is +0 when rounding to nearest */
		return;
	}
	u64 m = (u64)(err < 0 ? -err : err);

	*e = (err < 0 ? 1ULL << 63 : 0) | dbl_scaled(m, top_bit(m));
}

typedef void (*fma_fn)(const u64 *buf, size_t nchunks, u64 *lanes);

static u64 fma_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u64 *w = (u64 *)a->src, lanes[8];

	for (size_t i = 0; i < CORES_WORDS; i++)
		w[i] = cores_word(seed, i);
	cores_lanes_init(lanes, k->arg, seed);
	((fma_fn)k->fn)(w, CORES_WORDS / k->arg, lanes);
	return cores_lanes_digest(lanes, k->arg);
}

static u64 fma_known(const struct cores_kernel *k, u64 seed)
{
	u64 lanes[8];
	unsigned int n = k->arg;

	cores_lanes_init(lanes, n, seed);
	for (size_t c = 0; c < CORES_WORDS / n; c++) {
		for (unsigned int l = 0; l < n; l++) {
			u64 v = cores_word(seed, c * n + l), p, e;

			cores_fma_ref(FMA_ONE | v >> 12, FMA_ONE | (lanes[l] & FMA_MANT), &p, &e);
			lanes[l] = cores_rotl(lanes[l] ^ p ^ v, 13) + e;
		}
	}
	return cores_lanes_digest(lanes, n);
}

static const char *fma_avx2_cannot(const struct cores_kernel *k)
{
	if (!cores_cpu_has(X86_FEATURE_FMA))
		return "no FMA (CPUID)";
	return cores_cannot_avx2();
}

static const char *fma_avx512_cannot(const struct cores_kernel *k)
{
	return cores_cannot_avx512();
}

const struct cores_kernel cores_fma_kernels[] = {
	{ .name = "fma_avx2", .family = "vector", .cannot = fma_avx2_cannot, .run = fma_run,
	  .known = fma_known, .fn = (const void *)cores_fma_avx2, .arg = 4 },
	{ .name = "fma_avx512", .family = "vector", .cannot = fma_avx512_cannot, .run = fma_run,
	  .known = fma_known, .fn = (const void *)cores_fma_avx512, .arg = 8 },
};
const unsigned int cores_nr_fma_kernels = ARRAY_SIZE(cores_fma_kernels);
