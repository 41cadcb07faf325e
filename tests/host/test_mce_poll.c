// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce_poll.c - the corrected-error poller's pure core (mce/poll_core.c, amd_thresh.c)
 * over simulated register files standing for several CPUs: what it logs and what it leaves
 * for the #MC handler, OVER, AMD deferred errors (legacy STATUS, SMCA MCA_DESTAT), threshold
 * overflow, the full queue, who reads a shared bank, and the poll timer's interval.
 *
 * The expected values are written here from Linux's arch/x86/kernel/cpu/mce/core.c
 * (machine_check_poll, should_log_poll_error, mce_timer_fn) and amd.c (the MISC threshold
 * masks, MCA_DESTAT/DEADDR), v6.19, and from the registers each test writes; none comes
 * from the tables the code uses.
 */
#include "kernel/include/msr-index.h"
#include "mce/amd_thresh.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/poll_core.h"
#include "mce/smp_logic.h"
#include "tests/host/host_test.h"

/* STATUS bits spelled out (Intel SDM vol. 3 "IA32_MCi_STATUS", AMD APM "MCA_STATUS"). */
#define VAL	(1ULL << 63)
#define OVER	(1ULL << 62)
#define UC	(1ULL << 61)
#define EN	(1ULL << 60)
#define MISCV	(1ULL << 59)
#define ADDRV	(1ULL << 58)
#define PCC	(1ULL << 57)
#define S	(1ULL << 56)
#define AR	(1ULL << 55)
#define DEF	(1ULL << 44)
#define POISON	(1ULL << 43)
#define LEG_STATUS(b)	(0x401 + 4 * (b))
#define LEG_ADDR(b)	(0x402 + 4 * (b))
#define LEG_MISC(b)	(0x403 + 4 * (b))
#define SMCA_STATUS(b)	(0xc0002001 + 0x10 * (b))
#define SMCA_ADDR(b)	(0xc0002002 + 0x10 * (b))
#define SMCA_MISC(b)	(0xc0002003 + 0x10 * (b))
#define SMCA_DESTAT(b)	(0xc0002008 + 0x10 * (b))
#define SMCA_DEADDR(b)	(0xc0002009 + 0x10 * (b))

/* One simulated CPU: its poller and the register file it reads. */
struct hcpu {
	struct mce_poll_state s;
	struct mce_poll_env e;
	struct mce_sim *sim;
};

static void hcpu_init(struct hcpu *c, struct mce_sim *sim, bool amd, bool smca, bool ser,
		      unsigned int nbanks)
{
	mce_poll_state_init(&c->s, 0, 0);
	c->sim = sim;
	c->e = (struct mce_poll_env){ .be = sim, .amd = amd, .smca = smca, .ser = ser,
				      .nbanks = nbanks, .family = amd ? 0x19 : 6 };
	c->s.owned = nbanks >= 64 ? ~0ULL : (1ULL << nbanks) - 1;
}

static bool lock_free(void *ctx)
{
	return true;
}

static bool lock_busy(void *ctx)
{
	return false;
}

static void lock_none(void *ctx)
{
}

static const struct mce_poll_lock free_lock = { lock_free, lock_none, NULL };
static const struct mce_poll_lock busy_lock = { lock_busy, lock_none, NULL };

static unsigned int poll(struct hcpu *c, struct mce_poll_event *out, unsigned int max)
{
	mce_poll_once(&c->s, &c->e, &free_lock);
	return mce_poll_queue_take(&c->s.q, out, max);
}

/*
 * should_log_poll_error() (non-SMCA) by hand: a valid bank is logged when UC is clear; with
 * Intel's SER_P also when EN is clear, or when neither PCC nor S is set; anything else valid
 * stays for do_machine_check(). (AMD: mca_cfg.ser is never set.)
 */
