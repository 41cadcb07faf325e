// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cpuid.c - the named hardware: every entry of the CPUID feature table
 * (kernel/include/cpufeature.h) against the locations read from Intel's SDM vol. 2A
 * ("CPUID", tables 3-8 to 3-10 and the leaf 7 / 80000001h / 80000007h / 80000008h entries)
 * and AMD's APM vol. 3 appendix E, written down here apart from the table; the cached
 * identity (kernel/arch/cpuid.c) over a fake CPUID; the APIC base masked with MAXPHYADDR.
 */
#include "kernel/arch/apic.h"
#include "kernel/arch/cpuid.h"
#include "tests/host/host_test.h"

/* The manuals' word, register as a name so no enum of ours is involved. */
static const struct {
	const char *name;
	unsigned int leaf, subleaf;
	const char *reg;
	unsigned int bit;
} manual[] = {
	{ "MCE",		0x1,	    0, "edx",  7 },
	{ "APIC",		0x1,	    0, "edx",  9 },
	{ "MTRR",		0x1,	    0, "edx", 12 },
	{ "MCA",		0x1,	    0, "edx", 14 },
	{ "PAT",		0x1,	    0, "edx", 16 },
	{ "XMM2",		0x1,	    0, "edx", 26 },	/* SSE2 */
	{ "PCLMULQDQ",		0x1,	    0, "ecx",  1 },
	{ "FMA",		0x1,	    0, "ecx", 12 },	/* FMA3 */
	{ "XMM4_2",		0x1,	    0, "ecx", 20 },	/* SSE4.2 (CRC32) */
	{ "X2APIC",		0x1,	    0, "ecx", 21 },
	{ "POPCNT",		0x1,	    0, "ecx", 23 },
	{ "AES",		0x1,	    0, "ecx", 25 },	/* AESNI */
	{ "XSAVE",		0x1,	    0, "ecx", 26 },
	{ "OSXSAVE",		0x1,	    0, "ecx", 27 },
	{ "AVX",		0x1,	    0, "ecx", 28 },
	{ "HYPERVISOR",		0x1,	    0, "ecx", 31 },	/* reserved for hypervisors */
	{ "APERFMPERF",		0x6,	    0, "ecx",  0 },	/* hardware coordination feedback */
	{ "BMI1",		0x7,	    0, "ebx",  3 },
	{ "AVX2",		0x7,	    0, "ebx",  5 },
	{ "BMI2",		0x7,	    0, "ebx",  8 },
	{ "ERMS",		0x7,	    0, "ebx",  9 },
	{ "AVX512F",		0x7,	    0, "ebx", 16 },
	{ "CLFLUSHOPT",		0x7,	    0, "ebx", 23 },
	{ "SHA_NI",		0x7,	    0, "ebx", 29 },	/* SHA */
	{ "AVX512BW",		0x7,	    0, "ebx", 30 },
	{ "FSRM",		0x7,	    0, "edx",  4 },
	{ "FZRM",		0x7,	    1, "eax", 10 },
	{ "FSRS",		0x7,	    1, "eax", 11 },
	{ "INTEL_PPIN",		0x7,	    1, "ebx",  0 },	/* PPIN_CTL and PPIN MSRs */
	{ "NX",			0x80000001, 0, "edx", 20 },
	{ "GBPAGES",		0x80000001, 0, "edx", 26 },	/* Page1GB */
	{ "LM",			0x80000001, 0, "edx", 29 },
	{ "ABM",		0x80000001, 0, "ecx",  5 },	/* LZCNT (AMD: ABM) */
	{ "TOPOEXT",		0x80000001, 0, "ecx", 22 },
	{ "MCA_OVERFLOW_RECOV",	0x80000007, 0, "ebx",  0 },	/* AMD RAS capabilities */
	{ "SUCCOR",		0x80000007, 0, "ebx",  1 },
	{ "SMCA",		0x80000007, 0, "ebx",  3 },
	{ "INVTSC",		0x80000007, 0, "edx",  8 },
	{ "CLZERO",		0x80000008, 0, "ebx",  0 },
	{ "AMD_PPIN",		0x80000008, 0, "ebx", 23 },	/* PPIN (APM vol. 3, E.4.7) */
};

