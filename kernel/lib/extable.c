// SPDX-License-Identifier: GPL-2.0-only
/*
 * extable.c - sort, validate and search the exception fixup table. Plain C: the host unit
 * test (tests/host/test_extable.c) runs it on synthetic tables.
 *
 * Moving a self-relative entry changes the meaning of its offsets, so the sort swaps entries
 * through absolute addresses and writes them back relative to their new place.
 */
#include "kernel/include/extable.h"

static void ex_swap(struct exception_table_entry *a, struct exception_table_entry *b)
{
	uintptr_t ai = ex_insn_addr(a), af = ex_fixup_addr(a);
	uintptr_t bi = ex_insn_addr(b), bf = ex_fixup_addr(b);
	s32 data = a->data;

	a->insn = (s32)(bi - (uintptr_t)&a->insn);
	a->fixup = (s32)(bf - (uintptr_t)&a->fixup);
	a->data = b->data;
	b->insn = (s32)(ai - (uintptr_t)&b->insn);
	b->fixup = (s32)(af - (uintptr_t)&b->fixup);
	b->data = data;
}

static void sift_down(struct exception_table_entry *t, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n && ex_insn_addr(&t[child + 1]) > ex_insn_addr(&t[child]))
			child++;
		if (ex_insn_addr(&t[root]) >= ex_insn_addr(&t[child]))
			return;
		ex_swap(&t[root], &t[child]);
		root = child;
	}
}

/* Heap sort: O(n log n) whatever the input order, no recursion, no extra memory. */
void ex_sort(struct exception_table_entry *start, struct exception_table_entry *end)
{
	size_t n = (size_t)(end - start), i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		sift_down(start, i, n);
	for (i = n - 1; i > 0; i--) {
		ex_swap(&start[0], &start[i]);
		sift_down(start, 0, i);
	}
}

const struct exception_table_entry *ex_search(const struct exception_table_entry *start,
					      const struct exception_table_entry *end,
					      uintptr_t addr)
{
	size_t lo = 0, hi = (size_t)(end - start);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uintptr_t a = ex_insn_addr(&start[mid]);

		if (a == addr)
			return &start[mid];
		if (a < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

long ex_validate(const struct exception_table_entry *start,
		 const struct exception_table_entry *end)
{
	size_t n = (size_t)(end - start);

	for (size_t i = 0; i < n; i++) {
		unsigned int type = ex_type(&start[i]);

		if (type == EX_TYPE_NONE || type > EX_TYPE_MAX)
			return (long)i;
		if (i && ex_insn_addr(&start[i - 1]) >= ex_insn_addr(&start[i]))
			return (long)i;
	}
	return -1;
}
