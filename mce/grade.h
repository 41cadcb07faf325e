/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * grade.h - how bad is a machine-check bank: a table of rules, first match wins, in the
 * order Linux's severity tables use (../shared/REFERENCE.md section 4), one table for Intel
 * and one for AMD. Plain C, tested rule by rule on the host and, through the simulated-MSR
 * backend, inside the image.
 */
#ifndef CK_MCE_GRADE_H
#define CK_MCE_GRADE_H

#include "kernel/include/types.h"

enum mce_grade {
	MCE_GRADE_NONE,		/* nothing to do (no valid error) */
	MCE_GRADE_KEEP,		/* corrected or not signalled: log and continue */
	MCE_GRADE_LOG,		/* uncorrected, no action required (UCNA, deferred) */
	MCE_GRADE_AO,		/* action optional (scrubber, writeback): log the page */
	MCE_GRADE_RECOVER,	/* action required, recoverable: resume at the fixup */
	MCE_GRADE_PANIC,	/* cannot continue */
};

enum mce_cond { COND_ANY, COND_YES, COND_NO };

struct mce_rule {
	const char *name;
	enum mce_grade grade;
	u64 mask, value;		/* on MCi_STATUS */
	u64 mcg_mask, mcg_value;	/* on MCG_STATUS */
	u16 mcacod_mask, mcacod_value;
	enum mce_cond fixup;		/* an *_MCE_SAFE exception-table entry at RIP */
	enum mce_cond ser;		/* MCG_CAP.SER_P (Intel) / SUCCOR (AMD) */
};

struct mce_grade_in {
	u64 status, mcg_status;
	bool amd;
	bool ser;			/* Intel: SER_P; AMD: SUCCOR */
	bool mce_safe_fixup;
};

/* The first rule of the vendor's table that matches; never NULL (the last one always does). */
const struct mce_rule *mce_grade(const struct mce_grade_in *in);
const char *mce_grade_name(enum mce_grade g);

/* The tables, for tests that walk every row. */
extern const struct mce_rule mce_rules_intel[];
extern const struct mce_rule mce_rules_amd[];
extern const unsigned int mce_nr_rules_intel, mce_nr_rules_amd;

#endif
