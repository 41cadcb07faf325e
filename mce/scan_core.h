/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scan_core.h - the bank scan of one machine check on one CPU, over a register backend (the
 * real MSRs or a simulated file, mce/msr.h): Linux's mce_no_way_out(), __mc_scan_banks() and
 * mce_clear_state(). Every valid bank is read and graded into the record; each is then taken
 * (logged and cleared) or left in the bank for the poller, as mce_bank_fate() (mce/grade.h)
 * says; pages to offline are noted. Plain C: the #MC paths (mce/scan.c) run it on the CPU
 * that took the #MC, the host tests over simulated files. Never prints, locks or allocates.
 */
#ifndef CK_MCE_SCAN_CORE_H
#define CK_MCE_SCAN_CORE_H

#include "mce/decode.h"
#include "mce/grade.h"
#include "mce/mce.h"
#include "mce/msr.h"

#define MCE_MAX_BANKS	64

/* What a bank scan found beyond the record: the decision so far and the pages to offline. */
struct mce_scan {
	struct mce_decision d;
	bool amd;			/* graded with AMD's rules (a simulation may choose) */
	bool no_way_out;		/* scanned with no way out: every bank left as it was */
	u64 queue[MCE_MAX_BANKS];	/* pages for memory_failure_queue() */
	unsigned int nq;
};

/* The CPU a scan runs on. */
struct mce_scan_env {
	struct mce_sim *be;		/* NULL: the real MSRs */
	struct mce_grade_in in;		/* every grading input but the status and the bank */
	struct mce_addr_src src;	/* the bank layout and address rules (bank: per bank) */
	unsigned int nbanks;		/* banks 0 .. nbanks - 1, at most MCE_MAX_BANKS */
};

/*
 * Linux's mce_no_way_out(): whether a valid bank of this CPU grades panic. Reads STATUS
 * only, changes nothing.
 */
bool mce_scan_no_way_out(const struct mce_scan_env *e);

/*
 * Read every valid bank into @r (the first MCE_LOG_BANKS in r->banks, all counted in
 * r->nr_valid), grade each with its number, decide its fate with @no_way_out (the CPU's own
 * mce_scan_no_way_out(), or in a broadcast whether any CPU's was true), clear the banks it
 * takes and note in @s the pages of the action-optional ones. MCG_STATUS and the decision
 * are the caller's.
 */
void mce_scan_run(struct mce_record *r, struct mce_scan *s, const struct mce_scan_env *e,
		  bool no_way_out);

/* The decision into the record: the rule, the grade, the deciding bank and its page. */
void mce_record_decision(struct mce_record *r, const struct mce_decision *d);

#endif
