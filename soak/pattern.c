// SPDX-License-Identifier: GPL-2.0-only
/*
 * pattern.c - the soak's pass schedule and chunk descriptors (soak/pattern.h).
 */
#include "soak/pattern.h"

const struct soak_pass_row soak_schedule[] = {
	{ "zeros", SOAK_PAT_ZERO },
	{ "random", SOAK_PAT_RANDOM },
	{ "random-inverted", SOAK_PAT_RANDOM_INV },
	{ "walking-ones", SOAK_PAT_WALK_ONES },
	{ "walking-zeros", SOAK_PAT_WALK_ZEROS },
};
const unsigned int soak_schedule_rows = ARRAY_SIZE(soak_schedule);

static const char *const pat_names[NR_SOAK_PAT] = {
	"zeros", "random", "random-inverted", "walking-ones", "walking-zeros",
};
static const char *const how_names[NR_SOAK_HOW] = { "clear", "fill", "copy" };
static const char *const copy_names[NR_SOAK_COPY_OPS] = {
	"copy_mc_highpages", "copy_mc_highpage", "folio_mc_copy_batched",
	"folio_mc_copy_per_page", "copy_mc_nt",
};

const struct soak_pass_row *soak_pass_row(u32 pass, u32 *cycle)
{
	u32 rep = soak_schedule_rows - 1;

	if (pass == 0) {
		if (cycle)
			*cycle = 0;
		return &soak_schedule[0];
	}
	if (cycle)
		*cycle = (pass - 1) / rep;
	return &soak_schedule[1 + (pass - 1) % rep];
}

/* splitmix64's finalizer: a bijection that spreads every input bit over the output. */
static u64 mix64(u64 z)
{
	z = (z ^ (z >> SOAK_MIX_S1)) * SOAK_MIX_C1;
	z = (z ^ (z >> SOAK_MIX_S2)) * SOAK_MIX_C2;
	return z ^ (z >> SOAK_MIX_S3);
}

/* The random seed of chunk @key in @pass: distinct passes and chunks, independent streams. */
static u64 random_seed(u64 run_seed, u32 pass, u64 key)
{
	return mix64(run_seed ^ mix64(((u64)pass << 40) ^ key ^ SOAK_GAMMA));
}

void soak_pattern_desc(u64 run_seed, u32 pass, u64 key, struct soak_desc *d)
{
	u32 cycle;
	const struct soak_pass_row *row = soak_pass_row(pass, &cycle);
	/* walking patterns start at a bit that moves with the cycle and the chunk */
	unsigned int shift = (unsigned int)((7 * cycle + key) & 63);

	d->first = 0;
	d->invert = 0;
	switch (row->pat) {
	case SOAK_PAT_RANDOM:
		d->gen = SOAK_GEN_RANDOM;
		d->seed = random_seed(run_seed, pass, key);
		break;
	case SOAK_PAT_RANDOM_INV:
		/* the schedule puts every inversion right after the random pass it inverts */
		d->gen = SOAK_GEN_RANDOM;
		d->seed = random_seed(run_seed, pass - 1, key);
		d->invert = ~0ULL;
		break;
	case SOAK_PAT_WALK_ONES:
	case SOAK_PAT_WALK_ZEROS:
		d->gen = SOAK_GEN_ROTATE;
		d->seed = 1ULL << shift;
		d->invert = row->pat == SOAK_PAT_WALK_ZEROS ? ~0ULL : 0;
		break;
	default:
		d->gen = SOAK_GEN_ROTATE;
		d->seed = 0;
		break;
	}
}

enum soak_how soak_pass_how(u32 pass)
{
	return soak_pass_row(pass, NULL)->pat == SOAK_PAT_ZERO ? SOAK_HOW_CLEAR : SOAK_HOW_FILL;
}

int soak_copy_op(u32 pass, u64 pair, u32 available)
{
	unsigned int n = 0, pick;

	available &= SOAK_COPY_ALL;
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		n += (available >> op) & 1;
	if (!n)
		return -1;
	pick = (unsigned int)((pair + pass) % n);
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		if ((available >> op) & 1 && !pick--)
			return op;
	return -1;
}

const char *soak_pat_name(enum soak_pat p)
{
	return (unsigned int)p < NR_SOAK_PAT ? pat_names[p] : "?";
}

const char *soak_how_name(enum soak_how h)
{
	return (unsigned int)h < NR_SOAK_HOW ? how_names[h] : "?";
}

const char *soak_copy_op_name(int op)
{
	return op >= 0 && op < NR_SOAK_COPY_OPS ? copy_names[op] : "?";
}
