// SPDX-License-Identifier: GPL-2.0-only
/*
 * apic_start.c - the sequence that wakes the application processors (see apic_start.h).
 * Plain C over the ops: the image passes the real local APIC, the host tests a fake that
 * records every write.
 */
#include "kernel/arch/apic_start.h"

static bool wait_icr_idle(const struct apic_start_ops *ops)
{
	for (unsigned int i = 0; i < APIC_ICR_POLLS; i++) {
		if (!ops->icr_busy(ops->ctx))
			return true;
		ops->udelay(ops->ctx, APIC_ICR_POLL_US);
	}
	return !ops->icr_busy(ops->ctx);
}

static int fail(struct apic_start_result *r, enum apic_start_step step)
{
	r->step = step;
	return -1;
}

/* INIT assert and deassert to one AP: it then waits for a STARTUP IPI. */
static int send_init(const struct apic_start_ops *ops, const struct apic_start_params *p,
		     u32 apic_id, struct apic_start_result *r)
{
	*r = (struct apic_start_result){ .step = APIC_START_OK };
	if (!p->x2apic && apic_id > APIC_XAPIC_MAX_ID)
		return fail(r, APIC_START_BAD_ID);

	ops->esr_read(ops->ctx);
	ops->icr_write(ops->ctx, apic_id, ICR_DM_INIT | ICR_LEVEL_ASSERT | ICR_TRIGGER_LEVEL);
	if (!wait_icr_idle(ops))
		return fail(r, APIC_START_INIT_STUCK);
	/* The SDM's 10 ms; Linux drops it on CPUs that do not need it. */
	ops->udelay(ops->ctx, p->modern ? 0 : APIC_INIT_DELAY_US);
	ops->icr_write(ops->ctx, apic_id, ICR_DM_INIT | ICR_TRIGGER_LEVEL);
	if (!wait_icr_idle(ops))
		return fail(r, APIC_START_DEASSERT_STUCK);
	return 0;
}

/* The two STARTUP IPIs to AP @i, then a bounded wait for its answer. */
static int send_sipis(const struct apic_start_ops *ops, const struct apic_start_params *p,
		      unsigned int i, u32 apic_id, struct apic_start_result *r)
{
	u32 sipi = ICR_DM_STARTUP | p->sipi_vector;
	u64 t0 = ops->now_us(ops->ctx), deadline;

	for (unsigned int j = 0; j < 2; j++) {
		ops->esr_read(ops->ctx);
		ops->icr_write(ops->ctx, apic_id, sipi);
		r->sipis++;
		ops->udelay(ops->ctx, p->modern ? APIC_SIPI_DELAY_MODERN_US : APIC_SIPI_DELAY_US);
		if (!wait_icr_idle(ops))
			return fail(r, APIC_START_SIPI_STUCK);
		ops->udelay(ops->ctx, p->modern ? APIC_SIPI_DELAY_MODERN_US : APIC_SIPI_SETTLE_US);
		/* Bit 4 (send checksum, Pentium only) is ignored, as Linux does. */
		r->esr = ops->esr_read(ops->ctx) & APIC_ESR_MASK;
		if (r->esr)
			return fail(r, APIC_START_SIPI_ERROR);
	}

	deadline = t0 + p->answer_timeout_us;
	for (;;) {
		u64 now = ops->now_us(ops->ctx);

		if (ops->answered(ops->ctx, i)) {
			r->answer_us = now - t0;
			return 0;
		}
		if (now >= deadline)
			return fail(r, APIC_START_NO_ANSWER);
		ops->udelay(ops->ctx, APIC_ANSWER_POLL_US);
	}
}

unsigned int apic_start_aps(const struct apic_start_ops *ops, const struct apic_start_params *p,
			    struct apic_start_ap *aps, unsigned int n)
{
	unsigned int started = 0;

	for (unsigned int i = 0; i < n; i++)
		send_init(ops, p, aps[i].apic_id, &aps[i].r);
	for (unsigned int i = 0; i < n; i++) {
		struct apic_start_result *r = &aps[i].r;
		u64 t0;

		if (r->step != APIC_START_OK)
			continue;
		ops->sipi_begin(ops->ctx, i);
		t0 = ops->now_us(ops->ctx);
		if (send_sipis(ops, p, i, aps[i].apic_id, r) && ops->give_up(ops->ctx, i))
			continue;
		if (r->step != APIC_START_OK) {
			/* It answered while it was being given up: started after all. */
			r->step = APIC_START_OK;
			r->answer_us = ops->now_us(ops->ctx) - t0;
		}
		started++;
	}
	return started;
}

const char *apic_start_step_name(enum apic_start_step s)
{
	switch (s) {
	case APIC_START_OK:		return "started";
	case APIC_START_BAD_ID:		return "APIC id above 254 needs x2APIC mode";
	case APIC_START_INIT_STUCK:	return "INIT assert never delivered (ICR busy)";
	case APIC_START_DEASSERT_STUCK:	return "INIT deassert never delivered (ICR busy)";
	case APIC_START_SIPI_STUCK:	return "STARTUP IPI never delivered (ICR busy)";
	case APIC_START_SIPI_ERROR:	return "APIC error status set after STARTUP IPI";
	case APIC_START_NO_ANSWER:	return "no answer after INIT-SIPI-SIPI";
	}
	return "?";
}

enum apic_mode_plan apic_plan_mode(bool x2apic_now, bool x2apic_capable, u32 max_apic_id)
{
	if (x2apic_now || max_apic_id <= APIC_XAPIC_MAX_ID)
		return APIC_PLAN_KEEP;
	return x2apic_capable ? APIC_PLAN_SWITCH_X2APIC : APIC_PLAN_UNREACHABLE;
}
