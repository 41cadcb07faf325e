// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce_poll_cmci.c - Intel's CMCI path of the poller (mce/cmci.c, mce_cmci_interrupt)
 * over a fake local APIC and simulated banks: claiming a bank's CMCI, the LVT CMCI entry, the
 * interrupt (logs, acknowledges), and the storm: begin and end at Linux's numbers.
 *
 * The numbers are Linux's, written here from arch/x86/kernel/cpu/mce/ (v6.8 on): intel.c's
 * CMCI_THRESHOLD 1 and CMCI_STORM_THRESHOLD 32749, cmci_supported()'s LVT rule (max LVT >= 6),
 * internal.h's STORM_BEGIN_THRESHOLD 5 and STORM_END_POLL_THRESHOLD 29 (history bits 29..0),
 * threshold.c's mce_track_storm() (shift by seconds since the last look, by one in a storm),
 * and the SDM's register layout (MCi_CTL2 at 0x280 + i: CMCI_EN bit 30, threshold 14:0;
 * LVT CMCI at APIC offset 0x2f0; the version register's max LVT in bits 23:16). What the
 * history counts is threshold.c's too: a bit for a look that found a valid corrected error
 * ("VAL=1 && UC=0", mce_is_correctable()); core.c's machine_check_poll() tracks every look
 * before it checks VAL, so a look at an uncorrected error moves the history on and counts as
 * no error.
 */
#include "mce/cmci.h"
#include "mce/poll_core.h"
#include "tests/host/host_test.h"

#define CTL2(b)		(0x280 + (b))
#define CMCI_EN		(1ULL << 30)
#define THR_MASK	0x7fffULL
#define STATUS(b)	(0x401 + 4 * (b))
#define CORRECTED	0x9000000000000090ULL	/* VAL EN, memory controller */
#define UCNA		0xa000000000000090ULL	/* VAL UC, no PCC, no S: the poller's to log */
#define LVT_CMCI	0x2f0
#define APIC_VER	0x30

/* A local APIC: a few registers and the EOIs it got. */
struct fake_apic {
	u32 reg[0x40];		/* by offset / 16 */
	unsigned int eois, writes;
};

static u32 fa_read(void *ctx, u32 reg)
{
	return ((struct fake_apic *)ctx)->reg[reg >> 4];
}

static void fa_write(void *ctx, u32 reg, u32 val)
{
	struct fake_apic *a = ctx;

	a->reg[reg >> 4] = val;
	a->writes++;
}

static void fa_eoi(void *ctx)
{
	((struct fake_apic *)ctx)->eois++;
}

static struct mce_apic_ops apic_of(struct fake_apic *a, unsigned int maxlvt)
{
	*a = (struct fake_apic){ .eois = 0 };
	a->reg[APIC_VER >> 4] = 0x14 | (maxlvt << 16);
	a->reg[LVT_CMCI >> 4] = 1u << 16;			/* masked, as reset leaves it */
	return (struct mce_apic_ops){ fa_read, fa_write, fa_eoi, a };
}

static void cpu_init(struct mce_poll_state *s, struct mce_poll_env *e, struct mce_sim *sim)
{
	mce_sim_reset(sim);
	mce_poll_state_init(s, 0, 0);
	*e = (struct mce_poll_env){ .be = sim, .ser = true, .nbanks = 4, .family = 6 };
}

static void test_lvt(void)
{
	struct fake_apic a;
	struct mce_apic_ops ops = apic_of(&a, 5);

	CHECK(!mce_cmci_lvt_setup(&ops, 0xf9) && a.writes == 0, "max LVT 5: no CMCI entry");
	ops = apic_of(&a, 6);
	CHECK(mce_cmci_lvt_setup(&ops, 0xf9) && a.reg[LVT_CMCI >> 4] == 0xf9,
	      "max LVT 6: LVT CMCI = vector 0xf9, fixed, unmasked (0x%x)", a.reg[LVT_CMCI >> 4]);
}

static void test_claim(void)
{
	struct mce_poll_state s;
	struct mce_poll_env e;
	struct mce_sim sim;

	cpu_init(&s, &e, &sim);
	mce_sim_set(&sim, CTL2(0), 0x5);			/* firmware left threshold 5 */
	mce_sim_set(&sim, CTL2(1), CMCI_EN | 1);		/* another CPU's */
	mce_sim_set(&sim, CTL2(3), 32749);			/* the previous owner stormed */
	CHECK(mce_cmci_claim(&s, &sim, 0xf, 1000) == 0xd, "banks 0, 2, 3 claimed, not 1");
	CHECK(mce_sim_get(&sim, CTL2(0)) == (CMCI_EN | 1), "bank 0: CMCI_EN, threshold 1 "
	      "(0x%llx)", (unsigned long long)mce_sim_get(&sim, CTL2(0)));
	CHECK(mce_sim_get(&sim, CTL2(2)) == (CMCI_EN | 1), "bank 2: CMCI_EN, threshold 1");
	CHECK(mce_sim_get(&sim, CTL2(1)) == (CMCI_EN | 1), "bank 1 left alone");
	CHECK((mce_sim_get(&sim, CTL2(3)) & THR_MASK) == 32749 && s.cmci.storming == 0x8 &&
	      s.cmci.bank[3].history == ~0ULL, "bank 3's storm goes on here, history all ones");
	CHECK(s.st.storms == 1 && s.next_ms <= 2000, "and the CPU polls within the second");
}

