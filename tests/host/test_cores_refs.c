// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cores_refs.c - the references of the cores suite's newer kernels held to sources
 * outside this code, and each instruction held to them where this CPU has it:
 *   AES      FIPS-197 appendix B and C.1 (key expansion and cipher), then AES-NI with the
 *            same round keys;
 *   SHA-256  FIPS 180-4's examples ("abc", the 448-bit two-block message) and the NIST
 *            one-million-"a" value, then the SHA extensions;
 *   CLMUL    products worked by hand in GF(2)[x], the algebra (commutes, distributes over
 *            xor, a power of x is a shift), then PCLMULQDQ on random words;
 *   bits     hand-worked values (the SDM's PDEP/PEXT figure), gcc's __builtin_popcountll,
 *            __builtin_clzll and __builtin_ctzll, then POPCNT, LZCNT, TZCNT, PDEP, PEXT;
 *   FMA      the exact integer reference against C's fma() (glibc, correctly rounded) and
 *            the product rounded by the host's own multiply, on random and edge operands.
 * Then every new kernel's digest moves when a bit of its buffer is flipped.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "cores/crypto_ref.h"
#include "cores/k_bits.h"
#include "cores/k_crypto.h"
#include "cores/k_fma.h"
#include "cores/k_vec.h"
#include "tests/host/host_test.h"

static void unhex(const char *h, u8 *out)
{
	for (size_t i = 0; h[2 * i]; i++) {
		unsigned int b;

		sscanf(h + 2 * i, "%2x", &b);
		out[i] = (u8)b;
	}
}

static bool same(const u8 *a, const char *hex, size_t n)
{
	u8 want[64];

	unhex(hex, want);
	return !memcmp(a, want, n);
}

static void test_aes_fips197(void)
{
	static const struct {
		const char *key, *in, *out, *where;
	} v[] = {
		{ "2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
		  "3925841d02dc09fbdc118597196a0b32", "appendix B" },
		{ "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
		  "69c4e0d86a7b0430d8cdb78070b4c55a", "appendix C.1" },
	};
	u8 sbox[256], key[16], in[16], out[16], rk[176];

	cores_aes_sbox(sbox);
	CHECK(sbox[0x00] == 0x63 && sbox[0x53] == 0xed && sbox[0xff] == 0x16,
	      "FIPS-197 figure 7: S(00) = 63, S(53) = ed, S(ff) = 16 (%02x %02x %02x)",
	      sbox[0], sbox[0x53], sbox[0xff]);
	unhex("2b7e151628aed2a6abf7158809cf4f3c", key);
	cores_aes128_expand_ref(sbox, key, rk);
	CHECK(same(rk + 16 * 10, "d014f9a8c9ee2589e13f0cc8b6630ca6", 16),
	      "FIPS-197 A.1: w[40..43] = d014f9a8 c9ee2589 e13f0cc8 b6630ca6");
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		u8 st[16];

		unhex(v[i].key, key);
		unhex(v[i].in, in);
		cores_aes128_expand_ref(sbox, key, rk);
		cores_aes128_encrypt_ref(sbox, rk, in, out);
		CHECK(same(out, v[i].out, 16), "software AES-128, FIPS-197 %s", v[i].where);
		if (!cores_cpu_has(X86_FEATURE_AES))
			continue;
		/* One CBC block from a zero chain is one encryption. */
		memset(st, 0, 16);
		cores_aes128_cbc(in, 1, rk, st);
		CHECK(same(st, v[i].out, 16), "AES-NI with the same round keys, FIPS-197 %s",
		      v[i].where);
	}
	if (!cores_cpu_has(X86_FEATURE_AES))
		SKIP("no AES-NI here: the instruction's vectors not run");
}

