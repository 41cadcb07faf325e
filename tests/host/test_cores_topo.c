// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cores_topo.c - where each CPU sits (cores/topo.h) on the host, for machines whose
 * CPUID answers are written out by hand from the manuals' field layouts: an Intel part with
 * leaf 0Bh, QEMU's -smp 8,sockets=2,cores=2,threads=2, leaf 1Fh with a die level, an AMD part
 * with 8000001Eh and two core complexes per package, a Penryn (leaves 1 and 4 only) and a CPU
 * without HTT; then the ring order against a brute-force check and the choice of a CPU at
 * each relation.
 */
#include "cores/topo.h"
#include "tests/host/host_test.h"

static struct cores_topo leaf_b(u32 x2apic, u8 smt_shift, u8 pkg_shift, u32 llc)
{
	struct cores_topo_raw r = { .ext = true, .x2apic = x2apic, .nr_levels = 2,
				    .level = { { CORES_TOPO_SMT, smt_shift },
					       { CORES_TOPO_CORE, pkg_shift } },
				    .llc_sharing = llc, .apic = x2apic & 0xff };
	struct cores_topo t;

	cores_topo_decode(&r, &t);
	return t;
}

static void test_intel_leaf_b(void)
{
	/* 2 threads per core, up to 8 cores per package (shift 4), the L3 shared by 16 ids. */
	struct cores_topo a = leaf_b(0x13, 1, 4, 16), b = leaf_b(0x12, 1, 4, 16);
	struct cores_topo c = leaf_b(0x10, 1, 4, 16), d = leaf_b(0x03, 1, 4, 16);

	CHECK(a.apic == 0x13 && a.core == 0x9 && a.complex == 1 && a.package == 1,
	      "x2APIC 0x13: core 9, complex 1, package 1: %u %u %u", a.core, a.complex,
	      a.package);
	CHECK(cores_topo_rel(&a, &b) == CORES_REL_SMT, "0x13 and 0x12 share a core");
	CHECK(cores_topo_rel(&a, &c) == CORES_REL_COMPLEX, "0x13 and 0x10: one complex");
	CHECK(cores_topo_rel(&a, &d) == CORES_REL_OTHER_PACKAGE, "0x13 and 0x03: two packages");
	CHECK(cores_topo_rel(&a, &a) == CORES_REL_SAME, "one CPU");
	CHECK(!strcmp(a.source, "CPUID 1Fh/0Bh"), "source: %s", a.source);
}

static void test_qemu_sockets_threads(void)
{
	/* -smp 8,sockets=2,cores=2,threads=2: SMT shift 1, package shift 2, L3 per socket. */
	struct cores_topo t[8];
	unsigned int want_core[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };

	for (u32 i = 0; i < 8; i++) {
		t[i] = leaf_b(i, 1, 2, 4);
		CHECK(t[i].core == want_core[i] && t[i].package == i / 4 &&
		      t[i].complex == i / 4, "APIC %u: core %u package %u", i, t[i].core,
		      t[i].package);
	}
	CHECK(cores_topo_rel(&t[2], &t[3]) == CORES_REL_SMT &&
	      cores_topo_rel(&t[0], &t[2]) == CORES_REL_COMPLEX &&
	      cores_topo_rel(&t[3], &t[4]) == CORES_REL_OTHER_PACKAGE, "the relations");
}

static void test_leaf_1f_die(void)
{
	/* SMT (shift 1), core (shift 3), die (type 5, shift 5): the package is the last. */
	struct cores_topo_raw r = { .ext = true, .x2apic = 0x2d, .nr_levels = 3,
				    .level = { { CORES_TOPO_SMT, 1 }, { CORES_TOPO_CORE, 3 },
					       { 5, 5 } } };
	struct cores_topo t;

	cores_topo_decode(&r, &t);
	CHECK(t.smt_shift == 1 && t.pkg_shift == 5 && t.core == 0x16 && t.package == 1 &&
	      t.complex == 1, "0x2d: core 0x16, package 1 (LLC unknown: the package): %u %u %u",
	      t.core, t.package, t.complex);
}

static void test_amd_two_complexes(void)
{
	/* 8000001Eh: 2 threads per core; 80000008h ECX[15:12] 4: 16 ids a package; L3 by 8. */
	struct cores_topo_raw r = { .apic = 0x9, .htt = true, .logical = 16, .amd_threads = 2,
				    .amd_pkg_bits = 4, .llc_sharing = 8 };
	struct cores_topo a, b, c;

	cores_topo_decode(&r, &a);
	r.apic = 0x1;
	cores_topo_decode(&r, &b);
	r.apic = 0x8;
	cores_topo_decode(&r, &c);
	CHECK(a.core == 4 && a.complex == 1 && a.package == 0, "0x9: core 4, complex 1");
	CHECK(cores_topo_rel(&a, &b) == CORES_REL_OTHER_COMPLEX, "0x9 and 0x1: two complexes");
	CHECK(cores_topo_rel(&a, &c) == CORES_REL_SMT, "0x9 and 0x8: one core");
	CHECK(!strcmp(a.source, "CPUID 8000001Eh/80000008h"), "source: %s", a.source);
}

