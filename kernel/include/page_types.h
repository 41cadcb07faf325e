/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * page_types.h - the base page (size, shift, mask) and the kernel's stack sizes, shared by C
 * and (through kernel/include/asm-consts.c) by the NASM code, as Linux's page_64_types.h.
 */
#ifndef CK_PAGE_TYPES_H
#define CK_PAGE_TYPES_H

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

/* The bits a physical address may have on a CPU of MAXPHYADDR @bits: (1 << @bits) - 1. */
#define PHYS_ADDR_MASK(bits)	((bits) >= 64 ? ~0ULL : (1ULL << (bits)) - 1)

/* A CPU's kernel stack (the boot CPU's in head.asm, each AP's), and each IST stack. */
#define KERNEL_STACK_SIZE	(64 * 1024)
#define IST_STACK_SIZE		(16 * 1024)

/* The first MiB: real-mode leftovers and the AP trampoline; no allocator hands it out. */
#define LOW_MEMORY_END		0x100000ULL

#endif
