// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dispatch.c - Linux's primitive choice for the CPUs the seeds talk about, end to end:
 * raw CPUID facts -> cpufeat_apply_rules -> dispatch_decide.
 *
 * The Zen 3 row follows the RFC thread's description of an EPYC 7713 ("no FSRM, no ERMS",
 * "REP_GOOD only"), which is what produced its memcpy_orig regression.
 */
#include "copy/dispatch.h"
#include "init/dispatch_cpu.h"
#include "kernel/platform/cpufeat.h"
#include "tests/host/host_test.h"

struct cpu_case {
	const char *name;
	enum cpu_vendor vendor;
	unsigned int signature;
	bool erms, fsrm, misc_valid, fast_strings, fragile;
	enum copy_page_impl copy_page;
	enum memcpy_impl memcpy;
	enum copy_mc_impl copy_mc;
	enum clear_page_impl clear_page;
};

static const struct cpu_case cases[] = {
	{ "Zen 3 (EPYC 7713)", VENDOR_AMD, 0x00a00f11, false, false, false, false, false,
	  COPY_PAGE_REP, MEMCPY_ORIG, COPY_MC_MEMCPY, CLEAR_PAGE_REP },
	{ "Zen 4 (Genoa)", VENDOR_AMD, 0x00a10f11, true, true, false, false, false,
	  COPY_PAGE_REP, MEMCPY_ERMS, COPY_MC_ERMS, CLEAR_PAGE_ERMS },
	{ "Zen 5 (EPYC 9655)", VENDOR_AMD, 0x00b00f21, true, true, false, false, false,
	  COPY_PAGE_REP, MEMCPY_ERMS, COPY_MC_ERMS, CLEAR_PAGE_ERMS },
	{ "Skylake-SP", VENDOR_INTEL, 0x00050654, true, false, true, true, false,
	  COPY_PAGE_REP, MEMCPY_ORIG, COPY_MC_ERMS, CLEAR_PAGE_ERMS },
	{ "Skylake-SP, Purley RAS quirk", VENDOR_INTEL, 0x00050654, true, false, true, true, true,
	  COPY_PAGE_REP, MEMCPY_ORIG, COPY_MC_FRAGILE, CLEAR_PAGE_ERMS },
	{ "Sapphire Rapids", VENDOR_INTEL, 0x000806f8, true, true, true, true, false,
	  COPY_PAGE_REP, MEMCPY_ERMS, COPY_MC_ERMS, CLEAR_PAGE_ERMS },
	{ "Sapphire Rapids, fast strings off", VENDOR_INTEL, 0x000806f8, true, true, true, false,
	  false, COPY_PAGE_UNROLLED, MEMCPY_ERMS, COPY_MC_MEMCPY, CLEAR_PAGE_UNROLLED },
	{ "Core 2 (no ERMS)", VENDOR_INTEL, 0x000006fb, false, false, true, true, false,
	  COPY_PAGE_REP, MEMCPY_ORIG, COPY_MC_MEMCPY, CLEAR_PAGE_REP },
	{ "AMD K8 rev B (no REP_GOOD)", VENDOR_AMD, 0x00000f41, false, false, false, false, false,
	  COPY_PAGE_UNROLLED, MEMCPY_ORIG, COPY_MC_MEMCPY, CLEAR_PAGE_UNROLLED },
	{ "QEMU TCG -cpu max (AMD K8 signature, ERMS)", VENDOR_AMD, 0x00060fb1, true, false, false,
	  false, false, COPY_PAGE_REP, MEMCPY_ORIG, COPY_MC_ERMS, CLEAR_PAGE_ERMS },
	/*
	 * ERMS without REP_GOOD (the oracle's rows of the same inputs): clear_page takes
	 * clear_page_erms whenever ERMS is set, REP_GOOD or not; copy_page falls back to the
	 * unrolled loop. A K8 revision B signature gets no REP_GOOD from amd.c, an unknown
	 * vendor none from default_cpu.
	 */
	{ "K8 rev B signature with ERMS (synthetic)", VENDOR_AMD, 0x00000f51, true, false, false,
	  false, false, COPY_PAGE_UNROLLED, MEMCPY_ORIG, COPY_MC_ERMS, CLEAR_PAGE_ERMS },
	{ "unknown vendor with ERMS (synthetic)", VENDOR_OTHER, 0x00050654, true, false, false,
	  false, false, COPY_PAGE_UNROLLED, MEMCPY_ORIG, COPY_MC_ERMS, CLEAR_PAGE_ERMS },
};

