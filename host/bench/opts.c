// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/bench/opts.c - the hosted benchmark's options (see host/bench/opts.h): the table, the
 * parser and the usage text. The choices of the dispatch overrides come from copy/'s own
 * name tables, the preset names from bench/presets.c's, so the usage cannot drift.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/presets.h"
#include "copy/ops.h"
#include "host/bench/opts.h"
#include "host/bench/rep.h"

/* Presets only the hosted build has, after bench_preset_names. */
static const char *const hosted_presets[] = { "perf", "parallel", "migrate" };

struct choices {
	const char *const *names;
	unsigned int n;
};

struct opt {
	const char *name, *alias;
	const char *arg;		/* the value's name in the usage; NULL: a flag */
	const struct choices *choices;	/* the values it takes (NULL: arg says) */
	size_t field;			/* set_choice: the int, set_second: the bool it sets */
	/* Take @v (NULL for a flag); 0, or -1 after saying what is wrong. */
	int (*set)(struct ck_bench_opts *o, const struct opt *opt, const char *v);
};

/* The index of @v in @opt's choices, or -1 after saying which values there are. */
static int choice(const struct opt *opt, const char *v)
{
	for (unsigned int i = 0; i < opt->choices->n; i++)
		if (!strcmp(opt->choices->names[i], v))
			return (int)i;
	fprintf(stderr, "ck-bench: %s %s: not one of", opt->name, v);
	for (unsigned int i = 0; i < opt->choices->n; i++)
		fprintf(stderr, "%s%s", i ? ", " : " ", opt->choices->names[i]);
	fprintf(stderr, "\n");
	return -1;
}

/* A whole non-negative decimal number below 2^31, or -1 after saying it is not one. */
static long number(const struct opt *opt, const char *v)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (!*v || *end || *v == '-' || *v == '+' || n > 0x7fffffffUL) {
		fprintf(stderr, "ck-bench: %s %s: not a number (0 .. 2147483647)\n", opt->name, v);
		return -1;
	}
	return (long)n;
}

static int set_preset(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	bool known = false;

	for (unsigned int i = 0; i < NR_PRESETS; i++)
		known |= !strcmp(bench_preset_names[i], v);
	for (unsigned int i = 0; i < ARRAY_SIZE(hosted_presets); i++)
		known |= !strcmp(hosted_presets[i], v);
	if (!known) {
		fprintf(stderr, "ck-bench: unknown preset '%s'\n", v);
		return -1;
	}
	if (o->np == CK_BENCH_MAX_PRESETS) {
		fprintf(stderr, "ck-bench: %s %s: at most %d presets a run\n", opt->name, v,
			CK_BENCH_MAX_PRESETS);
		return -1;
	}
	o->presets[o->np++] = v;
	return 0;
}

/*
 * @v as a count in [@lo, @hi]; outside them @def, said (by the run, not again by each of its
 * replicas, which parse the same words); -1: not a number (said).
 */
static long bounded(const struct ck_bench_opts *o, const struct opt *opt, const char *v,
		    long lo, long hi, long def)
{
	long n = number(opt, v);

	if (n >= 0 && (n < lo || n > hi)) {
		if (!o->is_replica)
			fprintf(stderr, "ck-bench: %s %s: outside %ld .. %ld, the default %ld is "
				"used\n", opt->name, v, lo, hi, def);
		n = def;
	}
	return n;
}

static int set_rounds(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	long n = bounded(o, opt, v, 3, STATS_MAX, BENCH_DEFAULT_RUNS);

	o->rounds = (unsigned int)n;
	return n < 0 ? -1 : 0;
}

static int set_placements(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	long n = bounded(o, opt, v, 1, BENCH_MAX_PLACEMENTS, BENCH_DEFAULT_PLACEMENTS);

	o->placements = (unsigned int)n;
	return n < 0 ? -1 : 0;
}

static int set_replicas(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	long n = bounded(o, opt, v, 1, CK_REP_MAX, CK_BENCH_DEFAULT_REPLICAS);

	o->replicas = (unsigned int)n;
	o->replicas_given = n >= 0;
	return n < 0 ? -1 : 0;
}

/* Internal: this process is a replica writing its records to FD (host/bench/rep.h). */
static int set_replica_fd(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	long n = number(opt, v);

	o->replica_fd = (int)n;
	return n < 0 ? -1 : 0;
}

/* Internal: the MiB a replica holds before it takes its buffers (ck_rep_spread). */
static int set_replica_spread(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	long n = bounded(o, opt, v, 0, CK_REP_SPREAD_MAX_MIB, 0);

	o->replica_spread_mib = n < 0 ? 0 : (unsigned int)n;
	return n < 0 ? -1 : 0;
}

static int set_cpu(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	long n = number(opt, v);

	o->cpu = (int)n;
	return n < 0 ? -1 : 0;
}

static int set_pairs(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	long n = number(opt, v);

	o->perf_pairs = (unsigned int)n;	/* perf_twin_compare bounds it, and says so */
	return n < 0 ? -1 : 0;
}

static int set_json(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	o->json = v;
	return 0;
}

static int set_tiny(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	o->tiny = true;
	return 0;
}

static int set_list(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	o->list = true;
	return 0;
}

