/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ops.h - the primitives in use, as chosen by dispatch (or overridden), and the kernel-level
 * entry points built on them: copy_page, memcpy, copy_mc_to_kernel, clear_page, clear_pages,
 * and the copy_pages() candidates (not Linux: see copy/dispatch.h).
 */
#ifndef CK_COPY_OPS_H
#define CK_COPY_OPS_H

#include "copy/dispatch.h"

struct copy_ops {
	void (*copy_page)(void *dst, const void *src);
	void *(*memcpy)(void *dst, const void *src, size_t len);
	size_t (*copy_mc)(void *dst, const void *src, size_t len);
	void (*clear_page)(void *addr);
	void (*clear_pages)(void *addr, size_t npages);
	/* Candidates: one extent of @npages pages; copy_mc_pages returns bytes not copied. */
	void (*copy_pages)(void *dst, const void *src, size_t npages);
	void (*copy_pages_fsrm)(void *dst, const void *src, size_t npages);
	void *(*memcpy_pa)(void *dst, const void *src, size_t len);
	size_t (*copy_mc_pages)(void *dst, const void *src, size_t npages);
	struct copy_dispatch choice;
};

extern struct copy_ops copy_ops;

/* Point copy_ops at the routines @d names. */
void copy_ops_apply(const struct copy_dispatch *d);

/*
 * Linux's copy_mc_to_kernel() takes an unsigned int length, so a range of 4 GiB or more
 * would truncate. Here every call is split into pieces of at most COPY_MC_CHUNK bytes; the
 * return value is the count not copied over the whole range.
 */
#define COPY_MC_CHUNK	(1ULL << 31)
size_t copy_mc_to_kernel(void *dst, const void *src, size_t len);
size_t copy_mc_chunked(size_t (*fn)(void *, const void *, size_t), void *dst, const void *src,
		       size_t len, size_t chunk);

static inline void copy_page(void *dst, const void *src)
{
	copy_ops.copy_page(dst, src);
}

static inline void clear_page(void *addr)
{
	copy_ops.clear_page(addr);
}

static inline void clear_pages(void *addr, size_t npages)
{
	copy_ops.clear_pages(addr, npages);
}

#endif
