// SPDX-License-Identifier: GPL-2.0-only
/*
 * k_vec.c - the vector kernels: cores/vec.asm's SSE2 (2 lanes), AVX2 (4 lanes) and AVX-512F
 * (8 lanes) chains over the seeded buffer, each CPU running the AVX2 one only when its own
 * CPUID has AVX2 and its XCR0 enables the YMM state, the AVX-512 one only when its CPUID has
 * AVX-512F and its XCR0 the opmask, ZMM_Hi256 and Hi16_ZMM state. The reference is the same
 * arithmetic written for one 64-bit lane at a time in general registers, over the seeded
 * words taken from the seed. vec_avx512bw (AVX-512BW as well) runs another chain, of masked
 * byte adds and subtracts and 16-bit multiplies, whose reference takes each lane apart byte
 * by byte and word by word.
 */
#include "cores/k_vec.h"

#define MAX_LANES	8

typedef void (*vec_fn)(const u64 *buf, size_t nchunks, u64 *lanes);

static u64 vec_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u64 *w = (u64 *)a->src, lanes[MAX_LANES];

	for (size_t i = 0; i < CORES_WORDS; i++)
		w[i] = cores_word(seed, i);
	cores_lanes_init(lanes, k->arg, seed);
	((vec_fn)k->fn)(w, CORES_WORDS / k->arg, lanes);
	return cores_lanes_digest(lanes, k->arg);
}

static u64 vec_known(const struct cores_kernel *k, u64 seed)
{
	u64 lanes[MAX_LANES];
	unsigned int n = k->arg;

	cores_lanes_init(lanes, n, seed);
	for (size_t c = 0; c < CORES_WORDS / n; c++) {
		for (unsigned int l = 0; l < n; l++) {
			u64 v = cores_word(seed, c * n + l), a = lanes[l] + v;

			a ^= ((u64)(u32)a * (u32)v) << 32;
			a = cores_rotl(a, 7);
			lanes[l] = a + cores_rotl(v, 32);
		}
	}
	return cores_lanes_digest(lanes, n);
}

static const char *sse2_cannot(const struct cores_kernel *k)
{
	return cores_cpu_has(X86_FEATURE_XMM2) ? NULL : "no SSE2 (CPUID)";
}

static const char *avx2_cannot(const struct cores_kernel *k)
{
	return cores_cannot_avx2();
}

/* Byte by byte, then word by word: the AVX-512BW chain's step on lane @a with word @v. */
static u64 bw_step(u64 a, u64 v)
{
	u64 out = 0, m = cores_rotl(v, 8);

	for (unsigned int i = 0; i < 8; i++) {
		u64 ab = (a >> (8 * i)) & 0xff, vb = (v >> (8 * i)) & 0xff;

		out |= ((vb & 1 ? ab + vb : ab - vb) & 0xff) << (8 * i);
	}
	a = out;
	out = 0;
	for (unsigned int j = 0; j < 4; j++) {
		u64 aw = (a >> (16 * j)) & 0xffff, vw = (m >> (16 * j)) & 0xffff;

		out |= ((aw * (vw | 1)) & 0xffff) << (16 * j);
	}
	return cores_rotl(out, 11);
}

static u64 bw_known(const struct cores_kernel *k, u64 seed)
{
	u64 lanes[MAX_LANES];

	cores_lanes_init(lanes, 8, seed);
	for (size_t c = 0; c < CORES_WORDS / 8; c++)
		for (unsigned int l = 0; l < 8; l++)
			lanes[l] = bw_step(lanes[l], cores_word(seed, c * 8 + l));
	return cores_lanes_digest(lanes, 8);
}

static const char *avx512_cannot(const struct cores_kernel *k)
{
	return cores_cannot_avx512();
}

static const char *avx512bw_cannot(const struct cores_kernel *k)
{
	const char *why = cores_cannot_avx512();

	if (why)
		return why;
	return cores_cpu_has(X86_FEATURE_AVX512BW) ? NULL : "no AVX-512BW (CPUID)";
}

const struct cores_kernel cores_vec_kernels[] = {
	{ .name = "vec_sse2", .family = "vector", .cannot = sse2_cannot, .run = vec_run,
	  .known = vec_known, .fn = (const void *)cores_vec_sse2, .arg = 2 },
	{ .name = "vec_avx2", .family = "vector", .cannot = avx2_cannot, .run = vec_run,
	  .known = vec_known, .fn = (const void *)cores_vec_avx2, .arg = 4 },
	{ .name = "vec_avx512", .family = "vector", .cannot = avx512_cannot, .run = vec_run,
	  .known = vec_known, .fn = (const void *)cores_vec_avx512, .arg = 8 },
	{ .name = "vec_avx512bw", .family = "vector", .cannot = avx512bw_cannot, .run = vec_run,
	  .known = bw_known, .fn = (const void *)cores_vec_avx512bw, .arg = 8 },
};
const unsigned int cores_nr_vec_kernels = ARRAY_SIZE(cores_vec_kernels);