static const char *const reg_names[] = { "eax", "ebx", "ecx", "edx" };

static int manual_row(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(manual); i++)
		if (!strcmp(manual[i].name, name))
			return (int)i;
	return -1;
}

static void test_table_matches_manuals(void)
{
	bool listed[ARRAY_SIZE(manual)] = { false };

	CHECK(X86_FEATURE_COUNT == ARRAY_SIZE(manual), "%d entries, the manuals list %zu",
	      X86_FEATURE_COUNT, ARRAY_SIZE(manual));
	for (int f = 0; f < X86_FEATURE_COUNT; f++) {
		const struct x86_cpu_feature *x = x86_feature(f);
		int m = manual_row(x->name);

		CHECK(m >= 0, "%s is not in the manuals' list", x->name);
		if (m < 0)
			continue;
		listed[m] = true;
		CHECK(x->leaf == manual[m].leaf && x->subleaf == manual[m].subleaf &&
		      x->reg < 4 && !strcmp(reg_names[x->reg], manual[m].reg) &&
		      x->bit == manual[m].bit, "%s: table says leaf 0x%x.%u %s bit %u, the "
		      "manuals leaf 0x%x.%u %s bit %u", x->name, x->leaf, x->subleaf,
		      x->reg < 4 ? reg_names[x->reg] : "?", x->bit, manual[m].leaf,
		      manual[m].subleaf, manual[m].reg, manual[m].bit);
	}
	for (size_t i = 0; i < ARRAY_SIZE(manual); i++)
		CHECK(listed[i], "%s has no table entry", manual[i].name);
	CHECK(!strcmp(x86_feature(X86_FEATURE_ERMS)->name, "ERMS") &&
	      !strcmp(x86_feature(X86_FEATURE_CLZERO)->name, "CLZERO"),
	      "X86_FEATURE_<name> indexes the entry of that name");
}

/* A fake CPU: the leaves below, everything else zero, and the highest leaves it claims. */
static struct {
	u32 max_leaf, max_ext;
	u32 leaf7_max_sub;
	const char *vendor;
	u32 signature;
	u32 addr_sizes;
	int set;		/* manual[] row whose bit is set, -1 none */
} fake;

static struct cpuid_regs fake_read(u32 leaf, u32 sub)
{
	struct cpuid_regs r = { 0 };
	u32 *regs[4] = { &r.eax, &r.ebx, &r.ecx, &r.edx };

	if (leaf == 0) {
		r.eax = fake.max_leaf;
		memcpy(&r.ebx, fake.vendor, 4);
		memcpy(&r.edx, fake.vendor + 4, 4);
		memcpy(&r.ecx, fake.vendor + 8, 4);
		return r;
	}
	if (leaf == 0x80000000) {
		r.eax = fake.max_ext;
		return r;
	}
	if (leaf == 1)
		r.eax = fake.signature;
	if (leaf == 7 && sub == 0)
		r.eax = fake.leaf7_max_sub;
	if (leaf == 0x80000008)
		r.eax = fake.addr_sizes;
	if (fake.set >= 0 && manual[fake.set].leaf == leaf && manual[fake.set].subleaf == sub)
		for (int i = 0; i < 4; i++)
			if (!strcmp(reg_names[i], manual[fake.set].reg))
				*regs[i] |= 1U << manual[fake.set].bit;
	return r;
}

static void fake_cpu(u32 max_leaf, u32 max_ext, u32 leaf7_max_sub)
{
	fake.max_leaf = max_leaf;
	fake.max_ext = max_ext;
	fake.leaf7_max_sub = leaf7_max_sub;
	fake.vendor = "GenuineIntel";
	fake.signature = 0x00050654;	/* Skylake-SP */
	fake.addr_sizes = 0x302e;	/* 46 physical, 48 linear bits */
	fake.set = -1;
}

