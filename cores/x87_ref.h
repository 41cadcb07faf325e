/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x87_ref.h - the x87 kernel's stored known answers (cores/x87_ref.c, written by
 * tools/cores-x87-ref.py from mpmath, never by this code).
 */
#ifndef CK_CORES_X87_REF_H
#define CK_CORES_X87_REF_H

#include "kernel/include/types.h"

#define CORES_X87_INPUTS	12
#define CORES_X87_FUNCS		5	/* f2xm1, fsin, fcos, fptan, fyl2x */

struct cores_x87_ref {
	u32 num;			/* x = num / 1024 */
	u64 d[CORES_X87_FUNCS];		/* the nearest doubles to the true values, as bits */
};

extern const struct cores_x87_ref cores_x87_ref[CORES_X87_INPUTS];

#endif
