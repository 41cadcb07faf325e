// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cpu.c - the CPU report is consistent with CPUID as read here, and the paging and
 * machine-check facts it states match what the rest of the kernel found.
 */
#include "kernel/arch/paging.h"
#include "kernel/include/x86.h"
#include "kernel/platform/cpu.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

static void identity(struct ck_test *t)
{
	const struct cpu_ident *c = cpu();
	u32 fam, mod, step;

	report(t, c->vendor_str[0] != '\0', "vendor string '%s'", c->vendor_str);
	cpuid_decode_signature(cpuid(CPUID_LEAF_SIGNATURE).eax, &fam, &mod, &step);
	report(t, fam == c->family && mod == c->model && step == c->stepping,
	       "family/model/stepping match CPUID 1");
	report(t, c->vendor != VENDOR_OTHER || c->rep_good == false,
	       "REP_GOOD is only derived for known vendors");
}

static void features_match_cpuid(struct ck_test *t)
{
	const struct cpu_ident *c = cpu();
	struct cpuid_regs f7 = cpuid_count(7, 0);

	report(t, c->erms == !!(f7.ebx & BIT(9)), "ERMS");
	report(t, c->fsrm == !!(f7.edx & BIT(4)), "FSRM");
	report(t, c->avx2 == !!(f7.ebx & BIT(5)), "AVX2");
	report(t, c->pdpe1gb == pg_gbpages(), "pdpe1gb agrees with paging");
	if (c->vendor == VENDOR_AMD)
		report(t, c->rep_good == (c->family >= 0x10 ||
					  (c->family == 0xf && c->signature >= 0x0f58) ||
					  (c->family == 0xf && c->signature >= 0x0f48 &&
					   c->signature < 0x0f50)),
		       "AMD REP_GOOD rule");
	if (c->vendor == VENDOR_INTEL)
		report(t, c->rep_good == ((c->family > 6 || (c->family == 6 && c->model >= 0xd)) &&
					  (!c->misc_enable_valid || c->fast_strings)),
		       "Intel REP_GOOD rule (from Dothan on, fast strings on)");
}

static void machine_check_caps(struct ck_test *t)
{
	const struct cpu_ident *c = cpu();

	if (!c->mca) {
		ck_skip(t, "no MCA on this CPU");
		return;
	}
	report(t, c->mcg_cap_valid, "IA32_MCG_CAP readable");
	report(t, MCG_CAP_COUNT(c->mcg_cap) > 0, "%u banks", MCG_CAP_COUNT(c->mcg_cap));
}

static void caches_described(struct ck_test *t)
{
	const struct cpu_caches *cc = cpu_caches();
	bool l1d = false;

	for (unsigned int i = 0; i < cc->n; i++)
		l1d |= cc->c[i].level == 1 && cc->c[i].type == 'd';
	report(t, cc->n > 0, "cache levels reported by %s", cc->source);
	report(t, cc->n == 0 || l1d, "an L1 data cache is among them");
	ck_diag("largest cache %llu KiB", (unsigned long long)cpu_llc_size() >> 10);
}

CK_SUITE(cpu, 60,
	 CK_CASE(identity),
	 CK_CASE(features_match_cpuid),
	 CK_CASE(machine_check_caps),
	 CK_CASE(caches_described));
