// SPDX-License-Identifier: GPL-2.0-only
/*
 * grade.c - the severity tables and the decision after grading (see grade.h).
 *
 * Each row says which STATUS and MCG_STATUS bits must hold which values, optionally an
 * MCACOD pattern (bit 12, the "filtered" flag, is never part of it), and what the context
 * and the CPU's recovery features must be. Rows are tried in order; the last row of each
 * table matches anything, so there is always an answer. The order is Linux v6.17's; the
 * wording is ours.
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
#define S_DEF	MCI_STATUS_DEFERRED
#define G_RIPV	MCG_STATUS_RIPV
#define G_EIPV	MCG_STATUS_EIPV
#define G_MCIP	MCG_STATUS_MCIP
#define G_SEAM	MCG_STATUS_SEAM_NR

/* SRAR: uncorrected, signalled, action required, no overflow. */
#define SRAR_MASK	(S_OVER | S_UC | S_S | S_AR)
#define SRAR		(S_UC | S_S | S_AR)
/* ... with an address whose granularity is known. */
#define SRAR_A_MASK	(SRAR_MASK | S_ADDRV | S_MISCV)
#define SRAR_A		(SRAR | S_ADDRV | S_MISCV)
#define CODE		MCACOD_FILTER_MASK

#define G(g)		.grade = MCE_GRADE_##g
#define ST(m, v)	.mask = (m), .value = (v)
#define MCG(m, v)	.mcg_mask = (m), .mcg_value = (v)
#define COD(m, v)	.mcacod_mask = (m), .mcacod_value = (v)
#define SER		.ser = COND_YES
#define NOSER		.ser = COND_NO
#define EXCP		.excp_only = true
/* Linux's INTEL_SKYLAKE_X (family 6 model 0x55: Skylake-SP, Cascade Lake, Cooper Lake). */
#define SKX_FROM(s)	.family = 6, .model = 0x55, .min_stepping = (s)
#define BANKS(lo, hi)	.bank_lo = (lo), .bank_hi = (hi)
/* The Skylake-SP patrol-scrub signature: MSCOD 0x0010, MCACOD 000x 0000 1100 xxxx. */
#define SKX_SCRUB_MASK	0xffffeff0ULL
#define SKX_SCRUB	0x001000c0ULL

const struct mce_rule mce_rules_intel[] = {
	{ "no valid error", G(NONE), ST(S_VAL, 0) },
	{ "error reporting not enabled in the bank", G(NONE), ST(S_EN, 0), EXCP },
	{ "processor context corrupt (PCC)", G(PANIC), ST(S_PCC, S_PCC) },
	{ "MCIP clear: no machine check in progress", G(PANIC), MCG(G_MCIP, 0), EXCP },
	{ "neither RIPV nor EIPV: no reliable instruction pointer", G(PANIC),
	  MCG(G_RIPV | G_EIPV, 0), EXCP },
	{ "in kernel and RIPV clear: no restart IP", G(PANIC), MCG(G_RIPV, 0), EXCP },
	{ "corrected error", G(KEEP), ST(S_UC, 0), NOSER },
	{ "action optional: memory scrubbing (SRAO)", G(AO), ST(S_UC | S_AR, S_UC),
	  COD(0xeff0, 0x00c0), SER },
	{ "action optional: L3 explicit writeback (SRAO)", G(AO), ST(S_UC | S_AR, S_UC),
	  COD(CODE, 0x017a), SER },
	/*
	 * Skylake-SP from stepping 4: the patrol scrubber can report an uncorrected error as a
	 * corrected one (UC clear) in a memory-controller bank; act as for a scrub error.
	 * Linux also matches the vendor; this table serves every vendor but AMD and Hygon, and
	 * no other one has a family 6 model 0x55.
	 */
	{ "patrol scrub error reported as corrected (Skylake-SP): action optional", G(AO),
	  ST(S_UC | S_ADDRV | S_MISCV | SKX_SCRUB_MASK, S_ADDRV | S_MISCV | SKX_SCRUB), SER,
	  SKX_FROM(4), BANKS(13, 18) },
	{ "uncorrected, no action required (UCNA)", G(LOG), ST(S_UC | S_S | S_AR, S_UC), SER },
	{ "illegal combination: UCNA with AR set", G(PANIC), ST(SRAR_MASK, S_UC | S_AR), SER },
	{ "not signalled (S clear)", G(KEEP), ST(S_S, 0), SER },
	{ "action required with overflow (OVER): earlier error lost", G(PANIC),
	  ST(SRAR_MASK, SRAR_MASK), SER },
	{ "action required, but RIPV without EIPV: the interrupted thread is unaffected",
	  G(KEEP), ST(SRAR_A_MASK, SRAR_A), MCG(G_RIPV | G_EIPV, G_RIPV), SER },
	{ "data load in error-recoverable area of kernel", G(RECOVER), ST(SRAR_A_MASK, SRAR_A),
	  COD(CODE, MCACOD_DATA_LOAD), .recov = COND_YES, SER },
	/* Intel TDX: a guest in SEAM non-root mode consumed it (see mce_decide). */
	{ "data load in SEAM non-root mode (a TDX guest)", G(RECOVER), ST(SRAR_A_MASK, SRAR_A),
	  MCG(G_SEAM, G_SEAM), COD(CODE, MCACOD_DATA_LOAD), .recov = COND_NO, SER },
	{ "instruction fetch in SEAM non-root mode (a TDX guest)", G(RECOVER),
	  ST(SRAR_A_MASK, SRAR_A), MCG(G_SEAM, G_SEAM), COD(CODE, MCACOD_INSN_FETCH),
	  .recov = COND_NO, SER },
	{ "data load in unrecoverable area of kernel", G(PANIC), ST(SRAR_A_MASK, SRAR_A),
	  COD(CODE, MCACOD_DATA_LOAD), .recov = COND_NO, SER },
	{ "instruction fetch error in kernel", G(PANIC), ST(SRAR_A_MASK, SRAR_A),
	  COD(CODE, MCACOD_INSN_FETCH), .recov = COND_NO, SER },
	{ "action required, unknown error type", G(PANIC), ST(SRAR_MASK, SRAR), SER },
	{ "action optional, unknown error type", G(SOME), ST(SRAR_MASK, S_UC | S_S), SER },
	{ "action optional with overflow (OVER)", G(SOME), ST(SRAR_MASK, S_OVER | S_UC | S_S),
	  SER },
	{ "uncorrected error with overflow (OVER)", G(PANIC), ST(S_OVER | S_UC, S_OVER | S_UC) },
	{ "uncorrected error in kernel", G(PANIC), ST(S_UC, S_UC), .recov = COND_NO },
	{ "uncorrected error at a machine-check-safe fixup", G(UC), ST(S_UC, S_UC) },
	{ "no rule matched", G(SOME) },
};

