/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * routines.h - the assembly primitives of the copy/ .asm files. Contracts (registers, faults,
 * fixups) are in the comments above each routine there.
 */
#ifndef CK_COPY_ROUTINES_H
#define CK_COPY_ROUTINES_H

#include "kernel/include/types.h"

void copy_page_rep(void *dst, const void *src);
void copy_page_unrolled(void *dst, const void *src);

void *memcpy_erms(void *dst, const void *src, size_t len);
void *memcpy_orig(void *dst, const void *src, size_t len);

/* Return the number of bytes not copied. */
size_t copy_mc_fragile(void *dst, const void *src, size_t len);
size_t copy_mc_fast_string(void *dst, const void *src, size_t len);

void clear_page_erms(void *addr);
void clear_page_rep(void *addr);
void clear_page_unrolled(void *addr);
void clear_pages_erms(void *addr, size_t npages);
void clear_pages_rep(void *addr, size_t npages);
void clear_pages_unrolled(void *addr, size_t npages);
void clear_bytes(void *addr, size_t len);

/* Candidates beyond Linux (copy/nt.asm): need AVX2, AVX-512F or CLZERO as named. */
size_t copy_mc_avx2_nt(void *dst, const void *src, size_t len);
size_t copy_mc_avx512_nt(void *dst, const void *src, size_t len);
void clear_page_nt(void *addr);
void clear_pages_nt(void *addr, size_t npages);
void clear_page_clzero(void *addr);
void clear_pages_clzero(void *addr, size_t npages);

/*
 * Candidates for a copy_pages() Linux does not have (copy/copy_pages.asm): page copies over
 * one extent, memcpy with a page-aligned fast path, and machine-check-safe page copies
 * (bytes not copied, 64-bit).
 */
void copy_pages_erms(void *dst, const void *src, size_t npages);
void copy_pages_rep(void *dst, const void *src, size_t npages);
void copy_pages_unrolled(void *dst, const void *src, size_t npages);
void *memcpy_pa_rep(void *dst, const void *src, size_t len);
void *memcpy_pa_unrolled(void *dst, const void *src, size_t len);
size_t copy_mc_pages_erms(void *dst, const void *src, size_t npages);
size_t copy_mc_pages_rep(void *dst, const void *src, size_t npages);
size_t copy_mc_pages_unrolled(void *dst, const void *src, size_t npages);

#endif
