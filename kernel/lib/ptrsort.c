// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptrsort.c - insertion sort of pointers (see ptrsort.h).
 */
#include "kernel/lib/ptrsort.h"

void ptr_sort(const void **v, unsigned int n, bool (*before)(const void *a, const void *b))
{
	for (unsigned int i = 1; i < n; i++) {
		const void *x = v[i];
		unsigned int j = i;

		for (; j > 0 && before(x, v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}
