/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin_machine.h - the machine as the hosted soak twin states it
 * (host/soak/twin_machine.c), for ck-soak.c, a twin run and the comparison.
 */
#ifndef CK_HOST_SOAK_TWIN_MACHINE_H
#define CK_HOST_SOAK_TWIN_MACHINE_H

#include <stddef.h>

/* The machine line's text (CPU, microcode, CPUs, kernel, date), printed as "# machine: ...". */
void ck_soak_machine(char *buf, size_t size);
/* The CPUs this process may run on, in order, into @cpu (at most @max); their count. */
unsigned int ck_soak_cpus(int *cpu, unsigned int max);

#endif
