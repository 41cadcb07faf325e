// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu.c - read CPUID and the MSRs into struct cpu_ident (kernel/platform/cpufeat.h) and the cache
 * list, then print them. MSRs that may not exist are read with rdmsr_safe.
 */
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"

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

	if (maxext >= 0x80000005) {
		r = cpuid(0x80000005);
		add_cache(1, 'd', r.ecx & 0xff, (r.ecx >> 16) & 0xff, (u64)(r.ecx >> 24) << 10, 0);
		add_cache(1, 'i', r.edx & 0xff, (r.edx >> 16) & 0xff, (u64)(r.edx >> 24) << 10, 0);
	}
	if (maxext >= 0x80000006) {
		r = cpuid(0x80000006);
		add_cache(2, 'u', r.ecx & 0xff, (r.ecx >> 12) & 0xf, (u64)(r.ecx >> 16) << 10, 0);
		add_cache(3, 'u', r.edx & 0xff, (r.edx >> 12) & 0xf, (u64)(r.edx >> 18) << 19, 0);
	}
}

void cpu_init(void)
{
	struct cpuid_regs r = cpuid(0), f1, f7 = { 0 }, f71 = { 0 }, e1 = { 0 }, e7 = { 0 };
	struct cpuid_regs e8 = { 0 };
	u32 max = r.eax, maxext = cpuid(0x80000000).eax;
	u64 v;

	memset(&ident, 0, sizeof(ident));
	memcpy(ident.vendor_str, &r.ebx, 4);
	memcpy(ident.vendor_str + 4, &r.edx, 4);
	memcpy(ident.vendor_str + 8, &r.ecx, 4);
	ident.vendor = cpufeat_vendor(ident.vendor_str);
	f1 = cpuid(1);
	ident.signature = f1.eax;
	cpufeat_decode_signature(f1.eax, &ident.family, &ident.model, &ident.stepping);
	if (max >= 7) {
		f7 = cpuid_count(7, 0);
		if (f7.eax >= 1)
			f71 = cpuid_count(7, 1);
	}
	if (maxext >= 0x80000001)
		e1 = cpuid(0x80000001);
	if (maxext >= 0x80000007)
		e7 = cpuid(0x80000007);
	if (maxext >= 0x80000008)
		e8 = cpuid(0x80000008);
	if (maxext >= 0x80000004) {
		for (u32 i = 0; i < 3; i++) {
			struct cpuid_regs b = cpuid(0x80000002 + i);

			memcpy(ident.brand + 16 * i, &b, 16);
		}
	}
	ident.apic = f1.edx & BIT(9);
	ident.mce = f1.edx & BIT(7);
	ident.mca = f1.edx & BIT(14);
	ident.hypervisor = f1.ecx & BIT(31);
	ident.osxsave = f1.ecx & BIT(27);
	ident.erms = f7.ebx & BIT(9);
	ident.avx2 = f7.ebx & BIT(5);
	ident.avx512f = f7.ebx & BIT(16);
	ident.clflushopt = f7.ebx & BIT(23);
	ident.fsrm = f7.edx & BIT(4);
	ident.fzrm = f71.eax & BIT(10);
	ident.fsrs = f71.eax & BIT(11);
	ident.pdpe1gb = e1.edx & BIT(26);
	ident.nx = e1.edx & BIT(20);
	ident.topoext = e1.ecx & BIT(22);
	ident.invtsc = e7.edx & BIT(8);
	ident.clzero = e8.ebx & BIT(0);
	if (ident.vendor == VENDOR_AMD || ident.vendor == VENDOR_HYGON) {
		ident.smca = e7.ebx & BIT(3);
		ident.succor = e7.ebx & BIT(1);
		ident.mca_ovf_recov = e7.ebx & BIT(0);
	}

	/* Microcode revision: write 0, run CPUID 1, read it back (Intel's SDM 9.11.7.1). */
	if (wrmsr_safe(MSR_IA32_UCODE_REV, 0) == 0) {
		cpuid(1);
		if (rdmsr_safe(MSR_IA32_UCODE_REV, &v) == 0) {
			ident.ucode_valid = true;
			ident.ucode_rev = ident.vendor == VENDOR_INTEL ? (u32)(v >> 32) : (u32)v;
		}
	}
	if (ident.vendor == VENDOR_INTEL && rdmsr_safe(MSR_IA32_MISC_ENABLE, &v) == 0) {
		ident.misc_enable_valid = true;
		ident.fast_strings = v & BIT(0);
	}
	if (ident.mca && rdmsr_safe(0x179, &v) == 0) {
		ident.mcg_cap_valid = true;
		ident.mcg_cap = v;
	}
	cpufeat_apply_rules(&ident);

	caches.n = 0;
	if (ident.vendor == VENDOR_INTEL && max >= 4) {
		read_deterministic_caches(4);
		caches.source = "CPUID 4";
	} else if (ident.topoext && maxext >= 0x8000001d) {
		read_deterministic_caches(0x8000001d);
		caches.source = "CPUID 8000001Dh";
	}
	if (!caches.n) {
		read_amd_legacy_caches(maxext);
		caches.source = caches.n ? "CPUID 80000005h/80000006h" : "nothing";
	}
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
