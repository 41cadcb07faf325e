// SPDX-License-Identifier: GPL-2.0-only
/*
 * emulate.c - inject=emulate: a #PF on an armed (not-present) page, taken by a machine-check-
 * safe load, becomes the #MC a memory controller would raise for poison in that line: an SRAR
 * data load on bank 1, written into the CPU's own emulation register file (mce/core.h) and
 * handled by the local #MC path. Every CPU has its own file, so several CPUs can take
 * emulated poison at the same moment.
 *
 * Two granularities. A page armed with mce_emulate_arm() is poisoned as a whole: any
 * machine-check-safe load from it consumes poison. A line poisoned with
 * mce_emulate_poison_line() poisons one 64-byte line and leaves the rest of its page
 * readable: the page stays not present, and a #PF there from a machine-check-safe load
 * outside the line maps the page, resumes the load with the trap flag set, and the #DB after
 * that one instruction (one iteration of a rep string instruction) makes the page not present
 * again. So the copy stops exactly at the line, as it would on poison. A rep movs counting up
 * may be told to stop up to @early bytes before the line, as fast strings may on hardware:
 * a fault in that window, while the line lies inside what the instruction has left to read,
 * is the #MC too (the window may reach into the page before, which is then armed as well).
 * The bank names the poisoned line either way.
 * Cost: for each load of the page outside the line (each 8-byte word of copy_mc_fragile,
 * each byte of rep movsb) a #PF, a #DB, two PTE writes and two invlpg; nothing for the pages
 * around it. A line-poisoned page must be read by one CPU at a time: while this CPU steps an
 * instruction the page is mapped, and another CPU could read the line through it.
 *
 * The armed pages are one table for all CPUs (poison is in memory, not in a CPU). Each slot
 * is one aligned u64 (the page, and for a line its index, flags and early window), read and
 * written only with atomic operations: arming claims a free slot with a compare-and-swap
 * from 0, disarming swaps the slot back to 0, and a #PF path loads each slot once. A reader
 * therefore sees every slot either before or after a concurrent arm or disarm, never half of
 * one, and needs no lock (none may be taken here: the #PF can come from the middle of
 * anything). Arm a page before making it not present and disarm it after mapping it again,
 * so that a #PF on it always finds it armed. The step state is per CPU.
 */
#include "kernel/arch/paging.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/traps.h"
#include "kernel/include/x86.h"
#include "mce/core.h"
#include "mce/mce.h"
#include "mce/mce_regs.h"
#include "mce/msr.h"

#define EMU_MAX		64
#define EMU_PAGE(a)	((a) & 0x000ffffffffff000ULL)
/* A slot: the page's address, and for line poison these fields in the bits it leaves free. */
#define EMU_F_LINE	BIT(0)		/* only one line of the page (below) is poisoned */
#define EMU_F_BEFORE	BIT(1)		/* no poison here: the early window of the next page's line */
#define EMU_LINE_SHIFT	6		/* bits 11:6: the poisoned line's index in its page */
#define EMU_EARLY_SHIFT	52		/* bits 58:52: rep movs may stop this many bytes early */
#define EMU_LINE_SIZE	64ULL

/* The instruction this CPU is single-stepping over a line-poisoned page. */
struct emu_step {
	u64 page[2];		/* pages mapped for it (two if it touched both), 0 when free */
	u64 steps;		/* instructions stepped on this CPU since boot */
};

static u64 emu_pages[EMU_MAX];
static DEFINE_PER_CPU(struct emu_step, emu_steps);
static trap_handler_t prev_pf, prev_db;

