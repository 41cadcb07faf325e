// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce_rendezvous.c - the decisions of machine checks on several CPUs (mce/smp_logic.c):
 * who needs a rendezvous, when each wait is over or timed out, the Monarch's reign over
 * every CPU's view, the CMCI ownership probe, SMCA IPID sharing and the summary line.
 *
 * The reign is checked against the independent model of Linux v6.17 (ktest/oracle/): the
 * model decides each CPU's bank on its own without a rendezvous (monarch_timeout_zero: the
 * end a CPU reaches when mce_end() lets it go), and Linux's mce_reign() takes the worst
 * logged severity of all CPUs: a panic grade anywhere (or a CPU with no way out) stops the
 * machine, nothing above "keep" anywhere stops it too (unknown source), otherwise each CPU
 * ends as the model says for it alone. Every pair of a set of single-bank states on two CPUs,
 * and a fixed pseudo-random sample of three- and four-CPU events, must agree, apart from the
 * image's two deliberate deviation classes (docs/design/machine-checks.md), counted apart.
 */
#include "ktest/oracle/linux_mce.h"
#include "mce/grade.h"
#include "mce/mce_regs.h"
#include "mce/smp_logic.h"
#include "tests/host/host_test.h"

/* ---- the waits and small verdicts ---- */

static void test_needs_rendezvous(void)
{
	CHECK(mce_rv_broadcast_capable(false, 6, 0xe), "Intel 6/0xe broadcasts");
	CHECK(!mce_rv_broadcast_capable(false, 6, 0xd), "Intel 6/0xd does not");
	CHECK(mce_rv_broadcast_capable(false, 0xf, 1), "family above 6 broadcasts");
	CHECK(!mce_rv_broadcast_capable(true, 0x19, 1), "AMD never");
	CHECK(mce_rv_needed(false, true, MCG_STATUS_MCIP | MCG_STATUS_RIPV, 2), "broadcast");
	CHECK(!mce_rv_needed(false, true, MCG_STATUS_MCIP | MCG_STATUS_LMCES, 4), "LMCES: local");
	CHECK(!mce_rv_needed(true, true, MCG_STATUS_MCIP, 4), "AMD: local");
	CHECK(!mce_rv_needed(false, true, MCG_STATUS_MCIP, 1), "one CPU: no rendezvous");
	CHECK(!mce_rv_needed(false, true, 0, 4), "MCIP clear (int $18): no rendezvous");
	CHECK(!mce_rv_needed(false, false, MCG_STATUS_MCIP, 4), "no broadcast model");
}

/*
 * Linux's wait (mce_start()/mce_end() around mce_timed_out(), core.c): the budget t starts at
 * the timeout; each look that finds the wait not over gives up when t < SPINUNIT, else takes
 * SPINUNIT off t and spins SPINUNIT. Whether a wait that is never done has given up by the
 * time @elapsed has passed, with one spin of @unit: the model the boundary cases follow.
 */
static bool linux_gave_up(u64 budget, u64 unit, u64 elapsed)
{
	s64 t = (s64)budget;

	for (u64 spun = 0;; spun += unit) {
		if (t < (s64)unit)
			return true;
		if (spun >= elapsed)
			return false;
		t -= (s64)unit;
	}
}

/*
 * The deadline itself: the image's clock ticks in TSC cycles, so one spin is one tick. With
 * a budget of 1000 ticks from 5000, Linux still waits at 5999 (one tick left) and has given
 * up at 6000 (none left) and at 6001. A ">=" that slid back to ">" would wait at 6000.
 */
