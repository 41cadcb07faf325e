// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpu.c - turn on the vector state copy/ needs: CR0.MP/!EM and CR4.OSFXSR/OSXMMEXCPT for
 * SSE, CR4.OSXSAVE and XCR0 bits for AVX (x87|SSE|YMM) and AVX-512 (opmask, ZMM_Hi256,
 * Hi16_ZMM), each only when CPUID says the CPU supports it.
 */
#include "kernel/arch/fpu.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"

#define CR0_MP		BIT(1)
#define CR0_EM		BIT(2)
#define CR4_OSFXSR	BIT(9)
#define CR4_OSXMMEXCPT	BIT(10)
#define CR4_OSXSAVE	BIT(18)
#define XCR0_X87	BIT(0)
#define XCR0_SSE	BIT(1)
#define XCR0_YMM	BIT(2)
#define XCR0_AVX512	(BIT(5) | BIT(6) | BIT(7))

static struct fpu_state state;

const struct fpu_state *fpu_state(void)
{
	return &state;
}

static void xsetbv(u32 index, u64 val)
{
	__asm__ volatile("xsetbv" : : "c"(index), "a"((u32)val), "d"((u32)(val >> 32)));
}

void fpu_init(void)
{
	struct cpuid_regs f1 = cpuid(1), f7 = { 0 }, xs = { 0 };
	u64 want;

	write_cr0((read_cr0() & ~CR0_EM) | CR0_MP);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	state.sse = true;
	if (!(f1.ecx & BIT(26)) || !(f1.ecx & BIT(28))) {	/* XSAVE, AVX */
		printk("fpu: SSE on; no XSAVE/AVX on this CPU\n");
		return;
	}
	if (cpuid(0).eax >= 0xd)
		xs = cpuid_count(0xd, 0);	/* EAX: XCR0 bits the CPU supports */
	if (cpuid(0).eax >= 7)
		f7 = cpuid_count(7, 0);
	write_cr4(read_cr4() | CR4_OSXSAVE);
	want = XCR0_X87 | XCR0_SSE | XCR0_YMM;
	if ((f7.ebx & BIT(16)) && (xs.eax & XCR0_AVX512) == XCR0_AVX512)
		want |= XCR0_AVX512;
	want &= xs.eax | XCR0_X87;
	xsetbv(0, want);
	state.xcr0 = want;
	state.avx = (want & (XCR0_SSE | XCR0_YMM)) == (XCR0_SSE | XCR0_YMM);
	state.avx512 = state.avx && (want & XCR0_AVX512) == XCR0_AVX512;
	printk("fpu: SSE on, AVX %s, AVX-512 %s (XCR0 0x%llx)\n", state.avx ? "on" : "off",
	       state.avx512 ? "on" : "off", (unsigned long long)want);
}

void fpu_init_ap(void)
{
	write_cr0((read_cr0() & ~CR0_EM) | CR0_MP);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	if (state.xcr0) {
		write_cr4(read_cr4() | CR4_OSXSAVE);
		xsetbv(0, state.xcr0);
	}
}