static const struct {
	const char *what;
	bool ser;
	u64 status;
	bool logged;
	u8 kind;
} intel_rows[] = {
	{ "corrected", true, VAL | EN | MISCV | ADDRV | 0x9f, true, MCE_POLL_CORRECTED },
	{ "corrected, no SER_P", false, VAL | EN | 0x9f, true, MCE_POLL_CORRECTED },
	{ "UCNA (UC, S and PCC clear)", true, VAL | UC | EN | MISCV | ADDRV | 0x9f, true,
	  MCE_POLL_UCNA },
	{ "UC not enabled (speculative)", true, VAL | UC | S | 0x134, true, MCE_POLL_UCNA },
	{ "SRAR (signalled)", true, VAL | UC | EN | MISCV | ADDRV | S | AR | 0x134, false, 0 },
	{ "SRAO scrub (signalled)", true, VAL | UC | EN | MISCV | ADDRV | S | 0xc0, false, 0 },
	{ "UC with PCC", true, VAL | UC | EN | PCC | 0x5, false, 0 },
	{ "UCNA without SER_P", false, VAL | UC | EN | 0x9f, false, 0 },
	{ "not valid", true, UC | EN | 0x9f, false, 0 },
};

static void test_intel_log_or_leave(void)
{
	for (unsigned int i = 0; i < sizeof(intel_rows) / sizeof(intel_rows[0]); i++) {
		struct mce_poll_event ev[2];
		struct mce_sim sim;
		struct hcpu c;
		unsigned int n;

		mce_sim_reset(&sim);
		hcpu_init(&c, &sim, false, false, intel_rows[i].ser, 4);
		mce_sim_set(&sim, LEG_STATUS(2), intel_rows[i].status);
		mce_sim_set(&sim, LEG_ADDR(2), 0x12345678);
		mce_sim_set(&sim, LEG_MISC(2), 0x86);
		n = poll(&c, ev, 2);
		CHECK(n == intel_rows[i].logged, "%s: %u events", intel_rows[i].what, n);
		CHECK(mce_sim_get(&sim, LEG_STATUS(2)) ==
		      (intel_rows[i].logged ? 0 : intel_rows[i].status),
		      "%s: STATUS %s", intel_rows[i].what,
		      intel_rows[i].logged ? "cleared" : "left as it was");
		if (n)
			CHECK(ev[0].kind == intel_rows[i].kind && ev[0].bank == 2 && ev[0].rule,
			      "%s: kind %u bank %u", intel_rows[i].what, ev[0].kind, ev[0].bank);
		CHECK(c.s.st.left_for_mc == (u64)((intel_rows[i].status & VAL) &&
						  !intel_rows[i].logged),
		      "%s: left for the #MC handler counted", intel_rows[i].what);
	}
}

/* The address, masked to the LSB MISC gives (Intel: MISC[5:0], mode MISC[8:6] = 2). */
static void test_intel_address_and_grade(void)
{
	struct mce_poll_event ev[1];
	struct mce_sim sim;
	struct hcpu c;

	mce_sim_reset(&sim);
	hcpu_init(&c, &sim, false, false, true, 4);
	mce_sim_set(&sim, LEG_STATUS(1), VAL | EN | MISCV | ADDRV | 0x9f);
	mce_sim_set(&sim, LEG_ADDR(1), 0x123456789abULL);
	mce_sim_set(&sim, LEG_MISC(1), (2 << 6) | 12);
	CHECK(poll(&c, ev, 1) == 1, "one event");
	CHECK(ev[0].addr == 0x123456789abULL && ev[0].misc == ((2 << 6) | 12),
	      "ADDR and MISC as read");
	CHECK(ev[0].addr_valid && ev[0].lsb == 12 && ev[0].phys == 0x12345678000ULL,
	      "page granularity: 0x%llx, LSB %u", (unsigned long long)ev[0].phys, ev[0].lsb);
	/* Linux's severity with SER_P: "Non signaled machine check" (S clear), KEEP. */
	CHECK(ev[0].rule && ev[0].rule->grade == MCE_GRADE_KEEP, "graded keep");
	mce_sim_set(&sim, LEG_STATUS(1), VAL | EN | MISCV | ADDRV | 0x9f);
	mce_sim_set(&sim, LEG_MISC(1), (1 << 6) | 6);	/* segment offset: not physical */
	CHECK(poll(&c, ev, 1) == 1 && !ev[0].addr_valid, "mode 1: no usable address");
}

