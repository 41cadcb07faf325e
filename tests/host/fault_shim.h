/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fault_shim.h - the image's exception table, working in a Linux process.
 *
 * fault_shim_install() sorts the table the copy/ objects carry (ck_extable) and installs a
 * SIGSEGV/SIGBUS handler that looks the faulting RIP up in it: with an entry, execution
 * resumes at the fixup exactly as the image's trap handler would (FAULT types get the trap
 * number, 14, in their register); without one, the signal is fatal as usual.
 */
#ifndef CK_FAULT_SHIM_H
#define CK_FAULT_SHIM_H

#include <stdint.h>

struct shim_fault {
	unsigned long count;	/* faults fixed up */
	uintptr_t rip, fixup;	/* of the last one */
	uintptr_t addr;		/* si_addr of the last one */
};

extern struct shim_fault shim_last;

void fault_shim_install(void);
/* Entries in the table, and whether it validates after the sort. */
long fault_shim_entries(void);
int fault_shim_valid(void);

#endif
