/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smp_internal.h - what smpboot.c (bring-up), smp_block.c (the AP blocks) and smp.c
 * (running) share; nobody else. Declarations only: the types are smp.h's, which each of
 * them includes itself; this header does not, so that it and smp.c (which includes it) do
 * not include each other.
 */
#ifndef CK_SMP_INTERNAL_H
#define CK_SMP_INTERNAL_H

#include "kernel/arch/percpu.h"
#include "kernel/include/types.h"

struct percpu;
struct smp_cpu_info;
struct smp_info;

extern struct smp_info smp_state;
DECLARE_PER_CPU(struct smp_cpu_info, smp_cpu_infos);

/* smp_block.c: each AP's block of memory, laid out there once. */
u64 smp_block_size(void);
/* Move the boot CPU's IST stacks to guarded ones (gdt_init() had no allocator yet). */
void smp_block_bsp_ist(void);
/* Memory for @n AP blocks; false when there is none. */
bool smp_blocks_alloc(unsigned int n);
/* Lay out block @i for CPU @cpu: its zeroed percpu with stacks, IST tops and per-CPU area. */
struct percpu *smp_block_percpu(unsigned int i, unsigned int cpu);

void smp_udelay(u64 us);
__noreturn void smp_ap_idle(struct percpu *pc);
/* The exit path's hook (kernel/arch/exit.c): NMI every other online CPU and wait. */
void smp_stop_others(void);

#endif
