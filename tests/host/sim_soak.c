// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_soak.c - the soak's passes over a simulated memory (tests/host/sim_soak.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/host/sim_soak.h"

#define SIM_CPUS	8

static u64 s_march(void *ctx, u64 pa, u64 len, const struct soak_mv *mv,
		   struct soak_word_miss *m)
{
	return sim_march(&((struct sim_soak *)ctx)->mem, pa, len, mv, m);
}

static int s_copy(void *ctx, int op, u64 dst, u64 src, u64 pages)
{
	struct sim_soak *s = ctx;

	if (op >= 0 && op < NR_SOAK_COPY_OPS)
		s->copies[op]++;
	return sim_copy(&s->mem, dst, src, pages);
}

static void s_clear(void *ctx, u64 pa, u64 pages)
{
	sim_clear(&((struct sim_soak *)ctx)->mem, pa, pages);
}

static bool s_out(void *ctx, u64 pa)
{
	return false;
}

static void s_found(void *ctx, const struct soak_found *f)
{
	struct sim_soak *s = ctx;

	s->found_count++;
	if (s->nr_found < SIM_FOUND_MAX)
		s->found[s->nr_found++] = *f;
}

static void s_written(void *ctx, u64 pa, u64 len, bool source)
{
}

void sim_soak_init(struct sim_soak *s, u64 base, u64 bytes, unsigned int cpus, u64 chunk,
		   bool full)
{
	static u8 cpu_node[SIM_CPUS];
	struct soak_range r = { base, bytes, 0 };
	struct soak_plan_in in = { .ranges = &r, .nr_ranges = 1, .cpu_node = cpu_node,
				   .nr_cpus = MIN(cpus, SIM_CPUS), .nr_nodes = 1,
				   .chunk_bytes = chunk };
	const char *why;

	memset(s, 0, sizeof(*s));
	sim_init(&s->mem, base, bytes, full);
	if (soak_plan_make(&in, &s->plan, &why))
		abort();
	s->prog = (struct soak_prog){ &s->plan, 0x5eed5eed5eed5eedULL, SOAK_COPY_ALL };
	s->interleave = true;
}

void sim_soak_free(struct sim_soak *s)
{
	sim_free(&s->mem);
}

/* Element @el of @pass on every CPU, taking turns piece by piece (or one after another). */
static void element(struct sim_soak *s, const struct soak_mem_ops *ops, u32 pass,
		    unsigned int el)
{
	static struct soak_el_run r[SIM_CPUS];
	static struct soak_walk w[SIM_CPUS];
	unsigned int n = s->plan.nr_cpus;
	bool more = true;

	for (unsigned int c = 0; c < n; c++) {
		soak_el_begin(&r[c], &s->prog, ops, pass, el);
		soak_walk_init(&w[c], &s->plan, c, r[c].e, pass);
	}
	if (r[0].e->kind == SOAK_EL_IDLE) {
		sim_idle(&s->mem, s->fade_ns);
		return;
	}
	while (more) {
		more = false;
		for (unsigned int c = 0; c < n; c++) {
			struct soak_piece pc;

			while (soak_walk_next(&w[c], &pc)) {
				soak_el_piece(&r[c], &pc);
				more = true;
				if (s->interleave)
					break;
			}
		}
	}
	for (unsigned int c = 0; c < n && c < ARRAY_SIZE(s->pages); c++)
		if (!el)
			s->pages[c] = r[c].pages;
}

void sim_soak_passes(struct sim_soak *s, u32 from, u32 to)
{
	const struct soak_mem_ops ops = { .ctx = s, .march = s_march, .copy = s_copy,
					  .clear = s_clear, .out = s_out, .found = s_found,
					  .written = s_written };

	for (u32 pass = from; pass < to; pass++) {
		const struct soak_pass_row *row = soak_pass_row(pass, NULL);

		for (unsigned int el = 0; el < row->nr_el; el++)
			element(s, &ops, pass, el);
	}
}
