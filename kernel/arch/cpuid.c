// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuid.c - read the CPU's identity and the feature leaves once, answer from the cache (see
 * cpuid.h). The reading is plain C over a reader, host-tested with the CPUID of real parts.
 */
#include "kernel/arch/cpuid.h"
#include "kernel/lib/string.h"

void cpuid_decode_signature(u32 eax, u32 *family, u32 *model, u32 *stepping)
{
	u32 fam = (eax >> 8) & 0xf, mod = (eax >> 4) & 0xf;

	if (fam == 0xf)
		fam += (eax >> 20) & 0xff;
	if (fam >= 0x6)
		mod += ((eax >> 16) & 0xf) << 4;
	*family = fam;
	*model = mod;
	*stepping = eax & 0xf;
}

enum cpu_vendor cpuid_vendor(const char vendor[12])
{
	if (!memcmp(vendor, "GenuineIntel", 12))
		return VENDOR_INTEL;
	if (!memcmp(vendor, "AuthenticAMD", 12))
		return VENDOR_AMD;
	if (!memcmp(vendor, "HygonGenuine", 12))
		return VENDOR_HYGON;
	if (!memcmp(vendor, "CentaurHauls", 12))
		return VENDOR_CENTAUR;
	if (!memcmp(vendor, "  Shanghai  ", 12))
		return VENDOR_ZHAOXIN;
	return VENDOR_OTHER;
}

static bool leaf_exists(const struct cpuid_ident *id, u32 leaf)
{
	if (leaf >= CPUID_LEAF_EXT_MAX)
		return id->max_ext_leaf >= CPUID_LEAF_EXT_MAX && leaf <= id->max_ext_leaf;
	return leaf <= id->max_leaf;
}

/* Leaf @leaf/@sub, or zeros when the CPU lacks it (subleaf 1 of leaf 7 needs 7.0 EAX >= 1). */
static struct cpuid_regs read_leaf(const struct cpuid_ident *id, cpuid_read_fn read, u32 leaf,
				   u32 sub)
{
	struct cpuid_regs none = { 0 };

	if (!leaf_exists(id, leaf))
		return none;
	if (leaf == CPUID_LEAF_EXT_FEATURES && sub > read(leaf, 0).eax)
		return none;
	return read(leaf, sub);
}

static const struct cpuid_leaf *find_leaf(const struct cpuid_ident *id, u32 leaf, u32 sub)
{
	for (unsigned int i = 0; i < id->nr_leaves; i++)
		if (id->leaves[i].leaf == leaf && id->leaves[i].subleaf == sub)
			return &id->leaves[i];
	return NULL;
}

static void read_feature_leaves(struct cpuid_ident *id, cpuid_read_fn read)
{
	for (unsigned int f = 0; f < X86_FEATURE_COUNT; f++) {
		const struct x86_cpu_feature *x = x86_feature(f);
		struct cpuid_leaf *l;

		if (find_leaf(id, x->leaf, x->subleaf) || id->nr_leaves == CPUID_CACHE_LEAVES)
			continue;
		l = &id->leaves[id->nr_leaves++];
		l->leaf = x->leaf;
		l->subleaf = x->subleaf;
		l->r = read_leaf(id, read, x->leaf, x->subleaf);
	}
}

void cpuid_read_ident(struct cpuid_ident *id, cpuid_read_fn read)
{
	struct cpuid_regs r = read(CPUID_LEAF_VENDOR, 0);

	memset(id, 0, sizeof(*id));
	id->max_leaf = r.eax;
	memcpy(id->vendor_str, &r.ebx, 4);
	memcpy(id->vendor_str + 4, &r.edx, 4);
	memcpy(id->vendor_str + 8, &r.ecx, 4);
	id->vendor = cpuid_vendor(id->vendor_str);
	id->max_ext_leaf = read(CPUID_LEAF_EXT_MAX, 0).eax;
	id->signature = read_leaf(id, read, CPUID_LEAF_SIGNATURE, 0).eax;
	cpuid_decode_signature(id->signature, &id->family, &id->model, &id->stepping);
	if (leaf_exists(id, CPUID_LEAF_BRAND + 2)) {
		for (u32 i = 0; i < 3; i++) {
			struct cpuid_regs b = read(CPUID_LEAF_BRAND + i, 0);

			memcpy(id->brand + 16 * i, &b, 16);
		}
	}
	id->phys_bits = CPUID_DEFAULT_PHYS_BITS;
	if (leaf_exists(id, CPUID_LEAF_ADDR_SIZES) && (read(CPUID_LEAF_ADDR_SIZES, 0).eax & 0xff))
		id->phys_bits = read(CPUID_LEAF_ADDR_SIZES, 0).eax & 0xff;
	read_feature_leaves(id, read);
}

bool cpuid_ident_has(const struct cpuid_ident *id, enum x86_feature_id f)
{
	const struct x86_cpu_feature *x;
	const struct cpuid_leaf *l;
	u32 v;

	if ((unsigned int)f >= X86_FEATURE_COUNT)
		return false;
	x = x86_feature(f);
	l = find_leaf(id, x->leaf, x->subleaf);
	if (!l)
		return false;
	v = x->reg == CPUID_EAX ? l->r.eax : x->reg == CPUID_EBX ? l->r.ebx :
	    x->reg == CPUID_ECX ? l->r.ecx : l->r.edx;
	return v & BIT(x->bit);
}

#ifdef CK_KERNEL
static struct cpuid_ident boot_ident;
static bool boot_ident_read;

static struct cpuid_regs cpuid_insn(u32 leaf, u32 subleaf)
{
	return cpuid_count(leaf, subleaf);
}

const struct cpuid_ident *cpuid_boot(void)
{
	if (!boot_ident_read) {
		cpuid_read_ident(&boot_ident, cpuid_insn);
		boot_ident_read = true;
	}
	return &boot_ident;
}

bool cpu_has(enum x86_feature_id f)
{
	return cpuid_ident_has(cpuid_boot(), f);
}

unsigned int cpu_phys_bits(void)
{
	return cpuid_boot()->phys_bits;
}
#endif