/* QEMU's second injection before a poll: OVER set, the second error's registers. */
static void test_over(void)
{
	struct mce_poll_event ev[2];
	struct mce_sim sim;
	struct hcpu c;

	mce_sim_reset(&sim);
	hcpu_init(&c, &sim, false, false, true, 4);
	mce_sim_set(&sim, LEG_STATUS(3), VAL | OVER | EN | MISCV | ADDRV | 0xa0);
	mce_sim_set(&sim, LEG_ADDR(3), 0x10001000);
	mce_sim_set(&sim, LEG_MISC(3), 0x86);
	CHECK(poll(&c, ev, 2) == 1, "one event for the bank");
	CHECK(ev[0].over && ev[0].kind == MCE_POLL_CORRECTED && ev[0].phys == 0x10001000,
	      "OVER, corrected, at 0x%llx", (unsigned long long)ev[0].phys);
	CHECK(poll(&c, ev, 2) == 0, "cleared: the next poll finds nothing");
}

/* Legacy AMD: a deferred error in STATUS, its address LSB in ADDR[61:56]. */
static void test_amd_deferred_legacy(void)
{
	struct mce_poll_event ev[2];
	struct mce_sim sim;
	struct hcpu c;

	mce_sim_reset(&sim);
	hcpu_init(&c, &sim, true, false, true, 6);
	mce_sim_set(&sim, LEG_STATUS(5), VAL | EN | ADDRV | DEF | POISON | 0x9f);
	mce_sim_set(&sim, LEG_ADDR(5), (6ULL << 56) | 0x7654321ULL);
	/* And an AMD corrected error without Poison: logged, its address not usable. */
	mce_sim_set(&sim, LEG_STATUS(1), VAL | EN | ADDRV | 0x9f);
	mce_sim_set(&sim, LEG_ADDR(1), 0x1000);
	CHECK(poll(&c, ev, 2) == 2, "two events");
	CHECK(ev[0].bank == 1 && ev[0].kind == MCE_POLL_CORRECTED && !ev[0].addr_valid,
	      "bank 1 corrected, Poison clear: no usable address");
	CHECK(ev[1].bank == 5 && ev[1].kind == MCE_POLL_DEFERRED && ev[1].addr_valid &&
	      ev[1].lsb == 6 && ev[1].phys == 0x7654300ULL, "bank 5 deferred at 0x%llx LSB %u",
	      (unsigned long long)ev[1].phys, ev[1].lsb);
	CHECK(ev[1].rule && ev[1].rule->grade == MCE_GRADE_LOG, "deferred graded log");
	CHECK(!mce_sim_get(&sim, LEG_STATUS(5)) && !mce_sim_get(&sim, LEG_STATUS(1)), "cleared");
	/* An uncorrected, not deferred AMD error is the #MC handler's (UC is "signalled"). */
	mce_sim_set(&sim, LEG_STATUS(0), VAL | UC | EN | ADDRV | POISON | 0x134);
	CHECK(poll(&c, ev, 2) == 0 && mce_sim_get(&sim, LEG_STATUS(0)),
	      "AMD UC left for the #MC handler");
}

