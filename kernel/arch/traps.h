/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * traps.h - exception frames, the trap dispatcher and the record of the last fixed-up fault.
 */
#ifndef CK_TRAPS_H
#define CK_TRAPS_H

#include "kernel/include/extable.h"
#include "kernel/include/ptrace.h"
#include "kernel/include/types.h"

/* struct pt_regs, what kernel/arch/entry.asm leaves on the stack, is in ptrace.h. */

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

/* NMIs that no handler claims are counted and survived, per CPU. */
struct nmi_record {
	u64 count;		/* taken on this CPU since boot */
	u64 frame;		/* the last one's pt_regs: shows which stack it used */
};

extern struct ex_record ex_last;

/* Numbered CPU @cpu's NMI record. */
const struct nmi_record *nmi_record_of(unsigned int cpu);

/*
 * Where such an NMI found its CPU: the interrupted RIP, RSP and RFLAGS and the first words
 * of the stack there (read through the exception table: an unreadable word ends the list).
 * A watchdog that sends an NMI to a CPU that stopped answering reads this to say where the
 * CPU is stuck. The NMI handler writes only its own CPU's capture, under a sequence count.
 */
#define NMI_STACK_WORDS	8
struct nmi_stack {
	u64 nr;			/* the CPU's NMI number it belongs to (0: none yet) */
	u64 rip, rsp, rflags;
	unsigned int nr_words;
	u64 word[NMI_STACK_WORDS];
};
/* Copy numbered CPU @cpu's last capture; false when there is none or no stable copy. */
bool nmi_stack_of(unsigned int cpu, struct nmi_stack *out);

/*
 * Each such NMI leaves a note in its CPU's queue (bounded, lock-free; what does not fit is
 * counted). Printing one from NMI context would land inside whatever line the console is
 * writing, so the console prints them at line boundaries instead (console_set_deferred()):
 * this gives it the next note as one line of text in @buf, with the RIP as symbol+offset,
 * and returns its length, or 0 when no note waits. Callers take turns (the console lock).
 */
size_t nmi_note_next(char *buf, size_t size);

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

/*
 * The corrected machine-check interrupt (VECTOR_CMCI, kernel/arch/apic.h): the handler a layer
 * above registers (mce/), run with interrupts off on the CPU that took it; it acknowledges
 * the APIC itself. Until one is registered the interrupt is acknowledged and dropped.
 */
typedef void (*irq_handler_t)(void);
void irq_set_cmci_handler(irq_handler_t fn);
/* Called by kernel/arch/entry.asm's stub for VECTOR_CMCI. */
void irq_cmci(void);
/*
 * The TLB-shootdown IPI (VECTOR_TLB): the handler kernel/platform/smp_tlb.c registers, run
 * with interrupts off; it acknowledges the APIC itself. Unregistered: acknowledged, dropped.
 */
void irq_set_tlb_handler(irq_handler_t fn);
/* Called by kernel/arch/entry.asm's stub for VECTOR_TLB. */
void irq_tlb(void);

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
