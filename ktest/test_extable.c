// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_extable.c - expected faults through the exception table: #UD, #GP from a bad MSR
 * and from a non-canonical address, #PF from a not-present page, #DE; the table is sorted
 * and every entry can be found; and
 * the machine-check rule: only *_MCE_SAFE entries apply to vector 18.
 */
#include "kernel/arch/bootmem.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/traps.h"
#include "kernel/include/extable.h"
#include "kernel/include/probe.h"
#include "kernel/include/x86.h"
#include "kernel/platform/cpu.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

extern struct exception_table_entry __start_ck_extable[], __stop_ck_extable[];

/* Two instructions with entries of each kind, for the synthetic-frame test below. */
__asm__(".pushsection .text\n"
	".globl ck_probe_plain, ck_probe_mcesafe, ck_probe_fixup\n"
	"ck_probe_plain: nop\n"
	"ck_probe_mcesafe: nop\n"
	"ck_probe_fixup: ret\n"
	_ASM_EXTABLE_TYPE(ck_probe_plain, ck_probe_fixup, EX_TYPE_DEFAULT)
	_ASM_EXTABLE_TYPE(ck_probe_mcesafe, ck_probe_fixup, EX_TYPE_DEFAULT_MCE_SAFE)
	".popsection\n");
extern char ck_probe_plain[], ck_probe_mcesafe[], ck_probe_fixup[];

static void table_sorted_and_searchable(struct ck_test *t)
{
	unsigned long n = extable_size(), lost = 0;

	report(t, n >= 4, "the image has %lu exception-table entries", n);
	report(t, ex_validate(__start_ck_extable, __stop_ck_extable) == -1,
	       "table sorted, types valid");
	for (unsigned long i = 0; i < n; i++)
		if (ex_search(__start_ck_extable, __stop_ck_extable,
			      ex_insn_addr(&__start_ck_extable[i])) != &__start_ck_extable[i])
			lost++;
	report(t, lost == 0, "%lu of %lu entries not found by binary search", lost, n);
	ck_diag("%lu entries", n);
}

static void ud_resumes(struct ck_test *t)
{
	u64 before = ex_last.count, trap = 0;

	__asm__ volatile("1: ud2\n"
			 "2:\n"
			 _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+S"(trap));
	report(t, trap == X86_TRAP_UD, "trap number in rsi: %llu", (unsigned long long)trap);
	report(t, ex_last.count == before + 1, "one fixup recorded");
	report(t, ex_last.vector == X86_TRAP_UD, "vector %llu", (unsigned long long)ex_last.vector);
}

static void gp_from_bad_msr(struct ck_test *t)
{
	u64 v, before = ex_last.count;
	int r = rdmsr_safe(0xdeadbeef, &v);

	if (r == 0 && cpu()->hypervisor) {
		/* QEMU's TCG returns 0 for MSRs it does not know instead of raising #GP. */
		ck_skip(t, "the hypervisor read MSR 0xdeadbeef as 0x%llx instead of faulting",
			(unsigned long long)v);
		return;
	}
	report(t, r == -1, "rdmsr of MSR 0xdeadbeef must fault");
	report(t, ex_last.count == before + 1 && ex_last.vector == X86_TRAP_GP,
	       "#GP recorded (vector %llu)", (unsigned long long)ex_last.vector);
	report(t, rdmsr_safe(MSR_IA32_APIC_BASE, &v) == 0, "a real MSR still reads");
}

static void gp_from_noncanonical_address(struct ck_test *t)
{
	u64 v, before = ex_last.count, trap = probe_read64(0x8000000000000000ULL, &v);

	report(t, trap == X86_TRAP_GP, "a non-canonical load raises #GP (trap %llu)",
	       (unsigned long long)trap);
	report(t, ex_last.count == before + 1 && ex_last.error_code == 0, "error code %llu",
	       (unsigned long long)ex_last.error_code);
}

static void pf_from_not_present_page(struct ck_test *t)
{
	u64 page = bootmem_alloc(SZ_4K, SZ_4K), v = 0, trap;

	if (!report(t, page != 0, "allocate a page"))
		return;
	*(volatile u64 *)(uintptr_t)page = 0x1234567890abcdefULL;
	report(t, pg_set_attr(page, page + SZ_4K, PG_CACHE(PG_CACHE_WB)) == 0, "unmap");
	trap = probe_read64(page + 8, &v);
	report(t, trap == X86_TRAP_PF, "read of a not-present page: trap %llu",
	       (unsigned long long)trap);
	report(t, ex_last.cr2 == page + 8, "CR2 0x%llx, want 0x%llx",
	       (unsigned long long)ex_last.cr2, (unsigned long long)page + 8);
	report(t, !(ex_last.error_code & 1), "error code 0x%llx says not-present",
	       (unsigned long long)ex_last.error_code);
	report(t, pg_set_attr(page, page + SZ_4K, PG_RAM) == 0, "map again");
	trap = probe_read64(page, &v);
	report(t, trap == 0 && v == 0x1234567890abcdefULL, "mapped again, data intact");
}

static void de_resumes(struct ck_test *t)
{
	u64 a = 1, d = 0, divisor = 0, trap = 0;

	__asm__ volatile("1: divq %[div]\n"
			 "2:\n"
			 _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+a"(a), "+d"(d), "+S"(trap)
			 : [div] "r"(divisor));
	report(t, trap == X86_TRAP_DE, "divide by zero: trap %llu", (unsigned long long)trap);
}

static void mce_needs_mce_safe_entry(struct ck_test *t)
{
	struct pt_regs r = { .vector = X86_TRAP_MC, .rip = (u64)(uintptr_t)ck_probe_plain };

	report(t, !ex_fixup(&r), "#MC at a DEFAULT entry is not fixed up");
	report(t, r.rip == (u64)(uintptr_t)ck_probe_plain, "rip untouched");
	r.rip = (u64)(uintptr_t)ck_probe_mcesafe;
	report(t, ex_fixup(&r) && r.rip == (u64)(uintptr_t)ck_probe_fixup,
	       "#MC at a DEFAULT_MCE_SAFE entry resumes at its fixup");
	r = (struct pt_regs){ .vector = X86_TRAP_PF, .rip = (u64)(uintptr_t)ck_probe_plain };
	report(t, ex_fixup(&r) && r.rip == (u64)(uintptr_t)ck_probe_fixup,
	       "#PF at a DEFAULT entry resumes at its fixup");
	r = (struct pt_regs){ .vector = X86_TRAP_PF, .rip = (u64)(uintptr_t)ck_probe_fixup };
	report(t, !ex_fixup(&r), "no entry, no fixup");
}

CK_SUITE(extable, 20,
	 CK_CASE(table_sorted_and_searchable),
	 CK_CASE(ud_resumes),
	 CK_CASE(gp_from_bad_msr),
	 CK_CASE(gp_from_noncanonical_address),
	 CK_CASE(pf_from_not_present_page),
	 CK_CASE(de_resumes),
	 CK_CASE(mce_needs_mce_safe_entry));
