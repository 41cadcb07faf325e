/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86.h - thin inline wrappers for the privileged and port instructions the kernel uses,
 * and the control-register and XCR0 bits it names (the MSRs are in msr-index.h).
 */
#ifndef CK_X86_H
#define CK_X86_H

#include "kernel/include/msr-index.h"
#include "kernel/include/types.h"

/* Control-register bits (SDM vol. 3, "Control Registers"). */
#define CR0_PE		BIT(0)
#define CR0_MP		BIT(1)
#define CR0_EM		BIT(2)
#define CR0_WP		BIT(16)
#define CR0_PG		BIT(31)
#define CR4_PAE		BIT(5)
#define CR4_MCE		BIT(6)
#define CR4_PGE		BIT(7)
#define CR4_OSFXSR	BIT(9)
#define CR4_OSXMMEXCPT	BIT(10)
#define CR4_OSXSAVE	BIT(18)

/* XCR0, the state components XSAVE manages (SDM vol. 1, "XSAVE-Supported Features"). */
#define XCR0_X87	BIT(0)
#define XCR0_SSE	BIT(1)
#define XCR0_YMM	BIT(2)
#define XCR0_OPMASK	BIT(5)
#define XCR0_ZMM_HI256	BIT(6)
#define XCR0_HI16_ZMM	BIT(7)
#define XCR0_AVX512	(XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

#define RFLAGS_TF	BIT(8)		/* trap flag: a #DB after each instruction (string iteration) */
#define RFLAGS_IF	BIT(9)
#define RFLAGS_DF	BIT(10)		/* direction flag: string instructions count down */

/* DR6 (SDM vol. 3, "Debug Status Register"): BS is a single-step trap; 0xffff0ff0 at reset. */
#define DR6_BS		BIT(14)
#define DR6_RESET	0xffff0ff0ULL

struct cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid_count(u32 leaf, u32 subleaf)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

static inline struct cpuid_regs cpuid(u32 leaf)
{
	return cpuid_count(leaf, 0);
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 val)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((u32)val), "d"((u32)(val >> 32)) : "memory");
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline u64 rdtsc_ordered(void)
{
	__asm__ volatile("lfence" ::: "memory");
	return rdtsc();
}

static inline void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outw(u16 port, u16 v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outl(u16 port, u32 v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u16 inw(u16 port)
{
	u16 v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

#define DEFINE_CR_ACCESS(n)						\
static inline u64 read_cr##n(void)					\
{									\
	u64 v;								\
	__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));		\
	return v;							\
}									\
static inline void write_cr##n(u64 v)					\
{									\
	__asm__ volatile("mov %0, %%cr" #n : : "r"(v) : "memory");	\
}
DEFINE_CR_ACCESS(0)
DEFINE_CR_ACCESS(2)
DEFINE_CR_ACCESS(3)
DEFINE_CR_ACCESS(4)

static inline u64 read_dr6(void)
{
	u64 v;

	__asm__ volatile("mov %%dr6, %0" : "=r"(v));
	return v;
}

static inline void write_dr6(u64 v)
{
	__asm__ volatile("mov %0, %%dr6" : : "r"(v));
}

static inline void invlpg(u64 addr)
{
	__asm__ volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

static inline void wbinvd(void)
{
	__asm__ volatile("wbinvd" ::: "memory");
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static inline void irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline u64 read_rflags(void)
{
	u64 f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	return f;
}

static inline __noreturn void halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

#include "kernel/include/extable.h"

/* rdmsr/wrmsr that return -1 instead of dying when the MSR does not exist (#GP). */
static inline int rdmsr_safe(u32 msr, u64 *val)
{
	u32 lo = 0, hi = 0;
	u64 trap = 0;

	__asm__ volatile("1: rdmsr\n"
			 "2:\n"
			 _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+a"(lo), "+d"(hi), "+S"(trap)
			 : "c"(msr));
	*val = ((u64)hi << 32) | lo;
	return trap ? -1 : 0;
}

static inline int wrmsr_safe(u32 msr, u64 val)
{
	u64 trap = 0;

	__asm__ volatile("1: wrmsr\n"
			 "2:\n"
			 _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+S"(trap)
			 : "c"(msr), "a"((u32)val), "d"((u32)(val >> 32))
			 : "memory");
	return trap ? -1 : 0;
}

#endif
