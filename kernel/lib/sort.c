// SPDX-License-Identifier: GPL-2.0-only
/*
 * sort.c - sort_u64 (sort.h).
 */
#include "kernel/lib/sort.h"

void sort_u64(u64 *v, unsigned int n)
{
	/* Ciura's gaps, extended by about 2.25 each step past 701. */
	static const unsigned int gaps[] = { 1750, 701, 301, 132, 57, 23, 10, 4, 1 };

	for (unsigned int g = 0; g < ARRAY_SIZE(gaps); g++) {
		unsigned int gap = gaps[g];

		for (unsigned int i = gap; i < n; i++) {
			u64 t = v[i];
			unsigned int j = i;

			for (; j >= gap && v[j - gap] > t; j -= gap)
				v[j] = v[j - gap];
			v[j] = t;
		}
	}
}
