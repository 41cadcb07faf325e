// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_calc.c - the migrate preset's phase accounting and Amdahl arithmetic
 * (bench/migrate_calc.h), and the sysfs node list the hosted move_pages(2) part reads. Sorting
 * is an insertion sort: a preset has at most a few hundred rounds.
 */
#include "bench/migrate_calc.h"

const char *const mig_phase_names[MIG_NR_PHASES] = { "unmap", "shootdown", "copy", "remap" };
const char *const mig_copy_fn[MIG_NR_COPIES] = { "folio_copy", "folio_copy", "folio_mc_copy",
						 "folio_mc_copy" };
const char *const mig_copy_form[MIG_NR_COPIES] = { "per_page", "batched", "per_page",
						   "batched" };

enum mig_copy mig_round_form(unsigned int i, unsigned int k)
{
	return (enum mig_copy)((i & 1) ? MIG_NR_COPIES - 1 - k % MIG_NR_COPIES
				       : k % MIG_NR_COPIES);
}

unsigned int mig_cpu_counts(unsigned int n, unsigned int *out, unsigned int max)
{
	unsigned int k = 0;

	for (unsigned int c = 1; c < n && k < max; c *= 2)
		out[k++] = c;
	if (n && k < max)
		out[k++] = n;
	return k;
}

u64 mig_total(const u64 ns[MIG_NR_PHASES])
{
	u64 t = 0;

	for (int p = 0; p < MIG_NR_PHASES; p++)
		t += ns[p];
	return t;
}

static u32 ratio_pm(u64 num, u64 den)
{
	return den ? (u32)((num * 1000 + den / 2) / den) : 0;
}

u32 mig_share_pm(const u64 ns[MIG_NR_PHASES], enum mig_phase p)
{
	return ratio_pm(ns[p], mig_total(ns));
}

static u64 median(u64 *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		u64 x = v[i];
		unsigned int j = i;

		for (; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n ? v[n / 2] : 0;
}

void mig_medians(const struct mig_round *r, unsigned int n, u64 *scratch,
		 u64 med[MIG_NR_PHASES], u64 *total)
{
	for (int p = 0; p < MIG_NR_PHASES; p++) {
		for (unsigned int i = 0; i < n; i++)
			scratch[i] = r[i].ns[p];
		med[p] = median(scratch, n);
	}
	for (unsigned int i = 0; i < n; i++)
		scratch[i] = mig_total(r[i].ns);
	*total = median(scratch, n);
}

void mig_amdahl(const u64 per_page[MIG_NR_PHASES], u64 per_page_total,
		const u64 batched[MIG_NR_PHASES], u64 batched_total, struct mig_amdahl *a)
{
	u64 c = per_page[MIG_COPY], c2 = batched[MIG_COPY], t = per_page_total;

	a->copy_share_pm = ratio_pm(c, t);
	a->copy_speedup_pm = ratio_pm(c, c2);
	a->predicted_pm = c <= t ? ratio_pm(t, t - c + c2) : 0;
	a->measured_pm = ratio_pm(t, batched_total);
}

u32 mig_share_for_pm(u32 k_pm, u32 r_pm)
{
	u64 num, den;

	if (k_pm <= 1000 || r_pm < 1000)
		return 0;
	/* (r - 1)/r / ((k - 1)/k) = k (r - 1) / (r (k - 1)), all in thousandths. */
	num = (u64)k_pm * (r_pm - 1000) * 1000;
	den = (u64)r_pm * (k_pm - 1000);
	return (u32)MIN((num + den / 2) / den, 1000ULL);
}

/* A decimal number at *@s, moving *@s past it; false when there is none (or it overflows). */
static bool list_number(const char **s, unsigned int *v)
{
	const char *p = *s;
	u64 n = 0;

	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9') {
		n = n * 10 + (u64)(*p++ - '0');
		if (n > 0xffffffffULL)
			return false;
	}
	*v = (unsigned int)n;
	*s = p;
	return true;
}

unsigned int mig_parse_list(const char *list, unsigned int *out, unsigned int max)
{
	const char *s = list;
	unsigned int k = 0, a, b;

	while (k < max && list_number(&s, &a)) {
		b = a;
		if (*s == '-') {
			s++;
			if (!list_number(&s, &b) || b < a || b - a > 0xffff)
				break;
		}
		for (u64 v = a; v <= b && k < max; v++)
			out[k++] = (unsigned int)v;
		if (*s != ',')
			break;
		s++;
	}
	return k;
}
