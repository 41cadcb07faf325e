// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_smp.c - the AP start sequence (kernel/arch/apic_start.c) against a fake local APIC
 * that records every ICR write, and the APIC mode plan. The expected ICR words are Linux's
 * (arch/x86/kernel/smpboot.c, wakeup_secondary_cpu_via_init(), with the APIC_* values of
 * arch/x86/include/asm/apicdef.h) written out as numbers here, not our macros: INIT assert
 * 0xc500, INIT deassert 0x8500, STARTUP 0x600 | page.
 */
#include "kernel/arch/apic_start.h"
#include "tests/host/host_test.h"

#define MAX_LOG	16

struct fake_apic {
	u64 now_us;
	unsigned int nr;
	struct {
		u32 dest, low;
		u64 at_us;
	} log[MAX_LOG];
	/* Behaviour. */
	bool stuck;		/* the ICR stays busy forever */
	u32 esr_after_sipi;	/* error status raised by a STARTUP IPI */
	int answers_after_sipis;	/* 0: never; n: after the n-th STARTUP IPI */
	u64 answer_delay_us;	/* ... and this long after it */
	/* State. */
	u32 esr;
	unsigned int sipis;
	u64 answer_at;
	bool answer_set;
	unsigned int esr_reads;
};

static void f_icr_write(void *ctx, u32 dest, u32 low)
{
	struct fake_apic *f = ctx;

	if (f->nr < MAX_LOG)
		f->log[f->nr++] = (typeof(f->log[0])){ dest, low, f->now_us };
	if ((low & 0x700) == 0x600) {
		f->sipis++;
		f->esr |= f->esr_after_sipi;
		if (f->answers_after_sipis && (int)f->sipis == f->answers_after_sipis)
			f->answer_at = f->now_us + f->answer_delay_us, f->answer_set = true;
	}
}

static bool f_icr_busy(void *ctx)
{
	return ((struct fake_apic *)ctx)->stuck;
}

static u32 f_esr_read(void *ctx)
{
	struct fake_apic *f = ctx;
	u32 v = f->esr;

	f->esr_reads++;
	f->esr = 0;
	return v;
}

static void f_udelay(void *ctx, u32 us)
{
	((struct fake_apic *)ctx)->now_us += us;
}

static bool f_answered(void *ctx)
{
	struct fake_apic *f = ctx;

	return f->answer_set && f->now_us >= f->answer_at;
}

static u64 f_now(void *ctx)
{
	return ((struct fake_apic *)ctx)->now_us;
}

static struct fake_apic f;
static struct apic_start_ops ops = {
	.icr_write = f_icr_write, .icr_busy = f_icr_busy, .esr_read = f_esr_read,
	.udelay = f_udelay, .answered = f_answered, .now_us = f_now, .ctx = &f,
};

static int start(u32 id, bool x2apic, bool modern, struct apic_start_result *r)
{
	struct apic_start_params p = { .apic_id = id, .sipi_vector = 0x85, .x2apic = x2apic,
				       .modern = modern, .answer_timeout_us = 1000000 };

	return apic_start_cpu(&ops, &p, r);
}

static void test_sequence(void)
{
	struct apic_start_result r;

	f = (struct fake_apic){ .answers_after_sipis = 1, .answer_delay_us = 50 };
	CHECK(start(3, false, false, &r) == 0 && r.step == APIC_START_OK, "started: %d", r.step);
	CHECK(f.nr == 4, "4 ICR writes (INIT, INIT deassert, SIPI, SIPI): %u", f.nr);
	CHECK(f.log[0].low == 0xc500 && f.log[1].low == 0x8500 && f.log[2].low == 0x685 &&
	      f.log[3].low == 0x685, "ICR words %x %x %x %x", f.log[0].low, f.log[1].low,
	      f.log[2].low, f.log[3].low);
	for (unsigned int i = 0; i < f.nr; i++)
		CHECK(f.log[i].dest == 3, "write %u to APIC id %u", i, f.log[i].dest);
	/* The SDM's 10 ms between INIT and its deassert, and 200+ us between the SIPIs. */
	CHECK(f.log[1].at_us - f.log[0].at_us >= 10000, "INIT to deassert: %llu us",
	      (unsigned long long)(f.log[1].at_us - f.log[0].at_us));
	CHECK(f.log[3].at_us - f.log[2].at_us >= 200, "SIPI to SIPI: %llu us",
	      (unsigned long long)(f.log[3].at_us - f.log[2].at_us));
	CHECK(f.esr_reads >= 5, "ESR cleared before INIT and around each SIPI: %u reads",
	      f.esr_reads);
	CHECK(r.sipis == 2 && r.answer_us >= 50 && r.answer_us < 2000, "2 SIPIs, answer %llu us",
	      (unsigned long long)r.answer_us);

	f = (struct fake_apic){ .answers_after_sipis = 2 };
	CHECK(start(3, false, true, &r) == 0, "modern CPU starts");
	CHECK(f.log[1].at_us - f.log[0].at_us < 10000, "no 10 ms INIT wait on a modern CPU");
}

static void test_failures(void)
{
	struct apic_start_result r;

	f = (struct fake_apic){ 0 };
	CHECK(start(5, false, true, &r) == -1 && r.step == APIC_START_NO_ANSWER,
	      "silent CPU: %d", r.step);
	CHECK(f.now_us >= 1000000 && f.now_us < 1100000, "gave up after the timeout: %llu us",
	      (unsigned long long)f.now_us);
	CHECK(r.sipis == 2, "both SIPIs went out first");

	f = (struct fake_apic){ .answers_after_sipis = 2, .answer_delay_us = 2000000 };
	CHECK(start(5, false, true, &r) == -1 && r.step == APIC_START_NO_ANSWER,
	      "answer after the timeout is a failure");

	f = (struct fake_apic){ .stuck = true };
	CHECK(start(5, false, true, &r) == -1 && r.step == APIC_START_INIT_STUCK && f.nr == 1,
	      "busy ICR: stop after INIT (%d, %u writes)", r.step, f.nr);
	CHECK(f.now_us >= 100000 && f.now_us < 200000, "bounded ICR wait: %llu us",
	      (unsigned long long)f.now_us);

	f = (struct fake_apic){ .esr_after_sipi = 0x40, .answers_after_sipis = 1 };
	CHECK(start(5, false, true, &r) == -1 && r.step == APIC_START_SIPI_ERROR &&
	      r.esr == 0x40 && r.sipis == 1, "ESR 0x40 (illegal vector) after SIPI: %d %x",
	      r.step, r.esr);
	f = (struct fake_apic){ .esr_after_sipi = 0x10, .answers_after_sipis = 1 };
	CHECK(start(5, false, true, &r) == 0, "ESR bit 4 (send checksum) ignored as Linux does");
}

static void test_x2apic_ids(void)
{
	struct apic_start_result r;

	f = (struct fake_apic){ .answers_after_sipis = 1 };
	CHECK(start(300, false, true, &r) == -1 && r.step == APIC_START_BAD_ID && f.nr == 0,
	      "xAPIC mode cannot address APIC id 300: nothing sent");
	CHECK(start(0xff, false, true, &r) == -1 && r.step == APIC_START_BAD_ID,
	      "0xff is the xAPIC broadcast id");
	f = (struct fake_apic){ .answers_after_sipis = 1 };
	CHECK(start(70000, true, true, &r) == 0 && f.log[0].dest == 70000 &&
	      f.log[2].dest == 70000, "x2APIC: 32-bit destination 70000");
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
	return RUN_TESTS(test_sequence, test_failures, test_x2apic_ids, test_mode_plan);
}
