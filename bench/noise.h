/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * noise.h - the accounting of what disturbs a timing on bare metal: System Management
 * Interrupts (Intel's MSR_SMI_COUNT, 0x34) and changes of the core's effective clock
 * (APERF/MPERF against the TSC). Plain C over counter snapshots the environment reads, so
 * the decisions are host-tested with simulated counters.
 *
 * For one timing the environment snapshots TSC, APERF, MPERF and the SMI count before and
 * after. The timing counts as disturbed when
 *   - the SMI count moved (firmware ran on this core inside the timed part), or
 *   - the effective clock (TSC rate x dAPERF / dMPERF) differs from the case's reference
 *     (the first timing accounted, a warm-up) by more than NOISE_FREQ_TOL_PM per mille, or
 *   - the core was not in C0 for all of it: dMPERF below NOISE_C0_MIN_PM per mille of dTSC, or
 *   - a counter ran backwards (something wrote it, or it wrapped): nothing can be trusted.
 * A counter the machine does not have is not judged (NOISE_SMI / NOISE_APERF in @have).
 */
#ifndef CK_BENCH_NOISE_H
#define CK_BENCH_NOISE_H

#include "kernel/include/types.h"

#define NOISE_SMI		(1u << 0)	/* MSR_SMI_COUNT readable */
#define NOISE_APERF		(1u << 1)	/* APERF and MPERF readable */

#define NOISE_FREQ_TOL_PM	20	/* effective clock within 2% of the reference */
#define NOISE_C0_MIN_PM		990	/* MPERF advanced at least 99% as far as the TSC */

/* One snapshot of the counters. */
struct noise_snap {
	u64 tsc, aperf, mperf, smi;
};

/* What a case accumulated over its timings (kept in its bench_result). */
struct noise_acct {
	unsigned int have;		/* NOISE_SMI | NOISE_APERF: what was measured */
	u64 tsc_mhz;			/* TSC rate, for the effective clock */
	u64 ref_pm;			/* reference APERF/MPERF x 1000 (0: not yet set) */
	u64 smis;			/* SMIs counted inside timings */
	unsigned int smi_timings;	/* timings with at least one SMI */
	unsigned int freq_changes;	/* timings whose clock left the reference's band */
	unsigned int not_c0;		/* timings where the core left C0 */
	unsigned int backwards;		/* timings where a counter ran backwards */
	u64 mhz_min, mhz_max;		/* effective clock over the timings (0: none) */
};

/* Reset @a for a new case: @have says which counters exist, @tsc_mhz the TSC's rate. */
void noise_start(struct noise_acct *a, unsigned int have, u64 tsc_mhz);

/*
 * Account one timing between @before and @after; true when it counts as disturbed (see
 * above). The first timing with usable APERF/MPERF deltas sets the reference clock.
 */
bool noise_account(struct noise_acct *a, const struct noise_snap *before,
		   const struct noise_snap *after);

/* Zero the counts of @a but keep its reference clock (after the warm-up timings). */
void noise_restart(struct noise_acct *a);

#endif
