/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Independent oracle: which page-copy and clear primitive Linux (v6.17, x86-64; the
 * clear_pages column from the 7.0 merge window) ends up using on a given CPU. Data only,
 * kept apart from any implementation in this tree, so that a test can feed each row's
 * inputs to the code under test and compare the result.
 *
 * Every row states the inputs (vendor string, family/model/stepping as Linux derives
 * them, the CPUID bits, the IA32_MISC_ENABLE fast-strings bit, whether the copy_mc
 * "fragile" key is on) and the outputs Linux's rules give for them. Where a row names a
 * real part, its CPUID bits are what that part is believed to report; rows marked
 * "inputs" or "synthetic" are there for a rule's sake and claim nothing about silicon.
 * The row's truth is "Linux's rule applied to these inputs", never "what this CPU ships".
 *
 * Assumptions: CONFIG_X86_64 and CONFIG_X86_MCE are set, nothing on the command line
 * hides a feature (clearcpuid=, etc.), and no hypervisor rewrites CPUID beyond the bits
 * listed. "32-bit only" rows are rule boundaries: those CPUs cannot run an x86-64 kernel.
 *
 * The rules, as read from Linux (paraphrased; the function names are Linux's):
 *
 * Family, model, stepping (arch/x86/lib/cpu.c, x86_family() / x86_model()): the family is
 *   CPUID 1 EAX[11:8], plus EAX[27:20] when that is 0xf; the model is EAX[7:4], with
 *   EAX[19:16] as its high nibble when the family is 6 or more; stepping is EAX[3:0].
 *   x86_vfm packs vendor, family and model so that "x86_vfm >= INTEL_PENTIUM_M_DOTHAN"
 *   means "Intel, and family above 6, or family 6 with model 0xd or above".
 *
 * Vendor (arch/x86/kernel/cpu/common.c): the 12-byte CPUID 0 string picks the cpu_dev.
 *   An x86-64 kernel knows GenuineIntel, AuthenticAMD, HygonGenuine, CentaurHauls and
 *   "  Shanghai  " (Zhaoxin); anything else runs default_init(), which sets no REP_GOOD.
 *   A bit removed with setup_clear_cpu_cap() lands in cpu_caps_cleared and stays off on
 *   every CPU, whatever a later set_cpu_cap() does. cpuid-deps.c ties neither ERMS nor
 *   FSRM to anything, so clearing ERMS leaves FSRM as CPUID reports it.
 *
 * X86_FEATURE_REP_GOOD is synthetic (no CPUID bit); the vendor files set it:
 *   intel.c early_init_intel(): from Dothan on (x86_vfm >= INTEL_PENTIUM_M_DOTHAN, so
 *     family 6 model >= 0xd, family 15 and the new families 18 and 19 too), Linux reads
 *     IA32_MISC_ENABLE: fast strings (bit 0) on -> set REP_GOOD (ERMS stays as CPUID
 *     says); off -> "Disabled fast string operations", REP_GOOD and ERMS both cleared.
 *     Older Intel models get no REP_GOOD and their MSR is not read. (This is the v6.15
 *     rework; before it, init_intel() set REP_GOOD for family 6 only, so Pentium 4 and
 *     families 18/19 had none.)
 *   amd.c init_amd(): family >= 0x10 -> REP_GOOD. init_amd_k8() (family 0xf) compares the
 *     raw CPUID 1 EAX: 0xf48..0xf4f, or 0xf58 and above (revision C and later K8) ->
 *     REP_GOOD; revision B signatures (0xf40..0xf47, 0xf50..0xf57) get none. Families
 *     below 0xf get none. AMD never reads a fast-strings MSR and never clears ERMS.
 *   hygon.c init_hygon(): REP_GOOD on every Hygon CPU, whatever its family.
 *   centaur.c init_centaur() -> init_c3() for family 6 and >= 7: REP_GOOD when family 6
 *     with model >= 0xf (VIA Nano on), or family >= 7.
 *   zhaoxin.c init_zhaoxin() -> init_zhaoxin_cap() when family >= 6, which sets REP_GOOD
 *     for family >= 6 (no model test).
 *
 * The primitives (all chosen once by alternatives patching or static keys):
 *   copy_page (arch/x86/lib/copy_page_64.S): REP_GOOD -> "rep movsq" over the page
 *     ("rep"); otherwise the register-unrolled copy_page_regs loop ("unrolled").
 *   memcpy (arch/x86/lib/memcpy_64.S): FSRM -> "rep movsb" ("erms" here); otherwise
 *     memcpy_orig, the 4x8-byte move loop ("orig"). ERMS and REP_GOOD play no part.
 *   clear_page (arch/x86/include/asm/page_64.h, alternative_call_2): ERMS ->
 *     clear_page_erms ("rep stosb"), else REP_GOOD -> clear_page_rep ("rep stosq"), else
 *     clear_page_orig ("unrolled"). ERMS wins even without REP_GOOD.
 *   copy_mc_to_kernel (arch/x86/lib/copy_mc.c): copy_mc_fragile key on -> copy_mc_fragile
 *     ("fragile"), else ERMS -> copy_mc_enhanced_fast_string ("erms"), else plain memcpy
 *     ("memcpy", which then follows the memcpy column). copy_mc_to_user has the same
 *     order, with copy_user_generic as the last step.
 *   The copy_mc_fragile key (enable_copy_mc_fragile()) is turned on by:
 *     arch/x86/kernel/quirks.c quirk_intel_brickland_xeon_ras_cap(), an early PCI fixup
 *       for devices 8086:0ec3, 8086:2fc0, 8086:6fc0 (Ivy Bridge-EP, Haswell-EP,
 *       Broadwell-EP platforms) when config dword 0x84 (CAPID0) has bit 4 set;
 *     quirks.c quirk_intel_purley_xeon_ras_cap(), for 8086:2083 (Skylake-SP and Cascade
 *       Lake platforms) when CAPID0 bits 7:6 are both set or CAPID5 (0x98) bits 8:5 are
 *       not all clear;
 *     arch/x86/kernel/cpu/mce/core.c mcheck_late_init() when booted with mce=recovery,
 *       on any vendor.
 *   The "fragile" column is therefore an input of each row, not derived from the CPU.
 *
 * clear_pages() as merged in the Linux 7.0 merge window (the "clear_pages" column; NOTES.md
 * section "clear_pages() as merged" has the commits and how sure we are):
 *   arch/x86/include/asm/page_64.h clear_pages(addr, npages) clears npages * PAGE_SIZE
 *     bytes (a 64-bit length) with one ALTERNATIVE_2: "call __clear_pages_unrolled" (8
 *     stores per 64-byte line, "unrolled"), replaced by "rep stosq" on REP_GOOD ("rep"),
 *     replaced in turn by "rep stosb" on ERMS ("erms"). The second feature's patch is
 *     applied last, so ERMS wins over REP_GOOD and works without it: the same order as
 *     v6.17's clear_page(), so the column equals clear_page on every row, and no existing
 *     output changed. clear_page(addr) is now clear_pages(addr, 1).
 *   Callers on cooperatively scheduled kernels (not preemptible) clear at most
 *     PROCESS_PAGES_NON_PREEMPT_BATCH pages per call, with cond_resched() between calls:
 *     32 MiB of pages where the architecture has clear_pages() (x86), 1 page elsewhere.
 *     Preemptible kernels clear a whole range in one call.
 *   The other columns were not re-read against 7.0; they remain the v6.17 facts above.
 */
#ifndef CK_KTEST_ORACLE_LINUX_DISPATCH_FACTS_H
#define CK_KTEST_ORACLE_LINUX_DISPATCH_FACTS_H

#include <stdbool.h>

struct lx_dispatch_fact {
	const char *cpu;	/* e.g. "AMD Zen 3 (EPYC 7003 Milan)" */
	const char *vendor;	/* CPUID 0 vendor string: "GenuineIntel", "AuthenticAMD",
				   "HygonGenuine", "CentaurHauls", "  Shanghai  ", ... */
	unsigned int family, model, stepping;	/* as Linux computes x86, x86_model, x86_stepping */
	bool erms, fsrm;	/* CPUID 7.0 EBX bit 9, EDX bit 4, as the CPU reports them */
	bool fast_strings;	/* IA32_MISC_ENABLE bit 0 (Intel; true where not applicable) */
	bool fragile;		/* copy_mc_fragile key enabled (a quirk) for this row */
	/* What Linux ends up with: */
	bool rep_good, erms_effective;
	const char *copy_page;	/* "rep" (rep movsq) or "unrolled" */
	const char *memcpy;	/* "erms" (rep movsb) or "orig" (memcpy_orig) */
	const char *clear_page;	/* "erms", "rep" or "unrolled" */
	const char *copy_mc;	/* "fragile", "erms" (copy_mc_enhanced_fast_string) or "memcpy" */
	const char *clear_pages; /* Linux 7.0 clear_pages(): "erms", "rep" or "unrolled" */
	const char *source;	/* which Linux file/function decides, in a few words */
};

/*
 * Row layout:
 *	{ cpu,
 *	  vendor, family, model, stepping,	erms, fsrm, fast_strings, fragile,
 *	  rep_good, erms_effective, copy_page, memcpy, clear_page, copy_mc,
 *	  clear_pages,
 *	  source },
 */
static const struct lx_dispatch_fact lx_dispatch_facts[] __attribute__((unused)) = {
	/* Intel: intel.c early_init_intel() */
	{ "Intel Pentium M Banias (32-bit only; below the Dothan boundary)",
	  "GenuineIntel", 0x6, 0x09, 5,	false, false, true, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "intel.c early_init_intel: < Dothan, MSR not read" },
	{ "Intel Pentium M Dothan (32-bit only; the boundary model)",
	  "GenuineIntel", 0x6, 0x0d, 6,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Pentium M Dothan, BIOS fast strings off (32-bit only)",
	  "GenuineIntel", 0x6, 0x0d, 6,	false, false, false, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "intel.c early_init_intel: fast strings off clears REP_GOOD+ERMS" },
	{ "Intel Core 2 Duo (Merom)",
	  "GenuineIntel", 0x6, 0x0f, 6,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Core 2 Duo (Merom), BIOS fast strings off",
	  "GenuineIntel", 0x6, 0x0f, 6,	false, false, false, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "intel.c early_init_intel: fast strings off clears REP_GOOD+ERMS" },
	{ "Intel Sandy Bridge (Core i7-2600)",
	  "GenuineIntel", 0x6, 0x2a, 7,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Ivy Bridge (Core i7-3770)",
	  "GenuineIntel", 0x6, 0x3a, 9,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Ivy Bridge-EP (Xeon E5 v2, Brickland), RAS SKU",
	  "GenuineIntel", 0x6, 0x3e, 4,	true, false, true, true,
	  true, true, "rep", "orig", "erms", "fragile",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on; quirks.c Brickland RAS quirk" },
	{ "Intel Haswell (Core i7-4770)",
	  "GenuineIntel", 0x6, 0x3c, 3,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Haswell (Core i7-4770), BIOS fast strings off",
	  "GenuineIntel", 0x6, 0x3c, 3,	true, false, false, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "intel.c early_init_intel: fast strings off clears REP_GOOD+ERMS" },
	{ "Intel Haswell-EP (Xeon E5 v3, Brickland), RAS SKU",
	  "GenuineIntel", 0x6, 0x3f, 2,	true, false, true, true,
	  true, true, "rep", "orig", "erms", "fragile",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on; quirks.c Brickland RAS quirk" },
	{ "Intel Broadwell-EP (Xeon E5 v4, Brickland), RAS SKU",
	  "GenuineIntel", 0x6, 0x4f, 1,	true, false, true, true,
	  true, true, "rep", "orig", "erms", "fragile",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on; quirks.c Brickland RAS quirk" },
	{ "Intel Broadwell-EP (Xeon E5 v4), CAPID0 bit 4 clear",
	  "GenuineIntel", 0x6, 0x4f, 1,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Skylake client (Core i7-6700K)",
	  "GenuineIntel", 0x6, 0x5e, 3,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Skylake-SP (Xeon Scalable, Purley), advanced RAS SKU",
	  "GenuineIntel", 0x6, 0x55, 4,	true, false, true, true,
	  true, true, "rep", "orig", "erms", "fragile",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on; quirks.c Purley RAS quirk" },
	{ "Intel Skylake-SP (Purley), standard SKU, no NVDIMM mode",
	  "GenuineIntel", 0x6, 0x55, 4,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Cascade Lake-SP (Purley), advanced RAS SKU",
	  "GenuineIntel", 0x6, 0x55, 7,	true, false, true, true,
	  true, true, "rep", "orig", "erms", "fragile",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on; quirks.c Purley RAS quirk" },
	{ "Intel Ice Lake client (Core i7-1065G7)",
	  "GenuineIntel", 0x6, 0x7e, 5,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Ice Lake-SP (Xeon 3rd gen)",
	  "GenuineIntel", 0x6, 0x6a, 6,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Ice Lake-SP (Xeon 3rd gen), booted with mce=recovery",
	  "GenuineIntel", 0x6, 0x6a, 6,	true, true, true, true,
	  true, true, "rep", "erms", "erms", "fragile",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on; mce/core.c: mce=recovery" },
	{ "Intel Alder Lake (Core i9-12900K)",
	  "GenuineIntel", 0x6, 0x97, 2,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Sapphire Rapids (Xeon 4th gen)",
	  "GenuineIntel", 0x6, 0x8f, 8,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Sapphire Rapids (Xeon 4th gen), BIOS fast strings off",
	  "GenuineIntel", 0x6, 0x8f, 8,	true, true, false, false,
	  false, false, "unrolled", "erms", "unrolled", "memcpy",
	  "unrolled",
	  "intel.c early_init_intel: fast strings off clears REP_GOOD+ERMS" },
	{ "Intel Pentium 4 (Prescott, 64-bit capable)",
	  "GenuineIntel", 0xf, 0x03, 4,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel Xeon (Nocona), BIOS fast strings off",
	  "GenuineIntel", 0xf, 0x04, 1,	false, false, false, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "intel.c early_init_intel: fast strings off clears REP_GOOD+ERMS" },
	{ "Intel Pentium D (Presler)",
	  "GenuineIntel", 0xf, 0x06, 4,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel family 18 (Nova Lake; CPUID bits are test inputs)",
	  "GenuineIntel", 0x12, 0x01, 0,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel family 19 (Diamond Rapids; CPUID bits are test inputs)",
	  "GenuineIntel", 0x13, 0x01, 0,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "intel.c early_init_intel: >= Dothan, fast strings on" },
	{ "Intel family 19 (Diamond Rapids), BIOS fast strings off (inputs)",
	  "GenuineIntel", 0x13, 0x01, 0,	true, true, false, false,
	  false, false, "unrolled", "erms", "unrolled", "memcpy",
	  "unrolled",
	  "intel.c early_init_intel: fast strings off clears REP_GOOD+ERMS" },

	/* AMD: amd.c init_amd() / init_amd_k8() */
	{ "AMD Athlon (K7; 32-bit only)",
	  "AuthenticAMD", 0x6, 0x08, 1,	false, false, true, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "amd.c init_amd: family < 0xf" },
	{ "AMD K8 rev B (SH7-B0 ClawHammer, CPUID 1 EAX 0xf40)",
	  "AuthenticAMD", 0xf, 0x04, 0,	false, false, true, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "amd.c init_amd_k8: signature before rev C" },
	{ "AMD K8 rev B (SH7-B3 Opteron, CPUID 1 EAX 0xf51)",
	  "AuthenticAMD", 0xf, 0x05, 1,	false, false, true, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "amd.c init_amd_k8: signature before rev C" },
	{ "AMD K8 rev C (SH7-C0 Athlon 64, CPUID 1 EAX 0xf48)",
	  "AuthenticAMD", 0xf, 0x04, 8,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd_k8: signature rev C or later" },
	{ "AMD K8 rev CG (SH7-CG Athlon 64, CPUID 1 EAX 0xf4a)",
	  "AuthenticAMD", 0xf, 0x04, 10,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd_k8: signature rev C or later" },
	{ "AMD K8 rev C (SH7-C0 Opteron, CPUID 1 EAX 0xf58)",
	  "AuthenticAMD", 0xf, 0x05, 8,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd_k8: signature rev C or later" },
	{ "AMD K8 rev E (Athlon 64 X2 Toledo, CPUID 1 EAX 0x20f32)",
	  "AuthenticAMD", 0xf, 0x23, 2,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd_k8: signature rev C or later" },
	{ "AMD K8 rev F (Opteron 2200, CPUID 1 EAX 0x40f12)",
	  "AuthenticAMD", 0xf, 0x41, 2,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd_k8: signature rev C or later" },
	{ "QEMU TCG CPU: K8 signature 0x60fb1 with ERMS (tests/data/bench-sample.log)",
	  "AuthenticAMD", 0xf, 0x6b, 1,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "amd.c init_amd_k8: signature rev C or later" },
	{ "AMD K8 rev B signature 0xf51 with ERMS set (synthetic inputs)",
	  "AuthenticAMD", 0xf, 0x05, 1,	true, false, true, false,
	  false, true, "unrolled", "orig", "erms", "erms",
	  "erms",
	  "amd.c init_amd_k8: signature before rev C" },
	{ "AMD Opteron family 0x10 (Barcelona)",
	  "AuthenticAMD", 0x10, 0x02, 3,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd: family >= 0x10" },
	{ "AMD Opteron family 0x15 (Piledriver)",
	  "AuthenticAMD", 0x15, 0x02, 0,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd: family >= 0x10" },
	{ "AMD family 0x16 (Jaguar)",
	  "AuthenticAMD", 0x16, 0x00, 1,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd: family >= 0x10" },
	{ "AMD Zen (EPYC 7001 Naples)",
	  "AuthenticAMD", 0x17, 0x01, 2,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd: family >= 0x10" },
	{ "AMD Zen 2 (EPYC 7002 Rome)",
	  "AuthenticAMD", 0x17, 0x31, 0,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "amd.c init_amd: family >= 0x10" },
	{ "AMD Zen 3 (EPYC 7003 Milan)",
	  "AuthenticAMD", 0x19, 0x01, 1,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "amd.c init_amd: family >= 0x10" },
	{ "AMD Zen 3 (EPYC 7003) with FSRM not reported (e.g. a VM model; inputs)",
	  "AuthenticAMD", 0x19, 0x01, 1,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "amd.c init_amd: family >= 0x10" },
	{ "AMD Zen 4 (EPYC 9004 Genoa)",
	  "AuthenticAMD", 0x19, 0x11, 1,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "amd.c init_amd: family >= 0x10" },
	{ "AMD Zen 4 (EPYC 9004 Genoa), booted with mce=recovery",
	  "AuthenticAMD", 0x19, 0x11, 1,	true, true, true, true,
	  true, true, "rep", "erms", "erms", "fragile",
	  "erms",
	  "amd.c init_amd: family >= 0x10; mce/core.c: mce=recovery" },
	{ "AMD Zen 5 (EPYC 9005 Turin)",
	  "AuthenticAMD", 0x1a, 0x02, 1,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "amd.c init_amd: family >= 0x10" },

	/* Hygon: hygon.c init_hygon() */
	{ "Hygon Dhyana (family 0x18)",
	  "HygonGenuine", 0x18, 0x00, 1,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "hygon.c init_hygon: always" },
	{ "Hygon family 0x18 with ERMS and FSRM (inputs)",
	  "HygonGenuine", 0x18, 0x04, 0,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "hygon.c init_hygon: always" },
	{ "Hygon family 0x18, booted with mce=recovery",
	  "HygonGenuine", 0x18, 0x00, 1,	false, false, true, true,
	  true, false, "rep", "orig", "rep", "fragile",
	  "rep",
	  "hygon.c init_hygon: always; mce/core.c: mce=recovery" },

	/* Centaur: centaur.c init_c3() */
	{ "VIA C3 Nehemiah (Centaur family 6 model 9; 32-bit only)",
	  "CentaurHauls", 0x6, 0x09, 8,	false, false, true, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "centaur.c init_c3: family 6 model < 0xf" },
	{ "Centaur family 6 model 0xe (boundary; inputs)",
	  "CentaurHauls", 0x6, 0x0e, 0,	false, false, true, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "centaur.c init_c3: family 6 model < 0xf" },
	{ "VIA Nano (Isaiah, Centaur family 6 model 0xf)",
	  "CentaurHauls", 0x6, 0x0f, 2,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "centaur.c init_c3: family 6 model >= 0xf" },
	{ "Centaur family 7 (Zhaoxin part sold under CentaurHauls; inputs)",
	  "CentaurHauls", 0x7, 0x1b, 0,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "centaur.c init_c3: family >= 7" },
	{ "Centaur family 7 with ERMS (inputs)",
	  "CentaurHauls", 0x7, 0x3b, 0,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "centaur.c init_c3: family >= 7" },

	/* Zhaoxin: zhaoxin.c init_zhaoxin() / init_zhaoxin_cap() */
	{ "Zhaoxin family 5 (synthetic: below the family 6 test)",
	  "  Shanghai  ", 0x5, 0x00, 0,	false, false, true, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "zhaoxin.c init_zhaoxin: family < 6" },
	{ "Zhaoxin family 6 model 9 (synthetic: no model test, unlike Centaur)",
	  "  Shanghai  ", 0x6, 0x09, 0,	false, false, true, false,
	  true, false, "rep", "orig", "rep", "memcpy",
	  "rep",
	  "zhaoxin.c init_zhaoxin_cap: family >= 6" },
	{ "Zhaoxin KaiXian family 7 (KX-6000 class; inputs: ERMS, no FSRM)",
	  "  Shanghai  ", 0x7, 0x3b, 0,	true, false, true, false,
	  true, true, "rep", "orig", "erms", "erms",
	  "erms",
	  "zhaoxin.c init_zhaoxin_cap: family >= 6" },
	{ "Zhaoxin family 7 with ERMS and FSRM (inputs)",
	  "  Shanghai  ", 0x7, 0x5b, 0,	true, true, true, false,
	  true, true, "rep", "erms", "erms", "erms",
	  "erms",
	  "zhaoxin.c init_zhaoxin_cap: family >= 6" },

	/* Vendors no x86-64 cpu_dev claims: common.c default_cpu */
	{ "unknown vendor 'VIA VIA VIA ' (no x86-64 cpu_dev matches)",
	  "VIA VIA VIA ", 0x6, 0x0f, 0,	false, false, true, false,
	  false, false, "unrolled", "orig", "unrolled", "memcpy",
	  "unrolled",
	  "common.c default_cpu: unknown vendor" },
	{ "unknown vendor with ERMS and FSRM (synthetic inputs)",
	  "NotARealCPU!", 0x6, 0x55, 0,	true, true, true, false,
	  false, true, "unrolled", "erms", "erms", "erms",
	  "erms",
	  "common.c default_cpu: unknown vendor" },
	{ "unknown vendor with ERMS, booted with mce=recovery (inputs)",
	  "NotARealCPU!", 0x6, 0x55, 0,	true, false, true, true,
	  false, true, "unrolled", "orig", "erms", "fragile",
	  "erms",
	  "common.c default_cpu: unknown vendor; mce/core.c: mce=recovery" },
};

#define LX_DISPATCH_FACTS_COUNT (sizeof(lx_dispatch_facts) / sizeof(lx_dispatch_facts[0]))

/* include/linux/mm.h (7.0): the batch for architectures that define clear_pages(). */
#define LX_PROCESS_PAGES_NON_PREEMPT_BATCH_BYTES	(32UL << 20)
#define LX_PROCESS_PAGES_NON_PREEMPT_BATCH_PAGES	\
	(LX_PROCESS_PAGES_NON_PREEMPT_BATCH_BYTES >> 12)
#define LX_PROCESS_PAGES_NON_PREEMPT_BATCH_GENERIC	1UL	/* no arch clear_pages() */
#define LX_CLEAR_PAGE_NPAGES				1U	/* clear_page = clear_pages(, 1) */

/*
 * Figures the merged commits' messages quote, for a README to set beside its own. They are
 * Linux's measurements on Linux's machines, not expectations for this one.
 */
struct lx_upstream_figure {
	const char *what;	/* the quantity */
	const char *machine;
	double before, after;	/* "before" alone when there is one value */
	const char *unit;
	const char *source;	/* commit */
};

static const struct lx_upstream_figure lx_clear_figures[] __attribute__((unused)) = {
	{ "rep stosq bandwidth, 4 KiB chunks", "AMD Milan", 13.7, 0, "GB/s",
	  "cb431accb36e x86/clear_page: introduce clear_pages()" },
	{ "rep stosq bandwidth, 2 MiB chunks", "AMD Milan", 15.1, 0, "GB/s",
	  "cb431accb36e x86/clear_page: introduce clear_pages()" },
	{ "rep stosq bandwidth, 1 GiB chunks", "AMD Milan", 38.1, 0, "GB/s",
	  "cb431accb36e x86/clear_page: introduce clear_pages()" },
	{ "LLC miss rate, 2 MiB demand faults, target-last -> sequential", "AMD Genoa",
	  10.96, 0.73, "%", "9890ecab6ad9 mm: folio_zero_user: clear pages sequentially" },
	{ "clearing bandwidth, 2 MiB demand faults, target-last -> sequential", "AMD Genoa",
	  11.76, 23.58, "GB/s", "9890ecab6ad9 mm: folio_zero_user: clear pages sequentially" },
};

#define LX_CLEAR_FIGURES_COUNT (sizeof(lx_clear_figures) / sizeof(lx_clear_figures[0]))
/* The same commit reports no change on Intel Icelake-X and on Arm Neoverse-N1. */

#endif /* CK_KTEST_ORACLE_LINUX_DISPATCH_FACTS_H */