/* SMCA: Linux's three cases of smca_should_log_poll_error() and amd_clear_bank(). */
static void test_smca_deferred(void)
{
	const u64 dfr = VAL | EN | ADDRV | DEF | POISON | 0x9f;
	struct mce_poll_event ev[2];
	struct mce_sim sim;
	struct hcpu c;

	mce_sim_reset(&sim);
	hcpu_init(&c, &sim, true, true, true, 4);
	/* Only MCA_DESTAT holds it: logged from DESTAT/DEADDR, DESTAT alone cleared. */
	mce_sim_set(&sim, SMCA_STATUS(2), EN | 0x11);		/* not valid: must stay */
	mce_sim_set(&sim, SMCA_DESTAT(2), dfr);
	mce_sim_set(&sim, SMCA_DEADDR(2), (6ULL << 56) | 0xabcde40ULL);
	mce_sim_set(&sim, SMCA_ADDR(2), 0xdead000);			/* not this error's */
	CHECK(poll(&c, ev, 2) == 1, "one event from MCA_DESTAT");
	CHECK(ev[0].kind == MCE_POLL_DEFERRED && ev[0].status == dfr && ev[0].addr_valid &&
	      ev[0].phys == 0xabcde40ULL, "deferred from DESTAT at 0x%llx",
	      (unsigned long long)ev[0].phys);
	CHECK(!mce_sim_get(&sim, SMCA_DESTAT(2)) && mce_sim_get(&sim, SMCA_STATUS(2)) ==
	      (EN | 0x11), "DESTAT cleared, STATUS left as it was");
	/* A deferred error in MCA_STATUS (mirrored in DESTAT): logged once, both cleared. */
	mce_sim_set(&sim, SMCA_STATUS(3), dfr);
	mce_sim_set(&sim, SMCA_ADDR(3), (6ULL << 56) | 0x5000ULL);
	mce_sim_set(&sim, SMCA_DESTAT(3), dfr);
	mce_sim_set(&sim, SMCA_DEADDR(3), (6ULL << 56) | 0x5000ULL);
	CHECK(poll(&c, ev, 2) == 1 && ev[0].bank == 3 && ev[0].phys == 0x5000,
	      "STATUS's deferred error logged once");
	CHECK(!mce_sim_get(&sim, SMCA_STATUS(3)) && !mce_sim_get(&sim, SMCA_DESTAT(3)),
	      "STATUS and DESTAT cleared");
	CHECK(poll(&c, ev, 2) == 0, "nothing left");
	/* DESTAT with something not deferred is not taken (Linux filters bogus values). */
	mce_sim_set(&sim, SMCA_DESTAT(1), VAL | EN | 0x9f);
	CHECK(poll(&c, ev, 2) == 0, "a DESTAT without Deferred is ignored");
}

/* MISC0 as Linux's amd.c masks name it (high word: VALID 0x80000000, CNTP 0x40000000, ...). */
#define M_VALID		(0x80000000ULL << 32)
#define M_CNTP		(0x40000000ULL << 32)
#define M_LOCKED	(0x20000000ULL << 32)
#define M_COUNT_EN	(0x00080000ULL << 32)
#define M_INT_TYPE	(0x00060000ULL << 32)
#define M_OVERFLOW	(0x00010000ULL << 32)
#define M_ERR_COUNT	(0x00000fffULL << 32)

