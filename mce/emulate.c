// SPDX-License-Identifier: GPL-2.0-only
/*
 * emulate.c - inject=emulate: a #PF on an armed (not-present) page, taken by a machine-check-
 * safe load, becomes the #MC a memory controller would raise for poison in that line: an SRAR
 * data load on bank 1, written into the CPU's own emulation register file (mce/core.h) and
 * handled by the local #MC path. Every CPU has its own file, so several CPUs can take
 * emulated poison at the same moment.
 *
 * The armed pages are one table for all CPUs (poison is in memory, not in a CPU). Each slot
 * is one aligned u64, read and written only with atomic operations: arming claims a free slot
 * with a compare-and-swap from 0, disarming swaps the page back to 0, and a #PF path loads
 * each slot once. A reader therefore sees every slot either before or after a concurrent arm
 * or disarm, never half of one, and needs no lock (none may be taken here: the #PF can come
 * from the middle of anything). Arm a page before making it not present and disarm it after
 * mapping it again, so that a #PF on it always finds it armed.
 */
#include "kernel/arch/traps.h"
#include "kernel/include/x86.h"
#include "mce/core.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/msr.h"

#define EMU_MAX		64
#define EMU_PAGE(a)	((a) & ~0xfffULL)

static u64 emu_pages[EMU_MAX];
static trap_handler_t prev_pf;

bool mce_emulate_arm(u64 page)
{
	for (int i = 0; i < EMU_MAX; i++) {
		u64 free = 0;

		if (__atomic_compare_exchange_n(&emu_pages[i], &free, EMU_PAGE(page), false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

void mce_emulate_disarm(u64 page)
{
	for (int i = 0; i < EMU_MAX; i++) {
		u64 armed = EMU_PAGE(page);

		__atomic_compare_exchange_n(&emu_pages[i], &armed, 0, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_RELAXED);
	}
}

static bool emu_armed(u64 addr)
{
	for (int i = 0; i < EMU_MAX; i++) {
		u64 p = __atomic_load_n(&emu_pages[i], __ATOMIC_ACQUIRE);

		if (p && p == EMU_PAGE(addr))
			return true;
	}
	return false;
}

/* What a memory controller would report for poison in the line at @addr, on bank 1. */
static void emu_fill(struct mce_sim *s, u64 addr)
{
	const struct mce_caps *caps = mce_caps();

	mce_sim_reset(s);
	mce_sim_set(s, MSR_IA32_MCG_CAP, (caps->mcg_cap & ~MCG_BANKCNT_MASK) | 2);
	mce_sim_set(s, MSR_IA32_MCG_STATUS, MCG_STATUS_RIPV | MCG_STATUS_EIPV | MCG_STATUS_MCIP);
	mce_sim_set(s, mce_bank_msr(1, MCE_REG_STATUS),
		    MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_MISCV |
		    MCI_STATUS_ADDRV | MCI_STATUS_S | MCI_STATUS_AR | MCACOD_DATA_LOAD |
		    (caps->amd ? MCI_STATUS_POISON : 0));
	mce_sim_set(s, mce_bank_msr(1, MCE_REG_ADDR),
		    caps->amd ? (addr & ~0x3fULL) | (6ULL << 56) : addr & ~0x3fULL);
	mce_sim_set(s, mce_bank_msr(1, MCE_REG_MISC), (MCI_MISC_MODE_PHYS << 6) | 6);
}

/*
 * Only loads consume poison: a #PF on an armed page is turned into a #MC when the faulting
 * instruction is a machine-check-safe load (its exception-table entry says so). Any other
 * access (a store, code without an entry), or a CPU without machine-check state, takes the
 * ordinary #PF path.
 */
static bool mce_emulated_pf(struct pt_regs *regs)
{
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	struct mce_cpu *mc = mce_cpu_this();
	u64 cr2 = read_cr2();

	if (!mc || !emu_armed(cr2) || !e || !ex_type_mce_safe(ex_type(e)))
		return prev_pf && prev_pf(regs);
	emu_fill(&mc->emu, cr2);
	return mce_handle(regs, MCE_KIND_EMULATED, &mc->emu);
}

void mce_emulate_install(void)
{
	prev_pf = trap_set_handler(X86_TRAP_PF, mce_emulated_pf);
}