static const char *const cold_names[] = { "evict", "flush" };
static const struct choices cold = { cold_names, ARRAY_SIZE(cold_names) };
static const char *const widths_names[] = { "pooled", "own" };
static const struct choices widths = { widths_names, ARRAY_SIZE(widths_names) };
static const struct choices memcpy_c = { memcpy_impl_names, NR_MEMCPY_IMPL };
static const struct choices copy_page_c = { copy_page_impl_names, NR_COPY_PAGE_IMPL };
static const struct choices copy_mc_c = { copy_mc_impl_names, NR_COPY_MC_IMPL };
static const struct choices clear_page_c = { clear_page_impl_names, NR_CLEAR_PAGE_IMPL };

/* A value of @opt->choices: its index into the int at @opt->field. */
static int set_choice(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	int i = choice(opt, v);

	if (i < 0)
		return -1;
	*(int *)((char *)o + opt->field) = i;
	return 0;
}

/* A choice of two for the bool at @opt->field: true for the second (--cold flush, ...). */
static int set_second(struct ck_bench_opts *o, const struct opt *opt, const char *v)
{
	int i = choice(opt, v);

	*(bool *)((char *)o + opt->field) = i == 1;
	return i < 0 ? -1 : 0;
}

#define OV(f)	offsetof(struct ck_bench_opts, ov.f)

static const struct opt opts[] = {
	{ "--preset", NULL, "PRESET", NULL, 0, set_preset },
	{ "--rounds", "--runs", "N", NULL, 0, set_rounds },
	{ "--placements", NULL, "N", NULL, 0, set_placements },
	{ "--replicas", NULL, "N", NULL, 0, set_replicas },
	{ "--replica-fd", NULL, "FD", NULL, 0, set_replica_fd },
	{ "--replica-spread", NULL, "MIB", NULL, 0, set_replica_spread },
	{ "--json", NULL, "FILE", NULL, 0, set_json },
	{ "--tiny", NULL, NULL, NULL, 0, set_tiny },
	{ "--list", NULL, NULL, NULL, 0, set_list },
	{ "--cold", NULL, NULL, &cold, offsetof(struct ck_bench_opts, cold_flush), set_second },
	{ "--widths", NULL, NULL, &widths, offsetof(struct ck_bench_opts, own_widths),
	  set_second },
	{ "--cpu", NULL, "N", NULL, 0, set_cpu },
	{ "--perf-pairs", NULL, "N", NULL, 0, set_pairs },
	{ "--memcpy", NULL, NULL, &memcpy_c, OV(memcpy), set_choice },
	{ "--copy-page", NULL, NULL, &copy_page_c, OV(copy_page), set_choice },
	{ "--copy-mc", NULL, NULL, &copy_mc_c, OV(copy_mc), set_choice },
	{ "--clear-page", NULL, NULL, &clear_page_c, OV(clear_page), set_choice },
};

static void print_names(const char *const *names, unsigned int n, unsigned int *k)
{
	for (unsigned int i = 0; i < n; i++)
		fprintf(stderr, "%s%s", (*k)++ ? "|" : "", names[i]);
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s", prog);
	for (unsigned int i = 0; i < ARRAY_SIZE(opts); i++) {
		const struct opt *o = &opts[i];
		unsigned int k = 0;

		if (o->set == set_replica_fd || o->set == set_replica_spread)
			continue;	/* internal: how a replica is started */
		fprintf(stderr, " [%s", o->name);
		if (o->set == set_preset) {
			fprintf(stderr, " ");
			print_names(bench_preset_names, NR_PRESETS, &k);
			print_names(hosted_presets, ARRAY_SIZE(hosted_presets), &k);
			fprintf(stderr, "]...");
			continue;
		}
		if (o->choices) {
			fprintf(stderr, " ");
			print_names(o->choices->names, o->choices->n, &k);
		} else if (o->arg) {
			fprintf(stderr, " %s", o->arg);
		}
		fprintf(stderr, "]");
	}
	fprintf(stderr, "\n");
}

static const struct opt *find(const char *word)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(opts); i++)
		if (!strcmp(opts[i].name, word) || (opts[i].alias && !strcmp(opts[i].alias, word)))
			return &opts[i];
	return NULL;
}

int ck_bench_parse(int argc, char **argv, struct ck_bench_opts *o)
{
	*o = (struct ck_bench_opts){ .rounds = BENCH_DEFAULT_RUNS, .cpu = -1, .perf_pairs = 15,
				     .placements = BENCH_DEFAULT_PLACEMENTS,
				     .replicas = CK_BENCH_DEFAULT_REPLICAS, .replica_fd = -1,
				     .ov = { -1, -1, -1, -1 } };
	for (int i = 1; i < argc; i++) {
		const struct opt *w = find(argv[i]);

		o->is_replica |= w && w->set == set_replica_fd;
	}
	for (int i = 1; i < argc; i++) {
		const struct opt *opt = find(argv[i]);
		bool takes = opt && (opt->arg || opt->choices);

		if (!opt) {
			fprintf(stderr, "ck-bench: unknown option '%s'\n", argv[i]);
		} else if (takes && i + 1 >= argc) {
			fprintf(stderr, "ck-bench: %s needs a value\n", argv[i]);
		} else if (!opt->set(o, opt, takes ? argv[i + 1] : NULL)) {
			i += takes;
			continue;
		}
		usage(argv[0]);
		return 2;
	}
	if (o->tiny && !o->replicas_given)
		o->replicas = 1;	/* a test-sized run: its comparisons in this process */
	if (!o->np) {
		o->presets[o->np++] = "rfc";
		o->presets[o->np++] = "perf";
	}
	return 0;
}
