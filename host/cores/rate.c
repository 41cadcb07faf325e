// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/cores/rate.c - a cores kernel's rate on this machine (host/cores/rate.h). A first run
 * alone sets the rounds so that a run lasts about the asked time; then each pair is a run on
 * one CPU alone (the CPUs taken in turn) and a run on every CPU at once, back to back, so the
 * machine's drift falls on both alike. A run's time alone is its thread's; with every CPU at
 * once it is the pass's wall time, the first start to the last end.
 */
#include <stdlib.h>

#include "host/cores/rate.h"
#include "kernel/lib/json.h"

static struct cores_twin_slot slots[CORES_TWIN_MAX_CPUS];

/* One timed run of @j on @n CPUs: its time (0: a CPU could not run it, @why_not says why). */
static u64 timed(const struct cores_twin_job *j, const int *cpus, unsigned int n,
		 unsigned int *wrong, const char **why_not)
{
	u64 t0 = ~0ULL, t1 = 0;

	if (!cores_twin_run(j, cpus, n, slots)) {
		*why_not = "a thread could not be started";
		return 0;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (slots[i].failed || slots[i].why_not) {
			*why_not = slots[i].failed ? "a CPU could not be pinned" : slots[i].why_not;
			return 0;
		}
		*wrong += slots[i].wrong;
		t0 = MIN(t0, slots[i].t0);
		t1 = MAX(t1, slots[i].t1);
	}
	return MAX(t1 - t0, 1ULL);
}

static u64 per_second(u64 rounds, u64 ns)
{
	return rounds * 1000000000ULL / ns;
}

bool cores_twin_rate_prepare(const struct cores_kernel *k, u64 seed, unsigned int seeds,
			     const int *cpus, unsigned int n, unsigned int runs, unsigned int ms,
			     struct cores_twin_rate *out)
{
	u64 ns;

	*out = (struct cores_twin_rate){ .k = k, .cpus = n, .runs = runs, .cpu = cpus, .n = n,
					 .job = { .k = k, .seed = seed, .rounds = seeds } };
	if (runs < 3 || runs > STATS_MAX || !n || !seeds) {
		out->why_not = "runs must be 3 to 256, with a CPU and a seed";
		return false;
	}
	out->known = calloc(seeds, sizeof(*out->known));
	if (!out->known) {
		out->why_not = "no memory for the known answers";
		return false;
	}
	for (unsigned int r = 0; r < seeds; r++)
		out->known[r] = k->known(k, seed + r);
	out->job.known = out->known;
	out->job.repeat = 1;
	ns = timed(&out->job, cpus, 1, &out->wrong, &out->why_not);
	if (!ns) {
		cores_twin_rate_finish(out, false);
		return false;
	}
	out->job.repeat = (unsigned int)MAX(1ULL, MIN(100000ULL, (u64)ms * 1000000ULL / ns));
	out->rounds = out->job.repeat * seeds;
	return true;
}

bool cores_twin_rate_pair(struct cores_twin_rate *r, unsigned int i)
{
	r->alone_ns[i] = timed(&r->job, &r->cpu[i % r->n], 1, &r->wrong, &r->why_not);
	r->all_ns[i] = r->alone_ns[i] ? timed(&r->job, r->cpu, r->n, &r->wrong, &r->why_not) : 0;
	return r->all_ns[i] != 0;
}

void cores_twin_rate_finish(struct cores_twin_rate *r, bool ok)
{
	u64 alone[STATS_MAX], each[STATS_MAX];

	free(r->known);
	r->known = NULL;
	r->job.known = NULL;
	r->measured = ok;
	if (!ok)
		return;
	for (unsigned int i = 0; i < r->runs; i++) {
		alone[i] = per_second(r->rounds, r->alone_ns[i]);
		each[i] = per_second(r->rounds, r->all_ns[i]);
	}
	stats_median_ci(alone, r->runs, STATS_BOOT_MAX, STATS_SEED, &r->alone, &r->alone_lo,
			&r->alone_hi);
	stats_median_ci(each, r->runs, STATS_BOOT_MAX, STATS_SEED, &r->each, &r->each_lo,
			&r->each_hi);
	/* a = alone, b = all at once: the median of alone/all, each CPU's speed shared. */
	stats_round_ratio(r->alone_ns, r->all_ns, r->runs, STATS_BOOT_MAX, STATS_SEED,
			  &r->shared);
}

bool cores_twin_rate(const struct cores_kernel *k, u64 seed, unsigned int seeds,
		     const int *cpus, unsigned int n, unsigned int runs, unsigned int ms,
		     struct cores_twin_rate *out)
{
	bool ok;

	if (!cores_twin_rate_prepare(k, seed, seeds, cpus, n, runs, ms, out))
		return false;
	ok = true;
	for (unsigned int i = 0; i < runs && ok; i++)
		ok = cores_twin_rate_pair(out, i);
	cores_twin_rate_finish(out, ok);
	return ok;
}

void cores_twin_rate_json(const struct cores_twin_rate *r, const char *machine,
			  const char *load, char *buf, size_t size)
{
	struct json_writer w;

	json_record(&w, buf, size, "cores-twin");
	json_str(&w, "machine", machine);
	json_str(&w, "load", load);
	json_str(&w, "kernel", r->k->name);
	json_str(&w, "family", r->k->family);
	json_u64(&w, "cpus", r->cpus);
	json_bool(&w, "measured", r->measured);
	if (!r->measured) {
		json_str(&w, "why_not", r->why_not ? r->why_not : "?");
		json_end(&w);
		return;
	}
	json_u64(&w, "runs", r->runs);
	json_u64(&w, "rounds", r->rounds);
	json_u64(&w, "alone_rps", r->alone);
	json_u64(&w, "alone_lo", r->alone_lo);
	json_u64(&w, "alone_hi", r->alone_hi);
	json_u64(&w, "each_rps", r->each);
	json_u64(&w, "each_lo", r->each_lo);
	json_u64(&w, "each_hi", r->each_hi);
	json_u64(&w, "all_rps", r->each * r->cpus);
	json_u64(&w, "shared_x1000", r->shared.ratio_pm);
	json_u64(&w, "shared_lo_x1000", r->shared.lo_pm);
	json_u64(&w, "shared_hi_x1000", r->shared.hi_pm);
	json_u64(&w, "wrong", r->wrong);
	json_end(&w);
}
