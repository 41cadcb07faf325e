// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu_here.c - the microcode revision and the PPIN of the CPU that asks (cpu_here.h), read
 * through its own CPUID and MSRs (rdmsr_safe: an MSR that is not there is a "no").
 */
#include "kernel/arch/cpuid.h"
#include "kernel/include/cpufeature.h"
#include "kernel/include/msr-index.h"
#include "kernel/include/x86.h"
#include "kernel/platform/cpu_here.h"

bool cpu_ucode_rev_here(u32 *rev)
{
	u64 v;

	/* Write 0, run CPUID 1, read it back: the revision of the patch now loaded. */
	if (wrmsr_safe(MSR_IA32_UCODE_REV, 0))
		return false;
	cpuid(CPUID_LEAF_SIGNATURE);
	if (rdmsr_safe(MSR_IA32_UCODE_REV, &v))
		return false;
	*rev = cpuid_boot()->vendor == VENDOR_INTEL ? (u32)(v >> 32) : (u32)v;
	return true;
}

static bool has_here(enum x86_feature_id f)
{
	const struct x86_cpu_feature *x = x86_feature(f);
	struct cpuid_regs r;
	u32 v;

	if (cpuid(x->leaf & CPUID_LEAF_EXT_MAX).eax < x->leaf)
		return false;
	r = cpuid_count(x->leaf, x->subleaf);
	v = x->reg == CPUID_EAX ? r.eax : x->reg == CPUID_EBX ? r.ebx :
	    x->reg == CPUID_ECX ? r.ecx : r.edx;
	return v >> x->bit & 1;
}

/*
 * Intel family 6 servers with PPIN before the CPUID bit (Linux's ppin_cpuids[], with the
 * models of its intel-family.h): Ivy Bridge-EP, Haswell-X, Broadwell-DE and -X, Skylake-SP,
 * Ice Lake-SP and -D, Sapphire and Emerald Rapids, Xeon Phi KNL and KNM.
 */
static const u8 ppin_models[] = { 0x3e, 0x3f, 0x56, 0x4f, 0x55, 0x6a, 0x6c, 0x8f, 0xcf,
				   0x57, 0x85 };

static bool intel_listed(const struct cpuid_ident *c)
{
	if (c->vendor != VENDOR_INTEL || c->family != 6)
		return false;
	for (unsigned int i = 0; i < ARRAY_SIZE(ppin_models); i++)
		if (c->model == ppin_models[i])
			return true;
	return false;
}

bool cpu_ppin_here(u64 *ppin, const char **why)
{
	const struct cpuid_ident *c = cpuid_boot();
	bool amd = c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON;
	u32 ctl_msr = amd ? MSR_AMD_PPIN_CTL : MSR_PPIN_CTL;
	u64 ctl;

	if (amd ? !has_here(X86_FEATURE_AMD_PPIN) :
	    !has_here(X86_FEATURE_INTEL_PPIN) && !intel_listed(c)) {
		*why = "CPUID and the CPU model say the CPU has none";
		return false;
	}
	if (rdmsr_safe(ctl_msr, &ctl)) {
		*why = "its control MSR cannot be read";
		return false;
	}
	if ((ctl & (PPIN_CTL_LOCKOUT | PPIN_CTL_ENABLE)) == PPIN_CTL_LOCKOUT) {
		*why = "locked disabled by the firmware";
		return false;
	}
	if (!(ctl & PPIN_CTL_ENABLE)) {
		wrmsr_safe(ctl_msr, ctl | PPIN_CTL_ENABLE);
		if (rdmsr_safe(ctl_msr, &ctl) || !(ctl & PPIN_CTL_ENABLE)) {
			*why = "disabled, and enabling it did not take";
			return false;
		}
	}
	if (rdmsr_safe(amd ? MSR_AMD_PPIN : MSR_PPIN, ppin)) {
		*why = "enabled, but the PPIN MSR cannot be read";
		return false;
	}
	return true;
}
