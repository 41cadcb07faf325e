// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_apic_start.c - the AP start sequence the image runs (apic_start_aps() in
 * kernel/arch/apic_start.c) against a fake local APIC with several fake APs, and the APIC
 * mode plan.
 *
 * The fake records every ICR write and every error-status read with the fake time, keeps
 * the ICR busy for a few polls after each write, and moves each AP through the states the
 * SDM gives (vol. 3, "MP Initialization"): INIT assert holds it, the deassert leaves it
 * waiting for a STARTUP IPI, a SIPI then starts it, and a SIPI it is not waiting for is
 * ignored. The expected values are Linux's (arch/x86/kernel/smpboot.c,
 * wakeup_secondary_cpu_via_init(), with the APIC_* values of asm/apicdef.h), written out
 * here as numbers, not our macros: INIT assert 0xc500, INIT deassert 0x8500, STARTUP
 * 0x600 | page; ESR cleared before INIT and before each SIPI and read after it, masked with
 * 0xef; 10 ms after INIT assert unless init_udelay is 0 (smp_quirk_init_udelay()), then
 * 300 us (10 modern), an idle ICR and 200 us (10 modern) before the ESR read; ICR idle polled
 * 1000 x 100 us (safe_apic_wait_icr_idle()).
 */
#include "kernel/arch/apic_start.h"
#include "tests/host/host_test.h"

#define MAX_APS		4
#define MAX_EVENTS	64
#define VECTOR		0x85

enum ev_kind { EV_ESR, EV_ICR };
enum ap_state { AP_FIRMWARE, AP_INIT_HELD, AP_WAIT_SIPI, AP_RUNNING };

struct event {
	enum ev_kind kind;
	u32 dest, low;
	u64 at_us;
	/* ICR writes: when the ICR was first polled, and first seen idle (~0: never). */
	u64 poll_us, idle_us;
};

struct fake_ap {
	u32 apic_id;
	/* Behaviour. */
	bool silent;			/* never checks in */
	unsigned int miss_sipis;	/* ignores this many SIPIs (a lost first SIPI) */
	u64 answer_delay_us;
	bool answers_when_given_up;	/* checks in just as the BSP gives up */
	/* State. */
	enum ap_state st;
	unsigned int sipis;
	u64 answer_at;
	bool begun, given_up;
};

struct fake_apic {
	u64 now_us;
	unsigned int busy_polls;	/* the ICR reads busy this often after each write */
	bool stuck;			/* ... or forever */
	u32 esr_after_sipi;		/* error status a STARTUP IPI raises */
	unsigned int busy_left, nev, violations;
	u32 esr;
	struct event ev[MAX_EVENTS];
	struct fake_ap ap[MAX_APS];
	unsigned int nap;
};

static struct fake_apic f;

static struct fake_ap *ap_by_id(u32 id)
{
	for (unsigned int i = 0; i < f.nap; i++)
		if (f.ap[i].apic_id == id)
			return &f.ap[i];
	return NULL;
}

static void log_event(enum ev_kind kind, u32 dest, u32 low)
{
	if (f.nev < MAX_EVENTS)
		f.ev[f.nev++] = (struct event){ kind, dest, low, f.now_us, ~0ULL, ~0ULL };
}

/* What a STARTUP IPI or INIT does to the AP it names (SDM vol. 3, "MP Initialization"). */
static void deliver(struct fake_ap *a, u32 low)
{
	if ((low & 0x700) == 0x500) {
		a->st = (low & 0x4000) ? AP_INIT_HELD : a->st == AP_INIT_HELD ? AP_WAIT_SIPI : a->st;
		return;
	}
	if ((low & 0x700) != 0x600)
		return;
	a->sipis++;
	f.esr |= f.esr_after_sipi;
	if (a->st != AP_WAIT_SIPI || a->sipis <= a->miss_sipis)
		return;
	a->st = AP_RUNNING;
	a->answer_at = f.now_us + a->answer_delay_us;
}

static void f_icr_write(void *ctx, u32 dest, u32 low)
{
	struct fake_ap *a = ap_by_id(dest);

	if (f.busy_left || f.stuck)
		f.violations++;		/* the previous IPI was still being sent */
	log_event(EV_ICR, dest, low);
	f.busy_left = f.busy_polls;
	if (a)
		deliver(a, low);
}

