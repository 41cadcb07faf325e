// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll_core.c - one CPU's poller (see poll_core.h): the scan of its banks after Linux's
 * machine_check_poll(), the bounded queue of what it found, and the poll timer's interval.
 * Works on the state and registers it is given; never prints, locks or allocates.
 */
#include "kernel/include/msr-index.h"
#include "mce/cmci.h"
#include "mce/decode.h"
#include "mce/grade.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/poll_core.h"

u32 mce_poll_bank_msr(bool smca, unsigned int bank, int reg)
{
	/* SMCA: CTL +0, STATUS +1, ADDR +2, MISC0 +3, (CONFIG +4), IPID +5, SYND +6. */
	static const u32 smca_off[] = { 0, 1, 2, 3, 5, 6 };

	if (smca)
		return MSR_SMCA_CTL(bank) + smca_off[reg];
	return MSR_MC_CTL(bank) + (u32)reg;
}

void mce_poll_state_init(struct mce_poll_state *s, unsigned int max_ms, u64 now_ms)
{
	*s = (struct mce_poll_state){ .max_ms = max_ms ? max_ms : MCE_POLL_DEFAULT_MS };
	s->iv_ms = s->max_ms;
	s->next_ms = now_ms + s->iv_ms;
	s->started = true;
}

static void queue_push(struct mce_poll_state *s, const struct mce_poll_event *ev)
{
	struct mce_poll_queue *q = &s->q;

	s->st.found[ev->kind]++;
	if (q->n == MCE_POLL_QUEUE) {
		s->st.dropped++;
		return;
	}
	q->ev[(q->head + q->n) % MCE_POLL_QUEUE] = *ev;
	q->n++;
}

unsigned int mce_poll_queue_take(struct mce_poll_queue *q, struct mce_poll_event *out,
				 unsigned int max)
{
	unsigned int n = MIN(max, q->n);

	for (unsigned int i = 0; i < n; i++)
		out[i] = q->ev[(q->head + i) % MCE_POLL_QUEUE];
	q->head = (q->head + n) % MCE_POLL_QUEUE;
	q->n -= n;
	return n;
}

static struct mce_grade_in grade_in(const struct mce_poll_env *e, u64 status, unsigned int b)
{
	return (struct mce_grade_in){ .status = status, .amd = e->amd, .ser = e->ser,
				      .ovf_recov = e->ovf_recov, .poll = true,
				      .family = e->family, .model = e->model,
				      .stepping = e->stepping, .bank = (u16)b };
}

/* Whether the poller logs @status of bank @b (found in MCA_DESTAT: @destat). */
static bool should_log(const struct mce_poll_env *e, u64 status, unsigned int b, bool destat)
{
	struct mce_grade_in in = grade_in(e, status, b);

	if (destat || (e->amd && (status & MCI_STATUS_DEFERRED)))
		return true;
	return mce_poll_would_log(&in);
}

/* The event for a logged @status of bank @b: its registers, grading and address. */
static void fill_event(const struct mce_poll_env *e, unsigned int b, u64 status, bool destat,
		       struct mce_poll_event *ev)
{
	struct mce_grade_in in = grade_in(e, status, b);
	struct mce_addr_src src = { .amd = e->amd, .smca = e->amd && e->smca,
				    .hygon = e->amd && e->hygon, .ser_p = e->ser_p, .bank = b };
	struct mce_addr a;

	ev->status = status;
	ev->bank = (u16)b;
	if (status & MCI_STATUS_ADDRV)
		mce_rdmsr(e->be, destat ? MSR_SMCA_DEADDR(b) :
			  mce_poll_bank_msr(e->smca, b, MCE_REG_ADDR), &ev->addr);
	if (status & MCI_STATUS_MISCV)
		mce_rdmsr(e->be, mce_poll_bank_msr(e->smca, b, MCE_REG_MISC), &ev->misc);
	if (e->smca) {
		mce_rdmsr(e->be, mce_poll_bank_msr(true, b, MCE_REG_IPID), &ev->ipid);
		if (status & MCI_STATUS_SYNDV)
			mce_rdmsr(e->be, mce_poll_bank_msr(true, b, MCE_REG_SYND), &ev->synd);
	}
	ev->rule = mce_grade(&in);
	a = mce_decode_addr(status, ev->addr, ev->misc, &src);
	ev->addr_valid = a.valid;
	ev->lsb = (u8)a.lsb;
	ev->phys = a.valid ? a.phys : 0;
	ev->over = status & MCI_STATUS_OVER;
	if (destat || (e->amd && (status & MCI_STATUS_DEFERRED)))
		ev->kind = MCE_POLL_DEFERRED;
	else
		ev->kind = status & MCI_STATUS_UC ? MCE_POLL_UCNA : MCE_POLL_CORRECTED;
}

/* Clear what was logged: MCA_DESTAT alone for a deferred error found only there. */
static void clear_logged(const struct mce_poll_env *e, unsigned int b, u64 status, bool destat)
{
	if (!destat)
		mce_wrmsr(e->be, mce_poll_bank_msr(e->smca, b, MCE_REG_STATUS), 0);
	if (e->smca && (destat || (status & MCI_STATUS_DEFERRED)))
		mce_wrmsr(e->be, MSR_SMCA_DESTAT(b), 0);
}

