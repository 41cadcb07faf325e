// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce_scan.c - which banks the #MC handler takes and which it leaves for the poller,
 * over several banks and CPUs, against the independent model of Linux (ktest/oracle/
 * linux_mce.c, lx_mce_event: mce_no_way_out, global_nwo, __mc_scan_banks, mce_clear_state,
 * mce_reign, then machine_check_poll).
 *
 * The image's own code runs: its bank scan (mce/scan_core.c) over a simulated register file
 * per CPU, its decision (mce_decide, and the reign for a broadcast), then, when the machine
 * goes on, its poller's core (mce/poll_core.c) over the same file. For every bank the two
 * must agree on whether the handler logged it, whether it was cleared, whether the poller
 * logs it afterwards and how it grades it, and whether its page is queued; no bank may be
 * counted by both the handler and the poller, and none the model counts may be lost. Events
 * where the image stops the machine and Linux would not (the deviations of
 * docs/design/machine-checks.md) are counted apart, their clearing still compared.
 *
 * The last case runs the sequence tests/tools/test_ck_guest_mce.py gives a real Linux guest
 * and the image under QEMU (corrected errors latched on two CPUs, then an SRAO broadcast)
 * and prints the model's answer as a "# sequence ..." line that test reads.
 */
#include "kernel/include/msr-index.h"
#include "ktest/oracle/linux_mce.h"
#include "mce/grade.h"
#include "mce/mce_regs.h"
#include "mce/poll_core.h"
#include "mce/scan_core.h"
#include "mce/smp_logic.h"
#include "tests/host/host_test.h"

#define VAL	MCI_STATUS_VAL
#define OVER	MCI_STATUS_OVER
#define UC	MCI_STATUS_UC
#define EN	MCI_STATUS_EN
#define MISCV	MCI_STATUS_MISCV
#define ADDRV	MCI_STATUS_ADDRV
#define PCC	MCI_STATUS_PCC
#define S	MCI_STATUS_S
#define AR	MCI_STATUS_AR
#define DEF	MCI_STATUS_DEFERRED
#define POISON	MCI_STATUS_POISON
#define RIPV	MCG_STATUS_RIPV
#define EIPV	MCG_STATUS_EIPV
#define MCIP	MCG_STATUS_MCIP
#define LMCES	MCG_STATUS_LMCES

#define NB	4		/* banks per CPU: 0 stays empty, 1-3 are tried */
#define MISC	0x86ULL		/* LSB 6, physical */

/* Intel shapes: empty, CE, UCNA, SRAR, SRAO, SRAO with S clear, PCC, QEMU's broadcast
   filler, SRAR with OVER, unknown AO code, CE with OVER, SRAR not enabled. */
static const u64 intel_shapes[] = {
	0, VAL | EN | MISCV | ADDRV | 0x9f, VAL | UC | EN | MISCV | ADDRV | 0x9f,
	VAL | UC | EN | MISCV | ADDRV | S | AR | 0x134, VAL | UC | EN | MISCV | ADDRV | S | 0xc3,
	VAL | UC | EN | MISCV | ADDRV | 0xc3, VAL | UC | EN | PCC | S | AR | 0x134, VAL | UC,
	VAL | OVER | UC | EN | MISCV | ADDRV | S | AR | 0x134, VAL | UC | EN | S | 0x5,
	VAL | OVER | EN | 0x9f, VAL | UC | S | AR | 0x134,
};
/* AMD (legacy banks): empty, CE, poisoned UC, deferred without and with UC, PCC, UC OVER. */
static const u64 amd_shapes[] = {
	0, VAL | EN | 0x11b, VAL | UC | EN | ADDRV | POISON | 0x135,
	VAL | EN | ADDRV | DEF | POISON | 0x9f, VAL | UC | EN | ADDRV | DEF | POISON | 0x9f,
	VAL | UC | EN | PCC | 0x135, VAL | OVER | UC | EN | ADDRV | POISON | 0x135,
};