static bool f_icr_busy(void *ctx)
{
	struct event *last = NULL;

	for (unsigned int i = f.nev; i-- > 0 && !last;)
		last = f.ev[i].kind == EV_ICR ? &f.ev[i] : NULL;
	if (last && last->poll_us == ~0ULL)
		last->poll_us = f.now_us;
	if (last && last->idle_us == ~0ULL && !f.stuck && !f.busy_left)
		last->idle_us = f.now_us;
	if (f.stuck)
		return true;
	if (!f.busy_left)
		return false;
	f.busy_left--;
	return true;
}

static u32 f_esr_read(void *ctx)
{
	u32 v = f.esr;

	log_event(EV_ESR, 0, 0);
	f.esr = 0;
	return v;
}

static void f_udelay(void *ctx, u32 us)
{
	f.now_us += us;
}

static u64 f_now(void *ctx)
{
	return f.now_us;
}

static void f_sipi_begin(void *ctx, unsigned int i)
{
	f.ap[i].begun = true;
}

static bool f_answered(void *ctx, unsigned int i)
{
	struct fake_ap *a = &f.ap[i];

	return a->st == AP_RUNNING && !a->silent && f.now_us >= a->answer_at;
}

static bool f_give_up(void *ctx, unsigned int i)
{
	f.ap[i].given_up = true;
	return !f.ap[i].answers_when_given_up;
}

static const struct apic_start_ops ops = {
	.icr_write = f_icr_write, .icr_busy = f_icr_busy, .esr_read = f_esr_read,
	.udelay = f_udelay, .now_us = f_now, .sipi_begin = f_sipi_begin,
	.answered = f_answered, .give_up = f_give_up,
};

static struct apic_start_ap aps[MAX_APS];

/* @n fake APs with ids 1..n (or @ids), answering 50 us after their SIPI. */
static void setup(unsigned int n, const u32 *ids)
{
	f = (struct fake_apic){ .busy_polls = 3, .nap = n };
	for (unsigned int i = 0; i < n; i++) {
		f.ap[i] = (struct fake_ap){ .apic_id = ids ? ids[i] : i + 1, .answer_delay_us = 50 };
		aps[i] = (struct apic_start_ap){ .apic_id = f.ap[i].apic_id };
	}
}

static unsigned int start(bool x2apic, bool modern)
{
	struct apic_start_params p = { .sipi_vector = VECTOR, .x2apic = x2apic,
				       .modern = modern, .answer_timeout_us = 1000000 };

	return apic_start_aps(&ops, &p, aps, f.nap);
}

/* Index of the @k-th ICR write (0-based) with low word @low to @dest, or -1. */
static int find_icr(u32 dest, u32 low, unsigned int k)
{
	for (unsigned int i = 0; i < f.nev; i++)
		if (f.ev[i].kind == EV_ICR && f.ev[i].dest == dest && f.ev[i].low == low && !k--)
			return (int)i;
	return -1;
}

static bool esr_between(int from, int to)
{
	for (int i = from + 1; i < to; i++)
		if (f.ev[i].kind == EV_ESR)
			return true;
	return false;
}

static int next_icr(int from)
{
	for (unsigned int i = (unsigned int)from + 1; i < f.nev; i++)
		if (f.ev[i].kind == EV_ICR)
			return (int)i;
	return (int)f.nev;
}

/*
 * One AP's words and their spacing: @init_us after INIT assert; after each SIPI @sipi_us
 * before the ICR is polled, and @accept_us from the idle ICR to the ESR read.
 */
