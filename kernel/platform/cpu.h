/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu.h - identify the boot CPU and print the report: vendor, signature, microcode, PPIN, the
 * features the project depends on, machine-check capabilities and the cache hierarchy.
 */
#ifndef CK_CPU_H
#define CK_CPU_H

#include "kernel/platform/cpufeat.h"

struct cache_level {
	u8 level;
	char type;		/* 'd' data, 'i' instruction, 'u' unified */
	u16 line;
	u32 ways;
	u64 size;
	bool inclusive;
};

#define CPU_MAX_CACHES	8

struct cpu_caches {
	unsigned int n;
	struct cache_level c[CPU_MAX_CACHES];
	const char *source;	/* which CPUID leaf described them */
};

void cpu_init(void);
const struct cpu_ident *cpu(void);
const struct cpu_caches *cpu_caches(void);
/* Size of the largest cache, for eviction buffers; 0 when unknown. */
u64 cpu_llc_size(void);
void cpu_report(void);

#endif
