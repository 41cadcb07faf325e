/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cache.h - the cache line every routine here assumes (64 bytes on every x86-64 CPU Linux
 * supports), shared by C and NASM through kernel/include/asm-consts.c.
 */
#ifndef CK_CACHE_H
#define CK_CACHE_H

#define CACHE_LINE_SHIFT	6
#define CACHE_LINE_SIZE		(1UL << CACHE_LINE_SHIFT)

#endif
