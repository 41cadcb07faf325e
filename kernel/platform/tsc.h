/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tsc.h - the kernel's clock: the TSC, with its frequency from CPUID 15h/16h where the CPU
 * states it, else measured against the ACPI PM timer, else against the PIT.
 */
#ifndef CK_TSC_H
#define CK_TSC_H

#include "kernel/include/math64.h"

#define PM_TIMER_HZ	3579545ULL
#define PIT_HZ		1193182ULL

enum tsc_source {
	TSC_SRC_NONE,
	TSC_SRC_CPUID15,	/* crystal frequency and ratio from CPUID 15h */
	TSC_SRC_CPUID16,	/* base frequency from CPUID 16h with the 15h ratio */
	TSC_SRC_PMTIMER,
	TSC_SRC_PIT,
};

struct tsc_info {
	u64 hz;
	enum tsc_source source;
	bool invariant;
	u64 cpuid_hz;		/* what CPUID stated, 0 if nothing */
	u64 pm_hz;		/* measured against the PM timer, 0 if none */
};

/* Needs ACPI (for the PM timer) to be initialised first. */
void tsc_init(void);
const struct tsc_info *tsc_info(void);
const char *tsc_source_name(enum tsc_source s);

/* TSC ticks per second measured over @ms milliseconds of the PM timer / the PIT; 0 if none. */
u64 tsc_measure_pm(u32 ms);
u64 tsc_measure_pit(u32 ms);

static inline u64 tsc_to_ns(u64 ticks)
{
	const struct tsc_info *t = tsc_info();

	return t->hz ? mul_div_u64(ticks, 1000000000ULL, t->hz) : 0;
}

#endif