static void test_timeout_boundary(void)
{
	const u64 start = 5000, budget = 1000, deadline = start + budget;
	static const struct {
		u64 now;
		enum mce_rv_wait want;
	} c[] = {
		{ deadline - 1, MCE_RV_WAIT }, { deadline, MCE_RV_TIMEOUT },
		{ deadline + 1, MCE_RV_TIMEOUT },
	};

	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		bool lx = linux_gave_up(budget, 1, c[i].now - start);

		CHECK(lx == (c[i].want == MCE_RV_TIMEOUT), "the model of Linux at %llu: %s",
		      (unsigned long long)c[i].now, lx ? "gave up" : "waits");
		CHECK(mce_rv_wait_step(false, c[i].now, deadline) == c[i].want,
		      "not done at deadline %+lld: %s", (long long)(c[i].now - deadline),
		      c[i].want == MCE_RV_WAIT ? "wait" : "time out");
		CHECK(mce_rv_wait_step(true, c[i].now, deadline) == MCE_RV_GO,
		      "done at deadline %+lld: go (Linux looks at the condition first)",
		      (long long)(c[i].now - deadline));
	}
	/* Coarser spins (Linux's SPINUNIT is 100 ns): never a wait past the budget. */
	CHECK(linux_gave_up(1000, 100, 950) && !linux_gave_up(1000, 100, 850),
	      "with 100-tick spins Linux gives up once less than a spin is left");
}

static void test_stages(void)
{
	/* Four CPUs: check-in, then turns in order, then the Monarch, then the release. */
	CHECK(!mce_rv_stage_done(MCE_RV_CALLIN, 3, 0, 1, 4), "3 of 4 in: wait");
	CHECK(mce_rv_stage_done(MCE_RV_CALLIN, 4, 0, 1, 4), "4 of 4 in: go");
	CHECK(!mce_rv_stage_done(MCE_RV_TURN, 4, 1, 2, 4), "2nd waits while the Monarch scans");
	CHECK(mce_rv_stage_done(MCE_RV_TURN, 4, 2, 2, 4), "2nd goes after the Monarch");
	CHECK(!mce_rv_stage_done(MCE_RV_TURN, 4, 2, 3, 4), "3rd waits for the 2nd");
	CHECK(!mce_rv_stage_done(MCE_RV_SUBJECTS, 4, 4, 1, 4), "3 scans done: Monarch waits");
	CHECK(mce_rv_stage_done(MCE_RV_SUBJECTS, 4, 5, 1, 4), "4 scans done: Monarch reigns");
	CHECK(!mce_rv_stage_done(MCE_RV_MONARCH, 4, 5, 3, 4), "Subjects wait for the release");
	CHECK(mce_rv_stage_done(MCE_RV_MONARCH, 0, 0, 3, 4), "released");

	CHECK(mce_rv_wait_step(false, 10, 20) == MCE_RV_WAIT, "before the deadline: wait");
	CHECK(mce_rv_wait_step(false, 21, 20) == MCE_RV_TIMEOUT, "after it: time out");
	CHECK(mce_rv_wait_step(true, 21, 20) == MCE_RV_GO, "done late is done");
	for (int s = MCE_RV_CALLIN; s <= MCE_RV_MONARCH; s++)
		CHECK(mce_rv_timeout_rule(s)->grade == MCE_GRADE_PANIC &&
		      !strncmp(mce_rv_timeout_rule(s)->name, "timeout: ", 9), "stage %d", s);
	CHECK(strstr(mce_rv_timeout_rule(MCE_RV_CALLIN)->name, "not all CPUs entered"),
	      "check-in timeout says so");
}

static void test_ordinal_and_lists(void)
{
	static const struct { unsigned int n; const char *s; } ord[] = {
		{ 1, "1st" }, { 2, "2nd" }, { 3, "3rd" }, { 4, "4th" }, { 11, "11th" },
		{ 12, "12th" }, { 13, "13th" }, { 21, "21st" }, { 112, "112th" }, { 123, "123rd" },
	};
	char buf[32];

	for (unsigned int i = 0; i < sizeof(ord) / sizeof(ord[0]); i++)
		CHECK(!strcmp(mce_rv_ordinal(ord[i].n, buf, sizeof(buf)), ord[i].s), "%u: %s",
		      ord[i].n, buf);
	mce_bank_list(0, buf, sizeof(buf));
	CHECK(!strcmp(buf, "none"), "%s", buf);
	mce_bank_list(BIT(0) | BIT(2) | BIT(3) | BIT(4) | BIT(6) | BIT(7) | BIT(63), buf,
		      sizeof(buf));
	CHECK(!strcmp(buf, "0,2-4,6,7,63"), "%s", buf);
}

