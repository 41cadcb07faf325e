// SPDX-License-Identifier: GPL-2.0-only
/*
 * cover.c - the soak's coverage rule and the pages it left out (cover.h).
 */
#include "kernel/include/page_types.h"
#include "soak/cover.h"

static const char *const out_text[NR_SOAK_OUT] = {
	"in the soak",
	"retired by the soak (an error it found there)",
	"on the poison list since before the soak began (queued earlier in the run: a machine "
	"check, or a test that left poison behind)",
	"on the poison list, queued while the soak ran by a machine check its ledger did not "
	"take",
	"on the poison list (queued before or while the soak ran: more pages were there when it "
	"began than it kept)",
};

const char *soak_out_text(enum soak_out why)
{
	return (unsigned int)why < NR_SOAK_OUT ? out_text[why] : "?";
}

enum soak_cover_state soak_cover_judge(const struct soak_cover_cpu *c)
{
	if (c->stuck)
		return SOAK_COVER_STUCK;
	if (!c->want)
		return SOAK_COVER_OK;
	if (!c->passes)
		return SOAK_COVER_UNFINISHED;
	return c->touched + c->retired < c->want ? SOAK_COVER_SHORT : SOAK_COVER_OK;
}

u64 soak_cover_want(const struct soak_plan *p, unsigned int cpu)
{
	struct soak_slice s;
	u64 n = 0;

	for (unsigned int i = 0; soak_plan_slice(p, cpu, i, &s); i++)
		n += s.size >> PAGE_SHIFT;
	return n;
}

u32 soak_cover_nodes(const struct soak_plan *p, unsigned int cpu)
{
	struct soak_slice s;
	u32 nodes = 0;

	for (unsigned int i = 0; soak_plan_slice(p, cpu, i, &s); i++)
		nodes |= 1u << s.node;
	return nodes;
}

u64 soak_cover_out(const struct soak_plan *p, unsigned int cpu,
		   enum soak_out (*why)(u64 pa, void *ctx), void *ctx, struct soak_out_page *out,
		   unsigned int max)
{
	struct soak_slice s;
	u64 n = 0;

	for (unsigned int i = 0; soak_plan_slice(p, cpu, i, &s); i++)
		for (u64 pa = s.base; pa < s.base + s.size; pa += PAGE_SIZE) {
			enum soak_out w = why(pa, ctx);

			if (w == SOAK_OUT_NONE)
				continue;
			if (n < max)
				out[n] = (struct soak_out_page){ pa, w };
			n++;
		}
	return n;
}
