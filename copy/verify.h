/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify.h - the soak's data path (copy/verify.asm): fill memory with a pattern, verify it by
 * regenerating the pattern in registers, and compare two buffers, every load machine-check
 * safe. The pattern is a pure function of its descriptor and the word index, so any word can
 * be regenerated anywhere (a resumed verify, a re-read, another CPU).
 *
 * Two generators, each word XORed with @invert (0 or ~0):
 *
 *   SOAK_GEN_RANDOM  words come in groups of eight (64 bytes, one cache line when the chunk
 *                    is 64-byte aligned). Group g is h(g) = splitmix64's finalizer of
 *                    seed + (g + 1) * SOAK_GAMMA, i.e. the (g+1)-th output of Vigna's
 *                    splitmix64 generator started at @seed; word k of the group is
 *                    h(g) ^ soak_lane[k], where soak_lane[0] = 0 and soak_lane[1..7] are the
 *                    first seven outputs of splitmix64 started at 0. One hash per line keeps
 *                    the verify at memory speed; the lanes keep the eight words of a line
 *                    distinct.
 *   SOAK_GEN_ROTATE  word i is rotl(@seed, i mod 64): zeros (seed 0), ones (seed 0, invert
 *                    ~0), walking ones (seed 1 << s), walking zeros (the same, inverted),
 *                    0x5555.../0xaaaa... alternating (seed 0x5555...).
 *
 * The word index i counts from the chunk's first word: a descriptor's @first is the index of
 * the first word of the buffer passed in. Buffers and lengths are whole words (8-byte
 * aligned); a chunk whose first word (buf - 8 * first) is 64-byte aligned runs the SSE2 body,
 * any other chunk runs word by word (exact, slower).
 *
 * Status codes (the routines' return values, except soak_fill's):
 *   SOAK_OK          every word matched;
 *   SOAK_MISCOMPARE  @miss holds the first wrong word: offset from buf, expected, actual;
 *   SOAK_POISONED    a load faulted (#MC on poison, or #PF): @miss->offset is where. In the
 *                    SSE2 body that is the start of the faulting 64-byte group of verify
 *                    (its cache line) or of the faulting 16-byte load of compare; word by
 *                    word, the faulting word. A page boundary always starts a group and a
 *                    load, so a #PF is reported at the exact boundary;
 *   SOAK_BAD_ARGS    buf, len (or the second buffer) not a multiple of 8; nothing was read.
 */
#ifndef CK_COPY_VERIFY_H
#define CK_COPY_VERIFY_H

#ifndef __ASSEMBLER__
#include "kernel/include/types.h"
#endif

#define SOAK_GEN_RANDOM		0
#define SOAK_GEN_ROTATE		1

#define SOAK_OK			0
#define SOAK_MISCOMPARE		1
#define SOAK_POISONED		2
#define SOAK_BAD_ARGS		3

/* splitmix64 (Steele, Lea, Flood 2014; Vigna's splitmix64.c): the step and the finalizer. */
#define SOAK_GAMMA		0x9e3779b97f4a7c15ULL
#define SOAK_MIX_C1		0xbf58476d1ce4e5b9ULL
#define SOAK_MIX_C2		0x94d049bb133111ebULL
#define SOAK_MIX_S1		30
#define SOAK_MIX_S2		27
#define SOAK_MIX_S3		31

/* Lanes 1..7: splitmix64 from state 0, outputs 1..7 (lane 0 is 0). */
#define SOAK_LANE1		0xe220a8397b1dcdafULL
#define SOAK_LANE2		0x6e789e6aa1b965f4ULL
#define SOAK_LANE3		0x06c45d188009454fULL
#define SOAK_LANE4		0xf88bb8a8724c81ecULL
#define SOAK_LANE5		0x1b39896a51a8749bULL
#define SOAK_LANE6		0x53cb9f0c747ea2eaULL
#define SOAK_LANE7		0x2c829abe1f4532e1ULL

#define SOAK_GROUP_WORDS	8

#ifndef __ASSEMBLER__
struct soak_desc {
	u64 gen;	/* SOAK_GEN_* */
	u64 seed;	/* RANDOM: splitmix64 state; ROTATE: word 0 of every 64 */
	u64 invert;	/* XOR applied to every word: 0 or ~0 */
	u64 first;	/* pattern index of the buffer's first word */
};

struct soak_miss {
	u64 offset;	/* bytes from the start of the buffer (verify: buf; compare: dst) */
	u64 expected;	/* the pattern's (verify) or the source's (compare) word */
	u64 actual;	/* what was read; 0 for SOAK_POISONED */
	u64 side;	/* compare: 0 the destination faulted, 1 the source; verify: 0 */
};

/*
 * Fill [buf, buf + len) with @d's pattern using non-temporal stores (the data goes to memory,
 * not just the cache), then sfence. Returns the bytes not written: 0, or len - the offset of
 * the store that faulted (#PF: stores never consume poison); len when the arguments are not
 * whole words.
 */
size_t soak_fill(void *buf, size_t len, const struct soak_desc *d);
/* Verify [buf, buf + len) against @d's pattern; SOAK_* with @miss filled on a failure. */
u64 soak_verify_mc(const void *buf, size_t len, const struct soak_desc *d,
		   struct soak_miss *miss);
/* Compare @dst with @src word by word (expected = src); SOAK_* with @miss on a failure. */
u64 soak_compare_mc(const void *dst, const void *src, size_t len, struct soak_miss *miss);
#endif

#endif
