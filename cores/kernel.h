/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel.h - what a cores kernel is: a seeded piece of work every CPU runs at once, which
 * returns a 64-bit digest, and beside it the known answer for the same seed computed by
 * another method (never by the routine under test). The seeded data, the digest's fold and
 * "can this CPU run it" (CPUID asked on the CPU that runs the kernel) are here, shared by
 * the families (k_copy.c, k_int.c, k_bits.c, k_crypto.c, k_vec.c, k_fma.c, k_x87.c). Plain C,
 * built for the host too.
 */
#ifndef CK_CORES_KERNEL_H
#define CK_CORES_KERNEL_H

#include "kernel/include/cpufeature.h"
#include "kernel/include/types.h"
#include "kernel/include/x86.h"

/* Bytes in each of a CPU's two buffers (two pages: the page copies run twice). */
#define CORES_BUF	8192
#define CORES_WORDS	(CORES_BUF / 8)

/* One CPU's buffers, CORES_BUF bytes each, 4 KiB aligned, its own. */
struct cores_area {
	u8 *src, *dst;
};

struct cores_kernel {
	const char *name;
	const char *family;		/* "copy", "integer", "vector", "x87" */
	/* NULL when the CPU running it can run it, else why not (CPUID asked there). */
	const char *(*cannot)(const struct cores_kernel *k);
	/* The digest this CPU computes in @a for @seed. */
	u64 (*run)(const struct cores_kernel *k, const struct cores_area *a, u64 seed);
	/* The known answer for @seed, by an independent method. */
	u64 (*known)(const struct cores_kernel *k, u64 seed);
	const void *fn;			/* the routine under test */
	unsigned int arg;
};

/* Word @i of the seeded data: splitmix64 of the seed and the index, stateless. */
static inline u64 cores_word(u64 seed, u64 i)
{
	u64 z = seed + (i + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline u64 cores_rotl(u64 x, unsigned int s)
{
	return s & 63 ? x << (s & 63) | x >> (64 - (s & 63)) : x;
}

/* The digest's fold of one more word. */
static inline u64 cores_fold(u64 d, u64 w)
{
	return cores_rotl((d ^ w) * 0x100000001b3ULL, 29);
}

#define CORES_FOLD_INIT	0xcbf29ce484222325ULL

/* The vector and FMA kernels' @n starting lanes for @seed, and the digest of their last. */
static inline void cores_lanes_init(u64 *lanes, unsigned int n, u64 seed)
{
	for (unsigned int l = 0; l < n; l++)
		lanes[l] = seed ^ cores_word(~seed, l);
}

static inline u64 cores_lanes_digest(const u64 *lanes, unsigned int n)
{
	u64 d = CORES_FOLD_INIT;

	for (unsigned int l = 0; l < n; l++)
		d = cores_fold(d, lanes[l]);
	return d;
}

/* Feature @f as CPUID reports it on the CPU that asks (not the boot CPU's cached copy). */
static inline bool cores_cpu_has(enum x86_feature_id f)
{
	const struct x86_cpu_feature *x = x86_feature(f);
	struct cpuid_regs r;
	u32 v;

	if (cpuid(x->leaf & 0x80000000U).eax < x->leaf)
		return false;
	r = cpuid_count(x->leaf, x->subleaf);
	v = x->reg == CPUID_EAX ? r.eax : x->reg == CPUID_EBX ? r.ebx :
	    x->reg == CPUID_ECX ? r.ecx : r.edx;
	return v >> x->bit & 1;
}

/* The state components this CPU's XCR0 enables (0 without OSXSAVE). */
static inline u64 cores_xcr0(void)
{
	u32 lo, hi;

	if (!cores_cpu_has(X86_FEATURE_OSXSAVE))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (u64)hi << 32 | lo;
}

/* NULL when this CPU has AVX2 and its XCR0 enables the YMM state; else why not. */
static inline const char *cores_cannot_avx2(void)
{
	if (!cores_cpu_has(X86_FEATURE_AVX2))
		return "no AVX2 (CPUID)";
	if ((cores_xcr0() & (XCR0_SSE | XCR0_YMM)) != (XCR0_SSE | XCR0_YMM))
		return "AVX2 listed but the YMM state is not enabled (XCR0)";
	return NULL;
}

/* NULL when this CPU has AVX-512F and its XCR0 enables the opmask and ZMM state; else why not. */
static inline const char *cores_cannot_avx512(void)
{
	u64 want = XCR0_SSE | XCR0_YMM | XCR0_AVX512;

	if (!cores_cpu_has(X86_FEATURE_AVX512F))
		return "no AVX-512F (CPUID)";
	if ((cores_xcr0() & want) != want)
		return "AVX-512F listed but the opmask and ZMM state are not enabled (XCR0)";
	return NULL;
}

#endif
