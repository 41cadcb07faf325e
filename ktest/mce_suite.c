// SPDX-License-Identifier: GPL-2.0-only
/*
 * mce_suite.c - state and helpers the mce suite's files share (mce_suite.h).
 */
#include "copy/ops.h"
#include "kernel/arch/bootmem.h"
#include "kernel/mm/page.h"
#include "ktest/mce_suite.h"
#include "mce/mce.h"

struct mce_verdict mce_suite_verdict;

bool on_poison_list(u64 pfn)
{
	for (unsigned int i = 0; i < poison_log.n; i++)
		if (poison_log.pfn[i] == pfn)
			return true;
	return false;
}

u64 mce_sim_page(unsigned int i)
{
	static u64 base;

	/* None left (0): page 0, which no soak plans (the boot allocator starts at 1 MiB). */
	if (!base)
		base = bootmem_alloc(MCE_SIM_PAGES * SZ_4K, SZ_4K);
	return base + (u64)(i % MCE_SIM_PAGES) * SZ_4K;
}

bool mce_cannot_recover(struct ck_test *t)
{
	if (mce_can_recover())
		return false;
	ck_skip(t, "this CPU cannot recover (%s): an emulated #MC would panic, as in Linux",
		!mce_caps()->enabled ? "no MCA" : mce_caps()->amd ? "AMD without SUCCOR" :
		"no SER_P");
	return true;
}

bool mce_copy_mc_unsafe(struct ck_test *t)
{
	if (copy_ops.choice.copy_mc != COPY_MC_MEMCPY)
		return false;
	ck_skip(t, "copy_mc is memcpy on this CPU (%s): not #MC-safe", copy_ops.choice.copy_mc_why);
	return true;
}