const struct mce_rule mce_rules_amd[] = {
	{ "no valid error", G(NONE), ST(S_VAL, 0) },
	{ "processor context corrupt (PCC)", G(PANIC), ST(S_PCC, S_PCC) },
	{ "deferred error", G(LOG), ST(S_DEF, S_DEF) },
	{ "corrected error", G(KEEP), ST(S_UC, 0) },
	{ "uncorrected error with overflow and no McaOverflowRecov", G(PANIC),
	  ST(S_OVER, S_OVER), .ovf_recov = COND_NO },
	{ "uncorrected error and no SUCCOR: recovery not supported", G(PANIC), NOSER },
	{ "uncorrected error in kernel at a machine-check-safe fixup", G(RECOVER),
	  .recov = COND_YES },
	{ "uncorrected error in kernel without fixup", G(PANIC) },
};

const unsigned int mce_nr_rules_intel = ARRAY_SIZE(mce_rules_intel);
const unsigned int mce_nr_rules_amd = ARRAY_SIZE(mce_rules_amd);

/* "Recoverable kernel context": RIPV and EIPV set and an MCE-safe fixup at RIP. */
static bool recov_context(const struct mce_grade_in *in)
{
	u64 both = MCG_STATUS_RIPV | MCG_STATUS_EIPV;

	return !in->poll && (in->mcg_status & both) == both && in->mce_safe_fixup;
}

static bool cond_ok(enum mce_cond c, bool v)
{
	return c == COND_ANY || (c == COND_YES) == v;
}

/* A model-specific row: this CPU model from its first stepping, and one of its banks. */
static bool cpu_ok(const struct mce_rule *r, const struct mce_grade_in *in)
{
	if (r->family && (in->family != r->family || in->model != r->model ||
			  in->stepping < r->min_stepping))
		return false;
	return !r->bank_hi || (in->bank >= r->bank_lo && in->bank <= r->bank_hi);
}

static bool matches(const struct mce_rule *r, const struct mce_grade_in *in)
{
	u64 mcg = in->poll ? 0 : in->mcg_status;

	if (r->excp_only && in->poll)
		return false;
	return (in->status & r->mask) == r->value && (mcg & r->mcg_mask) == r->mcg_value &&
	       ((in->status & MCI_STATUS_MCACOD) & r->mcacod_mask) == r->mcacod_value &&
	       cond_ok(r->recov, recov_context(in)) && cond_ok(r->ser, in->ser) &&
	       cond_ok(r->ovf_recov, in->ovf_recov) && cpu_ok(r, in);
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
		[MCE_GRADE_NONE] = "none", [MCE_GRADE_LOG] = "log (UCNA/deferred)",
		[MCE_GRADE_KEEP] = "keep (corrected)", [MCE_GRADE_SOME] = "log",
		[MCE_GRADE_AO] = "action optional", [MCE_GRADE_UC] = "uncorrected",
		[MCE_GRADE_RECOVER] = "recover via fixup", [MCE_GRADE_PANIC] = "panic",
	};

	return g <= MCE_GRADE_PANIC ? names[g] : "?";
}

