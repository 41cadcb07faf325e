// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_extable.c - sort, validate and binary-search the self-relative exception table on
 * synthetic tables: every entry must be found with its own fixup and type after sorting,
 * addresses without an entry must not be found, and bad tables must be rejected.
 */
#include <stdint.h>

#include "kernel/include/extable.h"
#include "tests/host/host_test.h"

#define N 1000

static char code[64 * 1024];	/* stands in for .text: entries point into it */
static struct exception_table_entry table[N];

static void set_entry(struct exception_table_entry *e, uintptr_t insn, uintptr_t fixup,
		      s32 data)
{
	e->insn = (s32)(insn - (uintptr_t)&e->insn);
	e->fixup = (s32)(fixup - (uintptr_t)&e->fixup);
	e->data = data;
}

static uint32_t rng = 12345;
static uint32_t next(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* Fill the table with distinct instruction addresses in random order. */
static void fill(size_t n, uintptr_t *insn, uintptr_t *fix, s32 *data)
{
	static unsigned char used[sizeof(code)];

	memset(used, 0, sizeof(used));
	for (size_t i = 0; i < n; i++) {
		size_t off;

		do
			off = next() % (sizeof(code) / 2);
		while (used[off * 2]);
		used[off * 2] = 1;
		insn[i] = (uintptr_t)&code[off * 2];
		fix[i] = (uintptr_t)&code[next() % sizeof(code)];
		data[i] = (s32)(1 + next() % EX_TYPE_MAX) | EX_DATA_REG(next() % 16);
		set_entry(&table[i], insn[i], fix[i], data[i]);
	}
}

static void test_sort_and_search(void)
{
	static uintptr_t insn[N], fix[N];
	static s32 data[N];
	size_t sizes[] = { 0, 1, 2, 3, 7, 64, N };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s], bad = 0;

		fill(n, insn, fix, data);
		ex_sort(table, table + n);
		CHECK(ex_validate(table, table + n) == -1, "n=%zu: sorted table validates", n);
		for (size_t i = 0; i < n; i++) {
			const struct exception_table_entry *e;

			e = ex_search(table, table + n, insn[i]);

			if (!e || ex_fixup_addr(e) != fix[i] || e->data != data[i])
				bad++;
		}
		CHECK(bad == 0, "n=%zu: %zu entries lost or corrupted by the sort", n, bad);
		/* Odd addresses never hold an entry in this table. */
		for (size_t i = 0; i < n; i++)
			if (ex_search(table, table + n, insn[i] + 1))
				bad++;
		CHECK(bad == 0, "n=%zu: %zu false hits", n, bad);
	}
}

static void test_validate_rejects(void)
{
	set_entry(&table[0], (uintptr_t)&code[10], (uintptr_t)&code[20], EX_TYPE_DEFAULT);
	set_entry(&table[1], (uintptr_t)&code[10], (uintptr_t)&code[30], EX_TYPE_DEFAULT);
	CHECK(ex_validate(table, table + 2) == 1, "duplicate instruction rejected");
	set_entry(&table[1], (uintptr_t)&code[5], (uintptr_t)&code[30], EX_TYPE_DEFAULT);
	CHECK(ex_validate(table, table + 2) == 1, "descending order rejected");
	set_entry(&table[1], (uintptr_t)&code[50], (uintptr_t)&code[30], 0);
	CHECK(ex_validate(table, table + 2) == 1, "type NONE rejected");
	set_entry(&table[1], (uintptr_t)&code[50], (uintptr_t)&code[30], EX_TYPE_MAX + 1);
	CHECK(ex_validate(table, table + 2) == 1, "unknown type rejected");
	set_entry(&table[1], (uintptr_t)&code[50], (uintptr_t)&code[30], EX_TYPE_FAULT_MCE_SAFE);
	CHECK(ex_validate(table, table + 2) == -1, "good pair accepted");
}

static void test_type_helpers(void)
{
	CHECK(!ex_type_mce_safe(EX_TYPE_DEFAULT) && !ex_type_mce_safe(EX_TYPE_FAULT),
	      "plain types are not MCE-safe");
	CHECK(ex_type_mce_safe(EX_TYPE_DEFAULT_MCE_SAFE) &&
	      ex_type_mce_safe(EX_TYPE_FAULT_MCE_SAFE),
	      "MCE-safe twins");
	CHECK(ex_type_sets_trapnr(EX_TYPE_FAULT) && ex_type_sets_trapnr(EX_TYPE_FAULT_MCE_SAFE) &&
	      !ex_type_sets_trapnr(EX_TYPE_DEFAULT), "FAULT types report the trap number");
	set_entry(&table[0], (uintptr_t)&code[1], (uintptr_t)&code[2],
		  EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI));
	CHECK(ex_type(&table[0]) == EX_TYPE_FAULT && ex_reg(&table[0]) == EX_REG_RSI,
	      "type %u reg %u", ex_type(&table[0]), ex_reg(&table[0]));
}

int main(void)
{
	return RUN_TESTS(test_sort_and_search, test_validate_rejects, test_type_helpers);
}
