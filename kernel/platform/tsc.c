// SPDX-License-Identifier: GPL-2.0-only
/*
 * tsc.c - find the TSC frequency. Every wait here is bounded by an iteration count as well
 * as by the reference clock, so a dead timer gives "no measurement", never a hang.
 */
#include "kernel/arch/cpuid.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/platform/acpi.h"
#include "kernel/platform/cpufeat.h"
#include "kernel/platform/tsc.h"

#define SPIN_LIMIT	50000000UL

/* The 8254 PIT (channel 2, gated by port 0x61) as the calibration of last resort. */
#define PIT_CH2_DATA		0x42
#define PIT_MODE_CMD		0x43
#define PIT_SEL_CH2		(2 << 6)	/* command: select channel 2 */
#define PIT_LATCH		(0 << 4)	/* access: latch the count */
#define PIT_ACCESS_LOHI		(3 << 4)	/* access: low byte, then high byte */
#define PIT_MODE0		(0 << 1)	/* interrupt on terminal count: counts down once */
#define PIT_COUNT_MAX		0xff		/* each byte of the 16-bit start count */
#define PORT_NMI_SC		0x61		/* system control port B */
#define NMI_SC_GATE2		0x01		/* channel 2 gate */
#define NMI_SC_SPEAKER		0x02		/* speaker data enable */

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
	u32 max = cpuid_boot()->max_leaf;
	struct cpuid_regs l15 = { 0 }, l16 = { 0 };
	enum tsc_cpuid_source cs;
	u64 hz;

	if (max >= CPUID_LEAF_TSC)
		l15 = cpuid(CPUID_LEAF_TSC);
	if (max >= CPUID_LEAF_FREQ)
		l16 = cpuid(CPUID_LEAF_FREQ);
	hz = cpufeat_tsc_hz(max, l15.eax, l15.ebx, l15.ecx, l16.eax, &cs);
	*src = cs == TSC_CPUID_15H ? TSC_SRC_CPUID15 : cs == TSC_CPUID_16H ? TSC_SRC_CPUID16 :
	       TSC_SRC_NONE;
	return hz;
}

static inline u32 pm_read(void)
{
	return inl(pm_port) & pm_mask;
}

/*
 * Each edge of a measurement window is bracketed: reference, TSC, reference again, retried
 * when the two references are far apart. Being interrupted (or, in a VM, descheduled) while
 * spinning inside the window does not matter, since both clocks keep running; being
 * interrupted between the reference and the TSC read at an edge would, and is caught here.
 */
#define PM_BRACKET_MAX	36	/* PM ticks, about 10 us */
#define PIT_BRACKET_MAX	12	/* PIT ticks, about 10 us */
#define BRACKET_TRIES	64

static bool pm_edge(u32 *pm, u64 *tsc)
{
	for (int i = 0; i < BRACKET_TRIES; i++) {
		u32 a = pm_read();
		u64 t = rdtsc_ordered();
		u32 b = pm_read();

		if (((b - a) & pm_mask) <= PM_BRACKET_MAX) {
			*pm = a;
			*tsc = t;
			return true;
		}
	}
	return false;
}

u64 tsc_measure_pm(u32 ms)
{
	u64 target = PM_TIMER_HZ * ms / 1000, elapsed = 0, t0, t1;
	u32 start, last, now, end;
	unsigned long spins = 0;

	if (!pm_port || !pm_edge(&start, &t0))
		return 0;
	last = start;
	while (elapsed < target) {
		now = pm_read();
		elapsed += (now - last) & pm_mask;
		last = now;
		if (++spins > SPIN_LIMIT)
			return 0;
	}
	if (!pm_edge(&end, &t1))
		return 0;
	elapsed += (end - last) & pm_mask;
	return mul_div_u64(t1 - t0, PM_TIMER_HZ, elapsed);
}

/* PIT channel 2's current count (it counts down), latched so both bytes belong together. */
static u16 pit_count(void)
{
	u8 lo, hi;

	outb(PIT_MODE_CMD, PIT_SEL_CH2 | PIT_LATCH);
	lo = inb(PIT_CH2_DATA);
	hi = inb(PIT_CH2_DATA);
	return (u16)(lo | hi << 8);
}

static bool pit_edge(u16 *count, u64 *tsc)
{
	for (int i = 0; i < BRACKET_TRIES; i++) {
		u16 a = pit_count();
		u64 t = rdtsc_ordered();
		u16 b = pit_count();

		if (a >= b && a - b <= PIT_BRACKET_MAX) {
			*count = a;
			*tsc = t;
			return true;
		}
	}
	return false;
}

/*
 * One window: count PIT ticks poll by poll (16-bit differences, so the counter may wrap
 * between polls), bracket both edges. A pause longer than the counter's 55 ms period between
 * two polls loses a whole period: that can only make the result too high.
 */
static u64 pit_window(u64 ticks)
{
	u64 elapsed = 0, t0, t1;
	u16 c0, c1, last, now;
	unsigned long spins = 0;

	outb(PORT_NMI_SC, (inb(PORT_NMI_SC) & ~NMI_SC_SPEAKER) | NMI_SC_GATE2);
	outb(PIT_MODE_CMD, PIT_SEL_CH2 | PIT_ACCESS_LOHI | PIT_MODE0);
	outb(PIT_CH2_DATA, PIT_COUNT_MAX);
	outb(PIT_CH2_DATA, PIT_COUNT_MAX);
	if (!pit_edge(&c0, &t0))
		return 0;
	last = c0;
	while (elapsed < ticks) {
		now = pit_count();
		elapsed += (u16)(last - now);
		last = now;
		if (++spins > SPIN_LIMIT)
			return 0;
	}
	if (!pit_edge(&c1, &t1))
		return 0;
	elapsed += (u16)(last - c1);
	return elapsed ? mul_div_u64(t1 - t0, PIT_HZ, elapsed) : 0;
}

/* The lowest of five windows: a lost counter period only ever inflates a window's result. */
u64 tsc_measure_pit(u32 ms)
{
	u64 ticks = PIT_HZ * ms / 1000, best = 0;

	if (!ticks)
		return 0;
	for (int i = 0; i < 5; i++) {
		u64 hz = pit_window(ticks);

		if (hz && (!best || hz < best))
			best = hz;
	}
	return best;
}

void tsc_init(void)
{
	enum tsc_source src = TSC_SRC_NONE;
	u32 bits;

	if (acpi_pm_timer(&pm_port, &bits))
		pm_mask = bits == 32 ? 0xffffffffU : 0xffffffU;
	else
		pm_port = 0;
	info.invariant = cpu_has(X86_FEATURE_INVTSC);
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