/* One CPU of an event: the model's view of it and the image's register file. */
struct hcpu {
	struct lx_mce_cpu lx;
	struct mce_sim sim;
	struct mce_scan_env env;
	struct mce_record rec;
	struct mce_scan scan;
	struct mce_decision d;
	struct mce_poll_state poll;
	struct mce_poll_event ev[NB];
	unsigned int nev;
	u64 after_scan[NB];	/* each bank's STATUS once the handler is done */
	bool nwo;
};

struct tally {
	unsigned long events, banks, agree, deviations, amd_dfr_uc, bad, printed;
	unsigned long taken, left_polled, left_kept, cleared_unlogged, panics;
};

static u64 queued_pfns[64];
static unsigned int nqueued;

static void offline(u64 pfn)
{
	if (nqueued < 64)
		queued_pfns[nqueued++] = pfn;
}

static u64 addr_of(unsigned int cpu, unsigned int b)
{
	return 0x12340000ULL + cpu * 0x100000ULL + b * 0x1000ULL + 0x48;
}

/* CPU @c's state: @st[1..3] in banks 1-3, the context in @lx (status and bank unused). */
static void setup(struct hcpu *h, unsigned int c, const struct lx_mce_in *ctx, const u64 *st)
{
	bool ser_p = !ctx->amd && ctx->ser_p;

	memset(h, 0, sizeof(*h));
	h->lx.in = *ctx;
	h->lx.nbanks = NB;
	mce_sim_reset(&h->sim);
	h->sim.vendor = ctx->amd ? SIM_VENDOR_AMD : SIM_VENDOR_INTEL;
	h->sim.ser = ctx->amd ? ctx->succor : ctx->ser_p;
	mce_sim_set(&h->sim, MSR_IA32_MCG_CAP, NB | (ser_p ? MCG_SER_P : 0));
	mce_sim_set(&h->sim, MSR_IA32_MCG_STATUS, ctx->mcg_status);
	for (unsigned int b = 1; b < NB; b++) {
		h->lx.status[b] = st[b];
		mce_sim_set(&h->sim, MSR_MC_STATUS(b), st[b]);
		mce_sim_set(&h->sim, MSR_MC_ADDR(b), addr_of(c, b));
		mce_sim_set(&h->sim, MSR_MC_MISC(b), MISC);
	}
	h->env = (struct mce_scan_env){ .be = &h->sim, .nbanks = NB,
		.in = { .mcg_status = ctx->mcg_status, .amd = ctx->amd,
			.ser = ctx->amd ? ctx->succor : ctx->ser_p,
			.mce_safe_fixup = ctx->fixup_mce_safe, .family = 6, .model = 0x55,
			.stepping = 7 },
		.src = { .amd = ctx->amd, .ser_p = ser_p } };
	h->rec = (struct mce_record){ .mcg_status = ctx->mcg_status,
				      .mcg_cap = NB | (ser_p ? MCG_SER_P : 0), .worst = -1 };
	h->nwo = mce_scan_no_way_out(&h->env);
}

/* The image's scan with @nwo and this CPU's own decision (@reigned: the Monarch decides
   "unknown source"). */
static void scan(struct hcpu *h, bool nwo, bool reigned)
{
	mce_scan_run(&h->rec, &h->scan, &h->env, nwo);
	for (unsigned int b = 0; b < NB; b++)
		h->after_scan[b] = mce_sim_get(&h->sim, MSR_MC_STATUS(b));
	h->d = h->scan.d;
	h->d.reigned = reigned;
	mce_decide(&h->d, h->rec.mcg_status, h->lx.in.amd, h->lx.in.fixup_mce_safe);
}

