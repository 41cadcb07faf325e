// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu.c - fill struct cpu_ident (kernel/platform/cpufeat.h) from the boot CPU's cached CPUID
 * (kernel/arch/cpuid.h) and the MSRs, list the caches, then print them. MSRs that may not
 * exist are read with rdmsr_safe.
 */
#include "kernel/arch/cpuid.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/cpu_here.h"

static struct cpu_ident ident;
static struct cpu_caches caches;

const struct cpu_ident *cpu(void)
{
	return &ident;
}

const struct cpu_caches *cpu_caches(void)
{
	return &caches;
}

static void add_cache(u8 level, char type, u16 line, u32 ways, u64 size, bool incl)
{
	if (caches.n < CPU_MAX_CACHES && size)
		caches.c[caches.n++] = (struct cache_level){ level, type, line, ways, size, incl };
}

/* CPUID 4 (Intel) and 8000001Dh (AMD with TOPOEXT) share one layout. */
static void read_deterministic_caches(u32 leaf)
{
	for (u32 i = 0; i < 16; i++) {
		struct cpuid_regs r = cpuid_count(leaf, i);
		u32 type = r.eax & 0x1f;
		u32 ways = ((r.ebx >> 22) & 0x3ff) + 1, parts = ((r.ebx >> 12) & 0x3ff) + 1;
		u32 line = (r.ebx & 0xfff) + 1, sets = r.ecx + 1;

		if (type == 0)
			break;
		add_cache((r.eax >> 5) & 7, type == 1 ? 'd' : type == 2 ? 'i' : 'u', (u16)line,
			  ways, (u64)ways * parts * line * sets, r.edx & BIT(1));
	}
}

static void read_amd_legacy_caches(u32 maxext)
{
	struct cpuid_regs r;

	if (maxext >= CPUID_LEAF_L1_CACHE_AMD) {
		r = cpuid(CPUID_LEAF_L1_CACHE_AMD);
		add_cache(1, 'd', r.ecx & 0xff, (r.ecx >> 16) & 0xff, (u64)(r.ecx >> 24) << 10, 0);
		add_cache(1, 'i', r.edx & 0xff, (r.edx >> 16) & 0xff, (u64)(r.edx >> 24) << 10, 0);
	}
	if (maxext >= CPUID_LEAF_L2_CACHE_AMD) {
		r = cpuid(CPUID_LEAF_L2_CACHE_AMD);
		add_cache(2, 'u', r.ecx & 0xff, (r.ecx >> 12) & 0xf, (u64)(r.ecx >> 16) << 10, 0);
		add_cache(3, 'u', r.edx & 0xff, (r.edx >> 12) & 0xf, (u64)(r.edx >> 18) << 19, 0);
	}
}

static void read_caches(const struct cpuid_ident *id)
{
	caches.n = 0;
	if (id->vendor == VENDOR_INTEL && id->max_leaf >= CPUID_LEAF_CACHE) {
		read_deterministic_caches(CPUID_LEAF_CACHE);
		caches.source = "CPUID 4";
	} else if (ident.topoext && id->max_ext_leaf >= CPUID_LEAF_CACHE_AMD) {
		read_deterministic_caches(CPUID_LEAF_CACHE_AMD);
		caches.source = "CPUID 8000001Dh";
	}
	if (!caches.n) {
		read_amd_legacy_caches(id->max_ext_leaf);
		caches.source = caches.n ? "CPUID 80000005h/80000006h" : "nothing";
	}
}

/* The features this project asks about, as the boot CPU's cached CPUID states them. */
static void read_features(struct cpu_ident *c)
{
	c->apic = cpu_has(X86_FEATURE_APIC);
	c->mce = cpu_has(X86_FEATURE_MCE);
	c->mca = cpu_has(X86_FEATURE_MCA);
	c->hypervisor = cpu_has(X86_FEATURE_HYPERVISOR);
	c->osxsave = cpu_has(X86_FEATURE_OSXSAVE);
	c->erms = cpu_has(X86_FEATURE_ERMS);
	c->avx2 = cpu_has(X86_FEATURE_AVX2);
	c->avx512f = cpu_has(X86_FEATURE_AVX512F);
	c->clflushopt = cpu_has(X86_FEATURE_CLFLUSHOPT);
	c->fsrm = cpu_has(X86_FEATURE_FSRM);
	c->fzrm = cpu_has(X86_FEATURE_FZRM);
	c->fsrs = cpu_has(X86_FEATURE_FSRS);
	c->pdpe1gb = cpu_has(X86_FEATURE_GBPAGES);
	c->nx = cpu_has(X86_FEATURE_NX);
	c->topoext = cpu_has(X86_FEATURE_TOPOEXT);
	c->invtsc = cpu_has(X86_FEATURE_INVTSC);
	c->clzero = cpu_has(X86_FEATURE_CLZERO);
	if (c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON) {
		c->smca = cpu_has(X86_FEATURE_SMCA);
		c->succor = cpu_has(X86_FEATURE_SUCCOR);
		c->mca_ovf_recov = cpu_has(X86_FEATURE_MCA_OVERFLOW_RECOV);
	}
}

