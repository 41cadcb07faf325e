/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpufeature.h - the CPUID feature bits the kernel asks about, each named once by where the
 * CPU reports it: (leaf, subleaf, register, bit), as kvm-unit-tests names them
 * (X86_FEATURE_ERMS is leaf 7, subleaf 0, EBX bit 9). Values from Intel's SDM vol. 2A
 * "CPUID" and AMD's APM vol. 3 appendix E; tests/host/test_cpufeat.c checks every entry
 * against its own list read from the manuals. The leaves that are not flags (vendor, the
 * signature, MAXPHYADDR) are named here too. Reading and caching is kernel/arch/cpuid.c's;
 * ask with cpu_has(X86_FEATURE_...).
 */
#ifndef CK_CPUFEATURE_H
#define CK_CPUFEATURE_H

#include "kernel/include/types.h"

enum cpuid_reg { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };

/* Leaves by what they hold. */
#define CPUID_LEAF_VENDOR		0x00000000	/* EAX: highest basic leaf */
#define CPUID_LEAF_SIGNATURE		0x00000001	/* EAX: family/model/stepping */
#define CPUID_LEAF_CACHE		0x00000004	/* Intel deterministic cache parameters */
#define CPUID_LEAF_POWER		0x00000006
#define CPUID_LEAF_EXT_FEATURES		0x00000007
#define CPUID_LEAF_EXT_TOPOLOGY		0x0000000b	/* x2APIC ids; EBX 0 when absent */
#define CPUID_LEAF_V2_EXT_TOPOLOGY	0x0000001f	/* 0Bh with more levels (module, die) */
#define CPUID_LEAF_XSTATE		0x0000000d	/* subleaf 0 EAX: XCR0 bits supported */
#define CPUID_LEAF_TSC			0x00000015	/* TSC/crystal ratio */
#define CPUID_LEAF_FREQ			0x00000016	/* base MHz */
#define CPUID_LEAF_EXT_MAX		0x80000000	/* EAX: highest extended leaf */
#define CPUID_LEAF_EXT_SIGNATURE	0x80000001
#define CPUID_LEAF_BRAND		0x80000002	/* and the two after it */
#define CPUID_LEAF_L1_CACHE_AMD		0x80000005
#define CPUID_LEAF_L2_CACHE_AMD		0x80000006
#define CPUID_LEAF_APM			0x80000007	/* advanced power management, RAS */
#define CPUID_LEAF_ADDR_SIZES		0x80000008	/* EAX[7:0] MAXPHYADDR, [15:8] linear */
#define CPUID_LEAF_CACHE_AMD		0x8000001d	/* AMD deterministic (with TOPOEXT) */
#define CPUID_LEAF_TOPOLOGY_AMD		0x8000001e	/* AMD (with TOPOEXT): ECX[7:0] NodeId */
#define CPUID_AMD_NODE_ID_MASK		0xffU

/* MAXPHYADDR when leaf 0x80000008 is absent (the SDM's value for such CPUs, and Linux's). */
#define CPUID_DEFAULT_PHYS_BITS		36

/*
 * Each feature as F(name, leaf, subleaf, register, bit). The register is one of EAX..EDX.
 * X86_FEATURE_<name> is the feature's index for cpu_has(); x86_feature(X86_FEATURE_<name>)
 * its location.
 */
#define X86_FEATURE_LIST(F)						\
	F(MCE,			0x00000001, 0, EDX,  7)			\
	F(APIC,			0x00000001, 0, EDX,  9)			\
	F(MTRR,			0x00000001, 0, EDX, 12)			\
	F(MCA,			0x00000001, 0, EDX, 14)			\
	F(PAT,			0x00000001, 0, EDX, 16)			\
	F(XMM2,			0x00000001, 0, EDX, 26)			\
	F(PCLMULQDQ,		0x00000001, 0, ECX,  1)			\
	F(FMA,			0x00000001, 0, ECX, 12)			\
	F(XMM4_2,		0x00000001, 0, ECX, 20)			\
	F(X2APIC,		0x00000001, 0, ECX, 21)			\
	F(POPCNT,		0x00000001, 0, ECX, 23)			\
	F(AES,			0x00000001, 0, ECX, 25)			\
	F(XSAVE,		0x00000001, 0, ECX, 26)			\
	F(OSXSAVE,		0x00000001, 0, ECX, 27)			\
	F(AVX,			0x00000001, 0, ECX, 28)			\
	F(HYPERVISOR,		0x00000001, 0, ECX, 31)			\
	F(APERFMPERF,		0x00000006, 0, ECX,  0)			\
	F(BMI1,			0x00000007, 0, EBX,  3)			\
	F(AVX2,			0x00000007, 0, EBX,  5)			\
	F(BMI2,			0x00000007, 0, EBX,  8)			\
	F(ERMS,			0x00000007, 0, EBX,  9)			\
	F(AVX512F,		0x00000007, 0, EBX, 16)			\
	F(CLFLUSHOPT,		0x00000007, 0, EBX, 23)			\
	F(SHA_NI,		0x00000007, 0, EBX, 29)			\
	F(AVX512BW,		0x00000007, 0, EBX, 30)			\
	F(FSRM,			0x00000007, 0, EDX,  4)			\
	F(FZRM,			0x00000007, 1, EAX, 10)			\
	F(FSRS,			0x00000007, 1, EAX, 11)			\
	F(INTEL_PPIN,		0x00000007, 1, EBX,  0)			\
	F(NX,			0x80000001, 0, EDX, 20)			\
	F(GBPAGES,		0x80000001, 0, EDX, 26)			\
	F(LM,			0x80000001, 0, EDX, 29)			\
	F(ABM,			0x80000001, 0, ECX,  5)			\
	F(TOPOEXT,		0x80000001, 0, ECX, 22)			\
	F(MCA_OVERFLOW_RECOV,	0x80000007, 0, EBX,  0)			\
	F(SUCCOR,		0x80000007, 0, EBX,  1)			\
	F(SMCA,			0x80000007, 0, EBX,  3)			\
	F(INVTSC,		0x80000007, 0, EDX,  8)			\
	F(CLZERO,		0x80000008, 0, EBX,  0)			\
	F(AMD_PPIN,		0x80000008, 0, EBX, 23)

enum x86_feature_id {
#define CK_FEATURE_ENUM(n, leaf, sub, reg, bit)	X86_FEATURE_##n,
	X86_FEATURE_LIST(CK_FEATURE_ENUM)
#undef CK_FEATURE_ENUM
	X86_FEATURE_COUNT
};

struct x86_cpu_feature {
	u32 leaf;
	u8 subleaf;
	u8 reg;			/* enum cpuid_reg */
	u8 bit;
	const char *name;
};

/* Where feature @id is reported; the one table, built from X86_FEATURE_LIST. */
static inline const struct x86_cpu_feature *x86_feature(enum x86_feature_id id)
{
#define CK_FEATURE_DESC(n, l, s, r, b)	{ l, s, CPUID_##r, b, #n },
	static const struct x86_cpu_feature table[X86_FEATURE_COUNT] = {
		X86_FEATURE_LIST(CK_FEATURE_DESC)
	};
#undef CK_FEATURE_DESC

	return &table[id];
}

#endif