static void check_ap(u32 id, u64 init_us, u64 sipi_us, u64 accept_us)
{
	int a = find_icr(id, 0xc500, 0), d = find_icr(id, 0x8500, 0);
	int s1 = find_icr(id, 0x600 | VECTOR, 0), s2 = find_icr(id, 0x600 | VECTOR, 1);

	CHECK(a >= 0 && d > a && s1 > d && s2 > s1, "APIC id %u: INIT %d, deassert %d, SIPIs %d %d",
	      id, a, d, s1, s2);
	if (a < 0 || d < 0 || s1 < 0 || s2 < 0)
		return;
	CHECK(find_icr(id, 0x600 | VECTOR, 2) < 0, "APIC id %u: a third SIPI", id);
	CHECK(a > 0 && f.ev[a - 1].kind == EV_ESR, "APIC id %u: ESR not cleared before INIT", id);
	CHECK(f.ev[d].at_us - f.ev[a].at_us >= init_us, "APIC id %u: INIT to deassert %llu us",
	      id, (unsigned long long)(f.ev[d].at_us - f.ev[a].at_us));
	for (int s = s1; s >= 0; s = s == s1 ? s2 : -1) {
		int after = next_icr(s), rd = -1;

		CHECK(f.ev[s - 1].kind == EV_ESR, "APIC id %u: ESR not cleared before a SIPI", id);
		CHECK(esr_between(s, after), "APIC id %u: ESR not read after a SIPI", id);
		for (int i = s + 1; i < after && rd < 0; i++)
			rd = f.ev[i].kind == EV_ESR ? i : -1;
		CHECK(f.ev[s].poll_us != ~0ULL && f.ev[s].poll_us - f.ev[s].at_us >= sipi_us,
		      "APIC id %u: ICR polled %llu us after its SIPI, want >= %llu", id,
		      (unsigned long long)(f.ev[s].poll_us - f.ev[s].at_us),
		      (unsigned long long)sipi_us);
		CHECK(rd > 0 && f.ev[s].idle_us != ~0ULL &&
		      f.ev[rd].at_us - f.ev[s].idle_us >= accept_us,
		      "APIC id %u: ESR read %llu us after the ICR went idle, want >= %llu", id,
		      rd > 0 ? (unsigned long long)(f.ev[rd].at_us - f.ev[s].idle_us) : 0ULL,
		      (unsigned long long)accept_us);
	}
}

static void test_init_all_then_sipis(void)
{
	int last_init = -1, first_sipi = (int)MAX_EVENTS;

	setup(3, NULL);
	CHECK(start(false, false) == 3, "3 APs started");
	for (unsigned int i = 0; i < 3; i++) {
		CHECK(aps[i].r.step == APIC_START_OK && aps[i].r.sipis == 2,
		      "AP %u: step %d, %u SIPIs", i, aps[i].r.step, aps[i].r.sipis);
		CHECK(aps[i].r.answer_us >= 50 && aps[i].r.answer_us < 5000, "AP %u answered in %llu us",
		      i, (unsigned long long)aps[i].r.answer_us);
		CHECK(f.ap[i].st == AP_RUNNING && f.ap[i].begun && !f.ap[i].given_up,
		      "AP %u: running, begun, not given up", i);
		/* The SDM's 10 ms after INIT; 300 and 200 us around each SIPI's ICR wait (Linux). */
		check_ap(i + 1, 10000, 300, 200);
	}
	for (unsigned int i = 0; i < f.nev; i++) {
		if (f.ev[i].kind != EV_ICR)
			continue;
		if ((f.ev[i].low & 0x700) == 0x500)
			last_init = (int)i;
		else if ((int)i < first_sipi)
			first_sipi = (int)i;
	}
	CHECK(last_init >= 0 && last_init < first_sipi,
	      "every INIT goes out before the first SIPI (last INIT %d, first SIPI %d)", last_init,
	      first_sipi);
	CHECK(f.violations == 0, "%u ICR writes while the ICR was busy", f.violations);
	CHECK(f.nev == 3 * (4 + 5), "%u events: per AP 4 ICR writes and 5 ESR reads", f.nev);
}

static void test_modern_delays(void)
{
	setup(2, NULL);
	CHECK(start(false, true) == 2, "2 APs started");
	for (unsigned int i = 0; i < 2; i++) {
		int a = find_icr(i + 1, 0xc500, 0), d = find_icr(i + 1, 0x8500, 0);

		check_ap(i + 1, 0, 10, 10);
		CHECK(a >= 0 && d >= 0 && f.ev[d].at_us - f.ev[a].at_us < 10000,
		      "no 10 ms INIT wait on a modern CPU");
	}
	CHECK(f.violations == 0, "%u ICR writes while busy", f.violations);
}

static void test_lost_first_sipi(void)
{
	setup(1, NULL);
	f.ap[0].miss_sipis = 1;
	CHECK(start(false, true) == 1 && aps[0].r.step == APIC_START_OK,
	      "an AP that missed the first SIPI starts on the second");
}

