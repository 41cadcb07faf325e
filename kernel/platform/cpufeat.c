// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpufeat.c - Linux's rules for the string-operation features, in plain C.
 *
 * REP_GOOD ("rep movsq/stosq are fast here") is not a CPUID bit. Linux v6.17 sets it for
 * AMD family 0x10 and later and for AMD K8 (family 0xf) from revision C on (CPUID 1
 * signature 0x0f48..0x0f4f or 0x0f58 and above); for every Hygon; for Centaur family 6
 * model 0xf and later and family 7 and later; for Zhaoxin family 6 and later; and for Intel
 * from the Pentium M Dothan on (family 6 model 0xd and later, and every later family: since
 * v6.15, not family 6 alone) when IA32_MISC_ENABLE's fast-strings bit is set. When that bit
 * is clear Linux clears both REP_GOOD and ERMS. tests/host/test_dispatch_oracle.c checks
 * these rules against a table of Linux's results kept apart from this code.
 */
#include "kernel/platform/cpufeat.h"

void cpufeat_apply_rules(struct cpu_ident *c)
{
	c->rep_good = false;
	c->erms_effective = c->erms;
	c->rep_good_why = "not set for this vendor";
	switch (c->vendor) {
	case VENDOR_HYGON:
		c->rep_good = true;
		c->rep_good_why = "Hygon";
		break;
	case VENDOR_CENTAUR:
		c->rep_good = (c->family == 6 && c->model >= 0xf) || c->family >= 7;
		c->rep_good_why = c->rep_good ? "Centaur family 6 model >= 0xf, or family >= 7" :
				  "Centaur before family 6 model 0xf";
		break;
	case VENDOR_ZHAOXIN:
		c->rep_good = c->family >= 6;
		c->rep_good_why = c->rep_good ? "Zhaoxin family >= 6" : "Zhaoxin family < 6";
		break;
	case VENDOR_AMD:
		if (c->family >= 0x10) {
			c->rep_good = true;
			c->rep_good_why = "AMD family >= 0x10";
		} else if (c->family == 0xf) {
			c->rep_good = (c->signature >= 0x0f48 && c->signature < 0x0f50) ||
				      c->signature >= 0x0f58;
			c->rep_good_why = c->rep_good ? "AMD K8 revision C or later" :
					  "AMD K8 before revision C";
		} else {
			c->rep_good_why = "AMD family < 0xf";
		}
		break;
	case VENDOR_INTEL:
		if (c->family < 6 || (c->family == 6 && c->model < 0xd)) {
			c->rep_good_why = "Intel before Pentium M Dothan";
			break;
		}
		c->rep_good = true;
		c->rep_good_why = "Intel from Dothan (family 6 model >= 0xd) on, fast strings on";
		if (c->misc_enable_valid && !c->fast_strings) {
			c->rep_good = false;
			c->erms_effective = false;
			c->rep_good_why = "fast strings disabled in IA32_MISC_ENABLE";
		}
		break;
	default:
		break;
	}
}

u64 cpufeat_tsc_hz(u32 max_leaf, u32 eax15, u32 ebx15, u32 ecx15, u32 eax16,
		   enum tsc_cpuid_source *src)
{
	*src = TSC_CPUID_NONE;
	if (max_leaf < CPUID_LEAF_TSC || !eax15 || !ebx15)
		return 0;		/* leaf absent, or no ratio enumerated */
	if (ecx15) {
		*src = TSC_CPUID_15H;
		return (u64)ecx15 * ebx15 / eax15;
	}
	if (max_leaf >= CPUID_LEAF_FREQ && (eax16 & 0xffff)) {
		*src = TSC_CPUID_16H;
		return (u64)(eax16 & 0xffff) * 1000000ULL;
	}
	return 0;
}
