// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tsc.c - the clock: the TSC frequency in use agrees with fresh measurements against
 * the ACPI PM timer (within 1%), the PIT agrees with the PM timer, and the TSC moves forward.
 */
#include "kernel/include/x86.h"
#include "kernel/platform/acpi.h"
#include "kernel/platform/tsc.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

static long ppm(u64 a, u64 b)
{
	return (long)(((s64)a - (s64)b) * 1000000 / (s64)b);
}

static void frequency_known(struct ck_test *t)
{
	const struct tsc_info *ti = tsc_info();

	report(t, ti->hz > 1000000, "TSC frequency %llu Hz from %s", (unsigned long long)ti->hz,
	       tsc_source_name(ti->source));
	ck_diag("invariant TSC: %s", ti->invariant ? "yes" : "no");
}

static void agrees_with_pm_timer(struct ck_test *t)
{
	const struct tsc_info *ti = tsc_info();
	u64 m;
	u16 port;
	u32 bits;

	if (!acpi_pm_timer(&port, &bits)) {
		ck_skip(t, "no ACPI PM timer");
		return;
	}
	if (ti->source == TSC_SRC_PMTIMER) {
		/* The frequency in use came from the PM timer: check it against the PIT. */
		m = tsc_measure_pit(200);
		if (!m) {
			ck_skip(t, "the TSC was calibrated against the PM timer and there is no "
				"PIT to check it against");
			return;
		}
		ck_diag("in use %llu Hz (from the PM timer), PIT over 200 ms %llu Hz (%+ld ppm)",
			(unsigned long long)ti->hz, (unsigned long long)m, ppm(m, ti->hz));
		report(t, ppm(m, ti->hz) < 10000 && ppm(m, ti->hz) > -10000,
		       "within 1%% of the PIT, an independent clock (%+ld ppm)", ppm(m, ti->hz));
		return;
	}
	m = tsc_measure_pm(200);
	report(t, m != 0, "the PM timer advances");
	if (!m)
		return;
	ck_diag("in use %llu Hz, PM timer over 200 ms %llu Hz (%+ld ppm)",
		(unsigned long long)ti->hz, (unsigned long long)m, ppm(m, ti->hz));
	report(t, ppm(m, ti->hz) < 10000 && ppm(m, ti->hz) > -10000,
	       "within 1%% of the PM timer (%+ld ppm)", ppm(m, ti->hz));
}

static void pit_agrees_with_pm_timer(struct ck_test *t)
{
	u64 pit = tsc_measure_pit(50), pm = tsc_info()->pm_hz;

	if (!pit) {
		ck_skip(t, "PIT channel 2 output does not toggle (no PIT or no port 0x61)");
		return;
	}
	if (!pm) {
		ck_skip(t, "no PM timer to compare with");
		return;
	}
	ck_diag("PIT over 50 ms %llu Hz, PM timer %llu Hz (%+ld ppm)", (unsigned long long)pit,
		(unsigned long long)pm, ppm(pit, pm));
	report(t, ppm(pit, pm) < 10000 && ppm(pit, pm) > -10000, "PIT within 1%% of the PM timer");
}

static void monotonic(struct ck_test *t)
{
	u64 prev = rdtsc_ordered(), back = 0;

	for (int i = 0; i < 100000; i++) {
		u64 now = rdtsc_ordered();

		back += now < prev;
		prev = now;
	}
	report(t, back == 0, "TSC went backwards %llu times", (unsigned long long)back);
}

CK_SUITE(tsc, 50,
	 CK_CASE(frequency_known),
	 CK_CASE(agrees_with_pm_timer),
	 CK_CASE(pit_agrees_with_pm_timer),
	 CK_CASE(monotonic));
