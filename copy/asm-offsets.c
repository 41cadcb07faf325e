// SPDX-License-Identifier: GPL-2.0-only
/*
 * asm-offsets.c - what copy/verify.asm and copy/march.asm take from copy/verify.h and
 * copy/march.h: the soak's constants and the layouts of struct soak_desc, struct soak_miss,
 * struct soak_mv and struct soak_word_miss. Compiled only into
 * build/gen/copy/asm-offsets.inc (kernel/include/asm-defs.h says how), never linked.
 */
#include "copy/march.h"
#include "copy/verify.h"
#include "kernel/include/asm-defs.h"

/*
 * The generator passes values as 32-bit immediates: a 64-bit constant goes over as its two
 * signed halves, NAME_HI and NAME_LO, and verify.asm joins them (U64 there).
 */
#define DEFINE64(sym, val)						\
	do {								\
		DEFINE(sym##_HI, (s32)((u64)(val) >> 32));		\
		DEFINE(sym##_LO, (s32)((u64)(val) & 0xffffffffu));	\
	} while (0)

void copy_asm_offsets(void);

void copy_asm_offsets(void)
{
	DEFINE(SOAK_GEN_RANDOM, SOAK_GEN_RANDOM);
	DEFINE(SOAK_GEN_ROTATE, SOAK_GEN_ROTATE);
	DEFINE(SOAK_OK, SOAK_OK);
	DEFINE(SOAK_MISCOMPARE, SOAK_MISCOMPARE);
	DEFINE(SOAK_POISONED, SOAK_POISONED);
	DEFINE(SOAK_BAD_ARGS, SOAK_BAD_ARGS);
	BLANK();
	DEFINE64(SOAK_GAMMA, SOAK_GAMMA);
	DEFINE64(SOAK_MIX_C1, SOAK_MIX_C1);
	DEFINE64(SOAK_MIX_C2, SOAK_MIX_C2);
	DEFINE(SOAK_MIX_S1, SOAK_MIX_S1);
	DEFINE(SOAK_MIX_S2, SOAK_MIX_S2);
	DEFINE(SOAK_MIX_S3, SOAK_MIX_S3);
	DEFINE64(SOAK_LANE1, SOAK_LANE1);
	DEFINE64(SOAK_LANE2, SOAK_LANE2);
	DEFINE64(SOAK_LANE3, SOAK_LANE3);
	DEFINE64(SOAK_LANE4, SOAK_LANE4);
	DEFINE64(SOAK_LANE5, SOAK_LANE5);
	DEFINE64(SOAK_LANE6, SOAK_LANE6);
	DEFINE64(SOAK_LANE7, SOAK_LANE7);
	BLANK();
	OFFSET(SOAK_DESC_GEN, soak_desc, gen);
	OFFSET(SOAK_DESC_SEED, soak_desc, seed);
	OFFSET(SOAK_DESC_INVERT, soak_desc, invert);
	OFFSET(SOAK_DESC_FIRST, soak_desc, first);
	OFFSET(SOAK_MISS_OFFSET, soak_miss, offset);
	OFFSET(SOAK_MISS_EXPECTED, soak_miss, expected);
	OFFSET(SOAK_MISS_ACTUAL, soak_miss, actual);
	OFFSET(SOAK_MISS_SIDE, soak_miss, side);
	BLANK();
	DEFINE(SOAK_GEN_ADDRESS, SOAK_GEN_ADDRESS);
	DEFINE(SOAK_GEN_CONST, SOAK_GEN_CONST);
	DEFINE(SOAK_LINE, SOAK_LINE);
	DEFINE(SOAK_LINE_WORDS, SOAK_LINE_WORDS);
	DEFINE(SOAK_TABLE_WORDS, SOAK_TABLE_WORDS);
	DEFINE(SOAK_MV_READ, SOAK_MV_READ);
	DEFINE(SOAK_MV_WRITE, SOAK_MV_WRITE);
	DEFINE(SOAK_MV_DOWN, SOAK_MV_DOWN);
	OFFSET(SOAK_MV_RD, soak_mv, rd);
	OFFSET(SOAK_MV_WR, soak_mv, wr);
	OFFSET(SOAK_MV_FLAGS, soak_mv, flags);
	OFFSET(SOAK_WMISS_OFFSET, soak_word_miss, offset);
	OFFSET(SOAK_WMISS_EXPECTED, soak_word_miss, expected);
	OFFSET(SOAK_WMISS_ACTUAL, soak_word_miss, actual);
	OFFSET(SOAK_WMISS_REREAD, soak_word_miss, reread);
	OFFSET(SOAK_WMISS_MORE, soak_word_miss, more);
	OFFSET(SOAK_WMISS_STORE, soak_word_miss, store);
}
