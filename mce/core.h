/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core.h - inside mce/: how the setup and the handler write what mce/core.c keeps.
 */
#ifndef CK_MCE_CORE_H
#define CK_MCE_CORE_H

#include "kernel/arch/percpu.h"
#include "kernel/platform/smp.h"
#include "mce/mce.h"
#include "mce/smp_logic.h"

#define MCE_MAX_BANKS	64
#define MCE_STALE_LOG	4

/* A bank that held an error when its CPU set up MCA. */
struct mce_stale {
	u16 bank;
	u64 status, addr, misc;
};

/* Each CPU's machine-check state (mce_cpu_this()): its setup and its part in a rendezvous. */
struct mce_cpu {
	struct mce_cpu_facts facts;
	struct mce_stale stale[MCE_STALE_LOG];	/* the first ones; facts.stale counts all */
	u64 ipid[MCE_MAX_BANKS];		/* SMCA: each bank's MCA_IPID */
	u64 cmci_mine;				/* banks whose CMCI_EN the probe set here */
	bool in_handler;
	struct mce_view view;
	struct mce_record scratch;		/* its banks, read in its turn */
};

/* The boot CPU's, set up by mce_init (APs' come from mce_cpus_init). */
extern struct mce_cpu mce_boot_cpu;

/* Each CPU's pointer to its state: NULL until mce_init or mce_cpus_init gives it one. */
DECLARE_PER_CPU(struct mce_cpu *, mce_cpu_ptr);

/* This CPU's machine-check state, or NULL while it has none. */
static inline struct mce_cpu *mce_cpu_this(void)
{
	return *this_cpu_ptr(&mce_cpu_ptr);
}

/* CPU @cpu's, or NULL (not numbered, or no state yet). */
static inline struct mce_cpu *mce_cpu_of(unsigned int cpu)
{
	return smp_cpu(cpu) ? *per_cpu_ptr(&mce_cpu_ptr, cpu) : NULL;
}

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

/* Install the #MC handler (and the #PF handler of inject=emulate) in the trap table. */
void mce_handler_install(void);
/* Record this CPU's capabilities (mce_init). */
void mce_caps_set(const struct mce_caps *c);
/* The next record of the ring, zeroed but for its sequence number, TSC and where it hit. */
struct mce_record *mce_record_new(u64 rip, u64 frame, enum mce_kind kind);
/*
 * Copy @src into the next record of the ring and only then count it (another CPU may be
 * watching mce_count()); returns its sequence number. Callers take turns (the rendezvous).
 */
u64 mce_record_commit(const struct mce_record *src);
/* The record @seq for the handler to update (NULL if overwritten). */
struct mce_record *mce_get_rw(u64 seq);

#endif
