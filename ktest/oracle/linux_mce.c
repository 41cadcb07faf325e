// SPDX-License-Identifier: GPL-2.0-only
/*
 * Independent oracle: procedural model of Linux v6.17 machine check grading
 * (severity.c) and of the #MC handler's outcome (core.c) for one bank taken
 * in kernel mode on a single CPU. See NOTES.md for sources and choices.
 */
#include "ktest/oracle/linux_mce.h"

#include <stddef.h>

#define LX_PAGE_SHIFT		12
#define LX_MISC_ADDR_PHYS	2

/* Where the CPU was, as severity.c's error_context() would say. */
enum lx_ctx { LX_CTX_KERNEL, LX_CTX_USER, LX_CTX_KERNEL_RECOV };

static bool lx_has(uint64_t v, uint64_t bits)
{
	return (v & bits) == bits;
}

static bool hasnt(uint64_t v, uint64_t bits)
{
	return (v & bits) == 0;
}

int lx_sev_rank(enum lx_sev sev)
{
	switch (sev) {
	case LX_SEV_NO:
		return 0;
	case LX_SEV_DEFERRED:
	case LX_SEV_UCNA:
		return 1;
	case LX_SEV_KEEP:
		return 2;
	case LX_SEV_SOME:
		return 3;
	case LX_SEV_AO:
		return 4;
	case LX_SEV_UC:
		return 5;
	case LX_SEV_AR:
		return 6;
	case LX_SEV_PANIC:
	default:
		return 7;
	}
}