static void test_silent_and_late(void)
{
	setup(3, NULL);
	f.ap[0].silent = true;
	f.ap[1].silent = true;
	f.ap[1].answers_when_given_up = true;
	CHECK(start(false, true) == 2, "the AP that answers while given up counts");
	CHECK(aps[0].r.step == APIC_START_NO_ANSWER && f.ap[0].given_up && aps[0].r.sipis == 2,
	      "silent AP: no answer (%d), given up, after both SIPIs", aps[0].r.step);
	CHECK(aps[1].r.step == APIC_START_OK && f.ap[1].given_up, "late AP counted as started");
	CHECK(aps[2].r.step == APIC_START_OK && f.ap[2].st == AP_RUNNING,
	      "the AP after them still started");
	/* Each silent AP waited the 1 s timeout, no more. */
	CHECK(f.now_us >= 2000000 && f.now_us < 2100000, "gave up after the timeouts: %llu us",
	      (unsigned long long)f.now_us);
}

static void test_stuck_icr(void)
{
	setup(2, NULL);
	f.stuck = true;
	CHECK(start(false, true) == 0, "nothing starts with a stuck ICR");
	for (unsigned int i = 0; i < 2; i++)
		CHECK(aps[i].r.step == APIC_START_INIT_STUCK && !f.ap[i].begun &&
		      find_icr(i + 1, 0x8500, 0) < 0, "AP %u: INIT stuck (%d), no deassert, no SIPI",
		      i, aps[i].r.step);
	/* 1000 polls of 100 us per AP, then the next one. */
	CHECK(f.now_us >= 200000 && f.now_us < 210000, "bounded ICR waits: %llu us",
	      (unsigned long long)f.now_us);
}

static void test_esr_after_sipi(void)
{
	setup(2, NULL);
	f.esr_after_sipi = 0x40;
	CHECK(start(false, true) == 0, "illegal-vector ESR: nothing counted as started");
	CHECK(aps[0].r.step == APIC_START_SIPI_ERROR && aps[0].r.esr == 0x40 &&
	      aps[0].r.sipis == 1 && f.ap[0].given_up, "ESR 0x40 after the first SIPI: %d %x %u",
	      aps[0].r.step, aps[0].r.esr, aps[0].r.sipis);
	setup(1, NULL);
	f.esr_after_sipi = 0x10;
	CHECK(start(false, true) == 1, "ESR bit 4 (send checksum) ignored as Linux does");
}

static void test_x2apic_ids(void)
{
	static const u32 ids[] = { 300, 0xff, 4 };
	static const u32 big[] = { 70000 };

	setup(3, ids);
	CHECK(start(false, true) == 1, "xAPIC mode: only APIC id 4 can be reached");
	CHECK(aps[0].r.step == APIC_START_BAD_ID && find_icr(300 & 0xff, 0xc500, 0) < 0 &&
	      f.ap[0].sipis == 0, "APIC id 300: nothing sent");
	CHECK(aps[1].r.step == APIC_START_BAD_ID && find_icr(0xff, 0xc500, 0) < 0,
	      "0xff is the xAPIC broadcast id");
	CHECK(aps[2].r.step == APIC_START_OK, "APIC id 4 started");
	setup(1, big);
	f.busy_polls = 0;		/* x2APIC has no delivery status */
	CHECK(start(true, true) == 1 && find_icr(70000, 0xc500, 0) >= 0 &&
	      find_icr(70000, 0x600 | VECTOR, 1) >= 0, "x2APIC: 32-bit destination 70000");
}

static void test_mode_plan(void)
{
	CHECK(apic_plan_mode(false, true, 254) == APIC_PLAN_KEEP, "xAPIC, ids to 254: keep");
	CHECK(apic_plan_mode(false, true, 255) == APIC_PLAN_SWITCH_X2APIC, "id 255: switch");
	CHECK(apic_plan_mode(false, false, 300) == APIC_PLAN_UNREACHABLE, "no x2APIC: unreachable");
	CHECK(apic_plan_mode(true, true, 300) == APIC_PLAN_KEEP, "already x2APIC: keep");
	CHECK(apic_plan_mode(true, true, 3) == APIC_PLAN_KEEP, "firmware's x2APIC kept");
}

int main(void)
{
	return RUN_TESTS(test_init_all_then_sipis, test_modern_delays, test_lost_first_sipi,
			 test_silent_and_late, test_stuck_icr, test_esr_after_sipi, test_x2apic_ids,
			 test_mode_plan);
}