/*
 * Whether a poller (Linux's machine_check_poll from the timer or CMCI) would log the bank:
 * corrected errors always; with software error recovery also uncorrected errors that are
 * not enabled, or neither PCC nor signalled. AMD: Linux's ser flag is Intel's SER_P only.
 */
bool mce_poll_would_log(const struct mce_grade_in *in)
{
	u64 st = in->status;
	bool ser_p = !in->amd && in->ser;

	if (!(st & S_VAL))
		return false;
	if (!(st & S_UC))
		return true;
	if (!ser_p)
		return false;
	if (!(st & S_EN))
		return true;
	return !(st & (S_PCC | S_S));
}

bool mce_poll_queues_page(enum mce_grade g)
{
	return g == MCE_GRADE_AO || g == MCE_GRADE_LOG;
}

void mce_bank_fate(const struct mce_grade_in *in, const struct mce_rule *r, bool no_way_out,
		   struct mce_bank_fate *f)
{
	u64 signalled = !in->amd && in->ser ? S_S : S_UC;

	*f = (struct mce_bank_fate){ 0 };
	if (!(in->status & S_VAL))
		return;
	if (!no_way_out && (!(in->status & signalled) || r->grade == MCE_GRADE_KEEP ||
			    r->grade == MCE_GRADE_LOG))
		return;		/* the poller's */
	f->logged = r->grade != MCE_GRADE_NONE;
	f->clear = !no_way_out;
	f->queue_page = !no_way_out && r->grade == MCE_GRADE_AO;
}

const struct mce_rule mce_rule_unknown_source = {
	"broadcast machine check and no bank of this CPU claims it: unknown source", G(PANIC),
};
const struct mce_rule mce_rule_no_ripv = {
	"RIPV clear: the interrupted code cannot be restarted", G(PANIC),
};
const struct mce_rule mce_rule_uc_no_ser = {
	"uncorrected error without software error recovery: resuming would consume it again",
	G(PANIC),
};
const struct mce_rule mce_rule_resume = {
	"nothing fatal and nothing to recover: resume", G(KEEP),
};
const struct mce_rule mce_rule_seam = {
	"action required in SEAM non-root mode: the TDX guest is gone; resume at RIP", G(SOME),
};

void mce_decision_init(struct mce_decision *d)
{
	*d = (struct mce_decision){ .fatal_idx = -1, .worst_idx = -1 };
}

void mce_decision_add(struct mce_decision *d, const struct mce_rule *r, bool logged, int idx)
{
	if (r->grade == MCE_GRADE_PANIC && !d->fatal) {
		d->fatal = r;
		d->fatal_idx = idx;
	}
	if (logged && (!d->worst || r->grade > d->worst->grade)) {
		d->worst = r;
		d->worst_idx = idx;
	}
}

void mce_decide(struct mce_decision *d, u64 mcg_status, bool amd, bool mce_safe_fixup)
{
	bool local = amd || (mcg_status & MCG_STATUS_LMCES);
	enum mce_grade worst = d->worst ? d->worst->grade : MCE_GRADE_NONE;

	d->end = MCE_END_PANIC;
	if (d->fatal) {
		d->why = d->fatal;
	} else if (!local && !d->reigned && worst <= MCE_GRADE_KEEP) {
		d->why = &mce_rule_unknown_source;
	} else if (!(mcg_status & MCG_STATUS_RIPV)) {
		d->why = &mce_rule_no_ripv;		/* deliberate: Linux would resume */
	} else if (worst == MCE_GRADE_RECOVER && (mcg_status & MCG_STATUS_SEAM_NR)) {
		d->end = MCE_END_RESUME;
		d->why = &mce_rule_seam;
	} else if (worst == MCE_GRADE_RECOVER && mce_safe_fixup) {
		d->end = MCE_END_RECOVER;
		d->why = d->worst;
	} else if (worst == MCE_GRADE_UC) {
		d->why = &mce_rule_uc_no_ser;		/* deliberate: Linux would resume */
	} else {
		d->end = MCE_END_RESUME;
		d->why = d->worst ? d->worst : &mce_rule_resume;
	}
}
