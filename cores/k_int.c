// SPDX-License-Identifier: GPL-2.0-only
/*
 * k_int.c - the integer kernels, each beside a reference that computes the same thing
 * another way:
 *   crc32c  the crc32q instruction over the seeded buffer; the reference is the table-driven
 *           software CRC32C (table made from the polynomial 0x82F63B78 bit by bit; the host
 *           test holds it to the check value of "123456789", 0xE3069283, RFC 3720 B.4);
 *   muldiv  per word w, on a state x: a 64x64->128 multiply by (w | 1) whose low half is
 *           the new x, a divide by (w >> 32 | 1), a rotate, a logical shift xored in, an
 *           arithmetic shift, then w added. x's steps are bijections (odd multiplier,
 *           rotate, xorshift by 1..31), so a bit flipped anywhere reaches the end; the high
 *           half, the quotient, the remainder and the arithmetic shift are folded into a
 *           second word. The reference multiplies by shift-and-add, divides by restoring
 *           long division and rotates and shifts one bit at a time.
 */
#include "cores/k_int.h"

#define CRC32C_POLY	0x82f63b78U	/* Castagnoli, bit-reversed */

u32 __attribute__((noipa)) cores_crc32c_insn(const u8 *buf, size_t len)
{
	const u64 *w = (const u64 *)buf;
	u64 crc = 0xffffffffU;

	for (size_t i = 0; i < len / 8; i++)
		__asm__("crc32q %1, %0" : "+r"(crc) : "rm"(w[i]));
	return ~(u32)crc;
}

void cores_crc32c_table_init(u32 table[256])
{
	for (u32 n = 0; n < 256; n++) {
		u32 c = n;

		for (int b = 0; b < 8; b++)
			c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		table[n] = c;
	}
}

u32 cores_crc32c_table(const u32 table[256], u32 crc, const u8 *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
	return crc;
}

static void fill(const struct cores_area *a, u64 seed)
{
	u64 *w = (u64 *)a->src;

	for (size_t i = 0; i < CORES_WORDS; i++)
		w[i] = cores_word(seed, i);
}

static const char *crc_cannot(const struct cores_kernel *k)
{
	return cores_cpu_has(X86_FEATURE_XMM4_2) ? NULL : "no SSE4.2 (CPUID): no crc32 instruction";
}

static u64 crc_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	fill(a, seed);
	return cores_crc32c_insn(a->src, CORES_BUF);
}

/* The table CRC over the seeded words' bytes, little-endian, straight from the seed. */
static u64 crc_known(const struct cores_kernel *k, u64 seed)
{
	u32 table[256], crc = 0xffffffffU;

	cores_crc32c_table_init(table);
	for (size_t i = 0; i < CORES_WORDS; i++) {
		u64 w = cores_word(seed, i);
		u8 bytes[8];

		for (int b = 0; b < 8; b++)
			bytes[b] = (u8)(w >> (8 * b));
		crc = cores_crc32c_table(table, crc, bytes, 8);
	}
	return (u32)~crc;
}

u64 __attribute__((noipa)) cores_muldiv_chain(const u64 *w, size_t n, u64 x)
{
	u64 acc = CORES_FOLD_INIT;

	for (size_t i = 0; i < n; i++) {
		u64 m = w[i] | 1, d = (w[i] >> 32) | 1;
		unsigned int s = w[i] & 63, t = ((w[i] >> 6) & 31) | 1;
		unsigned __int128 p = (unsigned __int128)x * m;

		x = (u64)p;
		acc = cores_fold(acc, (u64)(p >> 64));
		acc = cores_fold(acc, x / d);
		acc = cores_fold(acc, x % d);
		x = cores_rotl(x, s);
		x ^= x >> t;
		acc = cores_fold(acc, (u64)((s64)x >> t));
		x += w[i];
	}
	return cores_fold(acc, x);
}

/* The reference's pieces: no multiply, divide or multi-bit shift instruction needed. */
static void mul_ref(u64 a, u64 b, u64 *lo, u64 *hi)
{
	u64 l = 0, h = 0, al = a, ah = 0;

	for (int bit = 0; bit < 64; bit++) {
		if (b & 1) {
			u64 nl = l + al;

			h += ah + (nl < l);
			l = nl;
		}
		b >>= 1;
		ah = (ah << 1) | (al >> 63);	/* (ah:al) doubled */
		al <<= 1;
	}
	*lo = l;
	*hi = h;
}

static void div_ref(u64 x, u64 d, u64 *q, u64 *r)
{
	u64 rem = 0, quo = 0;

	for (int bit = 63; bit >= 0; bit--) {
		bool top = rem >> 63;

		rem = (rem << 1) | ((x >> bit) & 1);
		quo <<= 1;
		if (top || rem >= d) {
			rem -= d;
			quo |= 1;
		}
	}
	*q = quo;
	*r = rem;
}

static u64 shr_ref(u64 x, unsigned int t, bool arith)
{
	bool sign = x >> 63;

	while (t--)
		x = (x >> 1) | ((u64)(arith && sign) << 63);
	return x;
}

static u64 rotl_ref(u64 x, unsigned int s)
{
	while (s--)
		x = (x << 1) | (x >> 63);
	return x;
}

static u64 muldiv_ref(u64 seed, size_t n, u64 x)
{
	u64 acc = CORES_FOLD_INIT;

	for (size_t i = 0; i < n; i++) {
		u64 w = cores_word(seed, i), lo, hi, q, r;
		unsigned int t = ((w >> 6) & 31) | 1;

		mul_ref(x, w | 1, &lo, &hi);
		x = lo;
		div_ref(x, (w >> 32) | 1, &q, &r);
		acc = cores_fold(cores_fold(cores_fold(acc, hi), q), r);
		x = rotl_ref(x, w & 63);
		x ^= shr_ref(x, t, false);
		acc = cores_fold(acc, shr_ref(x, t, true));
		x += w;
	}
	return cores_fold(acc, x);
}

static u64 muldiv_run(const struct cores_kernel *k, const struct cores_area *a, u64 seed)
{
	fill(a, seed);
	return cores_muldiv_chain((const u64 *)a->src, CORES_WORDS, seed);
}

static u64 muldiv_known(const struct cores_kernel *k, u64 seed)
{
	return muldiv_ref(seed, CORES_WORDS, seed);
}

const struct cores_kernel cores_int_kernels[] = {
	{ .name = "crc32c", .family = "integer", .cannot = crc_cannot, .run = crc_run,
	  .known = crc_known, .fn = (const void *)cores_crc32c_insn },
	{ .name = "muldiv", .family = "integer", .run = muldiv_run, .known = muldiv_known,
	  .fn = (const void *)cores_muldiv_chain },
};
const unsigned int cores_nr_int_kernels = ARRAY_SIZE(cores_int_kernels);
