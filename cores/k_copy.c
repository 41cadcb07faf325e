// SPDX-License-Identifier: GPL-2.0-only
/*
 * k_copy.c - the copy kernels: each primitive copy/ offers for copy_page(), memcpy() and
 * copy_mc_to_kernel() copies the seeded source into a destination filled with a canary;
 * the digest folds every word of the destination as it arrived (cores_copy_digest, the
 * symbol an outside debugger stops at to flip a bit in what is about to be checked). The
 * known answer folds the seeded words themselves, computed from the seed without any copy
 * or memory, with the canary where the copy stops short of the buffer's end.
 */
#include "copy/routines.h"
#include "cores/k_copy.h"

#define CANARY		0xa5
/* memcpy and copy_mc copy all but the last 3 bytes: a tail that is not a whole word. */
#define BYTES_LEN	(CORES_BUF - 3)

enum copy_kind { KIND_PAGE, KIND_BYTES, KIND_MC };

typedef void (*page_fn)(void *dst, const void *src);
typedef void *(*bytes_fn)(void *dst, const void *src, size_t len);
typedef size_t (*mc_fn)(void *dst, const void *src, size_t len);

static inline u64 fold_words(const u8 *dst, size_t len)
{
	const u64 *w = (const u64 *)dst;
	u64 d = CORES_FOLD_INIT;

	for (size_t i = 0; i < len / 8; i++)
		d = cores_fold(d, w[i]);
	return d;
}

/* Two symbols for one fold, so that a breakpoint tells the writer's check from a pair's. */
u64 __attribute__((noipa)) cores_copy_digest(const u8 *dst, size_t len)
{
	return fold_words(dst, len);
}

u64 __attribute__((noipa)) cores_copy_check_other(const u8 *dst, size_t len)
{
	return fold_words(dst, len);
}

static u64 copy_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u64 *src = (u64 *)a->src, left = 0;

	for (size_t i = 0; i < CORES_WORDS; i++)
		src[i] = cores_word(seed, i);
	for (size_t i = 0; i < CORES_BUF; i++)
		((volatile u8 *)a->dst)[i] = CANARY;
	switch (k->arg) {
	case KIND_PAGE:
		((page_fn)k->fn)(a->dst, a->src);
		((page_fn)k->fn)(a->dst + 4096, a->src + 4096);
		break;
	case KIND_BYTES:
		if (((bytes_fn)k->fn)(a->dst, a->src, BYTES_LEN) != a->dst)
			left = ~0ULL;
		break;
	default:
		left = ((mc_fn)k->fn)(a->dst, a->src, BYTES_LEN);
		break;
	}
	/* A copy that says it stopped short changes the digest even if the bytes arrived. */
	return cores_copy_digest(a->dst, CORES_BUF) ^ left;
}

static u64 copy_known(const struct cores_kernel *k, u64 seed)
{
	size_t len = k->arg == KIND_PAGE ? CORES_BUF : BYTES_LEN;
	u64 d = CORES_FOLD_INIT;

	for (size_t i = 0; i < CORES_WORDS; i++) {
		u64 w = cores_word(seed, i);

		/* Bytes at or past @len keep the canary (little-endian: byte b is bits 8b..). */
		for (unsigned int b = 0; b < 8; b++)
			if (i * 8 + b >= len)
				w = (w & ~(0xffULL << (8 * b))) | (u64)CANARY << (8 * b);
		d = cores_fold(d, w);
	}
	return d;
}

static const char *cannot_avx2(const struct cores_kernel *k)
{
	return cores_cannot_avx2();
}

#define COPY_KERNEL(nm, f, kind, can) \
	{ .name = nm, .family = "copy", .cannot = can, .run = copy_run, .known = copy_known, \
	  .fn = (const void *)f, .arg = kind }

const struct cores_kernel cores_copy_kernels[] = {
	COPY_KERNEL("copy_page_rep", copy_page_rep, KIND_PAGE, NULL),
	COPY_KERNEL("copy_page_unrolled", copy_page_unrolled, KIND_PAGE, NULL),
	COPY_KERNEL("memcpy_erms", memcpy_erms, KIND_BYTES, NULL),
	COPY_KERNEL("memcpy_orig", memcpy_orig, KIND_BYTES, NULL),
	COPY_KERNEL("copy_mc_fragile", copy_mc_fragile, KIND_MC, NULL),
	COPY_KERNEL("copy_mc_erms", copy_mc_fast_string, KIND_MC, NULL),
	COPY_KERNEL("copy_mc_avx2_nt", copy_mc_avx2_nt, KIND_MC, cannot_avx2),
};
const unsigned int cores_nr_copy_kernels = ARRAY_SIZE(cores_copy_kernels);
