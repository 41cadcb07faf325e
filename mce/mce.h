/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mce.h - the kernel's machine-check handling.
 *
 * mce_init() enables MCA (MCG_CTL and every bank's CTL to all ones, stale banks logged and
 * cleared, CR4.MCE) and installs the #MC handler, which runs on its own IST stack. The
 * handler reads MCG_STATUS and every bank into a fixed-size record, grades each bank
 * (mce/grade.c), clears the banks it takes (not those Linux leaves for the poller, and none
 * when the machine stops) and writes MCG_STATUS last; then it resumes at an
 * *_MCE_SAFE fixup (recoverable data load), continues (corrected, UCNA, action optional), or
 * stops the machine with a decoded report. It never prints, locks or allocates unless it is
 * stopping the machine; the records are reported afterwards (mce_report_new).
 */
#ifndef CK_MCE_H
#define CK_MCE_H

#include "mce/grade.h"
#include "mce/smp_logic.h"

enum mce_kind {
	MCE_KIND_REAL,		/* a #MC from the CPU */
	MCE_KIND_SOFTWARE,	/* "int $18": MCIP clear and no valid bank */
	MCE_KIND_NESTED,	/* a #MC inside the handler */
	MCE_KIND_EMULATED,	/* inject=emulate: a #PF on a poisoned page, as a #MC */
	MCE_KIND_SIMULATED,	/* inject=simulate: int $18 over simulated MSRs */
};

#define MCE_LOG_BANKS	8

struct mce_bank_log {
	u16 bank;
	u64 status, addr, misc, ipid, synd;
	const struct mce_rule *rule;
	bool logged;			/* logged by the handler */
	bool cleared;			/* its STATUS zeroed by the handler (else left in the bank) */
	bool queued;			/* its page went to memory_failure_queue() */
	bool pfn_valid;			/* the address is a usable physical address */
	u64 pfn;
};

struct mce_record {
	u64 seq, tsc;
	enum mce_kind kind;
	u64 mcg_status, mcg_cap;
	u64 rip, frame, resume_rip;
	bool fixup_found, fixup_mce_safe;
	const struct mce_rule *rule;	/* the rule that decided (a bank's or the handler's) */
	enum mce_grade grade;
	int worst;			/* index into banks[] of the deciding bank, -1 when none */
	unsigned int nr_banks;		/* banks[] in use */
	unsigned int nr_valid;		/* valid banks graded (may exceed nr_banks) */
	unsigned int nr_left;		/* of those, left valid in their bank (not cleared) */
	unsigned int queued;		/* pages queued, from every valid bank */
	struct mce_bank_log banks[MCE_LOG_BANKS];
	bool recovered, would_panic;
	bool pfn_valid;			/* the deciding bank's address, when usable */
	u64 pfn;
	/* Several CPUs: which one took it, and its part in a broadcast's rendezvous. */
	unsigned int cpu;
	bool broadcast;			/* handled through the rendezvous */
	u16 order;			/* check-in order (1: the Monarch) */
	int monarch;			/* the Monarch's CPU number, -1 when not known */
	u16 nr_in, nr_online;		/* CPUs checked in, CPUs waited for */
};

struct mce_caps {
	bool mce, mca, enabled;
	u64 mcg_cap;
	unsigned int nbanks;
	bool ctl_p, ser_p, lmce_p, amd, hygon, smca, succor, ovf_recov;
	unsigned int stale;		/* banks found valid at boot (left by firmware) */
};

enum mce_bank_reg {
	MCE_REG_CTL, MCE_REG_STATUS, MCE_REG_ADDR, MCE_REG_MISC, MCE_REG_IPID, MCE_REG_SYND,
};

/*
 * Take vector 18 before anything else can go wrong (right after the IDT is up): a machine
 * check before mce_init still gets its banks read, decoded and reported.
 */
void mce_early_init(void);
bool mce_init(void);
/*
 * Whether this CPU can recover from poison consumed in the kernel: MCA enabled and SER_P
 * (Intel) or SUCCOR (AMD). Without it the grading tables, like Linux, panic.
 */
bool mce_can_recover(void);
/* The MSR of @reg in @bank: legacy (0x400 + 4i) or SMCA (0xc0002000 + 0x10i) layout. */
u32 mce_bank_msr(unsigned int bank, int reg);
const struct mce_caps *mce_caps(void);

/* Records taken since boot, and the one with sequence number @seq (NULL if overwritten). */
u64 mce_count(void);
const struct mce_record *mce_get(u64 seq);
const struct mce_record *mce_last(void);

/* Print one record decoded, each line starting with @prefix. */
void mce_report(const struct mce_record *r, const char *prefix);
/* Print every record not printed yet: the last 16 in full, one line for any before them. */
void mce_report_new(const char *prefix);
/* One line for every record not printed yet (a test that made hundreds on purpose). */
void mce_report_skip(const char *prefix);

/*
 * Every online CPU (smp.h): MCA set up as on the boot CPU (through on_each_cpu), its
 * firmware-left errors logged, shared banks probed; prints one line per CPU. After smp_init.
 */
void mce_cpus_init(void);
/* Whether a machine check here is broadcast to every CPU (Intel family 6 model >= 0xe). */
bool mce_broadcast_capable(void);
/* What the setup found on CPU @cpu (NULL when not numbered). */
const struct mce_cpu_facts *mce_cpu_facts(unsigned int cpu);
/* CPU @cpu's AMD node (CPUID 0x8000001e, what Linux's amd64_edac is handed), -1 unknown. */
int mce_cpu_amd_node(unsigned int cpu);
/* "# mce-cpus:" text without the prefix (mce/smp_logic.h); returns its full length. */
int mce_cpus_summary_text(char *buf, size_t size);
/*
 * The per-CPU table (and each stale error decoded), each line starting with @prefix; beyond
 * 16 CPUs the CPUs with nothing to say beyond CPU 0's line are counted, not listed.
 */
void mce_cpus_table(const char *prefix);

/* inject=emulate: treat loads from @page (4 KiB) as consuming poison. */
bool mce_emulate_arm(u64 page);
void mce_emulate_disarm(u64 page);

/*
 * inject=emulate, one line: machine-check-safe loads of the 64-byte line holding @addr
 * consume poison, the rest of its page reads as usual (mce/emulate.c says how, and what it
 * costs). A rep movs counting up stops up to @early bytes (0..MCE_EMULATE_EARLY_MAX) before
 * the line, as fast strings may. Makes the page not present itself (and the page before,
 * when the early window reaches into it); false when it cannot (no free slot, a page already
 * armed, the page tables). mce_emulate_heal_line() maps them again and disarms them. One CPU
 * at a time may read a line-poisoned page. mce_emulate_steps(): loads this CPU single-stepped
 * over such pages since boot.
 */
#define MCE_EMULATE_EARLY_MAX	64
bool mce_emulate_poison_line(u64 addr, unsigned int early);
void mce_emulate_heal_line(u64 addr);
u64 mce_emulate_steps(void);

#endif
