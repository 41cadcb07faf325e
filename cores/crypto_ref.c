// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypto_ref.c - the crypto kernels' references (cores/crypto_ref.h), plain C from the
 * standards and nothing else: no instruction under test, no table shared with the kernels.
 */
#include "cores/crypto_ref.h"

/* GF(2^8) with the AES polynomial x^8 + x^4 + x^3 + x + 1 (FIPS-197 4.2). */
static u8 gf_mul(u8 a, u8 b)
{
	u8 p = 0;

	while (b) {
		if (b & 1)
			p ^= a;
		a = (u8)(a << 1) ^ (a & 0x80 ? 0x1b : 0);
		b >>= 1;
	}
	return p;
}

static u8 rotl8(u8 x, unsigned int s)
{
	return (u8)(x << s | x >> (8 - s));
}

/* The inverse by powers of the generator x + 1: x^-1 = g^(255 - log_g x); 0 maps to 0. */
void cores_aes_sbox(u8 sbox[256])
{
	u8 exp[255], log[256] = { 0 }, g = 1;

	for (int i = 0; i < 255; i++) {
		exp[i] = g;
		log[g] = (u8)i;
		g = gf_mul(g, 3);
	}
	for (unsigned int x = 0; x < 256; x++) {
		u8 inv = x ? exp[(255 - log[x]) % 255] : 0;

		sbox[x] = inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^
			  0x63;
	}
}

void cores_aes128_expand_ref(const u8 sbox[256], const u8 key[16], u8 rk[176])
{
	u8 rcon = 1;

	for (int i = 0; i < 16; i++)
		rk[i] = key[i];
	for (int i = 4; i < 44; i++) {
		u8 t[4];

		for (int b = 0; b < 4; b++)
			t[b] = rk[4 * (i - 1) + b];
		if (i % 4 == 0) {	/* SubWord(RotWord(t)) xor Rcon */
			u8 t0 = t[0];

			t[0] = sbox[t[1]] ^ rcon;
			t[1] = sbox[t[2]];
			t[2] = sbox[t[3]];
			t[3] = sbox[t0];
			rcon = gf_mul(rcon, 2);
		}
		for (int b = 0; b < 4; b++)
			rk[4 * i + b] = rk[4 * (i - 4) + b] ^ t[b];
	}
}

/* The state as FIPS-197 3.4 has it: s[r + 4c], row r, column c. */
static void shift_rows(u8 s[16])
{
	u8 t[16];

	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
	for (int i = 0; i < 16; i++)
		s[i] = t[i];
}

static void mix_columns(u8 s[16])
{
	for (int c = 0; c < 4; c++) {
		u8 *a = s + 4 * c, b[4];

		for (int r = 0; r < 4; r++)
			b[r] = gf_mul(a[r], 2) ^ gf_mul(a[(r + 1) % 4], 3) ^ a[(r + 2) % 4] ^
			       a[(r + 3) % 4];
		for (int r = 0; r < 4; r++)
			a[r] = b[r];
	}
}

void cores_aes128_encrypt_ref(const u8 sbox[256], const u8 rk[176], const u8 in[16],
			      u8 out[16])
{
	u8 s[16];

	for (int i = 0; i < 16; i++)
		s[i] = in[i] ^ rk[i];
	for (int round = 1; round <= 10; round++) {
		for (int i = 0; i < 16; i++)
			s[i] = sbox[s[i]];
		shift_rows(s);
		if (round < 10)
			mix_columns(s);
		for (int i = 0; i < 16; i++)
			s[i] ^= rk[16 * round + i];
	}
	for (int i = 0; i < 16; i++)
		out[i] = s[i];
}

void cores_clmul_ref(u64 a, u64 b, u64 *lo, u64 *hi)
{
	u64 l = 0, h = 0;

	for (int i = 0; i < 64; i++)
		if (b >> i & 1) {
			l ^= a << i;
			h ^= i ? a >> (64 - i) : 0;
		}
	*lo = l;
	*hi = h;
}

/* The largest x with x^@k <= @n (k 2 or 3), by bisection. */
static u64 iroot(unsigned __int128 n, int k)
{
	u64 lo = 0, hi = 1ULL << 40;

	while (lo < hi) {
		u64 mid = lo + (hi - lo + 1) / 2;
		unsigned __int128 p = (unsigned __int128)mid * mid;

		if (k == 3)
			p *= mid;
		if (p <= n)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * FIPS 180-4 4.2.2 and 5.3.3: K[i] is the first 32 bits of the fraction of the cube root of
 * the (i+1)th prime, H0[i] of the square root of the (i+1)th: floor(root(p * 2^(32k))).
 */
void cores_sha256_ref_init(struct cores_sha256_ref *s)
{
	unsigned int n = 0;

	for (u64 p = 2; n < 64; p++) {
		bool prime = true;

		for (u64 d = 2; d * d <= p; d++)
			prime &= p % d != 0;
		if (!prime)
			continue;
		s->k[n] = (u32)iroot((unsigned __int128)p << 96, 3);
		if (n < 8)
			s->h[n] = (u32)iroot((unsigned __int128)p << 64, 2);
		n++;
	}
	s->len = 0;
}

static u32 ror(u32 x, unsigned int n)
{
	return x >> n | x << (32 - n);
}

static void compress(struct cores_sha256_ref *s, const u8 *blk)
{
	u32 w[64], v[8];

	for (int t = 0; t < 16; t++)
		w[t] = (u32)blk[4 * t] << 24 | (u32)blk[4 * t + 1] << 16 |
		       (u32)blk[4 * t + 2] << 8 | blk[4 * t + 3];
	for (int t = 16; t < 64; t++) {
		u32 s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
		u32 s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = s1 + w[t - 7] + s0 + w[t - 16];
	}
	for (int i = 0; i < 8; i++)
		v[i] = s->h[i];
	for (int t = 0; t < 64; t++) {
		u32 e = v[4], a = v[0];
		u32 t1 = v[7] + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & v[5]) ^ (~e & v[6])) +
			 s->k[t] + w[t];
		u32 t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +
			 ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));

		for (int i = 7; i > 0; i--)
			v[i] = v[i - 1];
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		s->h[i] += v[i];
}

void cores_sha256_ref_update(struct cores_sha256_ref *s, const u8 *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		s->buf[s->len++ % 64] = p[i];
		if (s->len % 64 == 0)
			compress(s, s->buf);
	}
}

/* FIPS 180-4 5.1.1: a 1 bit, zeros to 56 mod 64 bytes, the length in bits, big-endian. */
void cores_sha256_ref_final(struct cores_sha256_ref *s, u8 out[32])
{
	u64 bits = s->len * 8;
	u8 one = 0x80, zero = 0;

	cores_sha256_ref_update(s, &one, 1);
	while (s->len % 64 != 56)
		cores_sha256_ref_update(s, &zero, 1);
	for (int i = 7; i >= 0; i--) {
		u8 b = (u8)(bits >> (8 * i));

		cores_sha256_ref_update(s, &b, 1);
	}
	for (int i = 0; i < 32; i++)
		out[i] = (u8)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}