static void test_cmci_probe(void)
{
	CHECK(mce_cmci_probe(0, MCI_CTL2_CMCI_EN) == MCE_CMCI_MINE, "clear, stuck: mine");
	CHECK(mce_cmci_probe(MCI_CTL2_CMCI_EN | 5, MCI_CTL2_CMCI_EN | 5) == MCE_CMCI_OTHER,
	      "already set: another CPU owns it");
	CHECK(mce_cmci_probe(0, 0) == MCE_CMCI_NONE, "does not stick: no CMCI");
	CHECK(mce_cmci_probe(0x7fff, 0x7fff) == MCE_CMCI_NONE, "threshold bits are not CMCI_EN");
}

static void test_ipid_shared(void)
{
	const u64 a[] = { 0xb000000000, 0, 0x9600050f00, 0x2e00000001 };
	const u64 b[] = { 0xb000000001, 0, 0x9600050f00, 0x2e00000001, 0x11 };

	CHECK(mce_ipid_shared(a, 4, b, 5) == (BIT(2) | BIT(3)), "0x%llx",
	      (unsigned long long)mce_ipid_shared(a, 4, b, 5));
	CHECK(mce_ipid_shared(a, 4, a, 0) == 0, "no other banks");
	CHECK(!(mce_ipid_shared(a, 4, b, 5) & BIT(1)), "a zero IPID is never shared");
}

/* ---- the summary line ---- */

static struct mce_cpu_facts facts[6];

static const struct mce_cpu_facts *get_facts(void *ctx, unsigned int cpu)
{
	return cpu < 6 ? &facts[cpu] : NULL;
}

static void test_summary(void)
{
	char buf[512];
	int n;

	for (int i = 0; i < 4; i++)
		facts[i] = (struct mce_cpu_facts){ .started = true, .mca = true, .nbanks = 10 };
	n = mce_cpus_summary(get_facts, NULL, 4, buf, sizeof(buf));
	CHECK(!strcmp(buf, "4 CPUs (4 started), banks 10 on every CPU (not enabling on CPUs "
		      "none), stale errors on CPUs none, shared banks unknown (no CMCI ownership "
		      "probe, no SMCA IPID)"), "%s", buf);
	CHECK(n == (int)strlen(buf), "length %d", n);

	facts[1].stale = 2;
	facts[2].stale = 1;
	facts[3].nbanks = 12;
	facts[3].not_enabled = BIT(11);
	facts[4] = (struct mce_cpu_facts){ 0 };			/* did not start */
	facts[5] = (struct mce_cpu_facts){ .started = true, .mca = true, .nbanks = 10,
					   .stale = 1 };
	for (int i = 0; i < 6; i++) {
		facts[i].share = MCE_SHARE_CMCI;
		facts[i].shared = i == 2 ? BIT(5) | BIT(6) : 0;
	}
	mce_cpus_summary(get_facts, NULL, 6, buf, sizeof(buf));
	CHECK(!strcmp(buf, "6 CPUs (5 started), banks 10 on CPUs 0-2,5, 12 on CPUs 3 (not "
		      "enabling on CPUs 3), stale errors on CPUs 1,2,5, shared banks 5,6 (CMCI "
		      "ownership probe)"), "%s", buf);
	/* Truncation still says how long the whole text is. */
	n = mce_cpus_summary(get_facts, NULL, 6, buf, 10);
	CHECK(strlen(buf) == 9 && n > 100, "truncated to '%s', full %d", buf, n);
}

/* ---- the reign against Linux's model ---- */

#define MAX_CPUS	4

struct cpu_case {
	struct lx_mce_in x;
	struct mce_view v;
	const struct mce_rule *own_why;		/* this CPU's own decision */
};

static struct cpu_case cpus[MAX_CPUS];

static const struct mce_view *get_view(void *ctx, unsigned int cpu)
{
	return cpu < *(unsigned int *)ctx ? &cpus[cpu].v : NULL;
}

