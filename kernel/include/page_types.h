/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * page_types.h - the base page: its size and shift, shared by C and (through
 * kernel/include/asm-consts.c) by the NASM routines.
 */
#ifndef CK_PAGE_TYPES_H
#define CK_PAGE_TYPES_H

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#endif
