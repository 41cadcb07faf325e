// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce_oracle.c - the machine-check grading and the handler's decisions against an
 * independent model of Linux v6.17 (ktest/oracle/linux_mce.c: procedural, written from
 * Linux's severity.c and core.c by someone who had not read mce/).
 *
 * Every single-bank state a hardware #MC can present in kernel mode is tried: MCIP set;
 * RIPV, EIPV and LMCES each way; every combination of VAL OVER UC EN MISCV ADDRV PCC S AR
 * Deferred and Poison; eleven MCACOD classes (data load, instruction fetch, scrub, L3
 * writeback, each with and without the filter bit, and others); SER_P or SUCCOR each way;
 * AMD's McaOverflowRecov and SMCA each way; no fixup, a machine-check-safe fixup or another
 * kind at RIP; and address encodings that are and are not usable. For each, whether the
 * handler clears the bank or leaves it for the poller, the end (panic, resume, recover at the
 * fixup) and whether the page is offlined (by the handler, or by the poller for a bank left
 * to it) must agree with the model, except in the two deliberate deviation classes docs/design/machine-checks.md names,
 * which are counted apart. On Intel, MCG_STATUS.SEAM_NR (TDX) is tried each way too (the bit is
 * reserved on AMD).
 *
 * A second walk covers the model-specific row: the Skylake-SP patrol-scrub quirk, for CPUs
 * on both sides of Linux's VFM_STEPPING(INTEL_SKYLAKE_X, 4) and banks on both sides of its
 * BANK_RANGE(13, 18), with error codes that do and do not carry the quirk's signature. Each
 * CPU's family, model and stepping go to grade.c as the handler fills them; the model gets
 * its skx_quirk_cpu from Linux's definition. Two-bank cases follow.
 */
#include "ktest/oracle/linux_mce.h"
#include "mce/decode.h"
#include "mce/grade.h"
#include "mce/mce_regs.h"
#include "tests/host/host_test.h"

struct ours {
	enum mce_end end;
	const struct mce_rule *why;
	bool queued, cleared;
};

struct walk {
	unsigned long tried, agree, dev_no_ripv, dev_uc, bad, printed;
};

static const u64 status_bits[] = {
	MCI_STATUS_VAL, MCI_STATUS_OVER, MCI_STATUS_UC, MCI_STATUS_EN, MCI_STATUS_MISCV,
	MCI_STATUS_ADDRV, MCI_STATUS_PCC, MCI_STATUS_S, MCI_STATUS_AR, MCI_STATUS_DEFERRED,
	MCI_STATUS_POISON,
};
static const u16 codes[] = { 0x0134, 0x1134, 0x0150, 0x1150, 0x00c0, 0x00c7, 0x10c3, 0x017a,
			     0x117a, 0x0005, 0x009f };

/* The CPU the handler grades for (grade.c's family, model, stepping). */
struct cpu_id {
	u8 family, model, stepping;
};

static void run_ours(const struct lx_mce_in *x, const struct cpu_id *id, u64 addr, u64 misc,
		     struct ours *o)
{
	struct mce_grade_in in = { .status = x->status, .mcg_status = x->mcg_status,
				   .amd = x->amd, .ser = x->amd ? x->succor : x->ser_p,
				   .ovf_recov = x->overflow_recov,
				   .mce_safe_fixup = x->fixup_mce_safe, .bank = (u16)x->bank,
				   .family = id->family, .model = id->model,
				   .stepping = id->stepping };
	struct mce_addr_src src = { .amd = x->amd, .smca = x->smca, .bank = x->bank };
	const struct mce_rule *r = mce_grade(&in);
	struct mce_grade_in p = in;
	struct mce_decision d;
	struct mce_bank_fate f;
	bool polled;

	mce_bank_fate(&in, r, r->grade == MCE_GRADE_PANIC, &f);
	mce_decision_init(&d);
	if (x->status & MCI_STATUS_VAL)
		mce_decision_add(&d, r, f.logged, 0);
	mce_decide(&d, x->mcg_status, x->amd, x->fixup_mce_safe);
	o->end = d.end;
	o->why = d.why;
	o->cleared = f.clear;
	/* A bank the handler leaves is the poller's, page included (mce/poll_core.c). */
	p.poll = true;
	polled = (x->status & MCI_STATUS_VAL) && !f.clear && !f.logged &&
		 mce_poll_would_log(&p) && mce_poll_queues_page(mce_grade(&p)->grade);
	o->queued = d.end != MCE_END_PANIC && (f.queue_page || polled) &&
		    mce_decode_addr(x->status, addr, misc, &src).valid;
}

static enum mce_end linux_end(enum lx_end e)
{
	return e == LX_END_PANIC ? MCE_END_PANIC : e == LX_END_RECOVER ? MCE_END_RECOVER :
	       MCE_END_RESUME;
}

static const char *end_name(enum mce_end e)
{
	return e == MCE_END_PANIC ? "panic" : e == MCE_END_RECOVER ? "recover" : "resume";
}

static void compare(struct walk *w, const struct lx_mce_in *x, const struct cpu_id *id,
		    u64 addr, u64 misc)
{
	struct lx_mce_result res;
	struct ours o;
	enum mce_end le;
	bool lq;

	run_ours(x, id, addr, misc, &o);
	lx_mce_handle(x, &res);
	le = linux_end(res.end);
	lq = res.queues_page && lx_mce_usable_address(x, misc, addr);
	w->tried++;
	if (o.cleared != res.cleared) {
		w->bad++;
		CHECK(w->printed++ >= 12, "status 0x%016llx mcg 0x%llx: the handler %s it, Linux %s",
		      (unsigned long long)x->status, (unsigned long long)x->mcg_status,
		      o.cleared ? "clears" : "leaves", res.cleared ? "clears" : "leaves");
		return;
	}
	if (o.end == le && o.queued == lq) {
		w->agree++;
		return;
	}
	/* The two deliberate deviations (docs/design/machine-checks.md): the image never resumes
	   without RIPV, and never resumes into an uncorrected error it cannot recover from. */
	if (o.end == MCE_END_PANIC && le == MCE_END_RESUME && o.why == &mce_rule_no_ripv) {
		w->dev_no_ripv++;
		return;
	}
	if (o.end == MCE_END_PANIC && le == MCE_END_RESUME && o.why == &mce_rule_uc_no_ser) {
		w->dev_uc++;
		return;
	}
	w->bad++;
	CHECK(w->printed++ >= 12, "%s %x/%x/%x status 0x%016llx mcg 0x%llx ser %d succor %d "
	      "ovf %d smca %d fix %d/%d bank %u misc 0x%llx: ours %s%s (\"%s\"), Linux %s%s "
	      "(\"%s\" / \"%s\")", x->amd ? "AMD" : "Intel", id->family, id->model, id->stepping,
	      (unsigned long long)x->status, (unsigned long long)x->mcg_status, x->ser_p,
	      x->succor, x->overflow_recov, x->smca, x->fixup_mce_safe, x->fixup_other, x->bank,
	      (unsigned long long)misc,
	      end_name(o.end), o.queued ? " +page" : "", o.why->name, end_name(le),
	      lq ? " +page" : "", res.sev_why ? res.sev_why : "?", res.end_why ? res.end_why : "?");
}

static u64 status_of(unsigned int m, u64 code)
{
	u64 st = code;

	for (unsigned int b = 0; b < 11; b++)
		if (m & (1u << b))
			st |= status_bits[b];
	return st;
}

/* MCIP set; RIPV, EIPV, LMCES and SEAM_NR from the bits of @g. */
static u64 mcg_of(unsigned int g)
{
	return MCG_STATUS_MCIP | (g & 1 ? MCG_STATUS_RIPV : 0) | (g & 2 ? MCG_STATUS_EIPV : 0) |
	       (g & 4 ? MCG_STATUS_LMCES : 0) | (g & 8 ? MCG_STATUS_SEAM_NR : 0);
}

static void walk_vendor(struct walk *w, bool amd)
{
	static const u64 miscs[] = { 0x86, 0x8d, 0x46 };	/* usable, too coarse, not physical */
	static const struct cpu_id none = { 0 };

	for (unsigned int m = 0; m < 1u << 11; m++)
	for (unsigned int k = 0; k < sizeof(codes) / sizeof(codes[0]); k++)
	for (unsigned int g = 0; g < (amd ? 8u : 16u); g++)
	for (unsigned int feat = 0; feat < (amd ? 8u : 2u); feat++)
	for (unsigned int fx = 0; fx < 3; fx++)
	for (unsigned int v = 0; v < 3; v++) {
		struct lx_mce_in x = { .amd = amd };
		u64 addr = 0x12345678abcULL, misc = 0x86;

		x.status = status_of(m, codes[k]);
		x.mcg_status = mcg_of(g);
		x.fixup_mce_safe = fx == 1;
		x.fixup_other = fx == 2;
		if (amd) {
			x.succor = feat & 1;
			x.overflow_recov = feat & 2;
			x.smca = feat & 4;
			x.bank = v == 1 ? 4 : 1;	/* the legacy northbridge bank */
			addr |= 6ULL << 56;
			if (v == 2)
				continue;
		} else {
			x.ser_p = feat & 1;
			misc = miscs[v];
		}
		compare(w, &x, &none, addr, misc);
	}
}

/*
 * The Skylake-SP patrol-scrub row: Linux's INTEL_SKYLAKE_X is family 6 model 0x55, from
 * stepping 4 (VFM_STEPPING), in banks 13 to 18 (BANK_RANGE). Tried: stepping 3, 4 and 7 of
 * that model, a neighbouring model, banks just outside and at both ends; the signature
 * (MSCOD 0x0010, MCACOD 000x 0000 1100 xxxx) with and without the filter bit, and codes
 * that miss it in the MSCOD or the MCACOD.
 */
static void walk_skx(struct walk *w)
{
	static const struct cpu_id cpus[] = { { 6, 0x55, 3 }, { 6, 0x55, 4 }, { 6, 0x55, 7 },
					      { 6, 0x56, 4 } };
	static const unsigned int banks[] = { 12, 13, 18, 19 };
	static const u64 scodes[] = { 0x001000c0, 0x001010c7, 0x001000d0, 0x002000c0,
				      0x000000cf };
	static const u64 miscs[] = { 0x86, 0x46 };

	for (unsigned int c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++)
	for (unsigned int bk = 0; bk < sizeof(banks) / sizeof(banks[0]); bk++)
	for (unsigned int m = 0; m < 1u << 11; m++)
	for (unsigned int k = 0; k < sizeof(scodes) / sizeof(scodes[0]); k++)
	for (unsigned int g = 0; g < 8; g++)
	for (unsigned int ser = 0; ser < 2; ser++)
	for (unsigned int fx = 0; fx < 3; fx++)
	for (unsigned int v = 0; v < 2; v++) {
		const struct cpu_id *id = &cpus[c];
		struct lx_mce_in x = { .status = status_of(m, scodes[k]), .mcg_status = mcg_of(g),
				       .ser_p = ser, .fixup_mce_safe = fx == 1,
				       .fixup_other = fx == 2, .bank = banks[bk] };

		x.skx_quirk_cpu = id->family == 6 && id->model == 0x55 && id->stepping >= 4;
		compare(w, &x, id, 0x12345678abcULL, miscs[v]);
	}
}

static void report_walk(const char *what, const struct walk *w)
{
	printf("# mce oracle, %s: %lu inputs tried, %lu agree, %lu deliberate deviations (%lu "
	       "RIPV clear, %lu uncorrected without SER_P), %lu disagreements\n", what, w->tried,
	       w->agree, w->dev_no_ripv + w->dev_uc, w->dev_no_ripv, w->dev_uc, w->bad);
	CHECK(w->bad == 0, "%s: %lu inputs where the image and Linux end differently", what,
	      w->bad);
}

static void test_single_bank_walk(void)
{
	struct walk w = { 0 };

	walk_vendor(&w, false);
	walk_vendor(&w, true);
	report_walk("single bank", &w);
	CHECK(w.tried > 1000000, "the walk tried %lu inputs", w.tried);
}

static void test_skx_quirk_walk(void)
{
	struct walk w = { 0 };

	walk_skx(&w);
	report_walk("Skylake-SP patrol scrub", &w);
	CHECK(w.tried > 1000000, "the walk tried %lu inputs", w.tried);
}

/* Linux's order, bank by bank, over two banks (the model covers one): what a walk cannot. */
static void test_two_banks(void)
{
	const u64 srar = MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
			 MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | 0x134;
	const u64 srao = MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
			 MCI_STATUS_ADDRV | MCI_STATUS_S | 0xc3;
	const u64 mcg = MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP;
	struct mce_grade_in a = { .status = srar, .mcg_status = mcg, .ser = true,
				  .mce_safe_fixup = true };
	struct mce_grade_in b = a;
	struct mce_bank_fate fa, fb;
	struct mce_decision d;

	b.status = srao;
	mce_bank_fate(&a, mce_grade(&a), false, &fa);
	mce_bank_fate(&b, mce_grade(&b), false, &fb);
	mce_decision_init(&d);
	mce_decision_add(&d, mce_grade(&a), fa.logged, 0);
	mce_decision_add(&d, mce_grade(&b), fb.logged, 1);
	mce_decide(&d, mcg, false, true);
	CHECK(d.end == MCE_END_RECOVER && d.worst_idx == 0, "SRAR beside SRAO recovers");
	CHECK(!fa.queue_page && fb.queue_page, "the SRAO page is queued beside it (%d %d)",
	      fa.queue_page, fb.queue_page);
	CHECK(fa.clear && fb.clear, "both are taken and cleared (%d %d)", fa.clear, fb.clear);

	/* A PCC error in the last of 20 banks decides, whatever came before. */
	mce_decision_init(&d);
	for (int i = 0; i < 19; i++)
		mce_decision_add(&d, mce_grade(&b), fb.logged, i);
	b.status = srar | MCI_STATUS_PCC;
	mce_decision_add(&d, mce_grade(&b), true, 19);
	mce_decide(&d, mcg, false, true);
	CHECK(d.end == MCE_END_PANIC && d.fatal_idx == 19, "PCC in bank 19 of 20 panics");
	/* ... and with it (no way out) no bank is cleared: the SRAO stays. */
	b.status = srao;
	mce_bank_fate(&b, mce_grade(&b), true, &fb);
	CHECK(fb.logged && !fb.clear && !fb.queue_page, "no way out: logged, left, not queued");

	/* A UCNA beside the SRAR: not logged by the handler, left for the poller. */
	b.status = MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
		   MCI_STATUS_ADDRV | 0x9f;
	mce_bank_fate(&b, mce_grade(&b), false, &fb);
	CHECK(!fb.logged && !fb.clear && !fb.queue_page,
	      "UCNA: left for the poller, page and all (%d %d %d)", fb.logged, fb.clear,
	      fb.queue_page);
}

int main(void)
{
	return RUN_TESTS(test_single_bank_walk, test_skx_quirk_walk, test_two_banks);
}
