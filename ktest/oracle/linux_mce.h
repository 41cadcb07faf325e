/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Independent oracle: a procedural model of how Linux v6.17
 * (arch/x86/kernel/cpu/mce/severity.c and core.c) grades and handles one
 * machine check bank that was raised while the CPU ran in ring 0.
 *
 * Written from reading Linux; see ktest/oracle/NOTES.md for the source of
 * every decision and for the points that needed interpretation.
 */
#ifndef CK_KTEST_ORACLE_LINUX_MCE_H
#define CK_KTEST_ORACLE_LINUX_MCE_H

#include <stdbool.h>
#include <stdint.h>

/* MCi_STATUS bits (Intel SDM / asm/mce.h). */
#define LX_MCI_VAL		(1ULL << 63)
#define LX_MCI_OVER		(1ULL << 62)
#define LX_MCI_UC		(1ULL << 61)
#define LX_MCI_EN		(1ULL << 60)
#define LX_MCI_MISCV		(1ULL << 59)
#define LX_MCI_ADDRV		(1ULL << 58)
#define LX_MCI_PCC		(1ULL << 57)
#define LX_MCI_S		(1ULL << 56)
#define LX_MCI_AR		(1ULL << 55)
#define LX_MCI_DEFERRED		(1ULL << 44)	/* AMD */
#define LX_MCI_POISON		(1ULL << 43)	/* AMD */

/* IA32_MCG_STATUS bits. */
#define LX_MCG_RIPV		(1ULL << 0)
#define LX_MCG_EIPV		(1ULL << 1)
#define LX_MCG_MCIP		(1ULL << 2)
#define LX_MCG_LMCES		(1ULL << 3)
#define LX_MCG_SEAM_NR		(1ULL << 12)	/* Intel TDX: #MC in SEAM non-root mode */

/* MCACOD values used by the Intel grading (bit 12, the filter bit, is never compared). */
#define LX_MCACOD_MASK		0xefffULL
#define LX_MCACOD_SCRUB		0x00c0ULL	/* 0xc0..0xcf */
#define LX_MCACOD_SCRUB_MASK	0xeff0ULL
#define LX_MCACOD_L3WB		0x017aULL
#define LX_MCACOD_DATA		0x0134ULL
#define LX_MCACOD_INSTR		0x0150ULL

/* One bank's error as the #MC handler of a CPU running in ring 0 (kernel mode) sees it. */
struct lx_mce_in {
	uint64_t status;	/* MCi_STATUS: VAL 63, OVER 62, UC 61, EN 60, MISCV 59,
				   ADDRV 58, PCC 57, S 56, AR 55 (Intel); AMD: Deferred 44,
				   Poison 43; MCACOD bits 15:0 */
	uint64_t mcg_status;	/* IA32_MCG_STATUS: RIPV 0, EIPV 1, MCIP 2, LMCES 3 */
	bool amd;		/* AMD or Hygon: Linux's AMD severity path (mce_severity_amd) */
	bool ser_p;		/* Intel: MCG_CAP.SER_P (software error recovery) */
	bool succor;		/* AMD: CPUID 8000_0007 EBX bit 1 (SUCCOR) */
	bool overflow_recov;	/* AMD: CPUID 8000_0007 EBX bit 0 (McaOverflowRecov) */
	bool smca;		/* AMD: scalable MCA */
	bool fixup_mce_safe;	/* RIP has an exception-table entry of a machine-check-safe
				   type (EX_TYPE_DEFAULT_MCE_SAFE / EX_TYPE_FAULT_MCE_SAFE) */
	bool fixup_other;	/* RIP has an exception-table entry of some other type
				   (not MC-safe); never both fixup flags */

	/*
	 * Optional extras. Leaving them zero gives the common case described in
	 * NOTES.md (Intel/AMD, no TDX, default monarch timeout, bank 0).
	 */
	bool hygon;		/* with amd: vendor is Hygon (only changes mce_usable_address) */
	bool copy_user;		/* is_copy_from_user(): the instruction at RIP is a MOV/MOVZX/
				   REP MOVS load from a user address (sets MCE_IN_KERNEL_COPYIN) */
	bool monarch_timeout_zero; /* Intel: mca_cfg.monarch_timeout == 0 (no rendezvous) */
	bool skx_quirk_cpu;	/* Intel: CPU is INTEL_SKYLAKE_X stepping >= 4 */
	unsigned int bank;	/* bank number (AMD legacy bank 4, SKX quirk banks 13..18) */
};

/* Linux's severity levels, in Linux's order (lowest to highest). */
enum lx_sev { LX_SEV_NO, LX_SEV_DEFERRED, LX_SEV_UCNA, LX_SEV_KEEP, LX_SEV_SOME, LX_SEV_AO,
	      LX_SEV_UC, LX_SEV_AR, LX_SEV_PANIC };

/* The end result of do_machine_check() for this single-bank event in kernel mode. */
enum lx_end {
	LX_END_IGNORE,		/* bank not counted (not valid / not enabled / severity NO) */
	LX_END_RESUME,		/* handler logs and returns to the interrupted RIP */
	LX_END_RECOVER,		/* handler returns to the exception-table fixup of RIP */
	LX_END_PANIC,		/* mce_panic() */
};