/* The image's poller over the file the handler left (the real MSRs' stand-in). */
static void poll(struct hcpu *h)
{
	struct mce_poll_env e = { .be = &h->sim, .amd = h->lx.in.amd,
				  .ser = h->env.in.ser, .ser_p = h->env.src.ser_p,
				  .family = 6, .model = 0x55, .stepping = 7, .nbanks = NB,
				  .offline = offline };

	mce_poll_state_init(&h->poll, 0, 0);
	mce_poll_scan(&h->poll, &e, (1ULL << NB) - 1, false);
	h->nev = mce_poll_queue_take(&h->poll.q, h->ev, NB);
}

static enum mce_grade grade_of(enum lx_sev s)
{
	switch (s) {
	case LX_SEV_NO:
		return MCE_GRADE_NONE;
	case LX_SEV_DEFERRED:
	case LX_SEV_UCNA:
		return MCE_GRADE_LOG;
	case LX_SEV_KEEP:
		return MCE_GRADE_KEEP;
	case LX_SEV_SOME:
		return MCE_GRADE_SOME;
	case LX_SEV_AO:
		return MCE_GRADE_AO;
	case LX_SEV_UC:
		return MCE_GRADE_UC;
	case LX_SEV_AR:
		return MCE_GRADE_RECOVER;
	default:
		return MCE_GRADE_PANIC;
	}
}

static const struct mce_bank_log *logged_bank(const struct hcpu *h, unsigned int b)
{
	for (unsigned int i = 0; i < h->rec.nr_banks; i++)
		if (h->rec.banks[i].bank == b)
			return &h->rec.banks[i];
	return NULL;
}

static const struct mce_poll_event *polled(const struct hcpu *h, unsigned int b,
					   unsigned int *times)
{
	const struct mce_poll_event *e = NULL;

	*times = 0;
	for (unsigned int i = 0; i < h->nev; i++)
		if (h->ev[i].bank == b) {
			e = &h->ev[i];
			(*times)++;
		}
	return e;
}

/* Linux queues the page (uc_decode_notifier: AO or DEFERRED/UCNA, usable address). */
static bool linux_queues(const struct hcpu *h, unsigned int b, const struct lx_bank_fate *f)
{
	struct lx_mce_in in = h->lx.in;

	in.status = h->lx.status[b];
	in.bank = b;
	if (!lx_mce_usable_address(&in, MISC, addr_of(0, b)))
		return false;
	return (f->logged && f->sev == LX_SEV_AO) ||
	       (f->poll_logs && (f->poll_sev == LX_SEV_AO || lx_sev_rank(f->poll_sev) == 1));
}

/* The handler queued the bank's page (its record says so), or the poller did (the call). */
static bool ours_queued(const struct hcpu *h, unsigned int b)
{
	const struct mce_bank_log *l = logged_bank(h, b);
	unsigned int times;
	const struct mce_poll_event *e = polled(h, b, &times);
	bool called = false;

	for (unsigned int i = 0; e && i < nqueued; i++)
		called |= queued_pfns[i] == e->phys >> 12;
	return (l && l->queued) || (e && e->page_queued && called);
}

/*
 * One bank: the model's fate @f against the image's. @going_on: neither stopped the machine
 * (else only the clearing is compared). Returns false on a disagreement, naming it in @what.
 */
static bool bank_agrees(struct tally *t, const struct hcpu *h, unsigned int b,
			const struct lx_bank_fate *f, bool going_on, const char **what)
{
	const struct mce_bank_log *l = logged_bank(h, b);
	unsigned int times;
	const struct mce_poll_event *e = polled(h, b, &times);

	if (!f->valid)
		return true;
	t->banks++;
	/* Clearing does not depend on how the machine ends: compared always. */
	if ((h->after_scan[b] == 0) != f->cleared || (l && l->cleared != f->cleared))
		return *what = "cleared by the handler", false;
	if (!going_on)
		return true;
	if ((l && l->logged) != f->logged)
		return *what = "logged by the handler", false;
	if (times > 1 || (times && l && l->logged))
		return *what = "counted twice", false;
	if (h->lx.in.amd && (h->lx.status[b] & DEF) && (h->lx.status[b] & UC) && f->left) {
		/* poll_core.h: the image logs an AMD deferred error whatever UC says. */
		t->amd_dfr_uc++;
		return true;
	}
	if (!!e != f->poll_logs)
		return *what = "logged by the poller", false;
	if (e && e->rule->grade != grade_of(f->poll_sev))
		return *what = "the poller's grade", false;
	if (ours_queued(h, b) != linux_queues(h, b, f))
		return *what = "page queued", false;
	if (!e && f->left && mce_sim_get(&h->sim, MSR_MC_STATUS(b)) != h->lx.status[b])
		return *what = "a bank left by both changed", false;
	t->taken += f->logged;
	t->left_polled += !!e;
	t->left_kept += f->left && !e;
	t->cleared_unlogged += f->cleared && !f->logged;
	return true;
}

