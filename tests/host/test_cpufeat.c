// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cpufeat.c - Linux's derived CPU features and the CPUID-stated TSC frequency, fed
 * with the CPUID values of real parts.
 */
#include "kernel/platform/cpufeat.h"
#include "tests/host/host_test.h"

static void test_signatures(void)
{
	static const struct {
		unsigned int eax, fam, model, step;
		const char *what;
	} sig[] = {
		{ 0x00a20f10, 0x19, 0x21, 0, "Zen 3 (Vermeer)" },
		{ 0x00a10f11, 0x19, 0x11, 1, "Zen 4 (Genoa)" },
		{ 0x00b00f21, 0x1a, 0x02, 1, "Zen 5 (Turin)" },
		{ 0x00050654, 0x06, 0x55, 4, "Skylake-SP" },
		{ 0x000806f8, 0x06, 0x8f, 8, "Sapphire Rapids" },
		{ 0x00000f41, 0x0f, 0x04, 1, "Pentium 4: no model extension below family 6" },
		{ 0x00100f42, 0x10, 0x04, 2, "AMD family 10h" },
	};

	for (size_t i = 0; i < sizeof(sig) / sizeof(sig[0]); i++) {
		unsigned int f, m, s;

		cpuid_decode_signature(sig[i].eax, &f, &m, &s);
		CHECK(f == sig[i].fam && m == sig[i].model && s == sig[i].step,
		      "%s: got 0x%x/0x%x/%u", sig[i].what, f, m, s);
	}
	CHECK(cpuid_vendor("GenuineIntel") == VENDOR_INTEL, "Intel");
	CHECK(cpuid_vendor("AuthenticAMD") == VENDOR_AMD, "AMD");
	CHECK(cpuid_vendor("HygonGenuine") == VENDOR_HYGON, "Hygon");
	CHECK(cpuid_vendor("CentaurHauls") == VENDOR_CENTAUR, "Centaur");
	CHECK(cpuid_vendor("  Shanghai  ") == VENDOR_ZHAOXIN, "Zhaoxin");
	CHECK(cpuid_vendor("VIA VIA VIA ") == VENDOR_OTHER, "other");
}

static struct cpu_ident make(enum cpu_vendor v, unsigned int fam, bool erms, bool misc_valid,
			     bool fast)
{
	struct cpu_ident c;

	memset(&c, 0, sizeof(c));
	c.vendor = v;
	c.family = fam;
	c.erms = erms;
	c.misc_enable_valid = misc_valid;
	c.fast_strings = fast;
	cpufeat_apply_rules(&c);
	return c;
}

static void test_rep_good_rules(void)
{
	struct cpu_ident c;

	c = make(VENDOR_AMD, 0x19, true, false, false);
	CHECK(c.rep_good && c.erms_effective, "Zen 3: REP_GOOD and ERMS");
	c = make(VENDOR_AMD, 0x0f, false, false, false);
	c.signature = 0x0f41;
	cpufeat_apply_rules(&c);
	CHECK(!c.rep_good, "AMD K8 revision B (0x0f41): no REP_GOOD");
	c.signature = 0x0f48;
	cpufeat_apply_rules(&c);
	CHECK(c.rep_good, "AMD K8 revision C (0x0f48): REP_GOOD");
	c.signature = 0x0f51;
	cpufeat_apply_rules(&c);
	CHECK(!c.rep_good, "AMD K8 0x0f51 (revision CG, single-core): no REP_GOOD");
	c.signature = 0x60fb1;
	cpufeat_apply_rules(&c);
	CHECK(c.rep_good, "QEMU -cpu max signature 0x60fb1: REP_GOOD");
	c = make(VENDOR_AMD, 0x0e, false, false, false);
	CHECK(!c.rep_good, "AMD before K8: no REP_GOOD");
	c = make(VENDOR_AMD, 0x10, false, false, false);
	CHECK(c.rep_good, "AMD family 0x10: REP_GOOD");
	c = make(VENDOR_HYGON, 0x18, true, false, false);
	CHECK(c.rep_good, "Hygon follows AMD");
	c = make(VENDOR_INTEL, 6, true, true, true);
	c.model = 0x55;
	cpufeat_apply_rules(&c);
	CHECK(c.rep_good && c.erms_effective, "Skylake-SP, fast strings on");
	c.fast_strings = false;
	cpufeat_apply_rules(&c);
	CHECK(!c.rep_good && !c.erms_effective, "fast strings off drops REP_GOOD and ERMS");
	CHECK(c.erms, "the raw ERMS bit is kept for the report");
	c = make(VENDOR_INTEL, 0xf, false, true, true);
	CHECK(c.rep_good, "Intel family 0xf (since v6.15): REP_GOOD");
	c = make(VENDOR_INTEL, 6, false, true, true);
	c.model = 0x9;
	cpufeat_apply_rules(&c);
	CHECK(!c.rep_good, "Intel before Dothan: no REP_GOOD");
	c = make(VENDOR_INTEL, 6, true, false, false);
	c.model = 0x55;
	cpufeat_apply_rules(&c);
	CHECK(c.rep_good && c.erms_effective, "MISC_ENABLE unreadable: nothing dropped");
	c = make(VENDOR_OTHER, 6, true, false, false);
	CHECK(!c.rep_good && c.erms_effective, "unknown vendor: no REP_GOOD");
}

static void test_tsc_from_cpuid(void)
{
	enum tsc_cpuid_source src;
	unsigned long long hz;

	/* Ice Lake-SP style: 25 MHz crystal, ratio 176/2 -> 2.2 GHz. */
	hz = cpufeat_tsc_hz(0x1b, 2, 176, 25000000, 0, &src);
	CHECK(hz == 2200000000ULL && src == TSC_CPUID_15H, "15h: %llu", hz);
	/* Skylake client: ratio but no crystal frequency; 16h says 2600 MHz. */
	hz = cpufeat_tsc_hz(0x16, 2, 216, 0, 2600, &src);
	CHECK(hz == 2600000000ULL && src == TSC_CPUID_16H, "16h fallback: %llu", hz);
	hz = cpufeat_tsc_hz(0x15, 2, 216, 0, 2600, &src);
	CHECK(hz == 0 && src == TSC_CPUID_NONE, "no 16h leaf: nothing stated");
	hz = cpufeat_tsc_hz(0x14, 2, 176, 25000000, 0, &src);
	CHECK(hz == 0, "max leaf below 15h");
	hz = cpufeat_tsc_hz(0x20, 0, 0, 25000000, 2600, &src);
	CHECK(hz == 0, "15h present but zero ratio (AMD, most VMs)");
}

int main(void)
{
	return RUN_TESTS(test_signatures, test_rep_good_rules, test_tsc_from_cpuid);
}