/* mce_severity() for kernel mode; *why gets a short human-readable reason (static string). */
enum lx_sev lx_mce_severity(const struct lx_mce_in *in, const char **why);
/* What do_machine_check() ends with when this is the only valid bank. */
enum lx_end lx_mce_end(const struct lx_mce_in *in, const char **why);
/* Whether Linux would queue the bank's address for memory_failure (offline the page) given
   a usable address (the caller decides address usability separately): e.g. AO / AR-recovered /
   UCNA / deferred cases. Document exactly which cases from core.c (uc_decode_notifier /
   mce_usable_address / memory_failure paths / machine_check_poll for UCNA/deferred). */
bool lx_mce_queues_page(const struct lx_mce_in *in);
/* Linux's mce_usable_address(): whether the address in the bank may be used.
   Intel: ADDRV and MISCV, LSB <= PAGE_SHIFT, mode physical (MISC[8:6]==2);
   AMD/SMCA: per Linux's amd_mce_usable_address (check it). */
bool lx_mce_usable_address(const struct lx_mce_in *in, uint64_t misc, uint64_t addr);

/*
 * Everything the model derives for one event, for tests that want more than
 * the three summary functions above.
 */
struct lx_mce_result {
	enum lx_sev sev;	/* #MC grading (mce_severity(..., is_excp=true)) */
	const char *sev_why;
	enum lx_end end;
	const char *end_why;	/* Linux's mce_panic() message, or a short description */
	bool no_way_out;	/* mce_no_way_out(): grading >= PANIC */
	bool local;		/* handled without rendezvous (AMD, LMCES, or no monarch timeout) */
	bool logged;		/* __mc_scan_banks() recorded it (mce_log) with severity sev */
	bool cleared;		/* the #MC handler wrote 0 to MCi_STATUS */
	bool left_for_poll;	/* bank still valid after #MC: CMCI / poll timer reads it later */
	bool poll_logs;		/* machine_check_poll() would log it (should_log_poll_error) */
	enum lx_sev poll_sev;	/* grading machine_check_poll() gives it (is_excp=false) */
	bool kill_me_never;	/* copy-from-user recovery: memory_failure() from task work */
	bool seam_poison;	/* SEAM_NR branch: SetPageHWPoison() only, no memory_failure() */
	bool queues_page;	/* == lx_mce_queues_page() */
};

void lx_mce_handle(const struct lx_mce_in *in, struct lx_mce_result *res);

/* Compare severities the way Linux does (UCNA and DEFERRED are the same number in Linux). */
int lx_sev_rank(enum lx_sev sev);
const char *lx_sev_name(enum lx_sev sev);
const char *lx_end_name(enum lx_end end);

/*
 * Several banks, several CPUs: one machine check as do_machine_check() takes it on every CPU
 * it reaches (mce_no_way_out(), mce_start(), __mc_scan_banks(), mce_clear_state(),
 * mce_end()/mce_reign()), then what machine_check_poll() finds in the banks it left.
 * NOTES.md, D10, says where each rule comes from.
 */
#define LX_MAX_BANKS	32
#define LX_MAX_CPUS	8

/* One CPU when the machine check arrives. */
struct lx_mce_cpu {
	struct lx_mce_in in;		/* its MCG_STATUS, vendor, features and fixup at RIP;
					   in.status and in.bank are not read (per bank below) */
	unsigned int nbanks;		/* MCG_CAP's count, at most LX_MAX_BANKS */
	uint64_t status[LX_MAX_BANKS];	/* MCi_STATUS of bank i (VAL clear: nothing there) */
};

/* What became of one bank. */
struct lx_bank_fate {
	bool valid;		/* VAL set when the #MC came */
	bool scanned;		/* in valid_banks: __mc_scan_banks() read it again */
	bool logged;		/* mce_log() from the #MC handler, graded sev */
	bool cleared;		/* mce_clear_state() wrote 0 to it */
	bool left;		/* still valid when the handler is done (and the machine runs) */
	bool poll_logs;		/* machine_check_poll() then logs it, graded poll_sev, and
				   clears it */
	enum lx_sev sev, poll_sev;
};

struct lx_mce_event_result {
	bool panic;
	const char *why;		/* mce_panic()'s message when panic */
	bool no_way_out;		/* the no_way_out the scans ran with (global_nwo) */
	enum lx_end end[LX_MAX_CPUS];	/* each CPU's end (all PANIC when panic) */
	struct lx_bank_fate bank[LX_MAX_CPUS][LX_MAX_BANKS];
};

/*
 * One machine check reaching CPUs 0 .. @ncpus - 1 (1 <= @ncpus <= LX_MAX_CPUS). It is local
 * when cpus[0] is AMD or has MCG_STATUS.LMCES (then @ncpus must be 1); otherwise it is an
 * Intel broadcast that every CPU takes, in CPU order (the Monarch is CPU 0), with Linux's
 * default monarch timeout.
 */
void lx_mce_event(const struct lx_mce_cpu *cpus, unsigned int ncpus,
		  struct lx_mce_event_result *out);

#endif /* CK_KTEST_ORACLE_LINUX_MCE_H */
