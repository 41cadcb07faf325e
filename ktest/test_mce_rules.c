// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce_rules.c - the mce suite's cases for the #MC handler itself, raised as "int $18"
 * over this CPU's simulated registers (inject=simulate): a software int $18 told apart from
 * a #MC; every grading rule row graded by that row, its bank cleared or left in place as
 * the model of Linux says (ktest/oracle/linux_mce.h) and MCG_STATUS written last; a plain
 * exception-table entry never used for a #MC; a nested #MC; every bank of a 20-bank part
 * graded, and cleared unless a panic grade leaves them all.
 */
#include "kernel/arch/desc.h"
#include "kernel/include/extable.h"
#include "kernel/lib/string.h"
#include "ktest/lib/ktap.h"
#include "ktest/lib/mce_vectors.h"
#include "ktest/mce_suite.h"
#include "ktest/oracle/linux_mce.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/msr.h"

void software_int18(struct ck_test *t)
{
	u64 before = mce_count();
	const struct mce_record *r;

	__asm__ volatile("int $18" ::: "memory");
	r = mce_last();
	report(t, mce_count() == before + 1 && r && r->kind == MCE_KIND_SOFTWARE,
	       "int $18 recorded as software (kind %d)", r ? (int)r->kind : -1);
	report(t, r && r->frame < ist_stack_top(IST_MC) &&
	       r->frame >= ist_stack_top(IST_MC) - IST_STACK_SIZE, "on the #MC IST stack");
	mce_report_new("    # ");
}

/* Raise vector 18 at a point with (or without) an MCE-safe entry on the next instruction. */
static void raise_mc(bool fixup)
{
	mce_sim_route(true);
	if (fixup)
		__asm__ volatile("int $18\n"
				 "1:\n"
				 _ASM_EXTABLE_TYPE(1b, 1b, EX_TYPE_DEFAULT_MCE_SAFE) ::: "memory");
	else
		__asm__ volatile("int $18" ::: "memory");
	mce_sim_route(false);
}

/* This CPU's simulated registers, empty; NULL (and @t skipped) when it has none. */
static struct mce_sim *sim_begin(struct ck_test *t)
{
	struct mce_sim *s = mce_sim_this();

	if (!s) {
		ck_skip(t, "this CPU has no machine-check state");
		return NULL;
	}
	mce_sim_reset(s);
	return s;
}

/* The recoverable SRAR data load, simulated on bank 1 with Intel rules and SER_P. */
static struct mce_sim *sim_srar(struct ck_test *t)
{
	struct mce_sim *s = sim_begin(t);

	if (!s)
		return NULL;
	s->vendor = SIM_VENDOR_INTEL;
	s->ser = true;
	s->no_panic = true;
	mce_sim_set(s, MSR_IA32_MCG_CAP, 2 | MCG_SER_P);
	mce_sim_set(s, MSR_IA32_MCG_STATUS, MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP);
	mce_sim_set(s, mce_bank_msr(1, MCE_REG_STATUS), 0xbd80000000000134ULL);
	mce_sim_set(s, mce_bank_msr(1, MCE_REG_ADDR), mce_sim_page(0) + 0x40);
	mce_sim_set(s, mce_bank_msr(1, MCE_REG_MISC), 0x86);
	return s;
}

