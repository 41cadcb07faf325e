// SPDX-License-Identifier: GPL-2.0-only
/*
 * data.c - what benchmark cases read and write (see data.h).
 */
#include "bench/data.h"
#include "kernel/lib/string.h"

const char *const data_pattern_names[] = { "zero", "constant", "random" };

void data_fill(void *buf, u64 bytes, enum pattern pat)
{
	u64 *w = buf, x = 0x9e3779b97f4a7c15ULL ^ bytes;

	if (pat != PAT_RANDOM) {
		memset(buf, pat == PAT_ZERO ? 0 : 0x5a, bytes);
		return;
	}
	for (u64 i = 0; i < bytes / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
}

void data_copy_patterns(struct bench_case *c, enum pattern src)
{
	c->src_pattern = c->dst_pattern = data_pattern_names[src];
}

void data_clear_patterns(struct bench_case *c)
{
	c->src_pattern = "none";
	c->dst_pattern = "zero";
}

