// SPDX-License-Identifier: GPL-2.0-only
/*
 * topo.c - each CPU's thread, core, complex and package from its CPUID (cores/topo.h), how
 * two CPUs sit, the ring order and the nearest CPU at each relation.
 */
#include "cores/topo.h"

/* The bits that hold @n ids: ceil(log2(n)). */
static u8 bits_for(u32 n)
{
	u8 b = 0;

	while (b < 32 && (1ULL << b) < n)
		b++;
	return b;
}

static void from_levels(const struct cores_topo_raw *r, struct cores_topo *t)
{
	t->apic = r->x2apic;
	t->smt_shift = 0;
	t->pkg_shift = 0;
	for (unsigned int i = 0; i < r->nr_levels && i < CORES_TOPO_LEVELS; i++) {
		if (r->level[i].type == CORES_TOPO_INVALID)
			break;
		if (r->level[i].type == CORES_TOPO_SMT)
			t->smt_shift = r->level[i].shift;
		t->pkg_shift = r->level[i].shift;
	}
	t->source = "CPUID 1Fh/0Bh";
}

static void from_legacy(const struct cores_topo_raw *r, struct cores_topo *t)
{
	u32 logical = r->htt && r->logical ? r->logical : 1;

	t->apic = r->apic;
	if (r->amd_threads) {
		t->smt_shift = bits_for(r->amd_threads);
		t->pkg_shift = r->amd_pkg_bits ? (u8)r->amd_pkg_bits : bits_for(logical);
		t->source = "CPUID 8000001Eh/80000008h";
		return;
	}
	t->pkg_shift = bits_for(logical);
	t->smt_shift = r->cores && logical > r->cores ? bits_for(logical / r->cores) : 0;
	t->source = r->htt ? "CPUID 1/4" : "CPUID 1 (one CPU per package)";
}

void cores_topo_decode(const struct cores_topo_raw *r, struct cores_topo *t)
{
	if (r->ext && r->nr_levels)
		from_levels(r, t);
	else
		from_legacy(r, t);
	if (t->smt_shift > t->pkg_shift)
		t->smt_shift = t->pkg_shift;
	t->llc_shift = r->llc_sharing ? bits_for(r->llc_sharing) : t->pkg_shift;
	if (t->llc_shift < t->smt_shift)
		t->llc_shift = t->smt_shift;
	if (t->llc_shift > t->pkg_shift)
		t->llc_shift = t->pkg_shift;
	t->core = t->smt_shift < 32 ? t->apic >> t->smt_shift : 0;
	t->complex = t->llc_shift < 32 ? t->apic >> t->llc_shift : 0;
	t->package = t->pkg_shift < 32 ? t->apic >> t->pkg_shift : 0;
}

enum cores_rel cores_topo_rel(const struct cores_topo *a, const struct cores_topo *b)
{
	if (a->apic == b->apic)
		return CORES_REL_SAME;
	if (a->package != b->package)
		return CORES_REL_OTHER_PACKAGE;
	if (a->complex != b->complex)
		return CORES_REL_OTHER_COMPLEX;
	if (a->core == b->core)
		return CORES_REL_SMT;
	return CORES_REL_COMPLEX;
}

const char *cores_rel_name(unsigned int rel)
{
	static const char *const names[] = { "same_cpu", "smt_sibling", "same_complex",
					     "other_complex", "other_package" };

	return rel < CORES_NR_REL ? names[rel] : "?";
}

static bool before(const struct cores_topo *a, const struct cores_topo *b)
{
	if (a->package != b->package)
		return a->package < b->package;
	if (a->complex != b->complex)
		return a->complex < b->complex;
	if (a->core != b->core)
		return a->core < b->core;
	return a->apic < b->apic;
}

void cores_topo_order(const struct cores_topo *t, unsigned int *idx, unsigned int n)
{
	/* Insertion sort: stable, and n is the CPU count. */
	for (unsigned int i = 1; i < n; i++) {
		unsigned int v = idx[i], j = i;

		while (j > 0 && before(&t[v], &t[idx[j - 1]])) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
}

void cores_topo_pick(const struct cores_topo *t, unsigned int me, const unsigned int *cand,
		     unsigned int n, unsigned int pick[CORES_NR_REL])
{
	for (unsigned int r = 0; r < CORES_NR_REL; r++)
		pick[r] = ~0U;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int c = cand[i];
		enum cores_rel rel = c == me ? CORES_REL_SAME : cores_topo_rel(&t[me], &t[c]);

		pick[rel] = c;
	}
}

unsigned int cores_topo_thread(const struct cores_topo *t)
{
	return t->apic & ((1u << t->smt_shift) - 1);
}
