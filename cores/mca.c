// SPDX-License-Identifier: GPL-2.0-only
/*
 * mca.c - the cores suite's machine checks (cores/mca.h): which slice a finding belongs to,
 * the ledger of findings with one corrected-error bucket per CPU bank, and their grading.
 */
#include "cores/mca.h"
#include "kernel/lib/string.h"

void cores_mca_init(struct cores_mca_ledger *l, u32 ce_threshold)
{
	memset(l, 0, sizeof(*l));
	l->ce_threshold = ce_threshold;
}

bool cores_mca_mc_in_slice(unsigned int rec_cpu, u64 tsc, unsigned int cpu, u64 t0, u64 t1)
{
	if (rec_cpu != cpu || !t0 || tsc < t0)
		return false;
	return t1 < t0 || tsc <= t1;
}

enum cores_mca_when cores_mca_read_when(bool after_slice)
{
	return after_slice ? CORES_MCA_IN_SLICE : CORES_MCA_BETWEEN;
}

static u32 *bucket_of(struct cores_mca_ledger *l, unsigned int cpu, unsigned int bank)
{
	for (unsigned int i = 0; i < l->nr_buckets; i++)
		if (l->bucket[i].cpu == cpu && l->bucket[i].bank == bank)
			return &l->bucket[i].corrected;
	if (l->nr_buckets == CORES_MCA_BUCKETS)
		return &l->other_corrected;
	l->bucket[l->nr_buckets] = (struct cores_mca_bucket){ (u16)cpu, (u16)bank, 0 };
	return &l->bucket[l->nr_buckets++].corrected;
}

bool cores_mca_add(struct cores_mca_ledger *l, const struct cores_mca_hit *h)
{
	unsigned int sev = h->sev < CORES_MCA_NR_SEV ? h->sev : CORES_MCA_UNCORRECTED;
	unsigned int when = h->when < CORES_MCA_NR_WHEN ? h->when : CORES_MCA_BETWEEN;
	u32 *b;

	if (l->n < CORES_MCA_KEEP)
		l->hit[l->n] = *h;
	l->n++;
	l->count[sev][when]++;
	if (sev != CORES_MCA_CORRECTED)
		return true;
	b = bucket_of(l, h->cpu, h->bank);
	if (++*b != l->ce_threshold + 1)
		return false;
	l->ce_over = true;
	return true;
}

u32 cores_mca_corrected_of(const struct cores_mca_ledger *l, unsigned int cpu, unsigned int bank)
{
	for (unsigned int i = 0; i < l->nr_buckets; i++)
		if (l->bucket[i].cpu == cpu && l->bucket[i].bank == bank)
			return l->bucket[i].corrected;
	return 0;
}

u32 cores_mca_total(const struct cores_mca_ledger *l, enum cores_mca_sev sev)
{
	if ((unsigned int)sev >= CORES_MCA_NR_SEV)
		return 0;
	return l->count[sev][CORES_MCA_IN_SLICE] + l->count[sev][CORES_MCA_BETWEEN];
}

bool cores_mca_fails(const struct cores_mca_ledger *l)
{
	return l->ce_over || cores_mca_total(l, CORES_MCA_DEFERRED) ||
	       cores_mca_total(l, CORES_MCA_UNCORRECTED);
}

const char *cores_mca_sev_name(unsigned int sev)
{
	static const char *const names[] = { "corrected", "deferred", "uncorrected" };

	return sev < CORES_MCA_NR_SEV ? names[sev] : "?";
}

const char *cores_mca_when_name(unsigned int when)
{
	if (when == CORES_MCA_IN_SLICE)
		return "in_slice";
	return when == CORES_MCA_BETWEEN ? "between" : "?";
}
