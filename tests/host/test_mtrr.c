// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mtrr.c - the MTRR type of address ranges, with states written from the SDM's rules:
 * fixed ranges below 1 MiB, variable ranges by base and mask, the default type, the overlap
 * rules (UC wins, WT beats WB, anything else undefined), and which ranges are uniform enough
 * for one large page.
 */
#include "kernel/arch/mtrr.h"
#include "tests/host/host_test.h"

#define GIB	(1ULL << 30)
#define MIB	(1ULL << 20)

static struct mtrr_state base_state(void)
{
	struct mtrr_state s;

	memset(&s, 0, sizeof(s));
	s.present = s.enabled = s.fixed_enabled = true;
	s.def_type = MTRR_WB;
	s.phys_mask = (1ULL << 40) - 1;
	memset(s.fixed, MTRR_WB, sizeof(s.fixed));
	for (int i = 16; i < 24; i++)		/* 0xa0000..0xbffff: legacy VGA, UC */
		s.fixed[i] = MTRR_UC;
	s.nr_var = 8;
	return s;
}

static void add_var(struct mtrr_state *s, unsigned int i, u64 base, u64 size, u8 type)
{
	s->var[i].valid = true;
	s->var[i].base = base;
	s->var[i].mask = ~(size - 1) & s->phys_mask & ~0xfffULL;
	s->var[i].type = type;
}

static void test_fixed_and_default(void)
{
	struct mtrr_state s = base_state();

	CHECK(mtrr_range_type(&s, 0, 0x1000) == MTRR_WB, "first page WB");
	CHECK(mtrr_range_type(&s, 0xa0000, 0xb0000) == MTRR_UC, "VGA window UC");
	CHECK(mtrr_range_type(&s, 0, 2 * MIB) == MTRR_MIXED, "first 2 MiB: WB and UC");
	CHECK(mtrr_range_type(&s, 2 * MIB, 4 * MIB) == MTRR_WB, "2..4 MiB: the default");
	CHECK(mtrr_range_type(&s, 0x9f000, 0xa0000) == MTRR_WB, "the page below the window");
	s.fixed_enabled = false;
	CHECK(mtrr_range_type(&s, 0, 2 * MIB) == MTRR_WB, "fixed ranges off: default all through");
	s.enabled = false;
	CHECK(mtrr_range_type(&s, 0, 2 * MIB) == MTRR_NONE, "MTRRs disabled");
	s.present = false;
	CHECK(mtrr_range_type(&s, 0, 2 * MIB) == MTRR_NONE, "no MTRRs");
}

static void test_variable_ranges(void)
{
	struct mtrr_state s = base_state();

	add_var(&s, 0, 2 * GIB, 2 * GIB, MTRR_UC);	/* the PCI hole below 4 GiB */
	CHECK(mtrr_range_type(&s, 1 * GIB, 2 * GIB) == MTRR_WB, "1..2 GiB WB");
	CHECK(mtrr_range_type(&s, 2 * GIB, 3 * GIB) == MTRR_UC, "2..3 GiB UC");
	CHECK(mtrr_range_type(&s, 1 * GIB, 3 * GIB) == MTRR_MIXED, "1..3 GiB crosses");
	CHECK(mtrr_range_type(&s, 2 * GIB - 2 * MIB, 2 * GIB) == MTRR_WB, "the 2 MiB below");
	CHECK(mtrr_range_type(&s, 4 * GIB, 5 * GIB) == MTRR_WB, "above 4 GiB: the default");
	CHECK(mtrr_range_type(&s, 3 * GIB, 5 * GIB) == MTRR_MIXED, "across the end of it");

	add_var(&s, 1, 3 * GIB, 256 * MIB, MTRR_WB);	/* overlaps the UC range: UC wins */
	CHECK(mtrr_range_type(&s, 3 * GIB, 3 * GIB + 4096) == MTRR_UC, "UC and WB: UC");
	add_var(&s, 2, 5 * GIB, GIB, MTRR_WT);
	add_var(&s, 3, 5 * GIB, 512 * MIB, MTRR_WB);
	CHECK(mtrr_range_type(&s, 5 * GIB, 5 * GIB + 4096) == MTRR_WT, "WT and WB: WT");
	CHECK(mtrr_range_type(&s, 5 * GIB + 512 * MIB, 6 * GIB) == MTRR_WT, "WT alone");
	add_var(&s, 4, 7 * GIB, GIB, MTRR_WC);
	add_var(&s, 5, 7 * GIB, GIB, MTRR_WB);
	CHECK(mtrr_range_type(&s, 7 * GIB, 7 * GIB + 4096) == MTRR_MIXED,
	      "WC and WB: undefined, never one type");
}

static void test_scattered_mask(void)
{
	struct mtrr_state s = base_state();

	/* A mask with a hole: every other 1 GiB from 8 GiB on is UC (legal, rarely used). */
	s.var[0].valid = true;
	s.var[0].type = MTRR_UC;
	s.var[0].base = 8 * GIB;
	s.var[0].mask = (s.phys_mask & ~0xfffULL) & ~(GIB - 1) & ~(2 * GIB);
	CHECK(mtrr_range_type(&s, 8 * GIB, 8 * GIB + 4096) == MTRR_UC, "in the region");
	CHECK(mtrr_range_type(&s, 1 * GIB, 2 * GIB) == MTRR_MIXED,
	      "a scattered region of another type is never called uniform");
}

int main(void)
{
	return RUN_TESTS(test_fixed_and_default, test_variable_ranges, test_scattered_mask);
}