static void note_bad(struct tally *t, const struct hcpu *hs, unsigned int n, unsigned int c,
		     unsigned int b, const char *what, const struct lx_mce_event_result *r)
{
	t->bad++;
	if (t->printed++ >= 8)
		return;
	printf("# disagreement (%s) on CPU %u bank %u of %u CPUs; Linux %s (%s)\n", what, c, b, n,
	       r->panic ? "panics" : "goes on", r->why ? r->why : "-");
	for (unsigned int i = 0; i < n; i++)
		printf("#   CPU %u: %s mcg 0x%llx ser %d fixup %d: 0x%016llx 0x%016llx 0x%016llx; "
		       "ours %s\n", i, hs[i].lx.in.amd ? "AMD" : "Intel",
		       (unsigned long long)hs[i].lx.in.mcg_status,
		       hs[i].lx.in.amd ? hs[i].lx.in.succor : hs[i].lx.in.ser_p,
		       hs[i].lx.in.fixup_mce_safe, (unsigned long long)hs[i].lx.status[1],
		       (unsigned long long)hs[i].lx.status[2],
		       (unsigned long long)hs[i].lx.status[3], hs[i].d.why->name);
}

static bool deviates(const struct mce_rule *why)
{
	return why == &mce_rule_no_ripv || why == &mce_rule_uc_no_ser;
}

/* Compare one event over CPUs @hs[0 .. n) whose scans and decisions are done. */
static void compare(struct tally *t, struct hcpu *hs, unsigned int n, bool ours_panic,
		    bool deviation)
{
	static struct lx_mce_event_result r;
	struct lx_mce_cpu lx[LX_MAX_CPUS];
	bool going_on;

	for (unsigned int c = 0; c < n; c++)
		lx[c] = hs[c].lx;
	lx_mce_event(lx, n, &r);
	nqueued = 0;
	t->events++;
	t->panics += r.panic;
	if (ours_panic != r.panic && !(deviation && ours_panic && !r.panic)) {
		note_bad(t, hs, n, 0, 0, "the end", &r);
		return;
	}
	going_on = !ours_panic && !r.panic;
	for (unsigned int c = 0; c < n; c++) {
		if (going_on)
			poll(&hs[c]);
		for (unsigned int b = 1; b < NB; b++) {
			const char *what = NULL;

			if (!bank_agrees(t, &hs[c], b, &r.bank[c][b], going_on, &what)) {
				note_bad(t, hs, n, c, b, what, &r);
				return;
			}
		}
	}
	if (ours_panic != r.panic)
		t->deviations++;
	else
		t->agree++;
}

static void report_tally(const char *what, const struct tally *t)
{
	printf("# %s: %lu events, %lu valid banks; %lu agree (%lu panic in both), %lu deliberate "
	       "deviations, %lu AMD deferred errors with UC the image's poller logs; banks: %lu "
	       "taken by the handler, %lu left and polled, %lu left in place, %lu cleared "
	       "unlogged; %lu disagreements\n", what, t->events, t->banks, t->agree, t->panics,
	       t->deviations, t->amd_dfr_uc, t->taken, t->left_polled, t->left_kept,
	       t->cleared_unlogged, t->bad);
	CHECK(t->bad == 0, "%s: %lu events where the image and Linux differ", what, t->bad);
}

