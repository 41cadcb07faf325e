/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * list.h - every cores kernel, family by family (copy, integer, vector, x87), in one order.
 */
#ifndef CK_CORES_LIST_H
#define CK_CORES_LIST_H

#include "cores/kernel.h"

unsigned int cores_nr_kernels(void);
/* Kernel @i (< cores_nr_kernels()), or NULL. */
const struct cores_kernel *cores_kernel(unsigned int i);
/* The kernel called @name (@len bytes), or NULL. */
const struct cores_kernel *cores_kernel_named(const char *name, size_t len);

#endif