static void test_sha256_fips180(void)
{
	static const char *const abc =
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	static const char *const two =
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
	static const char *const mil =
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	const char *msg2 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	struct cores_sha256_ref s;
	u8 h[32], *a = malloc(1000000);

	cores_sha256_ref_init(&s);
	CHECK(s.k[0] == 0x428a2f98 && s.k[63] == 0xc67178f2 && s.h[0] == 0x6a09e667 &&
	      s.h[7] == 0x5be0cd19, "the constants from the primes: K0 %08x K63 %08x H0 %08x H7 "
	      "%08x", s.k[0], s.k[63], s.h[0], s.h[7]);
	cores_sha256_ref_update(&s, (const u8 *)"abc", 3);
	cores_sha256_ref_final(&s, h);
	CHECK(same(h, abc, 32), "software SHA-256 of \"abc\" (FIPS 180-4 example)");
	cores_sha256_ref_init(&s);
	cores_sha256_ref_update(&s, (const u8 *)msg2, strlen(msg2));
	cores_sha256_ref_final(&s, h);
	CHECK(same(h, two, 32), "software SHA-256 of the 448-bit message (two blocks)");
	memset(a, 'a', 1000000);
	cores_sha256_ref_init(&s);
	cores_sha256_ref_update(&s, a, 1000000);
	cores_sha256_ref_final(&s, h);
	CHECK(same(h, mil, 32), "software SHA-256 of a million 'a'");
	if (!cores_cpu_has(X86_FEATURE_SHA_NI)) {
		SKIP("no SHA extensions here: the instructions' vectors not run");
		free(a);
		return;
	}
	cores_sha256_insn((const u8 *)"abc", 3, h);
	CHECK(same(h, abc, 32), "SHA-NI SHA-256 of \"abc\"");
	cores_sha256_insn((const u8 *)msg2, strlen(msg2), h);
	CHECK(same(h, two, 32), "SHA-NI SHA-256 of the 448-bit message");
	cores_sha256_insn(a, 1000000, h);
	CHECK(same(h, mil, 32), "SHA-NI SHA-256 of a million 'a'");
	free(a);
}

static u64 rnd(void)
{
	return (u64)rand() << 42 ^ (u64)rand() << 21 ^ (u64)rand();
}

static void test_clmul(void)
{
	u64 lo, hi;

	/* (x + 1)^2 = x^2 + 1; (x^63)(x^63) = x^126; (x^2 + x + 1)(x + 1) = x^3 + 1. */
	cores_clmul_ref(3, 3, &lo, &hi);
	CHECK(lo == 5 && hi == 0, "(x+1)^2 = x^2+1: %llx:%llx", (unsigned long long)hi,
	      (unsigned long long)lo);
	cores_clmul_ref(1ULL << 63, 1ULL << 63, &lo, &hi);
	CHECK(lo == 0 && hi == 1ULL << 62, "x^63 * x^63 = x^126");
	cores_clmul_ref(7, 3, &lo, &hi);
	CHECK(lo == 9 && hi == 0, "(x^2+x+1)(x+1) = x^3+1");
	cores_clmul_ref(~0ULL, ~0ULL, &lo, &hi);
	CHECK(lo == 0x5555555555555555ULL && hi == 0x5555555555555555ULL,
	      "(all ones)^2 = the sum of x^2i: every even bit (%llx:%llx)",
	      (unsigned long long)hi, (unsigned long long)lo);
	srand(36);
	for (int i = 0; i < 2000; i++) {
		u64 a = rnd(), b = rnd(), c = rnd(), l1, h1, l2, h2, l3, h3;
		unsigned int k = (unsigned int)rand() % 64;

		cores_clmul_ref(a, b, &l1, &h1);
		cores_clmul_ref(b, a, &l2, &h2);
		CHECK(l1 == l2 && h1 == h2, "a*b = b*a");
		cores_clmul_ref(a, c, &l2, &h2);
		cores_clmul_ref(a, b ^ c, &l3, &h3);
		CHECK(l3 == (l1 ^ l2) && h3 == (h1 ^ h2), "a*(b^c) = a*b ^ a*c");
		cores_clmul_ref(a, 1ULL << k, &l1, &h1);
		CHECK(l1 == a << k && h1 == (k ? a >> (64 - k) : 0), "a * x^%u is a shift", k);
		if (!cores_cpu_has(X86_FEATURE_PCLMULQDQ))
			continue;
		u64 st[2] = { a, 0 }, blk[2] = { b, 0 };

		/*
		 * From state (a, 0) and block (b, 0): b' = fold(a*b), a*0 and b'*0 add nothing,
		 * then a ^= fold(b'*b) and the block: (a ^ fold(b'*b) ^ b, b').
		 */
		cores_clmul_chain(blk, 1, st);
		cores_clmul_ref(a, b, &l1, &h1);
		cores_clmul_ref(l1 ^ h1, b, &l2, &h2);
		CHECK(st[1] == (l1 ^ h1) && st[0] == (a ^ l2 ^ h2 ^ b),
		      "PCLMULQDQ and the reference: %llx %llx", (unsigned long long)a,
		      (unsigned long long)b);
	}
	if (!cores_cpu_has(X86_FEATURE_PCLMULQDQ))
		SKIP("no PCLMULQDQ here: the instruction not compared");
}

