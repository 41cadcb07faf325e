/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mca.h - machine checks tied to the cores suite's work. Each CPU reads its machine-check
 * banks (the poller, mce/poll.h) just before and just after each slice (one kernel's run,
 * replay or copy check on it), and the #MC handler's records carry the CPU and a TSC stamp:
 * this file says which slice a finding belongs to, keeps the suite's findings (the first
 * CORES_MCA_KEEP in full, all of them counted) and grades them:
 *  - a deferred or uncorrected error fails the kernel's case whose reading found it (in the
 *    slice, or between slices: then it is said so, and no kernel is blamed for it);
 *  - corrected errors follow the soak's rule (soak/ledger.h): they fail only when one bucket
 *    holds more than the threshold the caller gives (the soak's SOAK_CE_THRESHOLD); a bucket
 *    here is one CPU's bank, since a bank reading of the cores suite carries no DIMM. The
 *    case whose reading crosses the threshold fails, once.
 * Plain C, host-tested.
 */
#ifndef CK_CORES_MCA_H
#define CK_CORES_MCA_H

#include "kernel/include/types.h"

enum cores_mca_sev {
	CORES_MCA_CORRECTED,	/* UC clear (a polled bank, a CMCI, a threshold overflow) */
	CORES_MCA_DEFERRED,	/* AMD deferred: uncorrected, not consumed */
	CORES_MCA_UNCORRECTED,	/* UC set: UCNA found by the poll, or a #MC */
	CORES_MCA_NR_SEV,
};

enum cores_mca_when {
	CORES_MCA_IN_SLICE,	/* the reading after the slice, or a #MC inside its TSC window */
	CORES_MCA_BETWEEN,	/* the reading before it, or a #MC outside it: not the work's */
	CORES_MCA_NR_WHEN,
};

/* One finding, with the CPU's identity as it read it itself. */
struct cores_mca_hit {
	unsigned int slice;		/* the suite's dispatch number, from 1 */
	const char *kernel;		/* the slice's kernel */
	const char *part;		/* "run", "replay" or "check" */
	u16 cpu, bank;
	u32 apic;
	u8 sev, when;			/* enum cores_mca_sev, enum cores_mca_when */
	bool from_mc;			/* a #MC record, not a bank reading */
	u64 status;
	bool ucode_ok, ppin_ok;
	u32 ucode;			/* the CPU's microcode revision */
	u64 ppin;
};

#define CORES_MCA_KEEP		16
#define CORES_MCA_BUCKETS	64

struct cores_mca_bucket {
	u16 cpu, bank;
	u32 corrected;
};

struct cores_mca_ledger {
	struct cores_mca_hit hit[CORES_MCA_KEEP];
	unsigned int n;					/* findings added, kept or not */
	u32 count[CORES_MCA_NR_SEV][CORES_MCA_NR_WHEN];
	struct cores_mca_bucket bucket[CORES_MCA_BUCKETS];
	unsigned int nr_buckets;
	u32 other_corrected;	/* corrected errors of CPU banks beyond the buckets, together */
	u32 ce_threshold;	/* more than this in one bucket fails */
	bool ce_over;		/* a bucket went over it */
};

void cores_mca_init(struct cores_mca_ledger *l, u32 ce_threshold);

/*
 * Whether a #MC record stamped @tsc on CPU @rec_cpu falls in the slice CPU @cpu ran from @t0
 * to @t1 (TSC, both ends included; @t1 < @t0: the slice never ended, so open; @t0 0: the CPU
 * ran no slice in this dispatch).
 */
bool cores_mca_mc_in_slice(unsigned int rec_cpu, u64 tsc, unsigned int cpu, u64 t0, u64 t1);

/* A reading's findings: those of the reading after a slice are its, before it between. */
enum cores_mca_when cores_mca_read_when(bool after_slice);

/*
 * Add @h to the ledger; returns true when it fails the case that read it: deferred or
 * uncorrected, or the corrected error that takes its bucket over the threshold.
 */
bool cores_mca_add(struct cores_mca_ledger *l, const struct cores_mca_hit *h);

/* The corrected errors counted for CPU @cpu's bank @bank (0 when it has no bucket). */
u32 cores_mca_corrected_of(const struct cores_mca_ledger *l, unsigned int cpu, unsigned int bank);

/* Findings of @sev, in slices and between them together. */
u32 cores_mca_total(const struct cores_mca_ledger *l, enum cores_mca_sev sev);

/* Whether the suite's machine checks fail the run: any deferred or uncorrected, or ce_over. */
bool cores_mca_fails(const struct cores_mca_ledger *l);

/* "corrected", "deferred", "uncorrected"; "in_slice", "between". */
const char *cores_mca_sev_name(unsigned int sev);
const char *cores_mca_when_name(unsigned int when);

#endif
