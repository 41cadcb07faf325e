// SPDX-License-Identifier: GPL-2.0-only
/*
 * noise.c - decide from counter deltas whether a timing was disturbed by an SMI, a change of
 * the effective clock or a C-state (see noise.h). Integer arithmetic only.
 */
#include "bench/noise.h"

void noise_start(struct noise_acct *a, unsigned int have, u64 tsc_mhz)
{
	*a = (struct noise_acct){ .have = have, .tsc_mhz = tsc_mhz };
}

static u64 dist(u64 x, u64 y)
{
	return x > y ? x - y : y - x;
}

bool noise_account(struct noise_acct *a, const struct noise_snap *before,
		   const struct noise_snap *after)
{
	bool disturbed = false;
	u64 dt, da, dm, pm, mhz;

	if ((a->have & NOISE_SMI) && after->smi != before->smi) {
		if (after->smi < before->smi) {
			a->backwards++;
		} else {
			a->smis += after->smi - before->smi;
			a->smi_timings++;
		}
		disturbed = true;
	}
	if (!(a->have & NOISE_APERF))
		return disturbed;
	if (after->tsc < before->tsc || after->aperf < before->aperf ||
	    after->mperf < before->mperf) {
		a->backwards++;
		return true;
	}
	dt = after->tsc - before->tsc;
	da = after->aperf - before->aperf;
	dm = after->mperf - before->mperf;
	if (!dt || !dm)
		return disturbed;	/* too short to say anything */
	if (dm * 1000 < dt * NOISE_C0_MIN_PM) {
		a->not_c0++;
		disturbed = true;
	}
	/* da and dm are below 2^40 for any timing under ~5 minutes: no overflow. */
	pm = da * 1000 / dm;
	mhz = a->tsc_mhz * da / dm;
	if (!a->mhz_min || mhz < a->mhz_min)
		a->mhz_min = mhz;
	a->mhz_max = MAX(a->mhz_max, mhz);
	if (!a->ref_pm) {
		a->ref_pm = pm;
	} else if (dist(pm, a->ref_pm) * 1000 > a->ref_pm * NOISE_FREQ_TOL_PM) {
		a->freq_changes++;
		disturbed = true;
	}
	return disturbed;
}

void noise_restart(struct noise_acct *a)
{
	u64 ref = a->ref_pm;

	noise_start(a, a->have, a->tsc_mhz);
	a->ref_pm = ref;
}