/* One CPU's part, as the handler's rendezvous path computes it (rv_scan in handler.c). */
static void run_cpu(struct cpu_case *c, unsigned int order)
{
	struct mce_grade_in in = { .status = c->x.status, .mcg_status = c->x.mcg_status,
				   .ser = c->x.ser_p, .mce_safe_fixup = c->x.fixup_mce_safe };
	struct mce_decision d;
	const struct mce_rule *r = mce_grade(&in);
	struct mce_bank_fate f;

	mce_decision_init(&d);
	d.reigned = true;
	mce_bank_fate(&in, r, r->grade == MCE_GRADE_PANIC, &f);
	if (c->x.status & MCI_STATUS_VAL)
		mce_decision_add(&d, r, f.logged, 0);
	mce_decide(&d, c->x.mcg_status, false, c->x.fixup_mce_safe);
	c->v = (struct mce_view){ .gen = 7, .order = (u16)order, .scanned = true,
				  .grade = mce_rv_cpu_grade(&d), .why = mce_rv_cpu_why(&d),
				  .end = d.end, .bank = -1, .seq = -1 };
	c->own_why = d.why;
}

struct tally {
	unsigned long events, agree, deviation, bad, printed, panics, recovers;
};

static enum mce_end lx_to_end(enum lx_end e)
{
	return e == LX_END_PANIC ? MCE_END_PANIC : e == LX_END_RECOVER ? MCE_END_RECOVER :
	       MCE_END_RESUME;
}

static void compare_event(struct tally *t, unsigned int n)
{
	int worst_rank = 0;
	bool linux_panic = false, deviation = false, ok;
	struct lx_mce_result res[MAX_CPUS];
	struct mce_reign rg;

	for (unsigned int i = 0; i < n; i++) {
		struct lx_mce_in x = cpus[i].x;
		int rank;

		x.monarch_timeout_zero = true;	/* each CPU's own end, no reign */
		lx_mce_handle(&x, &res[i]);
		rank = res[i].logged ? lx_sev_rank(res[i].sev) : 0;
		if (rank > worst_rank)
			worst_rank = rank;
		linux_panic |= res[i].no_way_out || res[i].end == LX_END_PANIC;
		run_cpu(&cpus[i], i + 1);
		deviation |= cpus[i].own_why == &mce_rule_no_ripv ||
			     cpus[i].own_why == &mce_rule_uc_no_ser;
	}
	/* mce_reign(): the worst of all CPUs. */
	linux_panic |= worst_rank >= lx_sev_rank(LX_SEV_PANIC) ||
		       worst_rank <= lx_sev_rank(LX_SEV_KEEP);
	mce_rv_reign(get_view, &n, n, 7, &rg);

	ok = rg.nr_in == n && rg.nr_online == n && rg.monarch == 0;
	ok &= (rg.end == MCE_END_PANIC) == linux_panic;
	for (unsigned int i = 0; ok && !linux_panic && i < n; i++)
		ok &= cpus[i].v.end == lx_to_end(res[i].end);
	/* The CPU named as the worst holds the highest grade, the first one with it. */
	for (unsigned int i = 0; ok && i < n; i++)
		ok &= cpus[i].v.grade < rg.worst ||
		      (cpus[i].v.grade == rg.worst && (rg.worst == MCE_GRADE_NONE ||
						       (int)i >= rg.worst_cpu));
	if (ok && rg.end == MCE_END_PANIC && rg.worst == MCE_GRADE_PANIC)
		ok &= rg.why == cpus[rg.worst_cpu].v.why;
	t->events++;
	if (ok) {
		t->agree++;
		t->panics += linux_panic;
		t->recovers += !linux_panic && cpus[0].v.end == MCE_END_RECOVER;
		return;
	}
	if (deviation && !linux_panic && rg.end == MCE_END_PANIC) {
		t->deviation++;
		return;
	}
	t->bad++;
	if (t->printed++ < 5)
		printf("# disagreement on %u CPUs: ours %s (%s), Linux %s; first CPU status "
		       "0x%016llx mcg 0x%llx\n", n, rg.end == MCE_END_PANIC ? "panic" : "go on",
		       rg.why ? rg.why->name : "-", linux_panic ? "panic" : "go on",
		       (unsigned long long)cpus[0].x.status,
		       (unsigned long long)cpus[0].x.mcg_status);
}

