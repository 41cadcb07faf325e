// SPDX-License-Identifier: GPL-2.0-only
/*
 * apic_start.c - INIT, SIPI, SIPI for one CPU (see apic_start.h). Plain C over the ops:
 * the image passes the real local APIC, the host tests a fake that records every write.
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

int apic_start_init(const struct apic_start_ops *ops, const struct apic_start_params *p,
		    struct apic_start_result *r)
{
	*r = (struct apic_start_result){ .step = APIC_START_OK };
	if (!p->x2apic && p->apic_id > APIC_XAPIC_MAX_ID)
		return fail(r, APIC_START_BAD_ID);

	ops->esr_read(ops->ctx);
	ops->icr_write(ops->ctx, p->apic_id, ICR_DM_INIT | ICR_LEVEL_ASSERT | ICR_TRIGGER_LEVEL);
	if (!wait_icr_idle(ops))
		return fail(r, APIC_START_INIT_STUCK);
	/* The SDM's 10 ms; Linux drops it on CPUs that do not need it. */
	ops->udelay(ops->ctx, p->modern ? 0 : APIC_INIT_DELAY_US);
	ops->icr_write(ops->ctx, p->apic_id, ICR_DM_INIT | ICR_TRIGGER_LEVEL);
	if (!wait_icr_idle(ops))
		return fail(r, APIC_START_DEASSERT_STUCK);
	return 0;
}

int apic_start_sipi(const struct apic_start_ops *ops, const struct apic_start_params *p,
		    struct apic_start_result *r)
{
	u32 sipi = ICR_DM_STARTUP | p->sipi_vector;
	u64 t0 = ops->now_us(ops->ctx), deadline;

	for (unsigned int j = 0; j < 2; j++) {
		ops->esr_read(ops->ctx);
		ops->icr_write(ops->ctx, p->apic_id, sipi);
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

		if (ops->answered(ops->ctx)) {
			r->answer_us = now - t0;
			return 0;
		}
		if (now >= deadline)
			return fail(r, APIC_START_NO_ANSWER);
		ops->udelay(ops->ctx, APIC_ANSWER_POLL_US);
	}
}

int apic_start_cpu(const struct apic_start_ops *ops, const struct apic_start_params *p,
		   struct apic_start_result *r)
{
	return apic_start_init(ops, p, r) ? -1 : apic_start_sipi(ops, p, r);
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
