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

struct copy_ops copy_ops = {
	.copy_page = copy_page_rep,
	.memcpy = memcpy_erms,
	.copy_mc = copy_mc_fast_string,
	.clear_page = clear_page_erms,
	.clear_pages = clear_pages_erms,
	.copy_pages = copy_pages_erms,
	.copy_pages_fsrm = copy_pages_erms,
	.memcpy_pa = memcpy_erms,
	.copy_mc_pages = copy_mc_pages_erms,
};

static void (*const copy_pages_fns[NR_COPY_PAGES_IMPL])(void *, const void *, size_t) = {
	copy_pages_erms, copy_pages_rep, copy_pages_unrolled,
};
static size_t (*const copy_mc_pages_fns[NR_COPY_PAGES_IMPL])(void *, const void *, size_t) = {
	copy_mc_pages_erms, copy_mc_pages_rep, copy_mc_pages_unrolled,
};
static void *(*const memcpy_pa_fns[NR_MEMCPY_PA_IMPL])(void *, const void *, size_t) = {
	memcpy_erms, memcpy_pa_rep, memcpy_pa_unrolled,
};
static void (*const clear_pages_fns[NR_CLEAR_PAGE_IMPL])(void *, size_t) = {
	clear_pages_erms, clear_pages_rep, clear_pages_unrolled, clear_pages_nt,
	clear_pages_clzero,
};

/* The copy_pages() candidates and clear_pages(), each by its own decision. */
static void apply_pages(const struct copy_dispatch *d)
{
	copy_ops.clear_pages = clear_pages_fns[d->clear_pages];
	copy_ops.copy_pages = copy_pages_fns[d->copy_pages];
	copy_ops.copy_pages_fsrm = copy_pages_fns[d->copy_pages_fsrm];
	copy_ops.memcpy_pa = memcpy_pa_fns[d->memcpy_pa];
	copy_ops.copy_mc_pages = copy_mc_pages_fns[d->copy_mc_pages];
}

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
		break;
	case CLEAR_PAGE_REP:
		copy_ops.clear_page = clear_page_rep;
		break;
	case CLEAR_PAGE_NT:
		copy_ops.clear_page = clear_page_nt;
		break;
	case CLEAR_PAGE_CLZERO:
		copy_ops.clear_page = clear_page_clzero;
		break;
	default:
		copy_ops.clear_page = clear_page_unrolled;
		break;
	}
	apply_pages(d);
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