const char *lx_sev_name(enum lx_sev sev)
{
	static const char *const names[] = {
		"NO", "DEFERRED", "UCNA", "KEEP", "SOME", "AO", "UC", "AR", "PANIC",
	};

	if ((unsigned int)sev >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[sev];
}

const char *lx_end_name(enum lx_end end)
{
	switch (end) {
	case LX_END_IGNORE:
		return "IGNORE";
	case LX_END_RESUME:
		return "RESUME";
	case LX_END_RECOVER:
		return "RECOVER";
	case LX_END_PANIC:
		return "PANIC";
	}
	return "?";
}

/*
 * error_context() for a ring-0 #MC: the context is only "recoverable kernel"
 * when both RIPV and EIPV are set and either the faulting instruction is a
 * load from user space or RIP has a machine-check-safe fixup.
 */
static enum lx_ctx kernel_context(const struct lx_mce_in *in, uint64_t mcg)
{
	if (!lx_has(mcg, LX_MCG_RIPV | LX_MCG_EIPV))
		return LX_CTX_KERNEL;
	if (in->copy_user)
		return LX_CTX_KERNEL_RECOV;
	if (in->fixup_mce_safe)
		return LX_CTX_KERNEL_RECOV;
	return LX_CTX_KERNEL;
}

static enum lx_sev say(const char **why, const char *text, enum lx_sev sev)
{
	if (why)
		*why = text;
	return sev;
}

/*
 * Intel (and every non-AMD/Hygon vendor) grading: the checks below are made
 * one after the other and the first one that applies decides.
 *
 * @excp: true when called from the #MC handler, false from the poller.
 * @mcg:  the MCG_STATUS value the grading sees.
 */
static enum lx_sev intel_grade(const struct lx_mce_in *in, uint64_t st, uint64_t mcg,
			       enum lx_ctx ctx, bool excp, const char **why)
{
	const uint64_t uc_s_ar = LX_MCI_UC | LX_MCI_S | LX_MCI_AR;
	const uint64_t addr_ok = LX_MCI_ADDRV | LX_MCI_MISCV;
	bool ser = in->ser_p;
	bool kernelish = ctx == LX_CTX_KERNEL || ctx == LX_CTX_KERNEL_RECOV;
	uint64_t code = st & LX_MCACOD_MASK;
	bool srar_ok;

	if (!(st & LX_MCI_VAL))
		return say(why, "Invalid", LX_SEV_NO);
	if (excp && !(st & LX_MCI_EN))
		return say(why, "Not enabled", LX_SEV_NO);
	if (st & LX_MCI_PCC)
		return say(why, "Processor context corrupt", LX_SEV_PANIC);
	if (excp && !(mcg & LX_MCG_MCIP))
		return say(why, "MCIP not set in MCA handler", LX_SEV_PANIC);
	if (excp && hasnt(mcg, LX_MCG_RIPV | LX_MCG_EIPV))
		return say(why, "Neither restart nor error IP", LX_SEV_PANIC);
	if (excp && kernelish && !(mcg & LX_MCG_RIPV))
		return say(why, "In kernel and no restart IP", LX_SEV_PANIC);

	if (!ser) {
		/* Without SER only the generic UC/OVER checks at the end remain. */
		if (!(st & LX_MCI_UC))
			return say(why, "Corrected error", LX_SEV_KEEP);
		goto generic_uc;
	}

	/* Known action-optional codes; S is deliberately not looked at. */
	if ((st & LX_MCI_UC) && !(st & LX_MCI_AR)) {
		if ((st & LX_MCACOD_SCRUB_MASK) == LX_MCACOD_SCRUB)
			return say(why, "Action optional: memory scrubbing error", LX_SEV_AO);
		if (code == LX_MCACOD_L3WB)
			return say(why, "Action optional: last level cache writeback error",
				   LX_SEV_AO);
	}
	/* Skylake-SP patrol scrub reported as a corrected error with a special signature. */
	if (in->skx_quirk_cpu && in->bank >= 13 && in->bank <= 18 &&
	    !(st & LX_MCI_UC) && lx_has(st, addr_ok) &&
	    (st & 0xffffeff0ULL) == 0x001000c0ULL)
		return say(why, "Uncorrected Patrol Scrub Error", LX_SEV_AO);

	/* UC with S=0: UCNA when AR=0 (OVER ignored), illegal when AR=1 and no overflow. */
	if ((st & uc_s_ar) == LX_MCI_UC)
		return say(why, "Uncorrected no action required", LX_SEV_UCNA);
	if ((st & (uc_s_ar | LX_MCI_OVER)) == (LX_MCI_UC | LX_MCI_AR))
		return say(why, "Illegal combination (UCNA with AR=1)", LX_SEV_PANIC);
	if (!(st & LX_MCI_S))
		return say(why, "Non signaled machine check", LX_SEV_KEEP);

	/* From here on S=1. */
	if (lx_has(st, LX_MCI_OVER | uc_s_ar))
		return say(why, "Action required with lost events", LX_SEV_PANIC);

	/* SRAR (UC, S, AR, no overflow) with a valid address and MISC. */
	srar_ok = (st & (LX_MCI_OVER | uc_s_ar | addr_ok)) == (uc_s_ar | addr_ok);
	if (srar_ok && (mcg & (LX_MCG_RIPV | LX_MCG_EIPV)) == LX_MCG_RIPV)
		return say(why, "Action required but unaffected thread is continuable",
			   LX_SEV_KEEP);
	if (srar_ok && code == LX_MCACOD_DATA && ctx == LX_CTX_KERNEL_RECOV)
		return say(why, "Action required: data load in error recoverable area of kernel",
			   LX_SEV_AR);
	if (srar_ok && code == LX_MCACOD_DATA && ctx == LX_CTX_USER)
		return say(why, "Action required: data load error in a user process", LX_SEV_AR);
	if (srar_ok && code == LX_MCACOD_INSTR && ctx == LX_CTX_USER)
		return say(why, "Action required: instruction fetch error in a user process",
			   LX_SEV_AR);
	if (srar_ok && (mcg & LX_MCG_SEAM_NR) && ctx == LX_CTX_KERNEL) {
		if (code == LX_MCACOD_DATA)
			return say(why, "Data load error in SEAM non-root mode", LX_SEV_AR);
		if (code == LX_MCACOD_INSTR)
			return say(why, "Instruction fetch error in SEAM non-root mode",
				   LX_SEV_AR);
	}
	if (srar_ok && code == LX_MCACOD_DATA && ctx == LX_CTX_KERNEL)
		return say(why, "Data load in unrecoverable area of kernel", LX_SEV_PANIC);
	if (srar_ok && code == LX_MCACOD_INSTR && ctx == LX_CTX_KERNEL)
		return say(why, "Instruction fetch error in kernel", LX_SEV_PANIC);

	if ((st & (LX_MCI_OVER | uc_s_ar)) == uc_s_ar)
		return say(why, "Action required: unknown MCACOD", LX_SEV_PANIC);
	if ((st & (LX_MCI_OVER | uc_s_ar)) == (LX_MCI_UC | LX_MCI_S))
		return say(why, "Action optional: unknown MCACOD", LX_SEV_SOME);
	if ((st & (LX_MCI_OVER | uc_s_ar)) == (LX_MCI_OVER | LX_MCI_UC | LX_MCI_S))
		return say(why, "Action optional with lost events", LX_SEV_SOME);

generic_uc:
	if (lx_has(st, LX_MCI_OVER | LX_MCI_UC))
		return say(why, "Overflowed uncorrected", LX_SEV_PANIC);
	if ((st & LX_MCI_UC) && ctx == LX_CTX_KERNEL)
		return say(why, "Uncorrected in kernel", LX_SEV_PANIC);
	if (st & LX_MCI_UC)
		return say(why, "Uncorrected", LX_SEV_UC);
	return say(why, "No match", LX_SEV_SOME);
}

/*
 * AMD/Hygon grading. Linux does not look at VAL, EN, MCIP, RIPV or EIPV
 * here except through the context, which is only consulted last.
 */
static enum lx_sev amd_grade(const struct lx_mce_in *in, uint64_t st, enum lx_ctx ctx,
			     const char **why)
{
	if (st & LX_MCI_PCC)
		return say(why, "Processor Context Corrupt", LX_SEV_PANIC);
	if (st & LX_MCI_DEFERRED)
		return say(why, "Deferred error", LX_SEV_DEFERRED);
	if (!(st & LX_MCI_UC))
		return say(why, "Corrected error (UC=0)", LX_SEV_KEEP);
	if ((st & LX_MCI_OVER) && !in->overflow_recov)
		return say(why, "Overflowed uncorrected error without MCA Overflow Recovery",
			   LX_SEV_PANIC);
	if (!in->succor)
		return say(why, "Uncorrected error without MCA Recovery", LX_SEV_PANIC);
	if (ctx == LX_CTX_KERNEL)
		return say(why, "Uncorrected unrecoverable error in kernel context",
			   LX_SEV_PANIC);
	return say(why, "Action required (recoverable context)", LX_SEV_AR);
}

/* The grading the #MC handler computes (is_excp = true, live MCG_STATUS, real regs). */
static enum lx_sev grade_in_mc(const struct lx_mce_in *in, const char **why)
{
	enum lx_ctx ctx = kernel_context(in, in->mcg_status);

	if (in->amd)
		return amd_grade(in, in->status, ctx, why);
	return intel_grade(in, in->status, in->mcg_status, ctx, true, why);
}

/*
 * The grading machine_check_poll() computes later: no regs (so CS=0 and no
 * fixup lookup that matters), is_excp = false, and MCG_STATUS as read outside
 * the handler, which the handler has reset to 0.
 */
static enum lx_sev grade_in_poll(const struct lx_mce_in *in)
{
	if (in->amd)
		return amd_grade(in, in->status, LX_CTX_KERNEL, NULL);
	return intel_grade(in, in->status, 0, LX_CTX_KERNEL, false, NULL);
}

/* should_log_poll_error() with the flags of the timer/CMCI/deferred-interrupt callers. */
static bool poll_would_log(const struct lx_mce_in *in)
{
	uint64_t st = in->status;

	if (!(st & LX_MCI_VAL))
		return false;
	if (!(st & LX_MCI_UC))
		return true;
	if (!in->ser_p)
		return false;
	if (!(st & LX_MCI_EN))
		return true;
	if (!(st & LX_MCI_PCC) && !(st & LX_MCI_S))
		return true;
	return false;
}

enum lx_sev lx_mce_severity(const struct lx_mce_in *in, const char **why)
{
	if (in->amd && !(in->status & LX_MCI_VAL))
		return say(why, "Invalid (VAL=0: never graded by do_machine_check)", LX_SEV_NO);
	return grade_in_mc(in, why);
}

static void end_with(struct lx_mce_result *res, enum lx_end end, const char *why)
{
	res->end = end;
	res->end_why = why;
}

void lx_mce_handle(const struct lx_mce_in *in, struct lx_mce_result *res)
{
	uint64_t st = in->status;
	uint64_t mcg = in->mcg_status;
	bool valid = st & LX_MCI_VAL;
	bool kill_current_task = !(mcg & LX_MCG_RIPV);
	bool in_kernel_recov = false;
	bool copyin = false;
	bool to_clear = false;
	int worst = 0;
	bool no_way_out;
	bool rendezvous;
	bool local;

	*res = (struct lx_mce_result){ 0 };
	res->sev = lx_mce_severity(in, &res->sev_why);
	res->poll_sev = LX_SEV_NO;

	/* mce_no_way_out(): only banks with VAL are graded. */
	no_way_out = valid && res->sev == LX_SEV_PANIC;
	res->no_way_out = no_way_out;

	/* AMD/Hygon machine checks are always local; Intel looks at LMCES. */
	local = in->amd || (mcg & LX_MCG_LMCES);
	rendezvous = !local && !in->monarch_timeout_zero;
	res->local = !rendezvous;

	if (local && no_way_out) {
		end_with(res, LX_END_PANIC, "Fatal local machine check");
		goto done;
	}

	/* __mc_scan_banks() */
	if (valid) {
		uint64_t signalled = in->ser_p ? LX_MCI_S : LX_MCI_UC;
		int rank = lx_sev_rank(res->sev);

		if (!(st & signalled) && !no_way_out) {
			res->left_for_poll = true;
		} else if ((res->sev == LX_SEV_KEEP || rank == 1) && !no_way_out) {
			/* KEEP, UCNA and DEFERRED are left to the poller. */
			res->left_for_poll = true;
		} else {
			to_clear = true;
			if (res->sev != LX_SEV_NO) {
				res->logged = true;
				worst = rank;
				/* error_context() set these flags while grading this bank. */
				in_kernel_recov = kernel_context(in, mcg) == LX_CTX_KERNEL_RECOV;
				copyin = in_kernel_recov && in->copy_user;
				if (in->amd && res->sev != LX_SEV_AR)
					copyin = in_kernel_recov = false;
			}
		}
	}
	res->cleared = to_clear && !no_way_out;

	if (!local) {
		if (!rendezvous) {
			/* mce_start() returned -1: mce_end() fails, use the local verdict. */
			if (!no_way_out)
				no_way_out = worst >= lx_sev_rank(LX_SEV_PANIC);
			if (no_way_out) {
				end_with(res, LX_END_PANIC, "Fatal machine check on current CPU");
				goto done;
			}
		} else {
			/* This CPU is the Monarch and the only CPU: mce_reign(). */
			if (worst >= lx_sev_rank(LX_SEV_PANIC)) {
				end_with(res, LX_END_PANIC, "Fatal machine check");
				goto done;
			}
			if (worst <= lx_sev_rank(LX_SEV_KEEP)) {
				end_with(res, LX_END_PANIC,
					 "Fatal machine check from unknown source");
				goto done;
			}
		}
	} else if (worst >= lx_sev_rank(LX_SEV_PANIC)) {
		end_with(res, LX_END_PANIC, "Local fatal machine check!");
		goto done;
	}

	if (worst != lx_sev_rank(LX_SEV_AR) && !kill_current_task) {
		if (res->logged)
			end_with(res, LX_END_RESUME, "logged, return to interrupted RIP");
		else
			end_with(res, LX_END_IGNORE, "not counted, return to interrupted RIP");
		goto done;
	}

	/* Kernel mode: the user-mode branch (CS & 3 == 3) is never taken. */
	if (mcg & LX_MCG_SEAM_NR) {
		res->seam_poison = true;
		end_with(res, res->logged ? LX_END_RESUME : LX_END_IGNORE,
			 "SEAM non-root: page marked poisoned, return to interrupted RIP");
		goto done;
	}
	if (in_kernel_recov) {
		if (!in->fixup_mce_safe && !in->fixup_other) {
			end_with(res, LX_END_PANIC, "Failed kernel mode recovery");
			goto done;
		}
		res->kill_me_never = copyin;
		end_with(res, LX_END_RECOVER, "return to the exception fixup of RIP");
		goto done;
	}
	/* No recoverable-kernel flag: kill_current_task has nothing to act on in kernel. */
	if (res->logged)
		end_with(res, LX_END_RESUME, "kernel, no fixup flag: return to interrupted RIP");
	else
		end_with(res, LX_END_IGNORE, "kernel, nothing counted: return to interrupted RIP");

done:
	if (res->end == LX_END_PANIC) {
		res->queues_page = false;
		return;
	}
	if (res->left_for_poll) {
		res->poll_logs = poll_would_log(in);
		if (res->poll_logs)
			res->poll_sev = grade_in_poll(in);
	}
	/* uc_decode_notifier(): AO or DEFERRED (== UCNA) records with a usable address. */
	if (res->logged && (res->sev == LX_SEV_AO || lx_sev_rank(res->sev) == 1))
		res->queues_page = true;
	if (res->kill_me_never)
		res->queues_page = true;
	if (res->poll_logs &&
	    (res->poll_sev == LX_SEV_AO || lx_sev_rank(res->poll_sev) == 1))
		res->queues_page = true;
}

enum lx_end lx_mce_end(const struct lx_mce_in *in, const char **why)
{
	struct lx_mce_result res;

	lx_mce_handle(in, &res);
	if (why)
		*why = res.end_why;
	return res.end;
}

bool lx_mce_queues_page(const struct lx_mce_in *in)
{
	struct lx_mce_result res;

	lx_mce_handle(in, &res);
	return res.queues_page;
}

bool lx_mce_usable_address(const struct lx_mce_in *in, uint64_t misc, uint64_t addr)
{
	uint64_t st = in->status;

	(void)addr;	/* Linux never inspects the address value itself here. */
	if (!(st & LX_MCI_ADDRV))
		return false;

	if (in->amd) {
		/* Hygon is not routed to the AMD helper: any ADDRV address is usable. */
		if (in->hygon)
			return true;
		if (!in->smca) {
			/* Legacy northbridge bank 4: DRAM ECC has extended error code 8. */
			if (in->bank == 4 && ((st >> 16) & 0x1f) == 8)
				return true;
			if (in->bank == 4)
				return false;
		}
		return st & LX_MCI_POISON;
	}

	if (!(st & LX_MCI_MISCV))
		return false;
	if ((misc & 0x3f) > LX_PAGE_SHIFT)
		return false;
	if (((misc >> 6) & 7) != LX_MISC_ADDR_PHYS)
		return false;
	return true;
}

/* ---- One machine check over several banks and CPUs ---- */

/* Bank @b of CPU @c as the grading sees it. */
static struct lx_mce_in bank_in(const struct lx_mce_cpu *c, unsigned int b)
{
	struct lx_mce_in in = c->in;

	in.status = c->status[b];
	in.bank = b;
	return in;
}

/*
 * mce_no_way_out(): every valid bank goes into valid_banks and is graded, until the first
 * one graded PANIC, which ends the loop (banks after it are not in valid_banks).
 */
static bool no_way_out_scan(const struct lx_mce_cpu *c, bool *valid_bank)
{
	for (unsigned int b = 0; b < c->nbanks; b++) {
		struct lx_mce_in in = bank_in(c, b);

		if (!(in.status & LX_MCI_VAL))
			continue;
		valid_bank[b] = true;
		if (lx_mce_severity(&in, NULL) == LX_SEV_PANIC)
			return true;
	}
	return false;
}

/*
 * __mc_scan_banks() with @nwo, then mce_clear_state() unless @nwo. Returns the rank of the
 * worst severity logged (0: nothing); *worst_sev gets it.
 */
static int scan_cpu(const struct lx_mce_cpu *c, const bool *valid_bank, bool nwo,
		    struct lx_bank_fate *f, enum lx_sev *worst_sev)
{
	uint64_t signalled = c->in.ser_p ? LX_MCI_S : LX_MCI_UC;
	int worst = 0;

	*worst_sev = LX_SEV_NO;
	for (unsigned int b = 0; b < c->nbanks; b++) {
		struct lx_mce_in in = bank_in(c, b);
		enum lx_sev sev;

		if (!valid_bank[b] || !(in.status & LX_MCI_VAL))
			continue;
		f[b].scanned = true;
		/* Corrected or not signalled: machine_check_poll()'s, unless this panics. */
		if (!(in.status & signalled) && !nwo)
			continue;
		sev = lx_mce_severity(&in, NULL);
		f[b].sev = sev;
		/* Corrected and UCNA/deferred are not touched, unless this panics. */
		if ((sev == LX_SEV_KEEP || lx_sev_rank(sev) == 1) && !nwo)
			continue;
		f[b].cleared = !nwo;		/* toclear; mce_clear_state() runs if !nwo */
		if (sev == LX_SEV_NO)
			continue;		/* cleared, but ignored */
		f[b].logged = true;
		if (lx_sev_rank(sev) > worst) {
			worst = lx_sev_rank(sev);
			*worst_sev = sev;
		}
	}
	return worst;
}

/*
 * The end of do_machine_check() on a CPU that did not panic, from its worst logged severity:
 * only an AR error (or RIPV clear) goes past the "goto out"; in kernel mode a SEAM non-root
 * error returns to RIP, and the record of the worst bank carries MCE_IN_KERNEL_RECOV exactly
 * when its context was recoverable (error_context() set it while grading; an AR grade needs
 * that context, but for SEAM), which sends it to the fixup.
 */
static enum lx_end cpu_end(const struct lx_mce_cpu *c, enum lx_sev worst, bool logged,
			   const char **why)
{
	uint64_t mcg = c->in.mcg_status;
	enum lx_end plain = logged ? LX_END_RESUME : LX_END_IGNORE;

	if (worst != LX_SEV_AR && (mcg & LX_MCG_RIPV))
		return plain;
	if (mcg & LX_MCG_SEAM_NR)
		return plain;
	if (worst == LX_SEV_AR && kernel_context(&c->in, mcg) == LX_CTX_KERNEL_RECOV) {
		if (!c->in.fixup_mce_safe && !c->in.fixup_other) {
			*why = "Failed kernel mode recovery";
			return LX_END_PANIC;
		}
		return LX_END_RECOVER;
	}
	return plain;
}

static void event_panic(struct lx_mce_event_result *out, unsigned int ncpus, const char *why)
{
	out->panic = true;
	out->why = why;
	for (unsigned int c = 0; c < ncpus; c++)
		out->end[c] = LX_END_PANIC;
}

/* machine_check_poll() on each CPU, once the machine goes on: the banks left valid. */
static void poll_after(const struct lx_mce_cpu *cpus, unsigned int ncpus,
		       struct lx_mce_event_result *out)
{
	for (unsigned int c = 0; c < ncpus; c++) {
		for (unsigned int b = 0; b < cpus[c].nbanks; b++) {
			struct lx_bank_fate *f = &out->bank[c][b];
			struct lx_mce_in in = bank_in(&cpus[c], b);

			f->left = f->valid && !f->cleared;
			if (!f->left || !poll_would_log(&in))
				continue;
			f->poll_logs = true;
			f->poll_sev = grade_in_poll(&in);
		}
	}
}

void lx_mce_event(const struct lx_mce_cpu *cpus, unsigned int ncpus,
		  struct lx_mce_event_result *out)
{
	bool valid_bank[LX_MAX_CPUS][LX_MAX_BANKS] = { { false } };
	bool nwo[LX_MAX_CPUS] = { false }, global = false;
	enum lx_sev worst_sev[LX_MAX_CPUS];
	int worst[LX_MAX_CPUS], global_worst = 0;
	bool local = cpus[0].in.amd || (cpus[0].in.mcg_status & LX_MCG_LMCES);
	const char *why = NULL;

	*out = (struct lx_mce_event_result){ .panic = false };
	for (unsigned int c = 0; c < ncpus; c++) {
		for (unsigned int b = 0; b < cpus[c].nbanks; b++)
			out->bank[c][b].valid = cpus[c].status[b] & LX_MCI_VAL;
		nwo[c] = no_way_out_scan(&cpus[c], valid_bank[c]);
		global |= nwo[c];	/* mce_start(): global_nwo, read once all are in */
	}
	if (local) {
		out->no_way_out = nwo[0];
		if (nwo[0]) {
			/* Panics before scanning: nothing logged by the scan, nothing cleared. */
			event_panic(out, ncpus, "Fatal local machine check");
			return;
		}
		worst[0] = scan_cpu(&cpus[0], valid_bank[0], false, out->bank[0], &worst_sev[0]);
		if (worst[0] >= lx_sev_rank(LX_SEV_PANIC)) {
			event_panic(out, ncpus, "Local fatal machine check!");
			return;
		}
	} else {
		out->no_way_out = global;
		/* Each CPU in its check-in order (CPU order here) scans with the global view. */
		for (unsigned int c = 0; c < ncpus; c++) {
			worst[c] = scan_cpu(&cpus[c], valid_bank[c], global, out->bank[c],
					    &worst_sev[c]);
			if (worst[c] > global_worst)
				global_worst = worst[c];
		}
		/* mce_reign() on the Monarch. */
		if (global_worst >= lx_sev_rank(LX_SEV_PANIC)) {
			event_panic(out, ncpus, "Fatal machine check");
			return;
		}
		if (global_worst <= lx_sev_rank(LX_SEV_KEEP)) {
			event_panic(out, ncpus, "Fatal machine check from unknown source");
			return;
		}
	}
	for (unsigned int c = 0; c < ncpus; c++) {
		out->end[c] = cpu_end(&cpus[c], worst_sev[c], worst[c] > 0, &why);
		if (out->end[c] == LX_END_PANIC) {
			event_panic(out, ncpus, why);
			return;
		}
	}
	poll_after(cpus, ncpus, out);
}
