/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data.h - the data a benchmark case reads and writes (bench/data.c): the patterns a source
 * is filled with, and the src_pattern/dst_pattern a case records. Sources hold pseudo-random
 * bytes unless a case says otherwise, since some machines move zeros faster.
 */
#ifndef CK_BENCH_DATA_H
#define CK_BENCH_DATA_H

#include "bench/harness.h"

enum pattern { PAT_ZERO, PAT_CONSTANT, PAT_RANDOM };
extern const char *const data_pattern_names[];

/* Fill @buf: zeros, the byte 0x5a, or xorshift64 output (non-zero, non-constant). */
void data_fill(void *buf, u64 bytes, enum pattern pat);
/* A copy reads its source's pattern and writes the same; a clear reads nothing, writes 0. */
void data_copy_patterns(struct bench_case *c, enum pattern src);
void data_clear_patterns(struct bench_case *c);

#endif
