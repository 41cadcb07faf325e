/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * grade.h - how bad is a machine-check bank, and what the handler does about all of them.
 *
 * Grading is a table of rules, first match wins, in the order of Linux v6.17's severity
 * logic (arch/x86/kernel/cpu/mce/severity.c): one table for Intel (and every non-AMD
 * vendor), one for AMD and Hygon. The decision after grading every bank follows Linux's
 * do_machine_check() (core.c): a fatal grade anywhere panics, a broadcast machine check
 * nobody claims panics, an action-required error in kernel mode resumes at the
 * machine-check-safe fixup, anything else resumes. docs/design/machine-checks.md lists the two
 * places where the image deliberately differs. Plain C, checked on the host against an
 * independent model of Linux (ktest/oracle/).
 */
#ifndef CK_MCE_GRADE_H
#define CK_MCE_GRADE_H

#include "kernel/include/types.h"

/* In Linux's severity order, lowest first (UCNA and deferred share Linux's one level). */
enum mce_grade {
	MCE_GRADE_NONE,		/* no valid error, or reporting not enabled */
	MCE_GRADE_LOG,		/* uncorrected, no action required (UCNA, AMD deferred) */
	MCE_GRADE_KEEP,		/* corrected or not signalled: log and continue */
	MCE_GRADE_SOME,		/* signalled, nothing to do but log (unknown AO code) */
	MCE_GRADE_AO,		/* action optional (scrubber, writeback): offline the page */
	MCE_GRADE_UC,		/* uncorrected without recovery support, not in plain kernel */
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
	enum mce_cond recov;		/* context: RIPV, EIPV and an *_MCE_SAFE fixup at RIP */
	enum mce_cond ser;		/* Intel: MCG_CAP.SER_P; AMD: SUCCOR */
	enum mce_cond ovf_recov;	/* AMD: McaOverflowRecov */
	bool excp_only;			/* only in the #MC handler, not when polled */
	/* A row for one CPU model from a stepping on (Linux's cpu_vfm rows), 0: any CPU. */
	u8 family, model, min_stepping;
	u16 bank_lo, bank_hi;		/* the banks it covers, when bank_hi is not 0 */
};

struct mce_grade_in {
	u64 status, mcg_status;
	bool amd;			/* AMD or Hygon rules */
	bool ser;			/* Intel: SER_P; AMD: SUCCOR */
	bool ovf_recov;			/* AMD: McaOverflowRecov */
	bool mce_safe_fixup;		/* an *_MCE_SAFE exception-table entry at RIP */
	bool poll;			/* graded as a poller would (MCG_STATUS 0, no context) */
	/* Rows that apply to one CPU model and a range of banks (Linux's cpu_vfm rows). */
	u8 family, model, stepping;	/* the boot CPU's, as CPUID leaf 1 gives them */
	u16 bank;			/* the bank this status came from */
};

/* The first rule of the vendor's table that matches; never NULL (the last one always does). */
const struct mce_rule *mce_grade(const struct mce_grade_in *in);
const char *mce_grade_name(enum mce_grade g);

/* The tables, for tests that walk every row. */
extern const struct mce_rule mce_rules_intel[];
extern const struct mce_rule mce_rules_amd[];
extern const unsigned int mce_nr_rules_intel, mce_nr_rules_amd;

/*
 * What the #MC handler does with one valid, graded bank: Linux's __mc_scan_banks() and
 * mce_clear_state(). Unless the machine is going down (@no_way_out: a bank of this CPU, or
 * in a broadcast of any CPU, graded panic, Linux's mce_no_way_out() and global_nwo), a bank
 * that is not signalled (S clear with Intel's SER_P, else UC clear) or graded "keep"
 * (corrected) or "log" (UCNA, deferred) is left in the bank as it is, for the poller
 * (machine_check_poll); any other is taken: logged unless graded "none", and cleared. With
 * @no_way_out every bank is logged (but "none") and none is cleared: they stay for the
 * report and for the next boot. The handler queues a logged action-optional bank's page
 * (when its address is usable); a bank it leaves is the poller's, page included.
 */
struct mce_bank_fate {
	bool logged;
	bool clear;
	bool queue_page;
};
void mce_bank_fate(const struct mce_grade_in *in, const struct mce_rule *r, bool no_way_out,
		   struct mce_bank_fate *f);
/*
 * Whether Linux's machine_check_poll() logs a bank with in->status (should_log_poll_error,
 * non-SMCA): valid and UC clear; with Intel's SER_P also EN clear, or neither PCC nor S set.
 * Anything else valid is left for the #MC handler.
 */
bool mce_poll_would_log(const struct mce_grade_in *in);
/*
 * Whether a bank the poller logged, graded @g with the poller's grading, has its page queued
 * for offlining when its address is usable: action optional, or UCNA/deferred (Linux's
 * uc_decode_notifier acts on MCE_AO_SEVERITY and MCE_DEFERRED_SEVERITY records).
 */
bool mce_poll_queues_page(enum mce_grade g);

enum mce_end { MCE_END_RESUME, MCE_END_RECOVER, MCE_END_PANIC };

/* Gathered over every valid bank, then decided once. */
struct mce_decision {
	const struct mce_rule *fatal;	/* the first bank graded panic, or NULL */
	const struct mce_rule *worst;	/* the worst bank the handler logged, or NULL */
	int fatal_idx, worst_idx;	/* their indexes as passed to mce_decision_add */
	enum mce_end end;
	const struct mce_rule *why;	/* the rule that decided end */
	/*
	 * A broadcast machine check whose "unknown source" check the Monarch makes over every
	 * CPU (mce/smp_logic.h): this CPU's decision leaves it out.
	 */
	bool reigned;
};

void mce_decision_init(struct mce_decision *d);
void mce_decision_add(struct mce_decision *d, const struct mce_rule *r, bool logged, int idx);
/*
 * @mcg_status: MCG_STATUS as read; @amd: AMD/Hygon (machine checks always local);
 * @mce_safe_fixup: an *_MCE_SAFE exception-table entry at RIP. An action-required error
 * taken in SEAM non-root mode (MCG_STATUS.SEAM_NR, Intel TDX) resumes at RIP, fixup or not,
 * as Linux's do_machine_check() does: the TDX guest that consumed it is already dead.
 */
void mce_decide(struct mce_decision *d, u64 mcg_status, bool amd, bool mce_safe_fixup);

/* The handler's own rules (for reports and tests). */
extern const struct mce_rule mce_rule_unknown_source, mce_rule_no_ripv, mce_rule_uc_no_ser,
	mce_rule_resume, mce_rule_seam;

#endif
