// SPDX-License-Identifier: GPL-2.0-only
/*
 * grade.c - the severity tables. Each row says which STATUS and MCG_STATUS bits must hold
 * which values, optionally an MCACOD pattern, and whether an MCE-safe fixup at RIP or the
 * CPU's recovery support is required. Rows are tried in order; the last row of each table
 * matches anything, so there is always an answer.
 */
#include "mce/grade.h"
#include "mce/mce_regs.h"

#define S_VAL	MCI_STATUS_VAL
#define S_OVER	MCI_STATUS_OVER
#define S_UC	MCI_STATUS_UC
#define S_EN	MCI_STATUS_EN
#define S_MISCV	MCI_STATUS_MISCV
#define S_ADDRV	MCI_STATUS_ADDRV
#define S_PCC	MCI_STATUS_PCC
#define S_S	MCI_STATUS_S
#define S_AR	MCI_STATUS_AR
#define G_RIPV	MCG_STATUS_RIPV
#define G_EIPV	MCG_STATUS_EIPV
#define G_MCIP	MCG_STATUS_MCIP

#define RULE(n, g, m, v)	{ .name = n, .grade = MCE_GRADE_##g, .mask = m, .value = v }

const struct mce_rule mce_rules_intel[] = {
	RULE("no valid error", NONE, S_VAL, 0),
	RULE("error reporting not enabled in the bank", NONE, S_EN, 0),
	RULE("processor context corrupt (PCC)", PANIC, S_PCC, S_PCC),
	{ .name = "MCIP clear: no machine check in progress", .grade = MCE_GRADE_PANIC,
	  .mcg_mask = G_MCIP, .mcg_value = 0 },
	{ .name = "neither RIPV nor EIPV: no reliable instruction pointer",
	  .grade = MCE_GRADE_PANIC, .mcg_mask = G_RIPV | G_EIPV, .mcg_value = 0 },
	RULE("corrected error", KEEP, S_UC, 0),
	{ .name = "uncorrected error on a CPU without software error recovery (no SER_P)",
	  .grade = MCE_GRADE_PANIC, .mask = S_UC, .value = S_UC, .ser = COND_NO },
	{ .name = "action optional: memory scrubbing (SRAO)", .grade = MCE_GRADE_AO,
	  .mask = S_UC | S_S | S_AR | S_ADDRV, .value = S_UC | S_S | S_ADDRV,
	  .mcacod_mask = 0xfff0, .mcacod_value = 0x00c0 },
	{ .name = "action optional: L3 explicit writeback (SRAO)", .grade = MCE_GRADE_AO,
	  .mask = S_UC | S_S | S_AR | S_ADDRV, .value = S_UC | S_S | S_ADDRV,
	  .mcacod_mask = 0xffff, .mcacod_value = 0x017a },
	RULE("uncorrected, no action required (UCNA)", LOG, S_UC | S_S | S_AR, S_UC),
	RULE("uncorrected but not signalled (S clear)", KEEP, S_S, 0),
	RULE("action required with overflow (OVER): earlier error lost", PANIC, S_OVER | S_AR,
	     S_OVER | S_AR),
	{ .name = "data load in error-recoverable area of kernel", .grade = MCE_GRADE_RECOVER,
	  .mask = S_UC | S_S | S_AR | S_ADDRV | S_MISCV | S_OVER,
	  .value = S_UC | S_S | S_AR | S_ADDRV | S_MISCV,
	  .mcg_mask = G_RIPV | G_EIPV, .mcg_value = G_RIPV | G_EIPV,
	  .mcacod_mask = MCACOD_FILTER_MASK, .mcacod_value = MCACOD_DATA_LOAD,
	  .fixup = COND_YES },
	{ .name = "data load in unrecoverable area of kernel", .grade = MCE_GRADE_PANIC,
	  .mask = S_S | S_AR, .value = S_S | S_AR,
	  .mcacod_mask = MCACOD_FILTER_MASK, .mcacod_value = MCACOD_DATA_LOAD },
	{ .name = "instruction fetch error in kernel", .grade = MCE_GRADE_PANIC,
	  .mask = S_S | S_AR, .value = S_S | S_AR,
	  .mcacod_mask = MCACOD_FILTER_MASK, .mcacod_value = MCACOD_INSN_FETCH },
	RULE("action required, unknown error type", PANIC, S_S | S_AR, S_S | S_AR),
	RULE("action optional, unknown error type", LOG, S_S | S_AR, S_S),
	RULE("unclassified uncorrected error", PANIC, 0, 0),
};

const struct mce_rule mce_rules_amd[] = {
	RULE("no valid error", NONE, S_VAL, 0),
	RULE("processor context corrupt (PCC)", PANIC, S_PCC, S_PCC),
	{ .name = "MCIP clear: no machine check in progress", .grade = MCE_GRADE_PANIC,
	  .mcg_mask = G_MCIP, .mcg_value = 0 },
	{ .name = "neither RIPV nor EIPV: no reliable instruction pointer",
	  .grade = MCE_GRADE_PANIC, .mcg_mask = G_RIPV | G_EIPV, .mcg_value = 0 },
	RULE("corrected error", KEEP, S_UC, 0),
	RULE("deferred error (never raises #MC)", LOG, MCI_STATUS_DEFERRED, MCI_STATUS_DEFERRED),
	{ .name = "uncorrected error and no SUCCOR: recovery not supported",
	  .grade = MCE_GRADE_PANIC, .ser = COND_NO },
	{ .name = "uncorrected error in kernel at a machine-check-safe fixup",
	  .grade = MCE_GRADE_RECOVER, .mcg_mask = G_RIPV, .mcg_value = G_RIPV,
	  .fixup = COND_YES },
	RULE("uncorrected error in kernel without fixup", PANIC, 0, 0),
};

const unsigned int mce_nr_rules_intel = ARRAY_SIZE(mce_rules_intel);
const unsigned int mce_nr_rules_amd = ARRAY_SIZE(mce_rules_amd);

static bool cond_ok(enum mce_cond c, bool v)
{
	return c == COND_ANY || (c == COND_YES) == v;
}

static bool matches(const struct mce_rule *r, const struct mce_grade_in *in)
{
	return (in->status & r->mask) == r->value &&
	       (in->mcg_status & r->mcg_mask) == r->mcg_value &&
	       ((in->status & MCI_STATUS_MCACOD) & r->mcacod_mask) == r->mcacod_value &&
	       cond_ok(r->fixup, in->mce_safe_fixup) && cond_ok(r->ser, in->ser);
}

const struct mce_rule *mce_grade(const struct mce_grade_in *in)
{
	const struct mce_rule *t = in->amd ? mce_rules_amd : mce_rules_intel;
	unsigned int n = in->amd ? mce_nr_rules_amd : mce_nr_rules_intel;

	for (unsigned int i = 0; i < n - 1; i++)
		if (matches(&t[i], in))
			return &t[i];
	return &t[n - 1];
}

const char *mce_grade_name(enum mce_grade g)
{
	static const char *const names[] = {
		[MCE_GRADE_NONE] = "none", [MCE_GRADE_KEEP] = "keep (corrected)",
		[MCE_GRADE_LOG] = "log", [MCE_GRADE_AO] = "action optional",
		[MCE_GRADE_RECOVER] = "recover via fixup", [MCE_GRADE_PANIC] = "panic",
	};

	return g <= MCE_GRADE_PANIC ? names[g] : "?";
}
