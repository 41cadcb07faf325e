/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * segment.h - the x86 segment and gate descriptor format (SDM vol. 3, "Segment Descriptors",
 * "64-Bit Mode IDT"), so the GDTs of C (kernel/arch/gdt.c) and of the AP trampoline (NASM,
 * through asm-consts.c) are built from one description. The kernel's selectors are in
 * kernel/arch/desc.h.
 */
#ifndef CK_SEGMENT_H
#define CK_SEGMENT_H

/* Access byte: present, privilege, code/data (S) and the 4-bit type. */
#define DESC_P			0x80
#define DESC_S			0x10	/* code or data; clear: system (TSS, gates) */
#define DESC_TYPE_DATA_RW	0x2
#define DESC_TYPE_CODE_XR	0xa	/* execute/read */
#define DESC_TYPE_TSS64		0x9	/* available 64-bit TSS */
#define DESC_TYPE_INTR64	0xe	/* 64-bit interrupt gate */

/* Flags nibble (descriptor bits 55:52). */
#define DESC_FLAG_G		0x8	/* limit in 4 KiB units */
#define DESC_FLAG_DB		0x4	/* 32-bit default operand size */
#define DESC_FLAG_L		0x2	/* 64-bit code */

#define DESC_LIMIT_MAX		0xfffffULL

/* The low eight bytes of a descriptor from its fields. */
#define SEG_DESC(base, limit, access, flags)					\
	(((limit) & 0xffffULL) | (((base) & 0xffffffULL) << 16) |		\
	 ((unsigned long long)(access) << 40) | ((((limit) >> 16) & 0xfULL) << 48) |	\
	 ((unsigned long long)(flags) << 52) | ((((base) >> 24) & 0xffULL) << 56))

/* Flat segments: base 0, 4 GiB limit; code and data at ring 0. */
#define DESC_CODE64	SEG_DESC(0, DESC_LIMIT_MAX, DESC_P | DESC_S | DESC_TYPE_CODE_XR, \
				 DESC_FLAG_G | DESC_FLAG_L)
#define DESC_CODE32	SEG_DESC(0, DESC_LIMIT_MAX, DESC_P | DESC_S | DESC_TYPE_CODE_XR, \
				 DESC_FLAG_G | DESC_FLAG_DB)
#define DESC_DATA	SEG_DESC(0, DESC_LIMIT_MAX, DESC_P | DESC_S | DESC_TYPE_DATA_RW, \
				 DESC_FLAG_G | DESC_FLAG_DB)

#endif
