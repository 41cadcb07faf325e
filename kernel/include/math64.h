/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * math64.h - a * b / c without overflow, for converting between clocks. The image has no
 * libgcc, so 128-bit division must not appear in C: this uses the CPU's 128/64 divide.
 */
#ifndef CK_MATH64_H
#define CK_MATH64_H

#include "kernel/include/types.h"

/* (a * b) / c, rounded down; UINT64_MAX when the result does not fit or c is 0. */
static inline u64 mul_div_u64(u64 a, u64 b, u64 c)
{
	u64 lo, hi, q, r;

	if (!c)
		return UINT64_MAX;
	__asm__("mulq %3" : "=a"(lo), "=d"(hi) : "a"(a), "rm"(b));
	if (hi >= c)
		return UINT64_MAX;
	__asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(c));
	(void)r;
	return q;
}

#endif
