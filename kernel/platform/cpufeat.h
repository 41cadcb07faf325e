/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpufeat.h - what the CPU is and which of the features this project depends on it has,
 * as CPUID (through kernel/arch/cpuid.h's cache) and the MSRs state them, plus the features
 * Linux derives by rule (REP_GOOD, and ERMS dropped when fast strings are off). The
 * derivation is plain C, tested on the host with descriptions of real CPUs.
 */
#ifndef CK_CPUFEAT_H
#define CK_CPUFEAT_H

#include "kernel/arch/cpuid.h"

struct cpu_ident {
	enum cpu_vendor vendor;
	char vendor_str[13];
	char brand[49];
	u32 signature;			/* CPUID 1 EAX */
	u32 family, model, stepping;	/* family and model with the extended fields folded in */
	bool ucode_valid;
	u32 ucode_rev;

	/* From CPUID, as the CPU reports them. */
	bool erms, fsrm, fzrm, fsrs, pdpe1gb, nx, mce, mca, smca, succor, avx2, avx512f;
	bool clflushopt, clzero, invtsc, hypervisor, osxsave, topoext, apic;
	bool mca_ovf_recov;		/* AMD CPUID 8000_0007 EBX[0]: McaOverflowRecov */

	/* IA32_MISC_ENABLE (Intel): readable, and its fast-strings bit. */
	bool misc_enable_valid, fast_strings;
	/* IA32_MCG_CAP, when MCA is present. */
	bool mcg_cap_valid;
	u64 mcg_cap;

	/* Derived by Linux's rules (cpufeat_apply_rules). */
	bool rep_good;
	bool erms_effective;		/* ERMS after the fast-strings rule */
	const char *rep_good_why;
};

/* Fill the derived fields from the raw ones. */
void cpufeat_apply_rules(struct cpu_ident *c);

enum tsc_cpuid_source { TSC_CPUID_NONE, TSC_CPUID_15H, TSC_CPUID_16H };

/*
 * The TSC frequency the CPU states: CPUID 15h gives the TSC/crystal ratio (EBX/EAX) and the
 * crystal frequency (ECX); with no crystal frequency, CPUID 16h's base MHz stands for the TSC.
 * @max_leaf is CPUID 0's EAX. Returns 0 when the leaves do not state it.
 */
u64 cpufeat_tsc_hz(u32 max_leaf, u32 eax15, u32 ebx15, u32 ecx15, u32 eax16,
		   enum tsc_cpuid_source *src);

#endif
