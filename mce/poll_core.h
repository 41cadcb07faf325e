/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * poll_core.h - the poller's pure core (mce/poll.h says what it does): one CPU's poller
 * state (mce/poll_state.h: its queue, counts, CMCI storm and AMD threshold state, interval)
 * and one scan of a set of banks through a register backend (mce/msr.h: the real MSRs or a
 * simulated file).
 * Plain C: the image runs it on every CPU over that CPU's own state, the host tests over
 * simulated register files standing for several CPUs.
 *
 * Per bank the scan follows Linux's machine_check_poll() and should_log_poll_error() (v6.19):
 *  - Intel and legacy AMD: a valid STATUS is logged when UC is clear; with SER_P (Intel only)
 *    also when EN is clear or when neither PCC nor S is set (UCNA); any other valid bank is
 *    left as it is, for the #MC handler. The image also logs an AMD deferred error found in
 *    STATUS (bit 44), as Linux's deferred-error interrupt does.
 *  - SMCA: a valid STATUS is logged as above (deferred errors as deferred, MCA_DESTAT cleared
 *    with it); when STATUS holds nothing, a valid deferred error in MCA_DESTAT is logged from
 *    MCA_DESTAT and MCA_DEADDR, and only MCA_DESTAT is cleared. (Linux v6.19 logs every valid
 *    SMCA STATUS; the image still leaves an uncorrected non-deferred one to the #MC handler.)
 *  - CMCI storm tracking (mce/cmci.h) sees every bank CMCI covers, valid or not, before that.
 *  - AMD threshold counters (mce/amd_thresh.h) that overflowed are logged and preset again.
 * What is logged is graded with the poller's grading (mce_grade with poll set), its address
 * decoded with its granularity (mce_decode_addr: MISC LSB; SMCA ADDR[61:56]), its page
 * queued for offlining when it is action optional or UCNA/deferred with a usable address
 * (Linux's uc_decode_notifier on the poller's records; mce_poll_queues_page), and cleared.
 * Banks the #MC handler left (corrected, UCNA, not signalled: mce/scan_core.h) are found
 * here, so each error is counted by one of the two.
 */
#ifndef CK_MCE_POLL_CORE_H
#define CK_MCE_POLL_CORE_H

#include "kernel/include/types.h"
#include "mce/amd_thresh.h"
#include "mce/cmci.h"
#include "mce/msr.h"
#include "mce/poll_state.h"
#include "mce/smp_logic.h"

/* Linux's floor of the adaptive interval: HZ / 100. */
#define MCE_POLL_MIN_MS		10


/* What a scan needs to know of the CPU it runs on. */
struct mce_poll_env {
	struct mce_sim *be;	/* NULL: the real MSRs */
	bool amd, smca, hygon;	/* the bank layout and the vendor's rules */
	bool ser;		/* Intel: MCG_CAP.SER_P; AMD: SUCCOR */
	bool ser_p;		/* MCG_CAP.SER_P (any vendor): the address rule (mce/decode.h) */
	bool ovf_recov;		/* AMD: McaOverflowRecov */
	u8 family, model, stepping;
	unsigned int nbanks;	/* banks beyond it are never read */
	u64 tsc;		/* the events' stamp */
	u64 now_ms;		/* the clock of the storm history */
	void (*offline)(u64 pfn);	/* queue a page for offlining (NULL: nobody does) */
};

/* The MSR of @reg (enum mce_bank_reg) of @bank: legacy 0x400 + 4i or SMCA 0xc0002000 + 16i. */
u32 mce_poll_bank_msr(bool smca, unsigned int bank, int reg);

/* What the setup found out about who reads which bank of one CPU (mce/smp.c's map). */
struct mce_poll_share {
	enum mce_share_method share;
	unsigned int nbanks;
	u64 cmci_mine;		/* CMCI probe: banks whose CMCI_EN this CPU set first */
	u64 cmci_none;		/* CMCI probe: banks where CMCI_EN does not stick */
	u64 ipid_below;		/* SMCA: banks whose IPID a lower-numbered CPU also reports */
};

/*
 * Which banks of that CPU it reads alone (@owned) and which every CPU reads in turn under the
 * poll lock (@unknown): with the CMCI probe, the banks it won and, as unknown, those without
 * CMCI; with SMCA IPIDs, every bank but those a lower-numbered CPU also has (Linux's SMCA
 * gives a shared bank's registers to one core: the lowest CPU number reads it here); with
 * neither, every bank is unknown. A bank another CPU owns is in neither.
 */
void mce_poll_ownership(const struct mce_poll_share *in, u64 *owned, u64 *unknown);

/* The poll lock, taken with a bound (false: not taken in time). */
struct mce_poll_lock {
	bool (*take)(void *ctx);
	void (*drop)(void *ctx);
	void *ctx;
};

/*
 * One poll of the CPU of @s (Linux's machine_check_poll from the timer): its own banks, then
 * the unknown ones under @lk (skipped, and counted, when the lock is not had in time). Returns
 * the events logged.
 */
unsigned int mce_poll_once(struct mce_poll_state *s, const struct mce_poll_env *e,
			   const struct mce_poll_lock *lk);

/* A state ready to run, with @max_ms as its longest interval (0: the default), at @now_ms. */
void mce_poll_state_init(struct mce_poll_state *s, unsigned int max_ms, u64 now_ms);

/*
 * Scan the banks of @banks (bit i: bank i) through @e once, as described above, queuing what
 * is logged (stamped @e->tsc, marked @from_cmci). Returns how many events it logged. The
 * caller counts the poll (st.polls): one poll may take two scans (owned, shared-unknown).
 */
unsigned int mce_poll_scan(struct mce_poll_state *s, const struct mce_poll_env *e, u64 banks,
			   bool from_cmci);

/*
 * The CMCI interrupt on this CPU (mce/cmci.h): scan the banks whose CMCI it owns (storm
 * tracking included), queue what is found as from the CMCI, acknowledge the APIC. Records
 * and returns; prints nothing.
 */
void mce_cmci_interrupt(struct mce_poll_state *s, const struct mce_poll_env *e,
			const struct mce_apic_ops *a);

/* Move up to @max queued events to @out, oldest first; returns how many. */
unsigned int mce_poll_queue_take(struct mce_poll_queue *q, struct mce_poll_event *out,
				 unsigned int max);

/*
 * Linux's mce_timer_fn(): the interval after a poll at @iv_ms that logged (@logged: halved,
 * not below 10 ms) or not (doubled, up to @max_ms).
 */
unsigned int mce_poll_next_interval(unsigned int iv_ms, bool logged, unsigned int max_ms);

/* Whether the poll timer of @s is due at @now_ms. */
bool mce_poll_due(const struct mce_poll_state *s, u64 now_ms);
/*
 * After a timer poll at @now_ms that logged (@logged) or not: the next interval and time; while
 * a bank storms the next poll is a second away and the interval stays as it was (Linux).
 */
void mce_poll_rearm(struct mce_poll_state *s, u64 now_ms, bool logged);

#endif
