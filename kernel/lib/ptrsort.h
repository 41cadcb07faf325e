/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ptrsort.h - sort a short array of pointers in place (an insertion sort, stable): the
 * registration sections of suites and crash kinds, sorted once at first use.
 */
#ifndef CK_PTRSORT_H
#define CK_PTRSORT_H

#include "kernel/include/types.h"

/* Sort @v[0..@n) so that no element stands after one @before puts ahead of it. */
void ptr_sort(const void **v, unsigned int n, bool (*before)(const void *a, const void *b));

#endif
