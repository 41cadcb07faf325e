/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core.h - inside mce/: each CPU's machine-check state and how to find it, the record ring,
 * and what the three #MC paths share (the local path in handler.c, the broadcast rendezvous
 * in rendezvous.c, the inject=emulate injector in emulate.c; bank scans in scan.c).
 */
#ifndef CK_MCE_CORE_H
#define CK_MCE_CORE_H

#include "kernel/arch/traps.h"
#include "kernel/include/extable.h"
#include "mce/mce.h"
#include "mce/msr.h"
#include "mce/scan_core.h"
#include "mce/smp_logic.h"

#define MCE_STALE_LOG	4

/* A bank that held an error when its CPU set up MCA. */
struct mce_stale {
	u16 bank;
	u64 status, addr, misc;
};

/*
 * One CPU's machine-check state: its setup, its part in a rendezvous, and the backend its
 * #MC handler reads. Only its own CPU writes @in_handler, @backend, @sim and @emu; the
 * rendezvous reads other CPUs' @view and, once they scanned, their @scratch.
 */
struct mce_cpu {
	struct mce_cpu_facts facts;
	struct mce_stale stale[MCE_STALE_LOG];	/* the first ones; facts.stale counts all */
	u64 ipid[MCE_MAX_BANKS];		/* SMCA: each bank's MCA_IPID */
	u64 cmci_mine;				/* banks whose CMCI_EN the probe set here */
	bool in_handler;
	struct mce_sim *backend;		/* NULL: the real MSRs; or &sim (mce_sim_route) */
	struct mce_sim sim;			/* inject=simulate: this CPU's registers */
	struct mce_sim emu;			/* inject=emulate: the bank its #PF path makes */
	struct mce_view view;
	struct mce_record scratch;		/* its banks, read in its turn */
};

/*
 * The only way to this CPU's and CPU @cpu's state (NULL before it has one, or for a CPU not
 * numbered), and the one place that hands a CPU its state (mce_init, mce_cpus_init).
 */
struct mce_cpu *mce_cpu_this(void);
struct mce_cpu *mce_cpu_of(unsigned int cpu);
void mce_cpu_attach(unsigned int cpu, struct mce_cpu *mc);

/*
 * Set up MCA on this CPU as mce_init does on the boot CPU: CR4.MCE, MCG_CTL, every bank's
 * CTL (read back: banks that do not enable), errors left by firmware noted and cleared (and
 * printed with @print), SMCA IPIDs, LMCE when allowed. @caps: the boot CPU's.
 */
void mce_cpu_setup(struct mce_cpu *mc, const struct mce_caps *caps, bool print);
/* Whether machine checks here are broadcast (mce_broadcast_capable), from mce_rv_setup. */
void mce_broadcast_set(bool capable);
/* Rendezvous parameters, set by mce_cpus_init. */
void mce_rv_setup(bool capable, u64 timeout_tsc);

/*
 * Install the #MC handler (handler.c) and the #PF handler of inject=emulate (emulate.c);
 * mce_handler_install (setup.c) does both, once.
 */
void mce_handler_install(void);
void mce_mc_install(void);
void mce_emulate_install(void);
/* Record this CPU's capabilities (mce_init). */
void mce_caps_set(const struct mce_caps *c);

/*
 * Put a copy of @r into the ring and return its sequence number (also written to r->seq).
 * Any CPU may commit at any time, #MC handlers on several CPUs at once: the slot is reserved
 * atomically and the record counts (mce_count) only once it and every record before it are
 * whole. A committed record is never written again.
 */
u64 mce_record_commit(struct mce_record *r);

/* ---- shared by the #MC paths ---- */

/* The core of the #MC handler (handler.c), reading through @be (NULL: the real MSRs). */
bool mce_handle(struct pt_regs *regs, enum mce_kind kind, struct mce_sim *be);

/* A record for one #MC on this CPU: where it hit, MCG_STATUS @mcg, MCG_CAP @cap, fixup @e. */
void mce_record_init(struct mce_record *r, const struct pt_regs *regs, enum mce_kind kind,
		     u64 mcg, u64 cap, const struct exception_table_entry *e);

/*
 * Linux's mce_no_way_out() on this CPU, through @be: whether one of its valid banks grades
 * panic (the grading inputs as mce_scan_banks() uses them).
 */
bool mce_scan_banks_nwo(const struct mce_record *r, struct mce_sim *be);
/*
 * Read every bank through @be into @r, grade each (with the CPU's identity and the bank's
 * number), and clear the banks the handler takes, leaving those Linux leaves for the poller
 * (mce/scan_core.h); with @no_way_out nothing is cleared. MCG_STATUS and the decision are the
 * caller's.
 */
void mce_scan_banks(struct mce_record *r, struct mce_scan *s, struct mce_sim *be,
		    bool no_way_out);
/*
 * Carry out what the scan asks beyond the decision: on a recovery the fixup to resume at
 * (r->resume_rip) and the bank's page for the copy to queue; every page @s lists queued.
 */
void mce_record_act(struct mce_record *r, const struct mce_scan *s,
		    const struct exception_table_entry *e);

/*
 * Start the corrected-error poller on every online CPU (mce/poll.c) and say how it polls; the
 * last step of mce_cpus_init, once the ownership map of the shared banks exists.
 */
void mce_poll_start_all(void);

/* The rendezvous (rendezvous.c): the online CPUs it waits for, and one broadcast #MC. */
unsigned int mce_rv_online(void);
bool mce_rv_handle(struct pt_regs *regs, struct mce_cpu *mc, u64 mcg, u64 cap,
		   const struct exception_table_entry *e);

#endif
