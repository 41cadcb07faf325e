// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops.c - bind the API entry points to the routines dispatch chose, and split
 * copy_mc_to_kernel() so that no length truncates.
 */
#include "copy/ops.h"
#include "copy/routines.h"

/* copy_mc_to_kernel() on a CPU with neither ERMS nor fragile: plain memcpy, no recovery. */
static size_t copy_mc_memcpy(void *dst, const void *src, size_t len)
{
	copy_ops.memcpy(dst, src, len);
	return 0;
}

/* clear_pages() without a string instruction: one page at a time. */
static void clear_pages_unrolled(void *addr, size_t npages)
{
	for (size_t i = 0; i < npages; i++)
		clear_page_unrolled((u8 *)addr + (i << 12));
}

struct copy_ops copy_ops = {
	.copy_page = copy_page_rep,
	.memcpy = memcpy_erms,
	.copy_mc = copy_mc_fast_string,
	.clear_page = clear_page_erms,
	.clear_pages = clear_pages_erms,
};

void copy_ops_apply(const struct copy_dispatch *d)
{
	copy_ops.choice = *d;
	copy_ops.copy_page = d->copy_page == COPY_PAGE_REP ? copy_page_rep : copy_page_unrolled;
	copy_ops.memcpy = d->memcpy == MEMCPY_ERMS ? memcpy_erms : memcpy_orig;
	switch (d->copy_mc) {
	case COPY_MC_FRAGILE:
		copy_ops.copy_mc = copy_mc_fragile;
		break;
	case COPY_MC_ERMS:
		copy_ops.copy_mc = copy_mc_fast_string;
		break;
	case COPY_MC_AVX2_NT:
		copy_ops.copy_mc = copy_mc_avx2_nt;
		break;
	case COPY_MC_AVX512_NT:
		copy_ops.copy_mc = copy_mc_avx512_nt;
		break;
	default:
		copy_ops.copy_mc = copy_mc_memcpy;
		break;
	}
	switch (d->clear_page) {
	case CLEAR_PAGE_ERMS:
		copy_ops.clear_page = clear_page_erms;
		copy_ops.clear_pages = clear_pages_erms;
		break;
	case CLEAR_PAGE_REP:
		copy_ops.clear_page = clear_page_rep;
		copy_ops.clear_pages = clear_pages_rep;
		break;
	case CLEAR_PAGE_NT:
		copy_ops.clear_page = clear_page_nt;
		copy_ops.clear_pages = clear_pages_nt;
		break;
	case CLEAR_PAGE_CLZERO:
		copy_ops.clear_page = clear_page_clzero;
		copy_ops.clear_pages = clear_pages_clzero;
		break;
	default:
		copy_ops.clear_page = clear_page_unrolled;
		copy_ops.clear_pages = clear_pages_unrolled;
		break;
	}
}

size_t copy_mc_chunked(size_t (*fn)(void *, const void *, size_t), void *dst, const void *src,
		       size_t len, size_t chunk)
{
	size_t done = 0;

	while (done < len) {
		size_t n = len - done < chunk ? len - done : chunk;
		size_t left = fn((u8 *)dst + done, (const u8 *)src + done, n);

		if (left)
			return len - done - n + left;
		done += n;
	}
	return 0;
}

size_t copy_mc_to_kernel(void *dst, const void *src, size_t len)
{
	return copy_mc_chunked(copy_ops.copy_mc, dst, src, len, COPY_MC_CHUNK);
}