/* The interrupt: the owned banks scanned, their findings from the CMCI, one EOI. */
static void test_interrupt(void)
{
	struct mce_poll_event ev[4];
	struct mce_poll_state s;
	struct mce_poll_env e;
	struct mce_sim sim;
	struct fake_apic a;
	struct mce_apic_ops ops = apic_of(&a, 6);

	cpu_init(&s, &e, &sim);
	mce_cmci_claim(&s, &sim, 0x4, 0);
	mce_sim_set(&sim, STATUS(2), CORRECTED);
	mce_sim_set(&sim, STATUS(0), CORRECTED);		/* not this CPU's CMCI */
	mce_cmci_interrupt(&s, &e, &ops);
	CHECK(a.eois == 1 && s.st.cmcis == 1, "one EOI, one CMCI counted");
	CHECK(mce_poll_queue_take(&s.q, ev, 4) == 1 && ev[0].bank == 2 && ev[0].from_cmci &&
	      ev[0].kind == MCE_POLL_CORRECTED, "bank 2's error, from the CMCI");
	CHECK(!mce_sim_get(&sim, STATUS(2)) && mce_sim_get(&sim, STATUS(0)) == CORRECTED,
	      "bank 2 cleared, bank 0 untouched");
	mce_cmci_interrupt(&s, &e, &ops);
	CHECK(a.eois == 2 && mce_poll_queue_take(&s.q, ev, 4) == 0,
	      "a CMCI with nothing new: acknowledged, nothing queued");
}

/* One CMCI with @status in bank 1 at @t_ms. */
static void cmci_status_at(struct mce_poll_state *s, struct mce_poll_env *e,
			   struct mce_sim *sim, const struct mce_apic_ops *ops, u64 t_ms,
			   u64 status)
{
	struct mce_poll_event ev[4];

	mce_sim_set(sim, STATUS(1), status);
	e->now_ms = t_ms;
	mce_cmci_interrupt(s, e, ops);
	mce_poll_queue_take(&s->q, ev, 4);
}

/* One CMCI with a corrected error in bank 1 at @t_ms. */
static void cmci_at(struct mce_poll_state *s, struct mce_poll_env *e, struct mce_sim *sim,
		    const struct mce_apic_ops *ops, u64 t_ms)
{
	cmci_status_at(s, e, sim, ops, t_ms, CORRECTED);
}

static void test_storm_begins_at_five(void)
{
	struct mce_poll_state s;
	struct mce_poll_env e;
	struct mce_sim sim;
	struct fake_apic a;
	struct mce_apic_ops ops = apic_of(&a, 6);

	cpu_init(&s, &e, &sim);
	mce_cmci_claim(&s, &sim, 0x2, 0);
	for (int i = 0; i < 4; i++)
		cmci_at(&s, &e, &sim, &ops, 100 + i * 3000ULL);
	CHECK(!s.cmci.storming && (mce_sim_get(&sim, CTL2(1)) & THR_MASK) == 1,
	      "four errors within 10 s: no storm");
	cmci_at(&s, &e, &sim, &ops, 12100);
	CHECK(s.cmci.storming == 0x2 && (mce_sim_get(&sim, CTL2(1)) & THR_MASK) == 32749 &&
	      (mce_sim_get(&sim, CTL2(1)) & CMCI_EN), "the fifth: storm, threshold 32749, "
	      "CMCI_EN kept (0x%llx)", (unsigned long long)mce_sim_get(&sim, CTL2(1)));
	CHECK(s.st.storms == 1 && s.next_ms <= 12100 + 1000, "polled within the second");

	/* Five errors, each more than 64 s after the last: the history forgets them. */
	cpu_init(&s, &e, &sim);
	mce_cmci_claim(&s, &sim, 0x2, 0);
	for (int i = 1; i <= 6; i++)
		cmci_at(&s, &e, &sim, &ops, i * 65000ULL);
	CHECK(!s.cmci.storming, "errors a minute apart: never a storm");
	/* Four within a second, the fifth 63 s after the first: still inside 64 bits. */
	cpu_init(&s, &e, &sim);
	mce_cmci_claim(&s, &sim, 0x2, 0);
	for (int i = 0; i < 4; i++)
		cmci_at(&s, &e, &sim, &ops, 1000 + i * 100ULL);
	cmci_at(&s, &e, &sim, &ops, 1300 + 59000);
	CHECK(s.cmci.storming == 0x2, "five errors within the history's 64 bits: storm");
	/* The history's edge: 63 s later the old bit is bit 63; 64 s later it is gone. */
	cpu_init(&s, &e, &sim);
	mce_cmci_claim(&s, &sim, 0x2, 0);
	cmci_at(&s, &e, &sim, &ops, 0);
	cmci_at(&s, &e, &sim, &ops, 62000);
	CHECK(s.cmci.bank[1].history == ((1ULL << 63) | 1), "shift 63: 0x%llx",
	      (unsigned long long)s.cmci.bank[1].history);
	cmci_at(&s, &e, &sim, &ops, 62000 + 63000);
	CHECK(s.cmci.bank[1].history == 1, "shift 64: the history is cleared (0x%llx)",
	      (unsigned long long)s.cmci.bank[1].history);
}

