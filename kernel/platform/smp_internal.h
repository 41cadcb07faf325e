/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smp_internal.h - what smpboot.c (bring-up) and smp.c (running) share; nobody else.
 */
#ifndef CK_SMP_INTERNAL_H
#define CK_SMP_INTERNAL_H

#include "kernel/platform/madt.h"
#include "kernel/platform/smp.h"

extern struct smp_info smp_state;
DECLARE_PER_CPU(struct smp_cpu_info, smp_cpu_infos);

void smp_udelay(u64 us);
__noreturn void smp_ap_idle(struct percpu *pc);
/* The exit path's hook (kernel/arch/exit.c): NMI every other online CPU and wait. */
void smp_stop_others(void);

#endif
