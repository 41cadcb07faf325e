// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_state.c - the soak engine's state (run_int.h): the facts every soaking CPU reads, each
 * CPU's own counters and ledger, and the soak's clock. Below the engine's other files, which
 * all reach it, so their calls point one way.
 */
#include "soak/run_int.h"

struct soak_shared soak;
DEFINE_PER_CPU(struct soak_cpu, soak_cpu);

u64 soak_elapsed_ns(void)
{
	u64 now = smp_now_us();

	return now > soak.t0_us ? (now - soak.t0_us) * 1000 : 0;
}
