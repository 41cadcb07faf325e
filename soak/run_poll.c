// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_poll.c - corrected errors during the soak (run_int.h): every soaking CPU polls its
 * machine-check banks (mce/poll.h) at least every soak_poll= milliseconds, between its
 * pieces, once more when its passes end and again when every CPU's have (run.c), and turns
 * each finding into an entry of its own ledger: corrected errors and AMD threshold overflows
 * as corrected, AMD deferred errors and UCNA (uncorrected, not consumed: no #MC) as
 * deferred; an SMCA bank's IPID and SYND and the CPU's AMD node go with it (the DIMM the bank
 * names).
 */
#include "mce/mce.h"
#include "mce/poll.h"
#include "soak/run_int.h"

#define POLL_BATCH	8

static enum soak_ev_kind ledger_kind(u8 kind)
{
	if (kind == MCE_POLL_DEFERRED || kind == MCE_POLL_UCNA)
		return SOAK_EV_DEFERRED;
	return SOAK_EV_CORRECTED;
}

void soak_poll_now(struct soak_cpu *sc)
{
	const struct mce_caps *caps = mce_caps();
	struct mce_poll_event ev[POLL_BATCH];
	unsigned int n;
	u16 cpu = (u16)soak.cpu_of[sc->idx];

	sc->next_poll_us = smp_now_us() + (u64)soak.opts.poll_ms * 1000;
	mce_poll_cpu();
	while ((n = mce_poll_take(ev, POLL_BATCH))) {
		for (unsigned int i = 0; i < n; i++) {
			struct soak_mca m = { .bank = ev[i].bank, .status = ev[i].status,
					      .addr = ev[i].addr, .misc = ev[i].misc,
					      .amd = caps->amd || caps->hygon, .smca = caps->smca,
					      .hygon = caps->hygon,
					      .ser_p = caps->ser_p, .ipid = ev[i].ipid,
					      .synd = ev[i].synd,
					      .cpu_node = mce_cpu_amd_node(cpu) };

			soak_ledger_mca(&sc->ledger, soak_elapsed_ns(), cpu,
					ledger_kind(ev[i].kind), &m);
		}
	}
}

void soak_poll_due(struct soak_cpu *sc)
{
	if (smp_now_us() >= sc->next_poll_us)
		soak_poll_now(sc);
}
