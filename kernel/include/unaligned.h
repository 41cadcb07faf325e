/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unaligned.h - read little-endian fields at any alignment from firmware tables.
 */
#ifndef CK_UNALIGNED_H
#define CK_UNALIGNED_H

#include "kernel/include/types.h"

static inline u32 get_le32(const u8 *p)
{
	u32 v;

	__builtin_memcpy(&v, p, 4);
	return v;
}

static inline u64 get_le64(const u8 *p)
{
	u64 v;

	__builtin_memcpy(&v, p, 8);
	return v;
}

#endif
