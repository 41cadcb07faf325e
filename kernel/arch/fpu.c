// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpu.c - turn on the vector state copy/ needs: CR0.MP/!EM and CR4.OSFXSR/OSXMMEXCPT for
 * SSE, CR4.OSXSAVE and XCR0 bits for AVX (x87|SSE|YMM) and AVX-512 (opmask, ZMM_Hi256,
 * Hi16_ZMM), each only when CPUID says the CPU supports it.
 */
#include "kernel/arch/cpuid.h"
#include "kernel/arch/fpu.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"

static struct fpu_state state;

const struct fpu_state *fpu_state(void)
{
	return &state;
}

static void xsetbv(u32 index, u64 val)
{
	__asm__ volatile("xsetbv" : : "c"(index), "a"((u32)val), "d"((u32)(val >> 32)));
}

/* The XCR0 bits to enable: x87, SSE and YMM, and AVX-512's three when CPU and XSAVE have them. */
static u64 xcr0_wanted(void)
{
	struct cpuid_regs xs = { 0 };
	u64 want = XCR0_X87 | XCR0_SSE | XCR0_YMM;

	if (cpuid_boot()->max_leaf >= CPUID_LEAF_XSTATE)
		xs = cpuid_count(CPUID_LEAF_XSTATE, 0);	/* EAX: XCR0 bits the CPU supports */
	if (cpu_has(X86_FEATURE_AVX512F) && (xs.eax & XCR0_AVX512) == XCR0_AVX512)
		want |= XCR0_AVX512;
	return want & (xs.eax | XCR0_X87);
}

/* Each write that can stop a CPU is named first, so a hang points at its step. */
void fpu_init(void)
{
	u64 want;

	printk("cpu: CR0.MP on, CR0.EM off (x87 and SSE)\n");
	write_cr0((read_cr0() & ~CR0_EM) | CR0_MP);
	printk("cpu: CR4.OSFXSR, CR4.OSXMMEXCPT on (SSE)\n");
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	state.sse = true;
	if (!cpu_has(X86_FEATURE_XSAVE) || !cpu_has(X86_FEATURE_AVX)) {
		printk("fpu: SSE on; no XSAVE/AVX on this CPU\n");
		return;
	}
	want = xcr0_wanted();
	printk("cpu: CR4.OSXSAVE on (XSAVE)\n");
	write_cr4(read_cr4() | CR4_OSXSAVE);
	printk("cpu: XCR0 = 0x%llx (XSAVE state components)\n", (unsigned long long)want);
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