static void test_threshold_overflow(void)
{
	const u64 block = M_VALID | M_CNTP | (2ULL << 49) | (0x123ULL << 32) | 0xff;
	struct mce_poll_event ev[2];
	struct mce_sim sim;
	struct hcpu c;
	u64 m;

	mce_sim_reset(&sim);
	hcpu_init(&c, &sim, true, false, true, 4);
	mce_sim_set(&sim, LEG_MISC(0), block);
	mce_sim_set(&sim, LEG_MISC(1), block | M_LOCKED);		/* firmware's */
	mce_sim_set(&sim, LEG_MISC(2), M_VALID | 0x5);		/* no counter */
	CHECK(mce_thresh_setup(&c.s.thr, &sim, false, 0xf, 10) == 0x1, "only bank 0 set up");
	m = mce_sim_get(&sim, LEG_MISC(0));
	CHECK((m & M_ERR_COUNT) >> 32 == 0xfff - 10 && (m & M_COUNT_EN) && !(m & M_INT_TYPE) &&
	      !(m & M_OVERFLOW) && (m & 0xffffffffULL) == 0xff,
	      "bank 0 preset for 10 errors, counting, no interrupt: 0x%llx",
	      (unsigned long long)m);
	CHECK(mce_sim_get(&sim, LEG_MISC(1)) == (block | M_LOCKED), "the locked block untouched");
	CHECK(poll(&c, ev, 2) == 0, "no overflow yet: nothing");
	/* The hardware counted its tenth error: counter at the top, overflow set. */
	mce_sim_set(&sim, LEG_MISC(0), (m & ~M_ERR_COUNT) | (0xfffULL << 32) | M_OVERFLOW);
	mce_sim_set(&sim, LEG_STATUS(0), VAL | EN | 0x9f);
	CHECK(poll(&c, ev, 2) == 2, "the corrected error and the threshold event");
	CHECK(ev[0].kind == MCE_POLL_CORRECTED && ev[1].kind == MCE_POLL_THRESHOLD &&
	      ev[1].bank == 0 && (ev[1].misc & M_OVERFLOW) && !ev[1].rule,
	      "threshold event with MISC0 as it overflowed");
	m = mce_sim_get(&sim, LEG_MISC(0));
	CHECK((m & M_ERR_COUNT) >> 32 == 0xfff - 10 && !(m & M_OVERFLOW) && (m & M_COUNT_EN),
	      "preset again: 0x%llx", (unsigned long long)m);
	CHECK(c.s.st.found[MCE_POLL_THRESHOLD] == 1, "counted");
	CHECK(mce_thresh_setup(&c.s.thr, &sim, false, 1, 0) && ((mce_sim_get(&sim, LEG_MISC(0)) &
	      M_ERR_COUNT) >> 32) == 0xfff - 1, "limit 0 taken as 1 (Linux's bound)");
}

/* More findings than the queue holds: the oldest kept, the rest counted as dropped. */
static void test_queue_full(void)
{
	struct mce_poll_event ev[MCE_POLL_QUEUE + 8];
	const unsigned int total = MCE_POLL_QUEUE + 8;
	struct mce_sim sim;
	struct hcpu c;
	unsigned int n;

	mce_sim_reset(&sim);
	hcpu_init(&c, &sim, false, false, true, 1);
	for (unsigned int i = 0; i < total; i++) {
		mce_sim_set(&sim, LEG_STATUS(0), VAL | EN | ADDRV | MISCV | 0x9f);
		mce_sim_set(&sim, LEG_ADDR(0), 0x100000 + i * 0x1000);
		mce_sim_set(&sim, LEG_MISC(0), 0x8c);
		mce_poll_once(&c.s, &c.e, &free_lock);
	}
	CHECK(c.s.st.found[MCE_POLL_CORRECTED] == total && c.s.st.dropped == total -
	      MCE_POLL_QUEUE, "%u found, %llu dropped", total,
	      (unsigned long long)c.s.st.dropped);
	n = mce_poll_queue_take(&c.s.q, ev, 5);
	CHECK(n == 5 && ev[0].phys == 0x100000 && ev[4].phys == 0x104000, "oldest first");
	n = mce_poll_queue_take(&c.s.q, ev, total);
	CHECK(n == MCE_POLL_QUEUE - 5 && ev[n - 1].phys == 0x100000 + (MCE_POLL_QUEUE - 1) *
	      0x1000ULL, "then the rest of what fitted (%u)", n);
	CHECK(mce_poll_queue_take(&c.s.q, ev, total) == 0, "empty");
}

/*
 * Two CPUs reaching the same bank registers (a package-level bank): the SDM's CMCI probe,
 * CPU 0 first, makes CPU 0 its owner; only the owner reads it, so an error is logged once.
 */