static void one_cpu(struct tally *t, const struct lx_mce_in *ctx, const u64 *st)
{
	static struct hcpu h;

	setup(&h, 0, ctx, st);
	scan(&h, h.nwo, false);
	compare(t, &h, 1, h.d.end == MCE_END_PANIC, deviates(h.d.why));
}

/*
 * One CPU, a local machine check: every choice of three banks from the shapes, with
 * MCG_STATUS fully valid, without EIPV, without RIPV, or without MCIP; SER_P (SUCCOR) and a
 * machine-check-safe fixup at RIP each way.
 */
static void test_local_against_linux(void)
{
	static const u64 intel_mcg[] = { LMCES | MCIP | RIPV | EIPV, LMCES | MCIP | RIPV,
					 LMCES | MCIP | EIPV, LMCES | RIPV | EIPV };
	static const u64 amd_mcg[] = { MCIP | RIPV | EIPV, MCIP | RIPV };
	struct tally t = { 0 };
	unsigned int ni = ARRAY_SIZE(intel_shapes), na = ARRAY_SIZE(amd_shapes);

	for (unsigned int amd = 0; amd < 2; amd++) {
		const u64 *sh = amd ? amd_shapes : intel_shapes;
		unsigned int ns = amd ? na : ni, nm = amd ? 2 : 4;

		for (unsigned int i = 0; i < ns * ns * ns; i++)
		for (unsigned int m = 0; m < nm; m++)
		for (unsigned int feat = 0; feat < 2; feat++)
		for (unsigned int fx = 0; fx < 2; fx++) {
			u64 st[NB] = { 0, sh[i % ns], sh[i / ns % ns], sh[i / ns / ns] };
			struct lx_mce_in ctx = { .amd = amd, .mcg_status = amd ? amd_mcg[m] :
						 intel_mcg[m], .ser_p = !amd && feat,
						 .succor = amd && feat, .fixup_mce_safe = fx };

			one_cpu(&t, &ctx, st);
		}
	}
	report_tally("local, one CPU", &t);
	CHECK(t.taken && t.left_polled && t.left_kept && t.cleared_unlogged && t.panics,
	      "every fate was met");
}

static struct hcpu bc[2];

static const struct mce_view *view_of(void *ctx, unsigned int cpu)
{
	static struct mce_view v[2];

	if (cpu >= 2)
		return NULL;
	v[cpu] = (struct mce_view){ .gen = 1, .order = (u16)(cpu + 1), .scanned = true,
				    .grade = mce_rv_cpu_grade(&bc[cpu].d),
				    .why = mce_rv_cpu_why(&bc[cpu].d), .end = bc[cpu].d.end,
				    .bank = -1, .seq = -1 };
	return &v[cpu];
}

/* Two CPUs of an Intel broadcast: each its own no-way-out, scanned with the global one. */
static void two_cpus(struct tally *t, const struct lx_mce_in *ctx0, const u64 *st0,
		     const struct lx_mce_in *ctx1, const u64 *st1)
{
	struct mce_reign rg;
	bool nwo;

	setup(&bc[0], 0, ctx0, st0);
	setup(&bc[1], 1, ctx1, st1);
	nwo = bc[0].nwo || bc[1].nwo;
	scan(&bc[0], nwo, true);
	scan(&bc[1], nwo, true);
	mce_rv_reign(view_of, NULL, 2, 1, &rg);
	compare(t, bc, 2, rg.end == MCE_END_PANIC,
		deviates(bc[0].d.why) || deviates(bc[1].d.why));
}

/*
 * An Intel broadcast on two CPUs, two banks each from the Intel shapes: CPU 0 interrupted
 * with RIPV and EIPV (at a machine-check-safe fixup or not), CPU 1 with RIPV only (as
 * QEMU's "mce -b" leaves the others); SER_P each way.
 */