/* Single-bank states an Intel CPU with SER_P can show a broadcast #MC (MCIP set, LMCES clear). */
static unsigned int build_states(struct lx_mce_in *out, unsigned int max)
{
	static const u64 statuses[] = {
		0,							/* nothing */
		MCI_STATUS_VAL | MCI_STATUS_UC,				/* QEMU's -b others */
		MCI_STATUS_VAL | MCI_STATUS_EN,				/* corrected */
		MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN,		/* UCNA */
		MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_S | 0xc0,	/* SRAO */
		MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_S | 0x17a,	/* SRAO */
		MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_S | 0x9f,	/* SOME */
		MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
		MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | 0x134,	/* SRAR data */
		MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
		MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | 0x150,	/* SRAR fetch */
		MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
		MCI_STATUS_ADDRV | MCI_STATUS_PCC | MCI_STATUS_S | MCI_STATUS_AR | 0x134,
		MCI_STATUS_VAL | MCI_STATUS_OVER | MCI_STATUS_UC | MCI_STATUS_EN |
		MCI_STATUS_MISCV | MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | 0x134,
		MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_AR | 0x134, /* illegal */
	};
	static const u64 mcgs[] = {
		MCG_STATUS_MCIP | MCG_STATUS_RIPV | MCG_STATUS_EIPV,
		MCG_STATUS_MCIP | MCG_STATUS_RIPV,
		MCG_STATUS_MCIP | MCG_STATUS_EIPV,
		MCG_STATUS_MCIP,
	};
	unsigned int n = 0;

	for (unsigned int s = 0; s < sizeof(statuses) / sizeof(statuses[0]); s++)
		for (unsigned int m = 0; m < 4; m++)
			for (int fixup = 0; fixup < 3; fixup++)
				for (int ser = 0; ser < 2 && n < max; ser++)
					out[n++] = (struct lx_mce_in){
						.status = statuses[s], .mcg_status = mcgs[m],
						.ser_p = ser, .fixup_mce_safe = fixup == 1,
						.fixup_other = fixup == 2, .bank = 1 };
	return n;
}

/* All CPUs of one event run on the same model: SER_P is a property of the machine. */
static bool same_machine(unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		if (cpus[i].x.ser_p != cpus[0].x.ser_p)
			return false;
	return true;
}

static void test_reign_matches_linux(void)
{
	static struct lx_mce_in st[512];
	unsigned int ns = build_states(st, 512);
	struct tally t = { 0 };
	u64 seed = 0x9e3779b97f4a7c15ULL;

	for (unsigned int a = 0; a < ns; a++)
		for (unsigned int b = 0; b < ns; b++) {
			cpus[0].x = st[a];
			cpus[1].x = st[b];
			if (same_machine(2))
				compare_event(&t, 2);
		}
	for (unsigned int k = 0; k < 200000; k++) {
		unsigned int n = 3 + (k & 1);

		for (unsigned int i = 0; i < n; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			cpus[i].x = st[seed % ns];
			cpus[i].x.ser_p = cpus[0].x.ser_p;
		}
		compare_event(&t, n);
	}
	printf("# %lu events on 2-4 CPUs: %lu agree (%lu panic, %lu recover on CPU 0), %lu in "
	       "the deviation classes, %lu disagree\n", t.events, t.agree, t.panics, t.recovers,
	       t.deviation, t.bad);
	CHECK(t.bad == 0, "%lu disagreements with Linux's model", t.bad);
	CHECK(t.agree > 100000 && t.panics && t.recovers, "the walk covers both ends");
}

