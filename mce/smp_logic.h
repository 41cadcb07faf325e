/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smp_logic.h - the decisions machine checks on several CPUs need, as plain C (built into
 * the image and into the host tests, tests/host/test_mce_rendezvous.c).
 *
 * The rendezvous of a broadcast machine check, after Linux's do_machine_check() with
 * mce_start(), mce_end() and mce_reign() (arch/x86/kernel/cpu/mce/core.c): every CPU checks
 * in by taking the next number of an atomic counter; number 1 is the Monarch. When all
 * online CPUs are in, the Monarch scans its banks, then each Subject in check-in order, one
 * at a time (a bank two CPUs share is read and cleared once). The Monarch then grades the
 * worst error of all CPUs (the reign): any CPU's panic grade stops the machine, and so does
 * nothing worse than "keep" anywhere (a machine check from an unknown source); otherwise every
 * CPU goes on with its own decision. Every wait has a deadline; missing it stops the machine
 * and names the CPUs that never checked in.
 *
 * Also the per-CPU setup's verdicts: the SDM's CMCI ownership probe of one bank, banks whose
 * SMCA IPID two CPUs report alike, and the one-line summary of every CPU's MCA state.
 */
#ifndef CK_MCE_SMP_LOGIC_H
#define CK_MCE_SMP_LOGIC_H

#include "kernel/include/msr-index.h"
#include "kernel/include/types.h"
#include "mce/grade.h"

/* Linux's monarch_timeout on Intel: one second. Under a hypervisor the image waits longer. */
#define MCE_RV_TIMEOUT_US		1000000ULL
#define MCE_RV_TIMEOUT_VIRT_US		5000000ULL

/*
 * Intel signals machine checks to every CPU from family 6 model 0xe on (Linux then sets a
 * monarch timeout; QEMU's "mce -b" accepts the same models). AMD's are always local.
 */
bool mce_rv_broadcast_capable(bool amd, u32 family, u32 model);
/* A real #MC that needs the rendezvous: MCIP set, not local (LMCES clear), several CPUs. */
bool mce_rv_needed(bool amd, bool capable, u64 mcg_status, unsigned int nr_online);

/* One CPU's part in a broadcast machine check. */
struct mce_view {
	u32 gen;			/* the event it belongs to (mce_rv generation) */
	u16 order;			/* check-in order, 1 = Monarch; 0: not checked in */
	bool scanned;			/* its bank scan is done */
	u16 nr_valid;			/* valid banks it read */
	int bank;			/* the bank behind @grade, -1 when none */
	u64 status;			/* that bank's STATUS */
	enum mce_grade grade;		/* what it brings to the reign (mce_rv_cpu_grade) */
	const struct mce_rule *why;	/* the rule behind @grade, NULL when nothing */
	enum mce_end end;		/* its own decision, when the reign lets it go on */
	s64 seq;			/* its record in the ring, -1 when it made none */
};

/*
 * What a CPU brings to the reign, from its decision over its banks (mce_decide with
 * reigned set): panic when any bank graded panic or its own decision stops the machine (the
 * image's two deliberate differences from Linux, docs/design/machine-checks.md), else its worst
 * logged bank's grade (Linux's per-CPU mces_seen severity), else none.
 */
enum mce_grade mce_rv_cpu_grade(const struct mce_decision *d);
const struct mce_rule *mce_rv_cpu_why(const struct mce_decision *d);

/* The view of CPU @cpu, or NULL when @cpu is not online (it is not waited for). */
typedef const struct mce_view *(*mce_view_fn)(void *ctx, unsigned int cpu);

struct mce_reign {
	enum mce_end end;		/* PANIC, or RESUME: every CPU goes on with its own end */
	const struct mce_rule *why;	/* the rule that stopped the machine, or NULL */
	enum mce_grade worst;		/* the worst grade of all CPUs */
	int worst_cpu;			/* the first CPU with that grade, -1: nobody graded */
	int monarch;			/* the CPU that checked in first, -1 */
	unsigned int nr_in;		/* CPUs of this event that checked in */
	unsigned int nr_online;		/* CPUs that were waited for */
};

/*
 * The Monarch's reign over the views of event @gen among CPUs 0 .. @n - 1: Linux's
 * mce_reign(). Ties go to the lowest CPU number, as Linux's loop over the CPUs.
 */