/* SMCA: with MCA_STATUS empty, a valid deferred error in MCA_DESTAT; 0 when there is none. */
static u64 smca_destat(const struct mce_poll_env *e, unsigned int b)
{
	u64 v = 0;

	if (mce_rdmsr(e->be, MSR_SMCA_DESTAT(b), &v))
		return 0;
	return (v & MCI_STATUS_VAL) && (v & MCI_STATUS_DEFERRED) ? v : 0;
}

static unsigned int scan_bank(struct mce_poll_state *s, const struct mce_poll_env *e,
			      unsigned int b, bool from_cmci)
{
	struct mce_poll_event ev = { .tsc = e->tsc, .from_cmci = from_cmci };
	unsigned int n = 0;
	bool destat = false;
	u64 status = 0;

	if (mce_rdmsr(e->be, mce_poll_bank_msr(e->smca, b, MCE_REG_STATUS), &status))
		status = 0;
	mce_storm_track(s, e->be, b, status, e->now_ms);
	if (!(status & MCI_STATUS_VAL) && e->smca && e->amd) {
		status = smca_destat(e, b);
		destat = status != 0;
	}
	if ((status & MCI_STATUS_VAL) && should_log(e, status, b, destat)) {
		fill_event(e, b, status, destat, &ev);
		if (e->offline && ev.addr_valid && mce_poll_queues_page(ev.rule->grade)) {
			e->offline(ev.phys >> 12);
			ev.page_queued = true;
		}
		clear_logged(e, b, status, destat);
		queue_push(s, &ev);
		n++;
	} else if (status & MCI_STATUS_VAL) {
		s->st.left_for_mc++;	/* uncorrected and signalled: the #MC handler's */
	}
	if (e->amd && mce_thresh_check(&s->thr, e->be, e->smca, b, &ev.misc)) {
		if (!n)
			ev = (struct mce_poll_event){ .tsc = e->tsc, .from_cmci = from_cmci,
						      .bank = (u16)b, .misc = ev.misc };
		ev.kind = MCE_POLL_THRESHOLD;
		ev.rule = NULL;
		queue_push(s, &ev);
		n++;
	}
	return n;
}

void mce_poll_ownership(const struct mce_poll_share *in, u64 *owned, u64 *unknown)
{
	u64 all = in->nbanks >= 64 ? ~0ULL : BIT(in->nbanks) - 1;

	switch (in->share) {
	case MCE_SHARE_CMCI:
		*owned = in->cmci_mine & all;
		*unknown = in->cmci_none & all & ~*owned;
		break;
	case MCE_SHARE_IPID:
		*owned = all & ~in->ipid_below;
		*unknown = 0;
		break;
	default:
		*owned = 0;
		*unknown = all;
		break;
	}
}

unsigned int mce_poll_once(struct mce_poll_state *s, const struct mce_poll_env *e,
			   const struct mce_poll_lock *lk)
{
	unsigned int n;

	s->st.polls++;
	n = mce_poll_scan(s, e, s->owned, false);
	if (!s->unknown)
		return n;
	if (!lk->take(lk->ctx)) {
		s->st.lock_skips++;
		return n;
	}
	n += mce_poll_scan(s, e, s->unknown, false);
	lk->drop(lk->ctx);
	return n;
}

unsigned int mce_poll_scan(struct mce_poll_state *s, const struct mce_poll_env *e, u64 banks,
			   bool from_cmci)
{
	unsigned int n = 0, nb = MIN(e->nbanks, (unsigned int)MCE_POLL_BANKS);

	for (unsigned int b = 0; b < nb; b++)
		if (banks & BIT(b))
			n += scan_bank(s, e, b, from_cmci);
	return n;
}

void mce_cmci_interrupt(struct mce_poll_state *s, const struct mce_poll_env *e,
			const struct mce_apic_ops *a)
{
	s->st.cmcis++;
	s->st.polls++;
	mce_poll_scan(s, e, s->cmci.owned, true);
	a->eoi(a->ctx);
}

unsigned int mce_poll_next_interval(unsigned int iv_ms, bool logged, unsigned int max_ms)
{
	if (!iv_ms)
		iv_ms = max_ms;
	if (logged)
		return MAX(iv_ms / 2, (unsigned int)MCE_POLL_MIN_MS);
	return iv_ms > max_ms / 2 ? max_ms : iv_ms * 2;
}

bool mce_poll_due(const struct mce_poll_state *s, u64 now_ms)
{
	return s->started && now_ms >= s->next_ms;
}

void mce_poll_rearm(struct mce_poll_state *s, u64 now_ms, bool logged)
{
	unsigned int iv = mce_poll_next_interval(s->iv_ms, logged, s->max_ms);

	if (s->cmci.storming) {
		s->next_ms = now_ms + MCE_POLL_STORM_MS;
		return;
	}
	s->iv_ms = iv;
	s->next_ms = now_ms + iv;
}