/* In a storm: every poll shifts by one; 30 clean polls in a row end it. */
static void test_storm_ends_after_thirty_clean_polls(void)
{
	struct mce_poll_state s;
	struct mce_poll_env e;
	struct mce_sim sim;
	struct fake_apic a;
	struct mce_apic_ops ops = apic_of(&a, 6);
	u64 t = 100;

	cpu_init(&s, &e, &sim);
	mce_cmci_claim(&s, &sim, 0x2, 0);
	for (int i = 0; i < 5; i++, t += 200)
		cmci_at(&s, &e, &sim, &ops, t);
	CHECK(s.cmci.storming == 0x2, "storming");
	/* A noisy poll after 10 clean ones starts the count again. */
	for (int i = 0; i < 10; i++, t += 1000) {
		e.now_ms = t;
		mce_poll_scan(&s, &e, s.cmci.owned, false);
	}
	mce_sim_set(&sim, STATUS(1), CORRECTED);
	e.now_ms = t;
	mce_poll_scan(&s, &e, s.cmci.owned, false);
	for (int i = 0; i < 29; i++) {
		t += 1000;
		e.now_ms = t;
		mce_poll_scan(&s, &e, s.cmci.owned, false);
	}
	CHECK(s.cmci.storming == 0x2 && s.st.storms_ended == 0, "29 clean polls: still storming");
	e.now_ms = t + 1000;
	mce_poll_scan(&s, &e, s.cmci.owned, false);
	CHECK(!s.cmci.storming && s.st.storms_ended == 1 && !s.cmci.bank[1].in_storm,
	      "the 30th: storm over");
	CHECK((mce_sim_get(&sim, CTL2(1)) & THR_MASK) == 1 && (mce_sim_get(&sim, CTL2(1)) &
	      CMCI_EN) && s.cmci.bank[1].history == 0, "threshold back to 1, history cleared");
}

/*
 * Uncorrected errors between the corrected ones: each look moves the history on, none sets a
 * bit. Eight looks 0.9 s apart (one bit each), corrected and UCNA in turn: four corrected,
 * no storm; the fifth corrected one begins it. In the storm, thirty polls that each find a
 * UCNA are thirty polls without a corrected error: the storm ends.
 */
static void test_storm_counts_corrected_only(void)
{
	struct mce_poll_event ev[4];
	struct mce_poll_state s;
	struct mce_poll_env e;
	struct mce_sim sim;
	struct fake_apic a;
	struct mce_apic_ops ops = apic_of(&a, 6);
	u64 t = 100;

	cpu_init(&s, &e, &sim);
	mce_cmci_claim(&s, &sim, 0x2, 0);
	for (int i = 0; i < 8; i++, t += 900)
		cmci_status_at(&s, &e, &sim, &ops, t, i % 2 ? UCNA : CORRECTED);
	CHECK(s.cmci.bank[1].history == 0xaa, "history 0x%llx: the corrected looks' bits alone",
	      (unsigned long long)s.cmci.bank[1].history);
	CHECK(!s.cmci.storming && s.st.storms == 0 && (mce_sim_get(&sim, CTL2(1)) & THR_MASK) == 1,
	      "four corrected and four uncorrected errors: no storm");
	cmci_at(&s, &e, &sim, &ops, t);
	CHECK(s.cmci.storming == 0x2 && s.st.storms == 1, "the fifth corrected error: storm");

	for (int i = 0; i < 30; i++) {
		t += 1000;
		mce_sim_set(&sim, STATUS(1), UCNA);
		e.now_ms = t;
		mce_poll_scan(&s, &e, s.cmci.owned, false);
		mce_poll_queue_take(&s.q, ev, 4);
		if (i == 28)
			CHECK(s.cmci.storming == 0x2, "29 polls with a UCNA each: still storming");
	}
	CHECK(!s.cmci.storming && s.st.storms_ended == 1 &&
	      (mce_sim_get(&sim, CTL2(1)) & THR_MASK) == 1,
	      "30 polls finding only uncorrected errors: the storm is over");
}

int main(void)
{
	return RUN_TESTS(test_lvt, test_claim, test_interrupt, test_storm_begins_at_five,
			 test_storm_ends_after_thirty_clean_polls,
			 test_storm_counts_corrected_only);
}