static void test_broadcast_against_linux(void)
{
	unsigned int ns = ARRAY_SIZE(intel_shapes);
	struct tally t = { 0 };

	for (unsigned int i = 0; i < ns * ns; i++)
	for (unsigned int j = 0; j < ns * ns; j++)
	for (unsigned int ser = 0; ser < 2; ser++)
	for (unsigned int fx = 0; fx < 2; fx++) {
		u64 st0[NB] = { 0, intel_shapes[i % ns], 0, intel_shapes[i / ns] };
		u64 st1[NB] = { 0, intel_shapes[j % ns], intel_shapes[j / ns], 0 };
		struct lx_mce_in c0 = { .mcg_status = MCIP | RIPV | EIPV, .ser_p = ser,
					.fixup_mce_safe = fx };
		struct lx_mce_in c1 = { .mcg_status = MCIP | RIPV, .ser_p = ser };

		two_cpus(&t, &c0, st0, &c1, st1);
	}
	report_tally("broadcast, two CPUs", &t);
	CHECK(t.taken && t.left_polled && t.left_kept && t.panics, "every fate was met");
}

/* "CPU c bank b" of every bank @f's predicate holds for, into @buf. */
static void list_banks(char *buf, size_t size, const struct lx_mce_event_result *r,
		       unsigned int n, bool poller)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int c = 0; c < n; c++)
		for (unsigned int b = 0; b < NB; b++)
			if (poller ? r->bank[c][b].poll_logs : r->bank[c][b].logged)
				len += (size_t)snprintf(buf + len, size - len, "%s%u:%u",
							len ? " " : "", c, b);
}

/*
 * The guest test's sequence (tests/tools/test_ck_guest_mce.py), Intel with SER_P on two
 * CPUs: "mce 1 2" and "mce 0 3" write corrected errors (UC clear: no #MC), then "mce -b 0 1"
 * broadcasts an SRAO (memory scrubbing) to CPU 0, and QEMU gives CPU 1 bank 1 VAL|UC. The
 * model says which banks the #MC handler logs and which the poller logs later; the image's
 * scan, reign and poller must say the same; the line printed is what the guest test
 * compares Linux's log and the image's with.
 */
static void test_guest_sequence(void)
{
	const u64 ce = VAL | EN | MISCV | ADDRV | 0x9f;
	u64 st0[NB] = { 0, VAL | UC | EN | MISCV | ADDRV | S | 0xc3, 0, ce };
	u64 st1[NB] = { 0, VAL | UC, ce, 0 };
	struct lx_mce_in c0 = { .mcg_status = MCIP | RIPV, .ser_p = true };
	struct lx_mce_in c1 = { .mcg_status = MCIP | RIPV, .ser_p = true };
	static struct lx_mce_event_result r;
	struct lx_mce_cpu lx[2];
	struct tally t = { 0 };
	char handler[64], poller[64];

	two_cpus(&t, &c0, st0, &c1, st1);
	CHECK(t.agree == 1 && t.bad == 0, "the image and the model agree on the sequence");
	lx[0] = bc[0].lx;
	lx[1] = bc[1].lx;
	lx_mce_event(lx, 2, &r);
	CHECK(!r.panic, "the SRAO broadcast does not stop the machine (%s)", r.why ? r.why : "-");
	list_banks(handler, sizeof(handler), &r, 2, false);
	list_banks(poller, sizeof(poller), &r, 2, true);
	printf("# sequence ce_then_srao_broadcast: handler %s; poller %s\n", handler, poller);
	CHECK(!strcmp(handler, "0:1") && !strcmp(poller, "0:3 1:1 1:2"),
	      "handler %s, poller %s", handler, poller);
}

int main(void)
{
	return RUN_TESTS(test_local_against_linux, test_broadcast_against_linux,
			 test_guest_sequence);
}
