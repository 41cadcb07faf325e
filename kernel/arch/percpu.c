// SPDX-License-Identifier: GPL-2.0-only
/*
 * percpu.c - the table of numbered CPUs and their instances of the per-CPU section
 * (kernel/arch/percpu.h). smpboot.c registers each AP before it starts; nothing here is
 * written after that, so every CPU may read it.
 */
#include "kernel/arch/percpu.h"
#include "kernel/lib/string.h"

extern char __start_ck_percpu[], __stop_ck_percpu[];

static struct percpu *cpus[NR_CPUS];
static unsigned int nr_cpus;

size_t percpu_section_size(void)
{
	return (size_t)(__stop_ck_percpu - __start_ck_percpu);
}

void percpu_set_area(struct percpu *pc, void *area)
{
	memset(area, 0, percpu_section_size());
	pc->offset = (long)((uintptr_t)area - (uintptr_t)__start_ck_percpu);
}

void percpu_register(struct percpu *pc)
{
	if (pc->cpu >= NR_CPUS)
		return;
	__atomic_store_n(&cpus[pc->cpu], pc, __ATOMIC_RELEASE);
	if (pc->cpu >= nr_cpus)
		__atomic_store_n(&nr_cpus, pc->cpu + 1, __ATOMIC_RELEASE);
}

struct percpu *percpu_of(unsigned int cpu)
{
	return cpu < NR_CPUS ? __atomic_load_n(&cpus[cpu], __ATOMIC_ACQUIRE) : NULL;
}

unsigned int percpu_nr(void)
{
	return __atomic_load_n(&nr_cpus, __ATOMIC_ACQUIRE);
}
