/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuid.h - the CPU's identity as CPUID states it, read once on the boot CPU and cached:
 * vendor, signature (family, model, stepping), brand, MAXPHYADDR and every leaf the feature
 * table (kernel/include/cpufeature.h) names. cpu_has(X86_FEATURE_...) answers from the
 * cache. Reading is plain C over a reader function, so the host tests feed it the CPUID of
 * real parts; the image's reader is the instruction. Linux's derived features (REP_GOOD)
 * are kernel/platform/cpufeat.c's.
 */
#ifndef CK_CPUID_H
#define CK_CPUID_H

#include "kernel/include/cpufeature.h"
#include "kernel/include/page_types.h"
#include "kernel/include/x86.h"

enum cpu_vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD, VENDOR_HYGON, VENDOR_CENTAUR,
		  VENDOR_ZHAOXIN };

/* Enough for every distinct (leaf, subleaf) of X86_FEATURE_LIST. */
#define CPUID_CACHE_LEAVES	12

struct cpuid_ident {
	enum cpu_vendor vendor;
	char vendor_str[13];
	char brand[49];
	u32 max_leaf, max_ext_leaf;
	u32 signature;			/* leaf 1 EAX */
	u32 family, model, stepping;	/* with the extended fields folded in */
	unsigned int phys_bits;		/* MAXPHYADDR */
	unsigned int nr_leaves;
	struct cpuid_leaf {
		u32 leaf, subleaf;
		struct cpuid_regs r;	/* all zero when the CPU lacks the leaf */
	} leaves[CPUID_CACHE_LEAVES];
};

typedef struct cpuid_regs (*cpuid_read_fn)(u32 leaf, u32 subleaf);

/* Family/model/stepping from a leaf 1 EAX signature, as Linux folds the extended fields. */
void cpuid_decode_signature(u32 eax, u32 *family, u32 *model, u32 *stepping);
enum cpu_vendor cpuid_vendor(const char vendor[12]);
/* Read everything struct cpuid_ident holds through @read (leaves the CPU lacks read 0). */
void cpuid_read_ident(struct cpuid_ident *id, cpuid_read_fn read);
/* Whether @id's cached leaves have feature @f. */
bool cpuid_ident_has(const struct cpuid_ident *id, enum x86_feature_id f);
/* The address bits a physical address may have: (1 << MAXPHYADDR) - 1. */
static inline u64 cpuid_phys_mask(unsigned int phys_bits)
{
	return PHYS_ADDR_MASK(phys_bits);
}

#ifdef CK_KERNEL
/* The boot CPU's identity: read on first use (before the APs start), cached after. */
const struct cpuid_ident *cpuid_boot(void);
/* Whether the boot CPU reports feature @f (CPUID as the CPU states it, no Linux rules). */
bool cpu_has(enum x86_feature_id f);
/* The boot CPU's MAXPHYADDR. */
unsigned int cpu_phys_bits(void);
#endif

#endif
