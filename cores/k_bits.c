// SPDX-License-Identifier: GPL-2.0-only
/*
 * k_bits.c - the bit-manipulation kernels, each a chain over the seeded words w with a state
 * x: per word, v = x ^ w; the instructions' results r on v are folded into the digest; then
 * x = rotl(v, 13) + w + r, so a bit flipped in the buffer or the state reaches the end.
 *   popcnt       r = POPCNT(v)                                  (CPUID: POPCNT)
 *   lzcnt_tzcnt  r = LZCNT(v) << 8 | TZCNT(v)                  (CPUID: ABM and BMI1)
 *   pdep_pext    m = rotl(w, 32); r = PDEP(v, m) ^ rotl(PEXT(v, m), 17)   (CPUID: BMI2)
 * Where a CPU lacks ABM or BMI1, LZCNT and TZCNT execute as BSR and BSF and answer something
 * else without a fault, so the CPU's own CPUID decides (never the instruction). The
 * references count, find and gather one bit at a time with a shift and a mask; the host test
 * holds them to hand-worked values and to the instructions on random words.
 */
#include "cores/k_bits.h"

struct bits_step {
	u64 v, r;
};

#define BITS_CHAIN(name, ...)							\
u64 __attribute__((noipa)) name(const u64 *w, size_t n, u64 x)			\
{										\
	u64 acc = CORES_FOLD_INIT;						\
										\
	for (size_t i = 0; i < n; i++) {					\
		u64 v = x ^ w[i], r;						\
										\
		__VA_ARGS__;							\
		acc = cores_fold(acc, r);					\
		x = cores_rotl(v, 13) + w[i] + r;				\
	}									\
	return cores_fold(acc, x);						\
}

BITS_CHAIN(cores_popcnt_chain, __asm__("popcntq %1, %0" : "=r"(r) : "r"(v)))

BITS_CHAIN(cores_lzcnt_chain, {
	u64 l, t;

	__asm__("lzcntq %1, %0" : "=r"(l) : "r"(v));
	__asm__("tzcntq %1, %0" : "=r"(t) : "r"(v));
	r = l << 8 | t;
})

BITS_CHAIN(cores_pdep_chain, {
	u64 m = cores_rotl(w[i], 32), d, e;

	__asm__("pdepq %2, %1, %0" : "=r"(d) : "r"(v), "r"(m));
	__asm__("pextq %2, %1, %0" : "=r"(e) : "r"(v), "r"(m));
	r = d ^ cores_rotl(e, 17);
})

unsigned int cores_popcnt_ref(u64 v)
{
	unsigned int c = 0;

	for (int b = 0; b < 64; b++)
		c += (v >> b) & 1;
	return c;
}

unsigned int cores_lzcnt_ref(u64 v)
{
	unsigned int c = 0;

	while (c < 64 && !(v & (1ULL << (63 - c))))
		c++;
	return c;
}

unsigned int cores_tzcnt_ref(u64 v)
{
	unsigned int c = 0;

	while (c < 64 && !(v & (1ULL << c)))
		c++;
	return c;
}

/* The low bits of @v, in order, into the set bits of @mask (SDM: PDEP). */
u64 cores_pdep_ref(u64 v, u64 mask)
{
	u64 out = 0;
	unsigned int k = 0;

	for (int b = 0; b < 64; b++)
		if (mask & (1ULL << b))
			out |= ((v >> k++) & 1) << b;
	return out;
}

/* The bits of @v under the set bits of @mask, in order, into the low bits (SDM: PEXT). */
u64 cores_pext_ref(u64 v, u64 mask)
{
	u64 out = 0;
	unsigned int k = 0;

	for (int b = 0; b < 64; b++)
		if (mask & (1ULL << b))
			out |= ((v >> b) & 1) << k++;
	return out;
}

static u64 ref_step(unsigned int arg, u64 v, u64 w)
{
	u64 m = cores_rotl(w, 32);

	switch (arg) {
	case 0:
		return cores_popcnt_ref(v);
	case 1:
		return (u64)cores_lzcnt_ref(v) << 8 | cores_tzcnt_ref(v);
	default:
		return cores_pdep_ref(v, m) ^ cores_rotl(cores_pext_ref(v, m), 17);
	}
}

/* The chain again, the words taken straight from the seed, the steps by the references. */
static u64 bits_known(const struct cores_kernel *k, u64 seed)
{
	u64 acc = CORES_FOLD_INIT, x = seed;

	for (size_t i = 0; i < CORES_WORDS; i++) {
		u64 w = cores_word(seed, i), v = x ^ w, r = ref_step(k->arg, v, w);

		acc = cores_fold(acc, r);
		x = cores_rotl(v, 13) + w + r;
	}
	return cores_fold(acc, x);
}

typedef u64 (*bits_fn)(const u64 *w, size_t n, u64 x);

static u64 bits_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	u64 *w = (u64 *)a->src;

	for (size_t i = 0; i < CORES_WORDS; i++)
		w[i] = cores_word(seed, i);
	return ((bits_fn)k->fn)(w, CORES_WORDS, seed);
}

static const char *popcnt_cannot(const struct cores_kernel *k)
{
	return cores_cpu_has(X86_FEATURE_POPCNT) ? NULL : "no POPCNT (CPUID)";
}

static const char *lzcnt_cannot(const struct cores_kernel *k)
{
	if (!cores_cpu_has(X86_FEATURE_ABM))
		return "no LZCNT (CPUID ABM): lzcnt would run as bsr";
	if (!cores_cpu_has(X86_FEATURE_BMI1))
		return "no BMI1 (CPUID): tzcnt would run as bsf";
	return NULL;
}

static const char *pdep_cannot(const struct cores_kernel *k)
{
	return cores_cpu_has(X86_FEATURE_BMI2) ? NULL : "no BMI2 (CPUID): no pdep or pext";
}

const struct cores_kernel cores_bits_kernels[] = {
	{ .name = "popcnt", .family = "integer", .cannot = popcnt_cannot, .run = bits_run,
	  .known = bits_known, .fn = (const void *)cores_popcnt_chain, .arg = 0 },
	{ .name = "lzcnt_tzcnt", .family = "integer", .cannot = lzcnt_cannot, .run = bits_run,
	  .known = bits_known, .fn = (const void *)cores_lzcnt_chain, .arg = 1 },
	{ .name = "pdep_pext", .family = "integer", .cannot = pdep_cannot, .run = bits_run,
	  .known = bits_known, .fn = (const void *)cores_pdep_chain, .arg = 2 },
};
const unsigned int cores_nr_bits_kernels = ARRAY_SIZE(cores_bits_kernels);