static void test_bits(void)
{
	/* SDM vol. 2B, PDEP and PEXT figures: source and mask, one bit each way. */
	CHECK(cores_pext_ref(0xf0f0f0f0f0f0f0f0ULL, 0xff00ff00ff00ff00ULL) == 0xf0f0f0f0,
	      "pext gathers the masked bytes");
	CHECK(cores_pdep_ref(0xf0f0f0f0ULL, 0xff00ff00ff00ff00ULL) == 0xf000f000f000f000ULL,
	      "pdep scatters them back");
	CHECK(cores_pdep_ref(0b101, 0b111000) == 0b101000 && cores_pext_ref(0b101000, 0b111000)
	      == 0b101, "pdep/pext of 0b101 under 0b111000");
	CHECK(cores_pdep_ref(~0ULL, 0) == 0 && cores_pext_ref(~0ULL, 0) == 0, "an empty mask");
	CHECK(cores_popcnt_ref(0) == 0 && cores_popcnt_ref(~0ULL) == 64 &&
	      cores_lzcnt_ref(0) == 64 && cores_tzcnt_ref(0) == 64 && cores_lzcnt_ref(1) == 63 &&
	      cores_tzcnt_ref(1ULL << 63) == 63, "zero and the ends");
	srand(37);
	for (int i = 0; i < 5000; i++) {
		u64 v = rnd() >> (rand() % 64), m = rnd() & rnd(), r;

		CHECK(cores_popcnt_ref(v) == (unsigned int)__builtin_popcountll(v), "popcount");
		CHECK(!v || (cores_lzcnt_ref(v) == (unsigned int)__builtin_clzll(v) &&
			     cores_tzcnt_ref(v) == (unsigned int)__builtin_ctzll(v)), "clz, ctz");
		unsigned int c = (unsigned int)__builtin_popcountll(m);
		u64 low = c == 64 ? ~0ULL : (1ULL << c) - 1;

		CHECK(cores_pext_ref(cores_pdep_ref(v, m), m) == (v & low),
		      "pext undoes pdep on the mask's count of low bits");
		if (cores_cpu_has(X86_FEATURE_POPCNT)) {
			__asm__("popcntq %1, %0" : "=r"(r) : "r"(v));
			CHECK(r == cores_popcnt_ref(v), "POPCNT %llx", (unsigned long long)v);
		}
		if (cores_cpu_has(X86_FEATURE_ABM) && cores_cpu_has(X86_FEATURE_BMI1)) {
			__asm__("lzcntq %1, %0" : "=r"(r) : "r"(v));
			CHECK(r == cores_lzcnt_ref(v), "LZCNT %llx", (unsigned long long)v);
			__asm__("tzcntq %1, %0" : "=r"(r) : "r"(v));
			CHECK(r == cores_tzcnt_ref(v), "TZCNT %llx", (unsigned long long)v);
		}
		if (cores_cpu_has(X86_FEATURE_BMI2)) {
			__asm__("pdepq %2, %1, %0" : "=r"(r) : "r"(v), "r"(m));
			CHECK(r == cores_pdep_ref(v, m), "PDEP");
			__asm__("pextq %2, %1, %0" : "=r"(r) : "r"(v), "r"(m));
			CHECK(r == cores_pext_ref(v, m), "PEXT");
		}
	}
}

static double dbl(u64 b)
{
	double d;

	memcpy(&d, &b, 8);
	return d;
}

static u64 bits(double d)
{
	u64 b;

	memcpy(&b, &d, 8);
	return b;
}

static unsigned int fma_bad;

static void fma_one(u64 ma, u64 mb)
{
	u64 a = 0x3ff0000000000000ULL | (ma & 0xfffffffffffffULL);
	u64 b = 0x3ff0000000000000ULL | (mb & 0xfffffffffffffULL), p, e;
	volatile double x = dbl(a), y = dbl(b);
	double hp = x * y, he = fma(x, y, -hp);

	cores_fma_ref(a, b, &p, &e);
	if ((p != bits(hp) || e != bits(he)) && fma_bad++ < 5)
		printf("# %016llx * %016llx: reference p %016llx e %016llx, libm %016llx %016llx\n",
		       (unsigned long long)a, (unsigned long long)b, (unsigned long long)p,
		       (unsigned long long)e, (unsigned long long)bits(hp),
		       (unsigned long long)bits(he));
}