static void test_shared_bank_owner(void)
{
	struct mce_poll_event ev[2];
	struct hcpu c[2];
	struct mce_sim pkg;
	u64 mine[2] = { 0 };

	mce_sim_reset(&pkg);
	for (int i = 0; i < 2; i++) {
		struct mce_poll_share sh = { .share = MCE_SHARE_CMCI, .nbanks = 4 };
		u64 before = mce_sim_get(&pkg, MSR_MC_CTL2(3)), after;

		mce_sim_set(&pkg, MSR_MC_CTL2(3), before | MCI_CTL2_CMCI_EN);
		after = mce_sim_get(&pkg, MSR_MC_CTL2(3));
		if (mce_cmci_probe(before, after) == MCE_CMCI_MINE)
			mine[i] |= 1ULL << 3;
		hcpu_init(&c[i], &pkg, false, false, true, 4);
		sh.cmci_mine = mine[i];
		mce_poll_ownership(&sh, &c[i].s.owned, &c[i].s.unknown);
	}
	CHECK(c[0].s.owned == 0x8 && !c[1].s.owned && !c[0].s.unknown && !c[1].s.unknown,
	      "CPU 0 owns bank 3, CPU 1 reads none of it");
	mce_sim_set(&pkg, LEG_STATUS(3), VAL | EN | 0x9f);
	CHECK(poll(&c[1], ev, 2) == 0, "CPU 1 (polling first) does not log it");
	CHECK(poll(&c[0], ev, 2) == 1 && ev[0].bank == 3, "CPU 0 does");
	CHECK(c[1].s.st.found[MCE_POLL_CORRECTED] + c[0].s.st.found[MCE_POLL_CORRECTED] == 1,
	      "logged once in all");
}

/* Sharing unknown: every CPU polls in turn under the lock; the first logs and clears. */
static void test_unknown_sharing_once(void)
{
	struct mce_poll_share sh = { .share = MCE_SHARE_UNKNOWN, .nbanks = 4 };
	struct mce_poll_event ev[2];
	struct hcpu c[2];
	struct mce_sim pkg;

	mce_sim_reset(&pkg);
	for (int i = 0; i < 2; i++) {
		hcpu_init(&c[i], &pkg, false, false, true, 4);
		mce_poll_ownership(&sh, &c[i].s.owned, &c[i].s.unknown);
	}
	CHECK(!c[0].s.owned && c[0].s.unknown == 0xf, "every bank unknown");
	mce_sim_set(&pkg, LEG_STATUS(2), VAL | EN | 0x9f);
	CHECK(poll(&c[1], ev, 2) == 1 && ev[0].bank == 2, "the first CPU to poll logs it");
	CHECK(poll(&c[0], ev, 2) == 0, "the second finds it cleared");
	mce_sim_set(&pkg, LEG_STATUS(2), VAL | EN | 0x9f);
	CHECK(mce_poll_once(&c[0].s, &c[0].e, &busy_lock) == 0 && c[0].s.st.lock_skips == 1 &&
	      mce_sim_get(&pkg, LEG_STATUS(2)), "lock not had: skipped, counted, bank untouched");
}

/* The ownership map's other cases. */
static void test_ownership(void)
{
	struct mce_poll_share sh = { .share = MCE_SHARE_CMCI, .nbanks = 6, .cmci_mine = 0x13,
				     .cmci_none = 0x24 };
	u64 owned, unknown;

	mce_poll_ownership(&sh, &owned, &unknown);
	CHECK(owned == 0x13 && unknown == 0x24, "CMCI: won banks owned, no-CMCI banks unknown, "
	      "bank 3 (another CPU's) in neither");
	/*
	 * A bank in both masks (bank 1: won, and also found without CMCI) is owned, never read
	 * again under the lock as unknown; bits at or past nbanks (6, 7) are in neither.
	 */
	sh.cmci_mine = 0x53;
	sh.cmci_none = 0xa6;
	mce_poll_ownership(&sh, &owned, &unknown);
	CHECK(owned == 0x13 && unknown == 0x24, "overlapping masks: owned 0x%llx unknown 0x%llx",
	      (unsigned long long)owned, (unsigned long long)unknown);
	CHECK(!(owned & unknown), "no bank both owned and unknown");
	sh = (struct mce_poll_share){ .share = MCE_SHARE_IPID, .nbanks = 5, .ipid_below = 0x6 };
	mce_poll_ownership(&sh, &owned, &unknown);
	CHECK(owned == 0x19 && !unknown, "SMCA: banks a lower CPU shares are its");
	sh = (struct mce_poll_share){ .share = MCE_SHARE_IPID, .nbanks = 64 };
	mce_poll_ownership(&sh, &owned, &unknown);
	CHECK(owned == ~0ULL, "64 banks");
}

