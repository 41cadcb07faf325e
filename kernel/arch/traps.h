/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * traps.h - exception frames, the trap dispatcher and the record of the last fixed-up fault.
 */
#ifndef CK_TRAPS_H
#define CK_TRAPS_H

#include "kernel/include/extable.h"
#include "kernel/include/types.h"

/* What kernel/arch/entry.asm leaves on the stack; the order is fixed by its push sequence. */
struct pt_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error_code;
	u64 rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

enum x86_trap {
	X86_TRAP_DE = 0, X86_TRAP_DB = 1, X86_TRAP_NMI = 2, X86_TRAP_BP = 3, X86_TRAP_OF = 4,
	X86_TRAP_BR = 5, X86_TRAP_UD = 6, X86_TRAP_NM = 7, X86_TRAP_DF = 8, X86_TRAP_TS = 10,
	X86_TRAP_NP = 11, X86_TRAP_SS = 12, X86_TRAP_GP = 13, X86_TRAP_PF = 14,
	X86_TRAP_MF = 16, X86_TRAP_AC = 17, X86_TRAP_MC = 18, X86_TRAP_XM = 19,
	X86_TRAP_VE = 20, X86_TRAP_CP = 21, X86_TRAP_VC = 29, X86_TRAP_SX = 30,
};

/* The last fault that an exception-table entry turned into a jump to its fixup. */
struct ex_record {
	u64 count;		/* faults fixed up since boot */
	u64 vector, error_code, rip, fixup, cr2;
	u64 frame;		/* address of the pt_regs: shows which stack the trap used */
};

/* NMIs are counted and survived. */
struct nmi_record {
	u64 count;
	u64 frame;
};

extern struct ex_record ex_last;
extern struct nmi_record nmi_last;

/* Sort and check the fixup table; returns false (after a report) if it is malformed. */
bool extable_init(void);
/* Entry count, for reports. */
unsigned long extable_size(void);

/*
 * A handler for one vector, registered by a layer above (mce/ takes 18, and 14 for its
 * emulated poison). It runs before the exception table and returns true when it handled
 * the exception and execution may resume; false passes it on.
 */
typedef bool (*trap_handler_t)(struct pt_regs *regs);

/* Install @fn for @vector (< 32); returns the previous handler, which @fn may chain to. */
trap_handler_t trap_set_handler(unsigned int vector, trap_handler_t fn);

/* Frame address of the last vector-18 entry, whoever handled it (IST tests look at it). */
extern u64 trap_last_mc_frame;

/* The exception-table entry for @rip, or NULL. */
const struct exception_table_entry *ex_lookup(u64 rip);

/* Apply the fixup for regs->rip if one exists and applies to this vector. */
bool ex_fixup(struct pt_regs *regs);

const char *trap_name(u64 vector);
const char *trap_mnemonic(u64 vector);

/* Print the full report for an exception nobody expected, then stop with the panic status. */
__noreturn void die(struct pt_regs *regs);

void trap_dispatch(struct pt_regs *regs);

#endif