static void test_legacy(void)
{
	/* Penryn, 2 cores a package, no SMT: leaf 1 says 2 logical, leaf 4 2 cores. */
	struct cores_topo_raw r = { .apic = 1, .htt = true, .logical = 2, .cores = 2,
				    .llc_sharing = 2 };
	struct cores_topo a, b;

	cores_topo_decode(&r, &a);
	r.apic = 0;
	cores_topo_decode(&r, &b);
	CHECK(a.smt_shift == 0 && a.pkg_shift == 1 && cores_topo_rel(&a, &b) == CORES_REL_COMPLEX,
	      "Penryn: two cores of one package");
	/* HTT with 4 logical and 2 cores: two threads a core. */
	r = (struct cores_topo_raw){ .apic = 3, .htt = true, .logical = 4, .cores = 2 };
	cores_topo_decode(&r, &a);
	CHECK(a.smt_shift == 1 && a.pkg_shift == 2 && a.core == 1, "2 threads a core");
	/* No HTT: each CPU its own package. */
	r = (struct cores_topo_raw){ .apic = 1 };
	cores_topo_decode(&r, &a);
	r.apic = 0;
	cores_topo_decode(&r, &b);
	CHECK(cores_topo_rel(&a, &b) == CORES_REL_OTHER_PACKAGE, "no HTT: two packages");
	/* An LLC that claims more than the package, or less than a core: clipped. */
	a = leaf_b(5, 1, 2, 64);
	b = leaf_b(5, 1, 2, 1);
	CHECK(a.llc_shift == 2 && b.llc_shift == 1, "LLC shifts clipped: %u %u", a.llc_shift,
	      b.llc_shift);
}

static void test_order_and_pick(void)
{
	struct cores_topo t[16];
	unsigned int idx[16], pick[CORES_NR_REL], bad = 0;
	u64 x = 0x2545f4914f6cdd1dULL;

	for (u32 i = 0; i < 16; i++)
		t[i] = leaf_b(i ^ 0x5, 1, 3, 4);	/* APIC ids shuffled; 2-core complexes */
	for (unsigned int round = 0; round < 200; round++) {
		for (unsigned int i = 0; i < 16; i++)
			idx[i] = i;
		for (unsigned int i = 15; i > 0; i--) {
			unsigned int j, v;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			j = (unsigned int)(x % (i + 1));
			v = idx[i], idx[i] = idx[j], idx[j] = v;
		}
		cores_topo_order(t, idx, 16);
		for (unsigned int i = 1; i < 16; i++) {
			const struct cores_topo *a = &t[idx[i - 1]], *b = &t[idx[i]];

			/* in APIC order is the same as (package, complex, core, APIC) here */
			bad += a->apic >= b->apic;
		}
	}
	CHECK(bad == 0, "%u neighbours out of order", bad);
	/* The ring in that order: 8 SMT pairs, 4 in one complex, 2 across complexes, 2 across
	 * packages (the wrap from the last to the first included). */
	unsigned int count[CORES_NR_REL] = { 0 };

	for (unsigned int i = 0; i < 16; i++)
		count[cores_topo_rel(&t[idx[(i + 15) % 16]], &t[idx[i]])]++;
	CHECK(count[CORES_REL_SMT] == 8 && count[CORES_REL_COMPLEX] == 4 &&
	      count[CORES_REL_OTHER_COMPLEX] == 2 && count[CORES_REL_OTHER_PACKAGE] == 2,
	      "ring pairs: %u %u %u %u", count[1], count[2], count[3], count[4]);

	unsigned int cand[16];

	for (unsigned int i = 0; i < 16; i++)
		cand[i] = i;
	cores_topo_pick(t, 5, cand, 16, pick);		/* CPU 5 is APIC 0 */
	CHECK(pick[CORES_REL_SAME] == 5 && pick[CORES_REL_SMT] == 4 &&
	      pick[CORES_REL_COMPLEX] == 7 && pick[CORES_REL_OTHER_COMPLEX] == 3 &&
	      pick[CORES_REL_OTHER_PACKAGE] == 15,
	      "CPU 5's picks (the last at each): %u %u %u %u %u", pick[0], pick[1], pick[2],
	      pick[3], pick[4]);
	cores_topo_pick(t, 5, cand, 3, pick);
	CHECK(pick[CORES_REL_SMT] == ~0U && pick[CORES_REL_OTHER_PACKAGE] == ~0U &&
	      pick[CORES_REL_OTHER_COMPLEX] == 2, "none at a relation: ~0");
	CHECK(!strcmp(cores_rel_name(CORES_REL_OTHER_COMPLEX), "other_complex") &&
	      !strcmp(cores_rel_name(9), "?"), "the words");
}

int main(void)
{
	return RUN_TESTS(test_intel_leaf_b, test_qemu_sockets_threads, test_leaf_1f_die,
			 test_amd_two_complexes, test_legacy, test_order_and_pick);
}
