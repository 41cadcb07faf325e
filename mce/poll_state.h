/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * poll_state.h - one CPU's corrected-error poller as data: what it finds (struct
 * mce_poll_event, by kind), what it counts (struct mce_poll_stats), its queue, the banks
 * whose CMCI it owns with their storm histories, and the whole (struct mce_poll_state).
 * The scan (mce/poll_core.c) and the CMCI with its storms (mce/cmci.c) both work on it and
 * the image's poller (mce/poll.c) keeps one per CPU: this header sits below the three, so
 * none of them includes another's header for a type.
 */
#ifndef CK_MCE_POLL_STATE_H
#define CK_MCE_POLL_STATE_H

#include "kernel/include/types.h"
#include "mce/amd_thresh.h"

struct mce_rule;

enum mce_poll_kind {
	MCE_POLL_CORRECTED,	/* UC clear */
	MCE_POLL_DEFERRED,	/* AMD: STATUS bit 44 (from MCA_STATUS, or SMCA's MCA_DESTAT) */
	MCE_POLL_UCNA,		/* uncorrected, not signalled (or not enabled): no #MC */
	MCE_POLL_THRESHOLD,	/* AMD: a bank's corrected-error counter reached its limit */
	MCE_POLL_NR_KINDS,
};

struct mce_poll_event {
	u64 tsc;
	u64 status, addr, misc, synd, ipid;	/* addr and misc as read (0 when not valid) */
	u16 bank;
	u8 kind;				/* enum mce_poll_kind */
	bool addr_valid;			/* @phys is a usable physical address */
	u8 lsb;					/* its least significant valid bit */
	u64 phys;				/* the address masked to its granularity */
	bool over;				/* STATUS.OVER: an earlier error was lost */
	const struct mce_rule *rule;		/* the poller's grading (NULL: threshold only) */
	bool from_cmci;				/* found by the CMCI interrupt, not a poll */
	bool page_queued;			/* its page went to be offlined */
};

/* What one CPU's poller did since it started. */
struct mce_poll_stats {
	u64 polls;			/* scans of its banks (polls and CMCIs) */
	u64 cmcis;			/* CMCI interrupts taken */
	u64 found[MCE_POLL_NR_KINDS];	/* events logged, by kind */
	u64 dropped;			/* events that found its queue full */
	u64 left_for_mc;		/* uncorrected signalled banks left to the #MC handler */
	u64 storms, storms_ended;	/* CMCI storms begun and subsided on its banks */
	u64 lock_skips;			/* polls that skipped the shared-unknown banks: lock held */
};

/* Linux's INITIAL_CHECK_INTERVAL (five minutes): the default longest interval. */
#define MCE_POLL_DEFAULT_MS	(5U * 60 * 1000)

#define MCE_POLL_BANKS		64
#define MCE_POLL_QUEUE		32

/* One bank's CMCI storm history (Linux's struct storm_bank). */
struct mce_storm_bank {
	u64 history;		/* bit i: an error seen i polls (or seconds) ago */
	u64 stamp_ms;		/* when the bank was last tracked */
	bool in_storm;		/* polled once a second, its CMCI threshold raised */
	u16 threshold;		/* its CMCI threshold when not storming (MCi_CTL2[14:0]) */
};

/* This CPU's CMCI: which banks it owns, their storms (Linux's struct mca_storm_desc). */
struct mce_cmci_state {
	u64 owned;		/* banks whose CMCI_EN this CPU set (Linux's mce_banks_owned) */
	u64 storming;		/* of those, the banks in storm mode */
	struct mce_storm_bank bank[MCE_POLL_BANKS];
};

/* This CPU's queue: a ring, written and read only by its CPU with interrupts held off. */
struct mce_poll_queue {
	struct mce_poll_event ev[MCE_POLL_QUEUE];
	unsigned int head, n;
};

struct mce_poll_state {
	u64 owned;		/* banks this CPU alone reads */
	u64 unknown;		/* banks whose sharing is unknown: read under the poll lock */
	struct mce_poll_queue q;
	struct mce_poll_stats st;
	struct mce_cmci_state cmci;
	struct mce_thresh thr;
	unsigned int max_ms;	/* the longest interval (Linux's check_interval) */
	unsigned int iv_ms;	/* the interval now (Linux's mce_next_interval) */
	u64 next_ms;		/* when mce_poll_tick polls next */
	bool started;
};

/* Set bits of @x (the image links no libgcc: no __builtin_popcountll). */
static inline unsigned int mce_hweight64(u64 x)
{
	unsigned int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

#endif