/* QEMU's "mce -b": the target's SRAR at a fixup, the others VAL|UC with MCIP|RIPV. */
static void test_qemu_broadcast_shapes(void)
{
	const u64 srar = 0xbd80000000000134ULL;
	unsigned int n = 4;
	struct mce_reign rg;

	for (unsigned int i = 0; i < n; i++)
		cpus[i].x = (struct lx_mce_in){ .status = MCI_STATUS_VAL | MCI_STATUS_UC,
						.mcg_status = MCG_STATUS_MCIP | MCG_STATUS_RIPV,
						.ser_p = true };
	cpus[2].x.status = srar;
	cpus[2].x.mcg_status |= MCG_STATUS_EIPV;
	cpus[2].x.fixup_mce_safe = true;
	for (unsigned int i = 0; i < n; i++)
		run_cpu(&cpus[i], i == 2 ? 1 : i + 2);
	mce_rv_reign(get_view, &n, n, 7, &rg);
	CHECK(rg.end == MCE_END_RESUME && rg.worst_cpu == 2 && rg.monarch == 2 &&
	      rg.worst == MCE_GRADE_RECOVER, "recovered: end %d worst CPU %d", rg.end,
	      rg.worst_cpu);
	CHECK(cpus[2].v.end == MCE_END_RECOVER, "the target resumes at its fixup");
	CHECK(cpus[0].v.end == MCE_END_RESUME && cpus[0].v.grade == MCE_GRADE_NONE,
	      "the others resume, nothing to log");

	cpus[2].x.status |= MCI_STATUS_PCC;
	run_cpu(&cpus[2], 1);
	mce_rv_reign(get_view, &n, n, 7, &rg);
	CHECK(rg.end == MCE_END_PANIC && rg.worst_cpu == 2 &&
	      !strcmp(rg.why->name, "processor context corrupt (PCC)"), "PCC: %s",
	      rg.why ? rg.why->name : "-");

	/* Nobody claims it: unknown source. */
	cpus[2].x.status = MCI_STATUS_VAL | MCI_STATUS_UC;
	run_cpu(&cpus[2], 1);
	mce_rv_reign(get_view, &n, n, 7, &rg);
	CHECK(rg.end == MCE_END_PANIC && rg.why == &mce_rule_unknown_source, "unknown source");

	/* A CPU of an older event did not check in: it is online but missing. */
	cpus[3].v.gen = 6;
	cpus[2].x.status = srar;
	run_cpu(&cpus[2], 1);
	mce_rv_reign(get_view, &n, n, 7, &rg);
	CHECK(rg.nr_in == 3 && rg.nr_online == 4 && !mce_rv_checked_in(&cpus[3].v, 7) &&
	      mce_rv_checked_in(&cpus[0].v, 7), "3 of 4 in");
}

/* One CPU alone with the rendezvous reaches what the single-CPU handler decides. */
static void test_one_cpu_is_the_old_path(void)
{
	static struct lx_mce_in st[512];
	unsigned int ns = build_states(st, 512), n = 1, bad = 0;

	for (unsigned int a = 0; a < ns; a++) {
		struct mce_grade_in in = { .status = st[a].status, .mcg_status = st[a].mcg_status,
					   .ser = st[a].ser_p,
					   .mce_safe_fixup = st[a].fixup_mce_safe };
		const struct mce_rule *r = mce_grade(&in);
		struct mce_decision d;
		struct mce_bank_fate f;
		struct mce_reign rg;
		enum mce_end end;

		mce_decision_init(&d);
		mce_bank_fate(&in, r, r->grade == MCE_GRADE_PANIC, &f);
		if (in.status & MCI_STATUS_VAL)
			mce_decision_add(&d, r, f.logged, 0);
		mce_decide(&d, in.mcg_status, false, in.mce_safe_fixup);
		cpus[0].x = st[a];
		run_cpu(&cpus[0], 1);
		mce_rv_reign(get_view, &n, n, 7, &rg);
		end = rg.end == MCE_END_PANIC ? MCE_END_PANIC : cpus[0].v.end;
		bad += end != d.end;
	}
	CHECK(bad == 0, "%u states decide differently through the reign", bad);
}

int main(void)
{
	return RUN_TESTS(test_needs_rendezvous, test_stages, test_timeout_boundary,
			 test_ordinal_and_lists, test_cmci_probe, test_ipid_shared, test_summary,
			 test_reign_matches_linux, test_qemu_broadcast_shapes,
			 test_one_cpu_is_the_old_path);
}