static void test_seed_cpus(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct cpu_case *k = &cases[i];
		struct cpu_ident c;
		struct dispatch_cpu in;
		struct copy_dispatch d;

		memset(&c, 0, sizeof(c));
		c.vendor = k->vendor;
		c.signature = k->signature;
		cpuid_decode_signature(k->signature, &c.family, &c.model, &c.stepping);
		c.erms = k->erms;
		c.fsrm = k->fsrm;
		c.misc_enable_valid = k->misc_valid;
		c.fast_strings = k->fast_strings;
		cpufeat_apply_rules(&c);
		dispatch_cpu_from_ident(&c, k->fragile, &in);
		dispatch_decide(&in, &d);
		CHECK(d.copy_page == k->copy_page, "%s: copy_page %s", k->name,
		      copy_page_impl_names[d.copy_page]);
		CHECK(d.memcpy == k->memcpy, "%s: memcpy %s", k->name, memcpy_impl_names[d.memcpy]);
		CHECK(d.copy_mc == k->copy_mc, "%s: copy_mc %s", k->name,
		      copy_mc_impl_names[d.copy_mc]);
		CHECK(d.clear_page == k->clear_page, "%s: clear_page %s", k->name,
		      clear_page_impl_names[d.clear_page]);
		CHECK(d.copy_page_why && d.memcpy_why && d.copy_mc_why && d.clear_page_why,
		      "%s: every choice says why", k->name);
	}
}

/*
 * The clear_page order the oracle states (ERMS, else REP_GOOD, else unrolled) over every
 * ERMS x REP_GOOD pair, straight into the rules, without the feature derivation.
 */
static void test_clear_page_order(void)
{
	static const enum clear_page_impl want[2][2] = {	/* [rep_good][erms] */
		{ CLEAR_PAGE_UNROLLED, CLEAR_PAGE_ERMS }, { CLEAR_PAGE_REP, CLEAR_PAGE_ERMS },
	};

	for (int rep_good = 0; rep_good < 2; rep_good++)
		for (int erms = 0; erms < 2; erms++) {
			struct dispatch_cpu in = { .rep_good = rep_good, .erms = erms };
			struct copy_dispatch d;

			dispatch_decide(&in, &d);
			CHECK(d.clear_page == want[rep_good][erms], "REP_GOOD %d ERMS %d: clear_page "
			      "%s, want %s", rep_good, erms, clear_page_impl_names[d.clear_page],
			      clear_page_impl_names[want[rep_good][erms]]);
		}
}

static void test_names(void)
{
	CHECK(!strcmp(copy_mc_impl_names[COPY_MC_FRAGILE], "fragile") &&
	      !strcmp(copy_mc_impl_names[COPY_MC_ERMS], "erms") &&
	      !strcmp(copy_mc_impl_names[COPY_MC_MEMCPY], "memcpy"), "copy_mc names");
	CHECK(!strcmp(memcpy_impl_desc(MEMCPY_ORIG), "memcpy_orig (movq)"), "memcpy desc");
	CHECK(!strcmp(copy_page_impl_desc(COPY_PAGE_REP), "rep movsq"), "copy_page desc");
}

int main(void)
{
	return RUN_TESTS(test_seed_cpus, test_clear_page_order, test_names);
}