/* A plain (fault-type) exception-table entry at RIP must not be used for a #MC. */
void plain_entry_not_used_for_mc(struct ck_test *t)
{
	const struct mce_record *r;
	u64 trap = 0;

	if (!sim_srar(t))
		return;
	mce_sim_route(true);
	__asm__ volatile("int $18\n"
			 "1:\n"
			 _ASM_EXTABLE_TYPE(1b, 1b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+S"(trap) :: "memory");
	mce_sim_route(false);
	r = mce_last();
	report(t, r && r->fixup_found && !r->fixup_mce_safe, "a plain entry was found at RIP");
	report(t, r && !r->recovered && r->would_panic && r->rule &&
	       !strcmp(r->rule->name, "data load in unrecoverable area of kernel"),
	       "not recovered through it: \"%s\"", r && r->rule ? r->rule->name : "?");
	report(t, trap == 0, "the FAULT entry did not run (trap number %llu)",
	       (unsigned long long)trap);
}

/* A #MC while MCIP is set and a handler runs is recognised as nested (and would panic). */
void nested_mc_recognised(struct ck_test *t)
{
	const struct mce_record *r;
	struct mce_sim *s = sim_srar(t);

	if (!s)
		return;
	s->nested = true;
	raise_mc(true);
	r = mce_last();
	report(t, r && r->kind == MCE_KIND_NESTED && r->would_panic && !r->recovered,
	       "recorded as nested, would stop the machine (kind %d)", r ? (int)r->kind : -1);
	report(t, r && (r->mcg_status & MCG_STATUS_MCIP), "MCIP was set");
	mce_report_new("    # ");
}

/* One run of every_bank_graded: banks 2..10 scrubbed, and with @pcc a PCC error in 19. */
static void twenty_banks(struct ck_test *t, struct mce_sim *s, bool pcc)
{
	const u64 srao = 0xbd000000000000c3ULL;	/* VAL UC EN MISCV ADDRV S */
	const struct mce_record *r;
	bool cleared = true, kept = true;

	mce_sim_set(s, MSR_IA32_MCG_CAP, 20 | MCG_SER_P);
	for (unsigned int b = 2; b <= 10; b++) {
		mce_sim_set(s, mce_bank_msr(b, MCE_REG_STATUS), srao);
		mce_sim_set(s, mce_bank_msr(b, MCE_REG_ADDR), mce_sim_page(b));
		mce_sim_set(s, mce_bank_msr(b, MCE_REG_MISC), 0x86);
	}
	if (pcc)
		mce_sim_set(s, mce_bank_msr(19, MCE_REG_STATUS),
			    0xbd80000000000134ULL | MCI_STATUS_PCC);
	raise_mc(true);
	for (unsigned int b = 0; b < 20; b++) {
		u64 st = mce_sim_get(s, mce_bank_msr(b, MCE_REG_STATUS));

		cleared &= st == 0;
		kept &= (b >= 1 && b <= 10) || b == 19 ? st != 0 : true;
	}
	r = mce_last();
	if (!report(t, r != NULL, "a record"))
		return;
	/* Linux: a bank graded panic means no way out, and mce_clear_state() is not called. */
	if (pcc)
		report(t, kept && r->nr_left == r->nr_valid,
		       "run 0: no way out: every valid bank left in place (%u of %u)", r->nr_left,
		       r->nr_valid);
	else
		report(t, cleared && r->nr_left == 0, "run 1: every bank's STATUS cleared");
	report(t, r->nr_valid == 10u + pcc && r->nr_banks == MCE_LOG_BANKS,
	       "run %d: %u valid banks graded, %u held in the log", !pcc, r->nr_valid,
	       r->nr_banks);
	if (pcc) {
		report(t, r->would_panic && !r->recovered && r->rule &&
		       !strcmp(r->rule->name, "processor context corrupt (PCC)"),
		       "the PCC error in bank 19 decides: \"%s\"", r->rule ? r->rule->name : "?");
	} else {
		report(t, r->recovered && !r->would_panic, "without it: recovered");
		report(t, r->queued == 9 && on_poison_list(mce_sim_page(2) >> 12) &&
		       on_poison_list(mce_sim_page(10) >> 12),
		       "the 9 scrubbed pages are queued (%u)", r->queued);
	}
	mce_report_new("    # ");
}

/*
 * A 20-bank part: an SRAR data load in bank 1, action-optional scrub errors in banks 2..10
 * (on the suite's own pages, mce_sim_page: no free page is marked), and in the first run a PCC
 * error in bank 19. Every valid bank must be graded, the log says how many it could not hold,
 * the PCC decides and leaves every bank in place; without it every bank is cleared, the copy
 * recovers and every scrubbed page is queued.
 */
void every_bank_graded(struct ck_test *t)
{
	for (int run = 0; run < 2; run++) {
		struct mce_sim *s = sim_srar(t);

		if (!s)
			return;
		twenty_banks(t, s, run == 0);
		mce_sim_reset(s);
	}
}

static bool end_matches(const struct mce_record *r, enum mce_vector_end end)
{
	switch (end) {
	case VEC_RECOVER:
		return r->recovered && !r->would_panic;
	case VEC_PANIC:
		return r->would_panic && !r->recovered;
	default:
		return !r->recovered && !r->would_panic;
	}
}

/* Vector @v into @s: its bank (bank 1 unless it names one) and, if it names one, its CPU. */
static u32 sim_vector(struct mce_sim *s, const struct mce_vector *v)
{
	unsigned int bank = v->bank ? v->bank : 1;
	u32 st = mce_bank_msr(bank, MCE_REG_STATUS);

	mce_sim_reset(s);
	s->vendor = v->amd ? SIM_VENDOR_AMD : SIM_VENDOR_INTEL;
	s->ser = v->ser;
	s->no_panic = true;
	s->ident = v->family != 0;
	s->family = v->family;
	s->model = v->model;
	s->stepping = v->stepping;
	mce_sim_set(s, MSR_IA32_MCG_CAP, MAX(2U, bank + 1) | (v->ser ? MCG_SER_P : 0));
	mce_sim_set(s, MSR_IA32_MCG_STATUS, v->mcg_status);
	mce_sim_set(s, st, v->status);
	mce_sim_set(s, mce_bank_msr(bank, MCE_REG_ADDR),
		    (mce_sim_page(1) + 0x40) | (v->amd ? 6ULL << 56 : 0));
	mce_sim_set(s, mce_bank_msr(bank, MCE_REG_MISC), 0x86);
	return st;
}

/*
 * Whether Linux's handler clears vector @v's bank (ktest/oracle: __mc_scan_banks and
 * mce_clear_state, one bank); the bank stays in place otherwise.
 */
static bool linux_clears(const struct mce_vector *v)
{
	struct lx_mce_in x = { .status = v->status, .mcg_status = v->mcg_status, .amd = v->amd,
			       .ser_p = !v->amd && v->ser, .succor = v->amd && v->ser,
			       .fixup_mce_safe = v->fixup, .bank = v->bank ? v->bank : 1,
			       .skx_quirk_cpu = v->family == 6 && v->model == 0x55 &&
						v->stepping >= 4 };
	struct lx_mce_result res;

	lx_mce_handle(&x, &res);
	return res.cleared;
}

static bool vector_ok(const struct mce_sim *s, const struct mce_vector *v, u32 st)
{
	const struct mce_record *r = mce_last();
	bool clears = linux_clears(v), ok;

	if (v->handler_reaches)
		ok = r && r->kind == MCE_KIND_SIMULATED && r->nr_banks == 1 &&
		     !strcmp(r->banks[0].rule->name, v->rule) &&
		     (mce_sim_get(s, st) == 0) == clears && r->banks[0].cleared == clears &&
		     s->last_write == MSR_IA32_MCG_STATUS &&
		     mce_sim_get(s, MSR_IA32_MCG_STATUS) == 0 && end_matches(r, v->end);
	else	/* an invalid bank is never graded: MCIP set, nothing valid */
		ok = r && r->nr_banks == 0 && end_matches(r, v->end);
	if (!ok && r)
		ck_diag("row \"%s\": bank rule \"%s\", decided by \"%s\" (%s%s, kind %d); bank "
			"%s, Linux %s it", v->rule, r->nr_banks ? r->banks[0].rule->name : "-",
			r->rule ? r->rule->name : "?", r->recovered ? "recovered" : "",
			r->would_panic ? "would panic" : "", r->kind,
			mce_sim_get(s, st) ? "left" : "cleared", clears ? "clears" : "leaves");
	return ok;
}

static void grading_rules(struct ck_test *t, bool amd)
{
	struct mce_sim *s = sim_begin(t);
	unsigned int n = 0, idx = 0;

	if (!s)
		return;
	for (unsigned int i = 0; i < mce_nr_vectors; i++)
		n += mce_vectors[i].amd == amd;
	ck_params_begin(t, amd ? "grading_rules_amd" : "grading_rules_intel", n);
	for (unsigned int i = 0; i < mce_nr_vectors; i++) {
		const struct mce_vector *v = &mce_vectors[i];
		u32 st;

		if (v->amd != amd)
			continue;
		st = sim_vector(s, v);
		raise_mc(v->fixup);
		ck_param_result(t, ++idx, vector_ok(s, v, st), v->rule);
	}
	mce_sim_reset(s);
	mce_report_skip("    # ");	/* one simulated record per row, checked above */
	mce_suite_verdict.sim_ok = !t->failed;
}

void grading_rules_intel(struct ck_test *t)
{
	grading_rules(t, false);
}

void grading_rules_amd(struct ck_test *t)
{
	grading_rules(t, true);
}
