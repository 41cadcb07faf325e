// SPDX-License-Identifier: GPL-2.0-only
/*
 * tsc.c - find the TSC frequency. Every wait here is bounded by an iteration count as well
 * as by the reference clock, so a dead timer gives "no measurement", never a hang.
 */
#include "kernel/tsc.h"
#include "kernel/acpi.h"
#include "kernel/cpufeat.h"
#include "kernel/printk.h"
#include "kernel/x86.h"

#define SPIN_LIMIT	50000000UL

static struct tsc_info info;
static u16 pm_port;
static u32 pm_mask;

const struct tsc_info *tsc_info(void)
{
	return &info;
}

const char *tsc_source_name(enum tsc_source s)
{
	switch (s) {
	case TSC_SRC_CPUID15:	return "CPUID 15h";
	case TSC_SRC_CPUID16:	return "CPUID 16h";
	case TSC_SRC_PMTIMER:	return "PM timer calibration";
	case TSC_SRC_PIT:	return "PIT calibration";
	default:		return "none";
	}
}

static u64 cpuid_tsc_hz(enum tsc_source *src)
{
	u32 max = cpuid(0).eax;
	struct cpuid_regs l15 = { 0 }, l16 = { 0 };
	enum tsc_cpuid_source cs;
	u64 hz;

	if (max >= 0x15)
		l15 = cpuid(0x15);
	if (max >= 0x16)
		l16 = cpuid(0x16);
	hz = cpufeat_tsc_hz(max, l15.eax, l15.ebx, l15.ecx, l16.eax, &cs);
	*src = cs == TSC_CPUID_15H ? TSC_SRC_CPUID15 : cs == TSC_CPUID_16H ? TSC_SRC_CPUID16 :
	       TSC_SRC_NONE;
	return hz;
}

static inline u32 pm_read(void)
{
	return inl(pm_port) & pm_mask;
}

u64 tsc_measure_pm(u32 ms)
{
	u64 target = PM_TIMER_HZ * ms / 1000, elapsed = 0, t0, t1;
	u32 last, now;
	unsigned long spins = 0;

	if (!pm_port)
		return 0;
	/* Start on a tick edge so the first partial tick does not count. */
	last = pm_read();
	while ((now = pm_read()) == last)
		if (++spins > SPIN_LIMIT)
			return 0;
	t0 = rdtsc_ordered();
	last = now;
	while (elapsed < target) {
		now = pm_read();
		elapsed += (now - last) & pm_mask;
		last = now;
		if (++spins > SPIN_LIMIT)
			return 0;
	}
	t1 = rdtsc_ordered();
	return mul_div_u64(t1 - t0, PM_TIMER_HZ, elapsed);
}

u64 tsc_measure_pit(u32 ms)
{
	u64 latch = PIT_HZ * ms / 1000, t0, t1;
	unsigned long spins = 0;

	if (latch == 0 || latch > 0xffff)
		return 0;
	/* Channel 2, gate on, speaker off; mode 0 counts down once and raises OUT2. */
	outb(0x61, (inb(0x61) & ~0x02) | 0x01);
	outb(0x43, 0xb0);
	outb(0x42, latch & 0xff);
	outb(0x42, latch >> 8);
	t0 = rdtsc_ordered();
	while (!(inb(0x61) & 0x20))
		if (++spins > SPIN_LIMIT)
			return 0;
	t1 = rdtsc_ordered();
	return (t1 - t0) * 1000 / ms;
}

void tsc_init(void)
{
	enum tsc_source src = TSC_SRC_NONE;
	u32 bits;

	if (acpi_pm_timer(&pm_port, &bits))
		pm_mask = bits == 32 ? 0xffffffffU : 0xffffffU;
	else
		pm_port = 0;
	if (cpuid(0x80000000).eax >= 0x80000007)
		info.invariant = cpuid(0x80000007).edx & BIT(8);
	info.cpuid_hz = cpuid_tsc_hz(&src);
	info.pm_hz = tsc_measure_pm(100);
	if (info.cpuid_hz) {
		info.hz = info.cpuid_hz;
		info.source = src;
	} else if (info.pm_hz) {
		info.hz = info.pm_hz;
		info.source = TSC_SRC_PMTIMER;
	} else {
		info.hz = tsc_measure_pit(50);
		info.source = info.hz ? TSC_SRC_PIT : TSC_SRC_NONE;
	}
	printk("TSC: %llu.%03llu MHz from %s, %s", (unsigned long long)info.hz / 1000000,
	       (unsigned long long)(info.hz / 1000) % 1000, tsc_source_name(info.source),
	       info.invariant ? "invariant" : "NOT invariant (figures may drift with P-states)");
	if (pm_port)
		printk(", PM timer at port 0x%x (%u-bit)", pm_port, bits);
	else
		printk(", no ACPI PM timer");
	printk("\n");
	if (info.cpuid_hz && info.pm_hz) {
		s64 d = (s64)info.pm_hz - (s64)info.cpuid_hz;

		printk("TSC: CPUID says %llu Hz, the PM timer measures %llu Hz (%+lld ppm)\n",
		       (unsigned long long)info.cpuid_hz, (unsigned long long)info.pm_hz,
		       (long long)(d * 1000000 / (s64)info.cpuid_hz));
	}
	if (!info.hz)
		pr_warn("TSC: no frequency source worked; times will read as zero\n");
}
