/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * apic_start.h - the INIT, SIPI, SIPI sequence that wakes the application processors, over
 * an abstract local APIC so the host can drive it with a fake one
 * (tests/host/test_apic_start.c).
 *
 * The order and the delays follow the SDM (vol. 3, "MP Initialization Example") as Linux's
 * wakeup_secondary_cpu_via_init() applies them: INIT assert, INIT deassert, then two STARTUP
 * IPIs, each preceded by clearing the APIC error status and followed by reading it. Every
 * wait is bounded; a CPU that does not answer is a result, never a hang.
 */
#ifndef CK_APIC_START_H
#define CK_APIC_START_H

#include "kernel/include/types.h"

/* Interrupt command register, low word (SDM vol. 3, "Interrupt Command Register"). */
#define ICR_DM_FIXED		(0U << 8)
#define ICR_DM_NMI		(4U << 8)
#define ICR_DM_INIT		(5U << 8)
#define ICR_DM_STARTUP		(6U << 8)
#define ICR_BUSY		(1U << 12)	/* xAPIC delivery status: send pending */
#define ICR_LEVEL_ASSERT	(1U << 14)
#define ICR_TRIGGER_LEVEL	(1U << 15)
#define ICR_DEST_ALL_BUT_SELF	(3U << 18)

#define APIC_XAPIC_MAX_ID	0xfe	/* 0xff is the xAPIC broadcast id */

struct apic_start_ops {
	/* Write the ICR: @dest is an APIC id (8 bits in xAPIC mode, 32 in x2APIC). */
	void (*icr_write)(void *ctx, u32 dest, u32 low);
	/* xAPIC: the previous IPI is still being sent. x2APIC has no such state. */
	bool (*icr_busy)(void *ctx);
	/* Clear the error status register and read it back (a write of 0 latches it). */
	u32 (*esr_read)(void *ctx);
	void (*udelay)(void *ctx, u32 us);
	u64 (*now_us)(void *ctx);
	/* AP @i (an index into the caller's array) is about to get its STARTUP IPIs. */
	void (*sipi_begin)(void *ctx, unsigned int i);
	/* AP @i has reached the kernel (checked after its SIPIs, until the timeout). */
	bool (*answered)(void *ctx, unsigned int i);
	/* Give AP @i up; false when it answered at the last moment (it then counts as started). */
	bool (*give_up)(void *ctx, unsigned int i);
	void *ctx;
};

struct apic_start_params {
	u8 sipi_vector;		/* start page number: the trampoline sits at vector * 4 KiB */
	bool x2apic;		/* the ICR takes a 32-bit destination */
	bool modern;		/* Linux's init_udelay = 0: no 10 ms wait after INIT */
	u32 answer_timeout_us;	/* after an AP's second SIPI */
};

enum apic_start_step {
	APIC_START_OK,
	APIC_START_BAD_ID,		/* id does not fit the xAPIC destination field */
	APIC_START_INIT_STUCK,		/* INIT assert never left the ICR */
	APIC_START_DEASSERT_STUCK,
	APIC_START_SIPI_STUCK,
	APIC_START_SIPI_ERROR,		/* the APIC error status was not clear after a SIPI */
	APIC_START_NO_ANSWER,		/* the sequence went out, the CPU never checked in */
};

struct apic_start_result {
	enum apic_start_step step;
	u32 esr;		/* error status read after the failing SIPI */
	unsigned int sipis;	/* STARTUP IPIs sent */
	u64 answer_us;		/* from the first SIPI to the check-in */
};

struct apic_start_ap {
	u32 apic_id;			/* in */
	struct apic_start_result r;	/* out */
};

/*
 * Start @n APs as the image does: first INIT and its deassert to every one of them, so each
 * waits for its SIPI halted instead of spinning in firmware code (which under an emulator
 * slows everyone else), then to one AP after the other its two STARTUP IPIs and a bounded
 * wait for its answer. An AP whose INIT did not go out gets no SIPI. Returns how many APs
 * answered; @aps[i].r says how far each one got.
 */
unsigned int apic_start_aps(const struct apic_start_ops *ops, const struct apic_start_params *p,
			    struct apic_start_ap *aps, unsigned int n);
const char *apic_start_step_name(enum apic_start_step s);

/*
 * Which APIC mode the boot CPU needs: firmware's mode is kept unless a CPU to start has an
 * id above 254, which only x2APIC mode can address (SDM vol. 3, "x2APIC"); without x2APIC
 * support such CPUs are unreachable and reported.
 */
enum apic_mode_plan { APIC_PLAN_KEEP, APIC_PLAN_SWITCH_X2APIC, APIC_PLAN_UNREACHABLE };
enum apic_mode_plan apic_plan_mode(bool x2apic_now, bool x2apic_capable, u32 max_apic_id);

/* The ICR wait bound: Linux's safe_apic_wait_icr_idle() polls 1000 x 100 us. */
#define APIC_ICR_POLLS		1000
#define APIC_ICR_POLL_US	100

/* The sequence's delays, in microseconds, as Linux's wakeup_secondary_cpu_via_init(). */
#define APIC_INIT_DELAY_US		10000	/* after INIT assert (0 on modern CPUs) */
#define APIC_SIPI_DELAY_US		300	/* after each STARTUP IPI */
#define APIC_SIPI_SETTLE_US		200	/* after the ICR went idle, before the ESR */
#define APIC_SIPI_DELAY_MODERN_US	10	/* both, when init_udelay is 0 */
#define APIC_ANSWER_POLL_US		10
/* ESR bit 4, send checksum error, exists on the Pentium only: ignored, as Linux does. */
#define APIC_ESR_SEND_CS		0x10U
#define APIC_ESR_MASK			(0xffU & ~APIC_ESR_SEND_CS)

#endif
