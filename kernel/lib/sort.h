/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sort.h - sort an array of 64-bit unsigned values in place, ascending: a Shell sort with
 * Ciura's gaps (extended), no recursion and no allocation. The statistics of bench/ and the
 * cores suite's vote sort with it. Plain C, host-tested in tests/host/test_sort.c.
 */
#ifndef CK_SORT_H
#define CK_SORT_H

#include "kernel/include/types.h"

void sort_u64(u64 *v, unsigned int n);

#endif
