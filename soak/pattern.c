// SPDX-License-Identifier: GPL-2.0-only
/*
 * pattern.c - the soak's pass schedule, what each area holds, and its descriptors
 * (soak/pattern.h).
 */
#include "kernel/include/page_types.h"
#include "soak/pattern.h"

#define SWEEP(dn, rd, wr)	{ SOAK_EL_SWEEP, dn, rd, wr, false }
#define UP			false
#define DOWN			true
/* A checkerboard pair: written, inverted, written again (each read first). */
#define CHECK(p)		SWEEP(UP, true, p), SWEEP(UP, true, (p) ^ 1), SWEEP(UP, true, p)

/*
 * Pass 0: own address (write, read and complement, read and zeros); March C- over zeros and
 * ones, {up(r0,w1); up(r1,w0); down(r0,w1); down(r1,w0); any(r0)}, with a read-only element
 * (a second read: deceptive read destructive faults) and a non-transition write (ones over
 * ones, zeros over zeros: write disturb faults) after its first element and after its last;
 * the six checkerboards; a copy of address data; a read of it all.
 */
static const struct soak_el row_march[] = {
	SWEEP(UP, false, SOAK_PAT_ADDRESS),
	SWEEP(UP, true, SOAK_PAT_ADDRESS_INV),
	SWEEP(DOWN, true, SOAK_PAT_ZERO),
	SWEEP(UP, true, SOAK_PAT_ONES),
	SWEEP(UP, true, SOAK_PAT_NONE),
	SWEEP(UP, true, SOAK_PAT_ONES),
	SWEEP(UP, true, SOAK_PAT_ZERO),
	SWEEP(DOWN, true, SOAK_PAT_ONES),
	SWEEP(DOWN, true, SOAK_PAT_ZERO),
	SWEEP(UP, true, SOAK_PAT_NONE),
	SWEEP(UP, true, SOAK_PAT_ZERO),
	CHECK(SOAK_PAT_CHECK1),
	CHECK(SOAK_PAT_CHECK2),
	CHECK(SOAK_PAT_CHECK4),
	CHECK(SOAK_PAT_CHECK8),
	CHECK(SOAK_PAT_CHECK16),
	CHECK(SOAK_PAT_CHECK32),
	{ SOAK_EL_PAIRS, UP, true, SOAK_PAT_ADDRESS, false },
	SWEEP(UP, true, SOAK_PAT_NONE),
};

/* The repeating rows: a pattern copied, then every word inverted going down, then read. */
static const struct soak_el row_random[] = {
	{ SOAK_EL_PAIRS, UP, true, SOAK_PAT_RANDOM, false },
	SWEEP(DOWN, true, SOAK_PAT_HELD_INV),
	SWEEP(UP, true, SOAK_PAT_NONE),
};
static const struct soak_el row_walking[] = {
	{ SOAK_EL_PAIRS, UP, true, SOAK_PAT_WALK_ONES, false },
	SWEEP(DOWN, true, SOAK_PAT_HELD_INV),
	SWEEP(UP, true, SOAK_PAT_NONE),
};
static const struct soak_el row_zeros[] = {
	{ SOAK_EL_PAIRS, UP, true, SOAK_PAT_ZERO, true },
	SWEEP(DOWN, true, SOAK_PAT_ONES),
	SWEEP(UP, true, SOAK_PAT_NONE),
};
/* memtest86+'s bit fade: zeros, idle, read; ones, idle, read. */
static const struct soak_el row_fade[] = {
	SWEEP(UP, true, SOAK_PAT_ZERO),
	{ SOAK_EL_IDLE, UP, false, SOAK_PAT_NONE, false },
	SWEEP(UP, true, SOAK_PAT_ONES),
	{ SOAK_EL_IDLE, UP, false, SOAK_PAT_NONE, false },
	SWEEP(UP, true, SOAK_PAT_NONE),
};

#define ROW(name, r)	{ name, r, ARRAY_SIZE(r) }
const struct soak_pass_row soak_schedule[] = {
	ROW("march", row_march),
	ROW("random", row_random),
	ROW("walking", row_walking),
	ROW("zeros", row_zeros),
	ROW("fade", row_fade),
};
const unsigned int soak_schedule_rows = ARRAY_SIZE(soak_schedule);