/* Two CPUs with files of their own poll at the same time: each its own findings. */
static void test_several_cpus(void)
{
	struct mce_sim sim[3];
	struct hcpu c[3];

	for (int i = 0; i < 3; i++) {
		mce_sim_reset(&sim[i]);
		hcpu_init(&c[i], &sim[i], false, false, true, 4);
		mce_sim_set(&sim[i], LEG_STATUS(i), VAL | EN | ADDRV | MISCV | 0x9f);
		mce_sim_set(&sim[i], LEG_ADDR(i), 0x40000 * (i + 1));
		mce_sim_set(&sim[i], LEG_MISC(i), 0x86);
	}
	for (int i = 2; i >= 0; i--) {
		struct mce_poll_event ev[2];

		CHECK(poll(&c[i], ev, 2) == 1 && ev[0].bank == i &&
		      ev[0].phys == 0x40000ULL * (i + 1), "CPU %d: its bank %d at 0x%llx", i, i,
		      (unsigned long long)ev[0].phys);
	}
}

/*
 * mce_timer_fn(): logged -> max(iv / 2, HZ / 100), else min(iv * 2, check_interval * HZ);
 * with a storming bank the timer is HZ and mce_next_interval is not written.
 */
static void test_interval(void)
{
	struct mce_poll_state s;
	unsigned int iv = 300000;

	CHECK(mce_poll_next_interval(iv, false, 300000) == 300000, "clean at the top stays");
	CHECK(mce_poll_next_interval(iv, true, 300000) == 150000, "a finding halves it");
	for (int i = 0; i < 30; i++)
		iv = mce_poll_next_interval(iv, true, 300000);
	CHECK(iv == 10, "floor 10 ms (%u)", iv);
	CHECK(mce_poll_next_interval(10, false, 300000) == 20 &&
	      mce_poll_next_interval(200000, false, 300000) == 300000, "doubles up to the top");
	mce_poll_state_init(&s, 1000, 5000);
	CHECK(s.max_ms == 1000 && s.iv_ms == 1000 && s.next_ms == 6000, "starts at the longest");
	CHECK(!mce_poll_due(&s, 5999) && mce_poll_due(&s, 6000), "due at its time");
	mce_poll_rearm(&s, 6000, true);
	CHECK(s.iv_ms == 500 && s.next_ms == 6500, "after a finding: 500 ms");
	s.cmci.storming = 1;
	mce_poll_rearm(&s, 6500, false);
	CHECK(s.iv_ms == 500 && s.next_ms == 7500, "storm: one second, interval kept");
	mce_poll_state_init(&s, 0, 0);
	CHECK(s.max_ms == MCE_POLL_DEFAULT_MS && MCE_POLL_DEFAULT_MS == 300000,
	      "default: Linux's five minutes");
}

int main(void)
{
	return RUN_TESTS(test_intel_log_or_leave, test_intel_address_and_grade, test_over,
			 test_amd_deferred_legacy, test_smca_deferred, test_threshold_overflow,
			 test_queue_full, test_shared_bank_owner, test_unknown_sharing_once,
			 test_ownership, test_several_cpus, test_interval);
}
