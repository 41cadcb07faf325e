// SPDX-License-Identifier: GPL-2.0-only
/*
 * k_clear.c - the clear kernels: the destination is filled with the seeded words, then
 * cleared by the primitive copy/ offers for clear_page() (called once per 4 KiB page) or
 * clear_pages() (both pages in one call); the digest folds every word of the destination as
 * it was left (cores_clear_digest, a symbol an outside debugger can stop at). The known
 * answer folds zeros, CORES_WORDS of them, computed without any buffer: a word the clear
 * missed keeps its seeded value and moves the digest.
 */
#include "copy/routines.h"
#include "cores/k_clear.h"

enum clear_kind { KIND_PAGE, KIND_PAGES };

typedef void (*page_fn)(void *addr);
typedef void (*pages_fn)(void *addr, size_t npages);

u64 __attribute__((noipa)) cores_clear_digest(const u8 *dst, size_t len)
{
	const u64 *w = (const u64 *)dst;
	u64 d = CORES_FOLD_INIT;

	for (size_t i = 0; i < len / 8; i++)
		d = cores_fold(d, w[i]);
	return d;
}

static u64 clear_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	volatile u64 *dst = (volatile u64 *)a->dst;

	for (size_t i = 0; i < CORES_WORDS; i++)
		dst[i] = cores_word(seed, i);
	if (k->arg == KIND_PAGES) {
		((pages_fn)k->fn)(a->dst, CORES_BUF / 4096);
	} else {
		for (size_t off = 0; off < CORES_BUF; off += 4096)
			((page_fn)k->fn)(a->dst + off);
	}
	return cores_clear_digest(a->dst, CORES_BUF);
}

static u64 clear_known(const struct cores_kernel *k, u64 seed)
{
	u64 d = CORES_FOLD_INIT;

	for (size_t i = 0; i < CORES_WORDS; i++)
		d = cores_fold(d, 0);
	return d;
}

#define CLEAR_KERNEL(nm, f, kind) \
	{ .name = nm, .family = "clear", .run = clear_run, .known = clear_known, \
	  .fn = (const void *)f, .arg = kind }

const struct cores_kernel cores_clear_kernels[] = {
	CLEAR_KERNEL("clear_page_erms", clear_page_erms, KIND_PAGE),
	CLEAR_KERNEL("clear_page_rep", clear_page_rep, KIND_PAGE),
	CLEAR_KERNEL("clear_page_unrolled", clear_page_unrolled, KIND_PAGE),
	CLEAR_KERNEL("clear_pages_erms", clear_pages_erms, KIND_PAGES),
};
const unsigned int cores_nr_clear_kernels = ARRAY_SIZE(cores_clear_kernels);