static const char *const pat_names[NR_SOAK_PAT] = {
	"zeros", "ones", "address", "address-inverted",
	"checker-1", "checker-1-inverted", "checker-2", "checker-2-inverted",
	"checker-4", "checker-4-inverted", "checker-8", "checker-8-inverted",
	"checker-16", "checker-16-inverted", "checker-32", "checker-32-inverted",
	"random", "random-inverted", "walking-ones", "walking-zeros",
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

enum soak_area_kind soak_src_half(u32 pass)
{
	return pass & 1 ? SOAK_AREA_H1 : SOAK_AREA_H0;
}

u64 soak_rotation(u32 pass, u64 half_pages)
{
	if (half_pages < 2)
		return 0;
	return 1 + ((u64)pass * 0x9e3779b1ULL + 3) % (half_pages - 1);
}

/* Element @e of @pass applied to what the areas hold. */
static void apply(const struct soak_el *e, u32 pass, struct soak_content c[NR_SOAK_AREAS])
{
	enum soak_area_kind src = soak_src_half(pass);

	if (e->kind == SOAK_EL_IDLE || e->write == SOAK_PAT_NONE)
		return;
	if (e->kind == SOAK_EL_PAIRS) {
		struct soak_content w = { e->clear ? SOAK_PAT_ZERO : e->write,
					  e->clear ? SOAK_HOW_CLEAR : SOAK_HOW_FILL, false, pass };

		c[src] = w;
		c[SOAK_AREA_LONE] = w;
		c[src ^ 1] = (struct soak_content){ w.pat, SOAK_HOW_COPY, true, pass };
		return;
	}
	for (int a = 0; a < NR_SOAK_AREAS; a++) {
		if (e->write == SOAK_PAT_HELD_INV) {
			if (c[a].pat != SOAK_PAT_NONE)
				c[a].pat ^= 1;
		} else {
			c[a] = (struct soak_content){ e->write, SOAK_HOW_FILL, false, pass };
		}
	}
}

void soak_contents(u32 pass, unsigned int el, struct soak_content out[NR_SOAK_AREAS])
{
	const struct soak_pass_row *row = soak_pass_row(pass, NULL);

	for (int a = 0; a < NR_SOAK_AREAS; a++)
		out[a] = (struct soak_content){ SOAK_PAT_NONE, SOAK_HOW_FILL, false, 0 };
	/* Every row writes every area: the pass before ends the same whatever came before it. */
	if (pass) {
		const struct soak_pass_row *prev = soak_pass_row(pass - 1, NULL);

		for (unsigned int i = 0; i < prev->nr_el; i++)
			apply(&prev->el[i], pass - 1, out);
	}
	for (unsigned int i = 0; i < el && i < row->nr_el; i++)
		apply(&row->el[i], pass, out);
}

/* splitmix64's finalizer: a bijection that spreads every input bit over the output. */
static u64 mix64(u64 z)
{
	z = (z ^ (z >> SOAK_MIX_S1)) * SOAK_MIX_C1;
	z = (z ^ (z >> SOAK_MIX_S2)) * SOAK_MIX_C2;
	return z ^ (z >> SOAK_MIX_S3);
}

/* The random seed of area @key in @pass: distinct passes and areas, independent streams. */
static u64 random_seed(u64 run_seed, u32 pass, u64 key)
{
	return mix64(run_seed ^ mix64(((u64)pass << 40) ^ key ^ SOAK_GAMMA));
}

u64 soak_check_word(unsigned int k)
{
	u64 w = 0;

	for (unsigned int i = 0; i < 64; i++)
		w |= (u64)((i >> k) & 1) << i;
	return w;
}

/* The own (not copied) words of pattern @pat written in @pass into an area at @base. */
static void own_desc(u64 run_seed, u8 pat, u32 pass, u64 base, struct soak_desc *d)
{
	u64 key = base >> PAGE_SHIFT;
	u32 cycle;

	d->invert = pat & 1 ? ~0ULL : 0;
	switch (pat & ~1u) {
	case SOAK_PAT_ADDRESS:
		d->gen = SOAK_GEN_ADDRESS;
		d->seed = base;
		break;
	case SOAK_PAT_RANDOM:
		d->gen = SOAK_GEN_RANDOM;
		d->seed = random_seed(run_seed, pass, key);
		break;
	case SOAK_PAT_WALK_ONES:
		/* the walking bit starts where the cycle and the area say */
		soak_pass_row(pass, &cycle);
		d->gen = SOAK_GEN_ROTATE;
		d->seed = 1ULL << ((7 * cycle + key) & 63);
		break;
	case SOAK_PAT_ZERO:
		d->gen = SOAK_GEN_CONST;
		d->seed = 0;
		break;
	default:
		d->gen = SOAK_GEN_CONST;
		d->seed = soak_check_word((pat - SOAK_PAT_CHECK1) / 2);
		break;
	}
}

u64 soak_content_desc(u64 run_seed, const struct soak_content *c, const struct soak_area *a,
		      u64 i, struct soak_desc *d)
{
	u64 words = a->pages * (PAGE_SIZE / 8), rot, src;

	if (!c->copied) {
		own_desc(run_seed, c->pat, c->pass, a->base, d);
		d->first = i;
		return words - i;
	}
	/* destination word j holds source word (j - rot) mod words */
	rot = soak_rotation(c->pass, a->pages) * (PAGE_SIZE / 8);
	own_desc(run_seed, c->pat, c->pass, a->other, d);
	if (i < rot) {
		src = words - rot + i;
		d->first = src;
		return rot - i;
	}
	d->first = i - rot;
	return words - i;
}

int soak_copy_op(u32 pass, u64 src_pa, u32 available)
{
	unsigned int n = 0, pick;

	available &= SOAK_COPY_ALL;
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		n += (available >> op) & 1;
	if (!n)
		return -1;
	pick = (unsigned int)(((src_pa >> 21) + pass) % n);
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
