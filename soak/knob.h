/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob.h - the soak's test knobs (soak_fault=), parsed as a pure function for the option
 * table. They exist to prove the soak sees what it must; a bring-up run leaves them off.
 *   none      the default
 *   flip      another CPU flips one bit of a filled source before it is verified, once in
 *             each pass: the ledger must name a stored error with its address, bit, expected
 *             and actual words, one per pass
 *   stuck:N   CPU N (1..1023: CPU 0 runs the monitor) spins with interrupts off: the
 *             watchdog must name it with its RIP, the soak finish on the others, and FAIL
 *   emulate   emulated poison (inject=emulate's mechanism) armed on one page of each of two
 *             nodes, consumed by two CPUs at the same moment: both recovered, pages retired
 *   mce       a real #MC (an SRAR data load) injected through QEMU's monitor while the boot
 *             CPU copies a soak piece, at an address in it: the runner relays the request
 *             (tools/ck-run.py --inject-mce); recovered, the page retired
 * The knobs run in soak/run_fault.c; nothing else in the image looks at them.
 */
#ifndef CK_SOAK_KNOB_H
#define CK_SOAK_KNOB_H

#include "kernel/include/types.h"

enum soak_knob { SOAK_KNOB_NONE, SOAK_KNOB_FLIP, SOAK_KNOB_STUCK, SOAK_KNOB_EMULATE,
		 SOAK_KNOB_MCE };

#define SOAK_KNOB_MAX_CPU	1023

struct soak_fault_opt {
	u8 kind;		/* enum soak_knob */
	u16 cpu;		/* stuck:N */
};

/* Parse @n bytes at @p. NULL on success (@out set), else the reason (@out untouched). */
const char *soak_parse_fault(const char *p, size_t n, struct soak_fault_opt *out);
/* The value as the command line gives it ("stuck:2"); returns its length (as snprintf). */
size_t soak_fault_text(const struct soak_fault_opt *f, char *buf, size_t size);

#endif