void mce_rv_reign(mce_view_fn view, void *ctx, unsigned int n, u32 gen, struct mce_reign *out);

/* Whether an online CPU (non-NULL view) took part in event @gen. */
bool mce_rv_checked_in(const struct mce_view *v, u32 gen);

/* The waits of the rendezvous, and when each is over. */
enum mce_rv_stage {
	MCE_RV_CALLIN,		/* everyone: until every online CPU checked in */
	MCE_RV_TURN,		/* a Subject: until the CPUs before it scanned */
	MCE_RV_SUBJECTS,	/* the Monarch: until every Subject scanned */
	MCE_RV_MONARCH,		/* a Subject: until the Monarch reigned and released all */
};

/*
 * @callin: CPUs checked in; @executing: Linux's mce_executing (0 after the Monarch's
 * release, else 1 + the number of CPUs that finished their scan); @order: this CPU's
 * check-in order; @expected: online CPUs.
 */
bool mce_rv_stage_done(enum mce_rv_stage s, unsigned int callin, unsigned int executing,
		       unsigned int order, unsigned int expected);

enum mce_rv_wait { MCE_RV_WAIT, MCE_RV_GO, MCE_RV_TIMEOUT };
/*
 * One look at a wait: go when it is done (even late); otherwise time out once the deadline
 * is reached (at @deadline itself: Linux gives up when the budget left is less than one spin,
 * and with the TSC as the clock one spin is one tick), else wait.
 */
enum mce_rv_wait mce_rv_wait_step(bool done, u64 now, u64 deadline);
/* The panic rule of a wait that timed out. */
const struct mce_rule *mce_rv_timeout_rule(enum mce_rv_stage s);

/* "1st", "2nd", "3rd", "4th", ... into @buf. */
const char *mce_rv_ordinal(unsigned int n, char *buf, size_t size);

/* ---- per-CPU setup verdicts (MSR names: kernel/include/msr-index.h) ---- */

enum mce_cmci_owner {
	MCE_CMCI_MINE,		/* CMCI_EN was clear and stuck when set: this CPU owns it */
	MCE_CMCI_OTHER,		/* CMCI_EN was already set: another CPU owns it (shared bank) */
	MCE_CMCI_NONE,		/* CMCI_EN does not stick: the bank has no CMCI */
};

/* The SDM's ownership probe: MCi_CTL2 read before and after setting CMCI_EN. */
enum mce_cmci_owner mce_cmci_probe(u64 ctl2_before, u64 ctl2_after);

/*
 * SMCA: the banks of a CPU (@ipid, @n) whose non-zero IPID appears among another CPU's
 * (@other, @m), as a bitmask of bank numbers below 64.
 */
u64 mce_ipid_shared(const u64 *ipid, unsigned int n, const u64 *other, unsigned int m);

/* How a CPU's shared banks were found. */
enum mce_share_method { MCE_SHARE_UNKNOWN, MCE_SHARE_CMCI, MCE_SHARE_IPID };

/* What the per-CPU setup found on one CPU. */
struct mce_cpu_facts {
	bool started;			/* online and ran the setup */
	bool mca;			/* MCA set up on this CPU */
	unsigned int nbanks;
	u64 mcg_cap;
	unsigned int stale;		/* banks holding an error left by firmware */
	u64 not_enabled;		/* banks whose CTL did not read back all ones */
	u64 shared;			/* banks another CPU also reaches */
	u64 cmci_none;			/* Intel probe: banks without CMCI */
	enum mce_share_method share;
	bool lmce;			/* local machine checks enabled (MCG_EXT_CTL) */
	int amd_node;			/* SMCA: AMD NodeId (CPUID 0x8000001e), -1 unknown */
};

/* CPU @cpu's facts, or NULL when it is not numbered. */
typedef const struct mce_cpu_facts *(*mce_facts_fn)(void *ctx, unsigned int cpu);

/*
 * The summary: "N CPUs, banks ..., stale errors on CPUs ..., shared banks ..." (no prefix),
 * CPU lists as ranges ("1-3,5"). Returns the length the full text would have had.
 */
int mce_cpus_summary(mce_facts_fn facts, void *ctx, unsigned int n, char *buf, size_t size);
/* A bank mask as a list, "none" when empty: "0,2-4". */
int mce_bank_list(u64 mask, char *buf, size_t size);

#endif