/* Each feature alone: cpu_has() sees it, and no other feature. */
static void test_each_feature_alone(void)
{
	struct cpuid_ident id;

	fake_cpu(0x1b, 0x80000008, 1);
	for (size_t m = 0; m < ARRAY_SIZE(manual); m++) {
		int hits = 0;

		fake.set = (int)m;
		cpuid_read_ident(&id, fake_read);
		for (int f = 0; f < X86_FEATURE_COUNT; f++)
			if (cpuid_ident_has(&id, f)) {
				hits++;
				CHECK(!strcmp(x86_feature(f)->name, manual[m].name),
				      "%s's bit reads as %s", manual[m].name, x86_feature(f)->name);
			}
		CHECK(hits == 1, "%s's bit gives %d features", manual[m].name, hits);
	}
}

static void test_identity(void)
{
	struct cpuid_ident id;

	fake_cpu(0x1b, 0x80000008, 1);
	cpuid_read_ident(&id, fake_read);
	CHECK(id.vendor == VENDOR_INTEL && !strcmp(id.vendor_str, "GenuineIntel"), "vendor %s",
	      id.vendor_str);
	CHECK(id.family == 6 && id.model == 0x55 && id.stepping == 4, "Skylake-SP: %x/%x/%u",
	      id.family, id.model, id.stepping);
	CHECK(id.phys_bits == 46, "MAXPHYADDR from 80000008h: %u", id.phys_bits);
	CHECK(id.max_leaf == 0x1b && id.max_ext_leaf == 0x80000008, "highest leaves kept");

	/* Leaves the CPU does not have read as zero, whatever the reader would say. */
	fake_cpu(0x6, 0x80000004, 1);
	fake.set = manual_row("ERMS");
	cpuid_read_ident(&id, fake_read);
	CHECK(!cpuid_ident_has(&id, X86_FEATURE_ERMS), "leaf 7 beyond the highest leaf");
	CHECK(id.phys_bits == CPUID_DEFAULT_PHYS_BITS && id.phys_bits == 36,
	      "no 80000008h: MAXPHYADDR 36 (%u)", id.phys_bits);
	fake.set = manual_row("CLZERO");
	cpuid_read_ident(&id, fake_read);
	CHECK(!cpuid_ident_has(&id, X86_FEATURE_CLZERO), "80000008h beyond the highest leaf");
	fake_cpu(0x1b, 0x80000008, 0);
	fake.set = manual_row("FSRS");
	cpuid_read_ident(&id, fake_read);
	CHECK(!cpuid_ident_has(&id, X86_FEATURE_FSRS), "leaf 7.1 when 7.0 EAX says 0");
	fake_cpu(0x1b, 0x2, 0);		/* no extended leaves: 80000000h echoes a basic one */
	fake.set = manual_row("NX");
	cpuid_read_ident(&id, fake_read);
	CHECK(!cpuid_ident_has(&id, X86_FEATURE_NX) && id.phys_bits == 36,
	      "no extended leaves at all");
	CHECK(!cpuid_ident_has(&id, X86_FEATURE_COUNT), "an index past the table is false");
}

/* IA32_APIC_BASE holds the base in bits MAXPHYADDR-1:12 (SDM vol. 3, "Local APIC"). */
static void test_apic_base_mask(void)
{
	u64 flags = APIC_BASE_EN | APIC_BASE_BSP;

	CHECK(apic_base_addr(0xfee00000ULL | flags, 36) == 0xfee00000ULL, "the usual base");
	CHECK(apic_base_addr(0x3f00fee00000ULL | flags, 46) == 0x3f00fee00000ULL,
	      "a base above 64 GiB keeps its high bits with MAXPHYADDR 46: 0x%llx",
	      (unsigned long long)apic_base_addr(0x3f00fee00000ULL | flags, 46));
	CHECK(apic_base_addr(0x8000fee00000ULL | flags, 39) == 0xfee00000ULL,
	      "bits at and above MAXPHYADDR are not address");
	CHECK(apic_base_addr(0xfee00000ULL | APIC_BASE_EXTD | flags, 52) == 0xfee00000ULL,
	      "the mode and BSP bits are not address");
	CHECK(cpuid_phys_mask(52) == 0xfffffffffffffULL && cpuid_phys_mask(64) == ~0ULL,
	      "phys mask");
}

int main(void)
{
	return RUN_TESTS(test_table_matches_manuals, test_each_feature_alone, test_identity,
			 test_apic_base_mask);
}
