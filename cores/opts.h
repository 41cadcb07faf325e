/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opts.h - cores=: what the cores suite runs, parsed as a pure function for the option table
 * (init/cmdline_opts.c). The value is "default" or a comma-separated list of
 *   seed:N               the seed every CPU uses (decimal or 0x hex, 64 bits)
 *   rounds:N             each kernel runs N times (1..1000), seeds N, N+1, ..., on every
 *                        CPU at once; the digest and the known answer fold all rounds
 *   kernels:F[+F...]     only these families: copy, clear, integer, vector, x87
 *   time:T               the soak mode: passes back to back for T (a number of seconds, or
 *                        one number and a unit: 90s, 10m, 2h; 1 s to a week), pass 1 with
 *                        the seed, each later pass with cores_pass_seed()
 * The zeroed struct is the default: the seed CORES_DEFAULT_SEED, one round, every family
 * (all four named is the default too), one pass.
 */
#ifndef CK_CORES_OPTS_H
#define CK_CORES_OPTS_H

#include "kernel/include/types.h"

/* "cores" in ASCII. */
#define CORES_DEFAULT_SEED	0x636f726573ULL
#define CORES_MAX_ROUNDS	1000
#define CORES_MAX_SECONDS	(7U * 24 * 3600)	/* time: at most a week, as soak= */

enum cores_family_bit { CORES_FAM_COPY = 1, CORES_FAM_INTEGER = 2, CORES_FAM_VECTOR = 4,
			CORES_FAM_X87 = 8, CORES_FAM_CLEAR = 16 };

struct cores_opts {
	u64 seed;
	bool seed_set;		/* seed: given (0 is a seed too) */
	u16 rounds;		/* 0: one */
	u8 families;		/* enum cores_family_bit mask; 0: every family */
	u32 seconds;		/* time: the soak mode's length; 0: one pass */
};

/* Parse @n bytes at @p. NULL on success (@out set), else the reason (@out untouched). */
const char *cores_parse_opts(const char *p, size_t n, struct cores_opts *out);
/* The value as the command line gives it ("default", "seed:0x5,rounds:3"); its length. */
size_t cores_opts_text(const struct cores_opts *o, char *buf, size_t size);

/* What a run uses: the seed, the rounds and whether family @family ("copy") runs. */
u64 cores_opts_seed(const struct cores_opts *o);
unsigned int cores_opts_rounds(const struct cores_opts *o);
bool cores_opts_family(const struct cores_opts *o, const char *family);

/*
 * The seed of soak pass @pass (1, 2, ...) from the base seed @base: pass 1 runs @base itself
 * (a run without time: is pass 1), a later pass a splitmix64 mix of @base and @pass, so
 * `cores=seed:` with the printed seed replays that pass alone.
 */
u64 cores_pass_seed(u64 base, unsigned int pass);

#endif