/* The MSRs that may not exist, each read with rdmsr_safe. */
static void read_msrs(struct cpu_ident *c)
{
	u64 v;

	c->ucode_valid = cpu_ucode_rev_here(&c->ucode_rev);
	if (c->vendor == VENDOR_INTEL && rdmsr_safe(MSR_IA32_MISC_ENABLE, &v) == 0) {
		c->misc_enable_valid = true;
		c->fast_strings = v & MISC_ENABLE_FAST_STRING;
	}
	if (c->mca && rdmsr_safe(MSR_IA32_MCG_CAP, &v) == 0) {
		c->mcg_cap_valid = true;
		c->mcg_cap = v;
	}
}

void cpu_init(void)
{
	const struct cpuid_ident *id = cpuid_boot();

	memset(&ident, 0, sizeof(ident));
	memcpy(ident.vendor_str, id->vendor_str, sizeof(ident.vendor_str));
	memcpy(ident.brand, id->brand, sizeof(ident.brand));
	ident.vendor = id->vendor;
	ident.signature = id->signature;
	ident.family = id->family;
	ident.model = id->model;
	ident.stepping = id->stepping;
	read_features(&ident);
	read_msrs(&ident);
	cpufeat_apply_rules(&ident);
	read_caches(id);
}

u64 cpu_llc_size(void)
{
	u64 best = 0;

	for (unsigned int i = 0; i < caches.n; i++)
		best = MAX(best, caches.c[i].size);
	return best;
}

static const char *yn(bool b)
{
	return b ? "yes" : "no";
}

static void print_size(u64 bytes)
{
	if (bytes >= (1 << 20) && !(bytes & ((1 << 20) - 1)))
		printk("%llu MiB", (unsigned long long)bytes >> 20);
	else
		printk("%llu KiB", (unsigned long long)bytes >> 10);
}

void cpu_report(void)
{
	const struct cpu_ident *c = &ident;
	const char *brand = c->brand;
	const char *no_ppin;
	u64 ppin;

	while (*brand == ' ')
		brand++;
	printk("CPU: %s family 0x%x model 0x%x stepping %u (signature 0x%x)%s\n", c->vendor_str,
	       c->family, c->model, c->stepping, c->signature,
	       c->hypervisor ? ", running under a hypervisor" : "");
	if (*brand)
		printk("CPU: %s\n", brand);
	if (c->ucode_valid)
		printk("CPU: microcode revision 0x%x\n", c->ucode_rev);
	else
		printk("CPU: microcode revision not readable\n");
	if (cpu_ppin_here(&ppin, &no_ppin))
		printk("CPU: PPIN 0x%016llx\n", (unsigned long long)ppin);
	else
		printk("CPU: no PPIN: %s\n", no_ppin);
	printk("CPU: string ops: ERMS %s FSRM %s FZRM %s FSRS %s REP_GOOD %s (%s)", yn(c->erms),
	       yn(c->fsrm), yn(c->fzrm), yn(c->fsrs), yn(c->rep_good), c->rep_good_why);
	if (c->erms && !c->erms_effective)
		printk(", ERMS dropped with fast strings");
	if (c->misc_enable_valid)
		printk(", fast strings %s", c->fast_strings ? "on" : "off");
	printk("\n");
	printk("CPU: paging: pdpe1gb %s NX %s; SIMD: AVX2 %s AVX-512F %s; cache ops: CLFLUSHOPT %s "
	       "CLZERO %s; invariant TSC %s\n", yn(c->pdpe1gb), yn(c->nx), yn(c->avx2),
	       yn(c->avx512f), yn(c->clflushopt), yn(c->clzero), yn(c->invtsc));
	printk("CPU: machine check: MCE %s MCA %s", yn(c->mce), yn(c->mca));
	if (c->mcg_cap_valid)
		printk(", MCG_CAP 0x%llx (%u banks, CTL_P %s, SER_P %s, LMCE_P %s)",
		       (unsigned long long)c->mcg_cap, MCG_CAP_COUNT(c->mcg_cap),
		       yn(c->mcg_cap & MCG_CTL_P), yn(c->mcg_cap & MCG_SER_P),
		       yn(c->mcg_cap & MCG_LMCE_P));
	if (c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON)
		printk(", SMCA %s SUCCOR %s McaOverflowRecov %s", yn(c->smca), yn(c->succor),
		       yn(c->mca_ovf_recov));
	printk("\n");
	printk("CPU: caches (%s):", caches.source);
	for (unsigned int i = 0; i < caches.n; i++) {
		const struct cache_level *l = &caches.c[i];

		printk("%s L%u%c ", i ? "," : "", l->level, l->type);
		print_size(l->size);
		printk(" %u-way %u B lines", l->ways, l->line);
	}
	printk(caches.n ? "\n" : " none reported\n");
}
