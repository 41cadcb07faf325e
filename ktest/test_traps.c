// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_traps.c - the kernel's own descriptors: GDT selectors and TSS loaded, all 32 IDT
 * gates present, and NMI and #MC really running on their IST stacks.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/desc.h"
#include "kernel/arch/traps.h"
#include "kernel/include/x86.h"
#include "kernel/platform/smp.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

struct idt_ptr {
	u16 limit;
	u64 base;
} __packed;

static bool on_ist(u64 frame, unsigned int ist)
{
	u64 top = ist_stack_top(ist);

	return frame < top && frame >= top - IST_STACK_SIZE;
}

static void selectors_are_ours(struct ck_test *t)
{
	u16 cs, ss, tr;

	__asm__ volatile("mov %%cs, %0; mov %%ss, %1; str %2" : "=r"(cs), "=r"(ss), "=r"(tr));
	report(t, cs == KERNEL_CS, "CS 0x%x", cs);
	report(t, ss == KERNEL_DS, "SS 0x%x", ss);
	report(t, tr == KERNEL_TSS, "TR 0x%x", tr);
}

static void idt_gates_present(struct ck_test *t)
{
	struct idt_ptr p;
	const u8 *g;
	unsigned int bad = 0;

	__asm__ volatile("sidt %0" : "=m"(p));
	report(t, p.limit == 256 * 16 - 1, "IDT limit 0x%x", p.limit);
	g = (const u8 *)(uintptr_t)p.base;
	for (unsigned int v = 0; v < 32; v++) {
		const u8 *e = g + 16 * v;
		unsigned int want_ist = v == 2 ? IST_NMI : v == 8 ? IST_DF : v == 18 ? IST_MC : 0;

		if (e[5] != 0x8e || (e[4] & 7) != want_ist)
			bad++;
	}
	report(t, bad == 0, "%u of 32 exception gates wrong (type or IST)", bad);
}

/*
 * A real NMI to this CPU through its APIC (int $2 only without one: a software int $2 does
 * not block NMIs, so an outside NMI arriving during it would reuse the same IST stack).
 */
static void nmi_runs_on_ist(struct ck_test *t)
{
	const struct nmi_record *r = nmi_record_of(smp_processor_id());
	u64 before = __atomic_load_n(&r->count, __ATOMIC_ACQUIRE), end = smp_now_us() + 2000000;

	if (apic_mode() != APIC_MODE_OFF)
		apic_send_nmi(apic_id());
	else
		__asm__ volatile("int $2" ::: "memory");
	while (__atomic_load_n(&r->count, __ATOMIC_ACQUIRE) == before && smp_now_us() < end)
		cpu_relax();
	/* More than one when an NMI from outside came too (tests/qemu: --nmi). */
	report(t, r->count > before, "NMI counted and survived");
	report(t, on_ist(r->frame, IST_NMI), "frame at 0x%llx, on the NMI IST stack",
	       (unsigned long long)r->frame);
}

static void mc_vector_runs_on_ist(struct ck_test *t)
{
	/* Software int $18 reaches the #MC gate (the MCE code sees MCIP clear and resumes). */
	trap_last_mc_frame = 0;
	__asm__ volatile("int $18\n"
			 "1:\n"
			 _ASM_EXTABLE_TYPE(1b, 1b, EX_TYPE_DEFAULT_MCE_SAFE) ::: "memory");
	report(t, trap_last_mc_frame != 0, "vector 18 was taken and returned");
	report(t, on_ist(trap_last_mc_frame, IST_MC), "frame at 0x%llx, on the #MC IST stack",
	       (unsigned long long)trap_last_mc_frame);
}

static void bp_resumes(struct ck_test *t)
{
	u64 trap = 0;

	/* #BP is a trap: the saved RIP is the next instruction, so the entry names it. */
	__asm__ volatile("int3\n"
			 "1:\n"
			 _ASM_EXTABLE_TYPE(1b, 1b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+S"(trap));
	report(t, trap == X86_TRAP_BP, "int3: trap %llu", (unsigned long long)trap);
	report(t, !on_ist(ex_last.frame, IST_NMI) && !on_ist(ex_last.frame, IST_MC) &&
	       !on_ist(ex_last.frame, IST_DF), "#BP ran on the kernel stack");
}

CK_SUITE(traps, 30,
	 CK_CASE(selectors_are_ours),
	 CK_CASE(idt_gates_present),
	 CK_CASE(nmi_runs_on_ist),
	 CK_CASE(mc_vector_runs_on_ist),
	 CK_CASE(bp_resumes));