static bool emu_claim(u64 slot)
{
	for (int i = 0; i < EMU_MAX; i++) {
		u64 free = 0;

		if (__atomic_compare_exchange_n(&emu_pages[i], &free, slot, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

/* Free every slot holding exactly @slot. */
static void emu_release(u64 slot)
{
	for (int i = 0; i < EMU_MAX; i++) {
		u64 armed = slot;

		__atomic_compare_exchange_n(&emu_pages[i], &armed, 0, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_RELAXED);
	}
}

bool mce_emulate_arm(u64 page)
{
	return emu_claim(EMU_PAGE(page));
}

void mce_emulate_disarm(u64 page)
{
	emu_release(EMU_PAGE(page));
}

/* The slot armed for @addr's page, or 0. */
static u64 emu_find(u64 addr)
{
	for (int i = 0; i < EMU_MAX; i++) {
		u64 p = __atomic_load_n(&emu_pages[i], __ATOMIC_ACQUIRE);

		if (p && EMU_PAGE(p) == EMU_PAGE(addr))
			return p;
	}
	return 0;
}

/* The poisoned line a line slot stands for (in the next page for an EMU_F_BEFORE slot). */
static u64 emu_line(u64 slot)
{
	return EMU_PAGE(slot) + (slot & EMU_F_BEFORE ? SZ_4K : 0) +
	       ((slot >> EMU_LINE_SHIFT) & 63) * EMU_LINE_SIZE;
}

static unsigned int emu_early(u64 slot)
{
	return (slot >> EMU_EARLY_SHIFT) & 0x7f;
}

bool mce_emulate_poison_line(u64 addr, unsigned int early)
{
	u64 page = EMU_PAGE(addr), idx = (addr & 0xfff) / EMU_LINE_SIZE;
	u64 slot = page | idx << EMU_LINE_SHIFT | EMU_F_LINE | (u64)early << EMU_EARLY_SHIFT;
	bool before = early > idx * EMU_LINE_SIZE;

	if (early > MCE_EMULATE_EARLY_MAX || emu_find(page) ||
	    (before && emu_find(page - SZ_4K)))
		return false;
	if (!emu_claim(slot))
		return false;
	if (before && !emu_claim((slot - SZ_4K) | EMU_F_BEFORE)) {
		emu_release(slot);
		return false;
	}
	if (!pg_set_attr(page - (before ? SZ_4K : 0), page + SZ_4K, PG_CACHE(PG_CACHE_WB)))
		return true;
	mce_emulate_heal_line(addr);
	return false;
}

void mce_emulate_heal_line(u64 addr)
{
	u64 line = addr & ~(EMU_LINE_SIZE - 1);

	for (int i = 0; i < EMU_MAX; i++) {
		u64 p = __atomic_load_n(&emu_pages[i], __ATOMIC_ACQUIRE);

		if (!(p & EMU_F_LINE) || emu_line(p) != line)
			continue;
		pg_set_attr(EMU_PAGE(p), EMU_PAGE(p) + SZ_4K, PG_RAM);
		emu_release(p);
	}
}

u64 mce_emulate_steps(void)
{
	return this_cpu_ptr(&emu_steps)->steps;
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
 * The operand size of the instruction at RIP when it is a rep movs that counts up (DF clear),
 * else 0: the only instruction that may stop early. Prefixes: rep (f3), operand size (66),
 * REX (40-4f, W = 8 bytes); then movsb (a4) or movsw/movsd/movsq (a5).
 */
static unsigned int rep_movs_size(const struct pt_regs *regs)
{
	const u8 *ip = (const u8 *)(uintptr_t)regs->rip;
	unsigned int size = 4, i;
	bool rep = false;

	if (regs->rflags & RFLAGS_DF)
		return 0;
	for (i = 0; i < 4; i++) {
		if (ip[i] == 0xf3)
			rep = true;
		else if (ip[i] == 0x66)
			size = 2;
		else if ((ip[i] & 0xf0) == 0x40)
			size = ip[i] & 8 ? 8 : size;
		else
			break;
	}
	if (!rep || (ip[i] != 0xa4 && ip[i] != 0xa5))
		return 0;
	return ip[i] == 0xa4 ? 1 : size;
}

/*
 * Whether a load of @addr consumes the poison of @line: inside the line, or, for a rep movs
 * whose remaining source still reaches the line, inside the @early bytes before it.
 */
static bool emu_consumes(const struct pt_regs *regs, u64 addr, u64 line, unsigned int early)
{
	unsigned int size;

	if (addr >= line && addr < line + EMU_LINE_SIZE)
		return true;
	if (addr >= line || line - addr > early || !(size = rep_movs_size(regs)))
		return false;
	return line < regs->rsi + regs->rcx * size;
}

/* Map @page for the one instruction at RIP, which then traps to mce_emulated_db. */
static bool emu_step_begin(struct pt_regs *regs, u64 page)
{
	struct emu_step *st = this_cpu_ptr(&emu_steps);
	unsigned int i = st->page[0] ? 1 : 0;

	/* A second page only within the same step; never under someone else's trap flag. */
	if (st->page[i] || (!i && (regs->rflags & RFLAGS_TF)) || !pg_set_present_4k(page, true))
		return prev_pf && prev_pf(regs);
	st->page[i] = page;
	if (!i)
		st->steps++;
	regs->rflags |= RFLAGS_TF;
	return true;
}

/* The single-step trap after a stepped instruction: its pages go back to not present. */
static bool mce_emulated_db(struct pt_regs *regs)
{
	struct emu_step *st = this_cpu_ptr(&emu_steps);

	if (!st->page[0] || !(read_dr6() & DR6_BS))
		return prev_db && prev_db(regs);
	for (int i = 0; i < 2; i++) {
		if (st->page[i])
			pg_set_present_4k(st->page[i], false);
		st->page[i] = 0;
	}
	regs->rflags &= ~RFLAGS_TF;
	write_dr6(DR6_RESET);
	return true;
}

/*
 * Only loads consume poison: a #PF on an armed page is turned into a #MC when the faulting
 * instruction is a machine-check-safe load (its exception-table entry says so) and, for line
 * poison, the load consumes the line (else it is stepped). Any other access (a store, code
 * without an entry), or a CPU without machine-check state, takes the ordinary #PF path.
 */
static bool mce_emulated_pf(struct pt_regs *regs)
{
	const struct exception_table_entry *e = ex_lookup(regs->rip);
	struct mce_cpu *mc = mce_cpu_this();
	u64 cr2 = read_cr2(), slot = emu_find(cr2);

	if (!mc || !slot || !e || !ex_type_mce_safe(ex_type(e)))
		return prev_pf && prev_pf(regs);
	if (slot & EMU_F_LINE) {
		u64 line = emu_line(slot);

		if (!emu_consumes(regs, cr2, line, emu_early(slot)))
			return emu_step_begin(regs, EMU_PAGE(cr2));
		cr2 = line;
	}
	emu_fill(&mc->emu, cr2);
	return mce_handle(regs, MCE_KIND_EMULATED, &mc->emu);
}

void mce_emulate_install(void)
{
	prev_pf = trap_set_handler(X86_TRAP_PF, mce_emulated_pf);
	prev_db = trap_set_handler(X86_TRAP_DB, mce_emulated_db);
}