static void test_fma_exact(void)
{
	static const u64 edge[] = { 0, 1, 0xfffffffffffffULL, 0x8000000000000ULL,
				    0x6a09e667f3bcdULL /* ~sqrt(2): a product near 2 */ };

	fma_bad = 0;
	for (size_t i = 0; i < ARRAY_SIZE(edge); i++)
		for (size_t j = 0; j < ARRAY_SIZE(edge); j++)
			fma_one(edge[i], edge[j]);
	srand(38);
	for (int i = 0; i < 200000; i++)
		fma_one(rnd(), rnd());
	/* Products that are ties in 53 bits: (1 + 2^-52 k)(1 + 2^-1) for odd k. */
	for (u64 k = 1; k < 2000; k += 2)
		fma_one(k, 0x8000000000000ULL);
	CHECK(fma_bad == 0, "%u products differ from the host's multiply and fma()", fma_bad);
}

typedef void (*lanes_fn)(const u64 *buf, size_t nchunks, u64 *lanes);

static const char *avx512bw(void)
{
	const char *why = cores_cannot_avx512();

	return why ? why : cores_cpu_has(X86_FEATURE_AVX512BW) ? NULL : "no AVX-512BW";
}

/* Whatever bit of the buffer is flipped, each new kernel's result moves. */
static void test_flip_moves_new_kernels(void)
{
	u64 *w = aligned_alloc(64, CORES_BUF);
	u8 rk[176];
	unsigned int stuck = 0, ran = 0;
	const struct {
		lanes_fn fn;
		unsigned int lanes;
		const char *(*cannot)(void);
	} vec[] = {
		{ cores_vec_avx512, 8, cores_cannot_avx512 },
		{ cores_vec_avx512bw, 8, avx512bw },
		{ cores_fma_avx512, 8, cores_cannot_avx512 },
		{ cores_fma_avx2, 4, cores_cannot_avx2 },
	};
	bool fma = cores_cpu_has(X86_FEATURE_FMA);

	for (size_t i = 0; i < CORES_WORDS; i++)
		w[i] = cores_word(77, i);
	for (int i = 0; i < 176; i++)
		rk[i] = (u8)(i * 29 + 3);
	for (unsigned int f = 0; f < 100; f++) {
		size_t word = (f * 613) % CORES_WORDS;
		u64 bit = 1ULL << (f * 7 % 64), before[16], after[16];
		unsigned int n = 0;

		for (int pass = 0; pass < 2; pass++, n = 0) {
			u64 *out = pass ? after : before, st[2] = { 1, 2 }, l[8];
			u8 h[32];

			if (pass)
				w[word] ^= bit;
			if (cores_cpu_has(X86_FEATURE_POPCNT))
				out[n++] = cores_popcnt_chain(w, CORES_WORDS, 5);
			if (cores_cpu_has(X86_FEATURE_ABM) && cores_cpu_has(X86_FEATURE_BMI1))
				out[n++] = cores_lzcnt_chain(w, CORES_WORDS, 5);
			if (cores_cpu_has(X86_FEATURE_BMI2))
				out[n++] = cores_pdep_chain(w, CORES_WORDS, 5);
			if (cores_cpu_has(X86_FEATURE_AES)) {
				u8 s[16] = { 0 };

				cores_aes128_cbc((u8 *)w, CORES_BUF / 16, rk, s);
				memcpy(&out[n++], s, 8);
			}
			if (cores_cpu_has(X86_FEATURE_PCLMULQDQ)) {
				cores_clmul_chain(w, CORES_WORDS / 2, st);
				out[n++] = st[0] ^ st[1] * 3;
			}
			if (cores_cpu_has(X86_FEATURE_SHA_NI)) {
				cores_sha256_insn((u8 *)w, CORES_BUF, h);
				memcpy(&out[n++], h, 8);
			}
			for (size_t v = 0; v < ARRAY_SIZE(vec); v++) {
				if (vec[v].cannot() || (vec[v].fn == cores_fma_avx2 && !fma))
					continue;
				for (unsigned int i = 0; i < 8; i++)
					l[i] = i;
				vec[v].fn(w, CORES_WORDS / vec[v].lanes, l);
				out[n] = 0;
				for (unsigned int i = 0; i < vec[v].lanes; i++)
					out[n] = cores_fold(out[n], l[i]);
				n++;
			}
			if (pass)
				w[word] ^= bit;
			ran = n;
			if (pass)
				for (unsigned int i = 0; i < n; i++)
					if (before[i] == after[i] && stuck++ < 5)
						printf("# flip %u: routine %u unchanged\n", f, i);
		}
	}
	CHECK(stuck == 0, "%u flips left a digest unchanged", stuck);
	printf("# %u of 10 new kernels' routines could run here\n", ran);
	free(w);
}

int main(void)
{
	return RUN_TESTS(test_aes_fips197, test_sha256_fips180, test_clmul, test_bits,
			 test_fma_exact, test_flip_moves_new_kernels);
}
