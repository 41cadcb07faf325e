// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/cores/ck-cores.c - the hosted twin of the cores suite (docs/user/cores.md): every
 * kernel of cores/list.c (the very objects the image links, built for Linux) on every CPU
 * this process may use at once, one pinned thread each (host/cores/twin.c), put to the
 * image's vote against the known answer (host/cores/verdict.c, cores/vote.c), with the
 * image's lines and records; a CPU the vote names is replayed 10 times beside one that gave
 * the known answer. Then each kernel's rate on this machine, alone and with every CPU at
 * once (host/cores/rate.c), the kernels measured pair by pair in turn, as a table and JSON
 * records.
 *
 *   ck-cores [--cores VALUE] [--runs N] [--ms N] [--verdict-only] [--json FILE]
 *
 * --cores takes the image's cores= value (seed, rounds, kernels; cores/opts.h). Exit status:
 * 0 every kernel agrees with its known answer (or no CPU here can run it), 1 a kernel does
 * not or a timed round missed its known answer, 2 bad usage, 3 the machine would not let it
 * run (no CPU, no thread).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cores/list.h"
#include "cores/opts.h"
#include "host/cores/rate.h"
#include "host/cores/verdict.h"

struct cli {
	struct cores_opts o;
	unsigned int runs, ms;
	bool verdict_only;
	const char *json;
};

static int cpus[CORES_TWIN_MAX_CPUS];
static unsigned int nr_cpus;
static struct cores_twin_slot slots[CORES_TWIN_MAX_CPUS];
static struct cores_twin_verdict verdict;
static char machine[256], load[64], load_span[140];
static FILE *json;

static void usage(void)
{
	fprintf(stderr, "usage: ck-cores [--cores VALUE] [--runs N] [--ms N] [--verdict-only] "
		"[--json FILE]\n  --cores   the image's cores= value (seed:N,rounds:N,kernels:F+F; "
		"default: default)\n  --runs    pairs of timed runs per kernel, 3 to 256 "
		"(default 11)\n  --ms      milliseconds per timed run, 1 to 10000 (default 20)\n");
	exit(2);
}

static unsigned int number(const char *s, unsigned int lo, unsigned int hi, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "ck-cores: %s: '%s' is not a number from %u to %u\n", what, s,
			lo, hi);
		usage();
	}
	return (unsigned int)v;
}

static void parse(int argc, char **argv, struct cli *c)
{
	*c = (struct cli){ .runs = 11, .ms = 20 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		const char *why;

		if (!strcmp(a, "--verdict-only")) {
			c->verdict_only = true;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--cores")) {
			why = cores_parse_opts(v, strlen(v), &c->o);
			if (why) {
				fprintf(stderr, "ck-cores: --cores %s: %s\n", v, why);
				usage();
			}
		} else if (!strcmp(a, "--runs")) {
			c->runs = number(v, 3, STATS_MAX, "--runs");
		} else if (!strcmp(a, "--ms")) {
			c->ms = number(v, 1, 10000, "--ms");
		} else if (!strcmp(a, "--json")) {
			c->json = v;
		} else {
			usage();
		}
	}
}

/* "AMD EPYC, 2 CPUs, Linux 6.1.0", from /proc/cpuinfo and uname. */
static void read_machine(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], model[160] = "unknown CPU";
	struct utsname u;

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(model, sizeof(model), "%s", colon + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(machine, sizeof(machine), "%s, %u CPUs, Linux %s", model, nr_cpus, u.release);
}

static const char *read_load(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	float a = 0, b = 0, c = 0;

	if (!f || fscanf(f, "%f %f %f", &a, &b, &c) != 3)
		snprintf(load, sizeof(load), "unknown");
	else
		snprintf(load, sizeof(load), "%.2f %.2f %.2f", a, b, c);
	if (f)
		fclose(f);
	return load;
}

static void record(const char *buf)
{
	if (json)
		fprintf(json, "%s\n", buf);
}

/* One kernel's verdict on every CPU at once: true when it passes. */
static bool judge_kernel(const struct cores_kernel *k, const struct cli *c)
{
	struct cores_twin_job j = { .k = k, .seed = cores_opts_seed(&c->o),
				    .rounds = cores_opts_rounds(&c->o) };
	struct cores_replay rp;
	bool replayed;
	char buf[2048];

	if (!cores_twin_run(&j, cpus, nr_cpus, slots))
		exit(3);
	cores_twin_judge(k, j.seed, j.rounds, slots, nr_cpus, &verdict);
	cores_twin_say(stdout, "# ", &verdict);
	replayed = verdict.v.cls == CORES_MINORITY;
	if (replayed && !cores_twin_replay(&j, &verdict, &rp, stdout, "# "))
		exit(3);
	cores_twin_record(&verdict, replayed ? &rp : NULL, buf, sizeof(buf));
	record(buf);
	return cores_twin_passes(&verdict);
}

static void rate_header(void)
{
	printf("\n# rates on %s, load (1, 5, 15 min) %s\n", machine, load_span);
	printf("# kernel rounds per second (a round: the seeded fill, the routine, the digest over "
	       "8 KiB): the median of the runs [bootstrap 95%% CI of the median]\n");
	printf("%-20s %-8s %-30s %-30s %-12s %s\n", "kernel", "family", "alone", "each, all at once",
	       "all CPUs", "each/alone [95% CI]");
}

/* One kernel's row and record: true unless a timed round missed its known answer. */
static bool rate_row(const struct cores_twin_rate *r)
{
	char a[40], e[40], buf[1024];

	cores_twin_rate_json(r, machine, load_span, buf, sizeof(buf));
	record(buf);
	if (!r->measured) {
		printf("%-20s %-8s not measured: %s\n", r->k->name, r->k->family, r->why_not);
		return !r->wrong;
	}
	snprintf(a, sizeof(a), "%llu [%llu, %llu]", (unsigned long long)r->alone,
		 (unsigned long long)r->alone_lo, (unsigned long long)r->alone_hi);
	snprintf(e, sizeof(e), "%llu [%llu, %llu]", (unsigned long long)r->each,
		 (unsigned long long)r->each_lo, (unsigned long long)r->each_hi);
	printf("%-20s %-8s %-30s %-30s %-12llu %u.%03u [%u.%03u, %u.%03u]\n", r->k->name,
	       r->k->family, a, e, (unsigned long long)(r->each * r->cpus),
	       r->shared.ratio_pm / 1000, r->shared.ratio_pm % 1000, r->shared.lo_pm / 1000,
	       r->shared.lo_pm % 1000, r->shared.hi_pm / 1000, r->shared.hi_pm % 1000);
	if (r->wrong)
		printf("# %s: %u timed rounds without the known answer\n", r->k->name, r->wrong);
	return !r->wrong;
}

/*
 * Every selected kernel's rate, pair by pair in turn (host/cores/rate.h says why); the
 * number of kernels a timed round of which missed its known answer.
 */
static unsigned int rates(const struct cli *c)
{
	unsigned int nk = cores_nr_kernels(), bad = 0;
	struct cores_twin_rate *r = calloc(nk, sizeof(*r));
	bool *ok = calloc(nk, sizeof(*ok)), *sel = calloc(nk, sizeof(*sel));

	if (!r || !ok || !sel) {
		fprintf(stderr, "ck-cores: no memory for the rates\n");
		exit(3);
	}
	snprintf(load_span, sizeof(load_span), "%s", read_load());
	for (unsigned int i = 0; i < nk; i++) {
		sel[i] = cores_opts_family(&c->o, cores_kernel(i)->family);
		ok[i] = sel[i] && cores_twin_rate_prepare(cores_kernel(i), cores_opts_seed(&c->o),
							  cores_opts_rounds(&c->o), cpus,
							  nr_cpus, c->runs, c->ms, &r[i]);
	}
	for (unsigned int run = 0; run < c->runs; run++)
		for (unsigned int i = 0; i < nk; i++)
			if (ok[i])
				ok[i] = cores_twin_rate_pair(&r[i], run);
	snprintf(load_span + strlen(load_span), sizeof(load_span) - strlen(load_span),
		 " before, %s after", read_load());
	rate_header();
	for (unsigned int i = 0; i < nk; i++) {
		if (!sel[i])
			continue;
		if (r[i].known)
			cores_twin_rate_finish(&r[i], ok[i]);
		bad += !rate_row(&r[i]);
	}
	free(r);
	free(ok);
	free(sel);
	return bad;
}

int main(int argc, char **argv)
{
	struct cli c;
	unsigned int ran = 0, failed = 0, left = 0;
	char opts[96];

	parse(argc, argv, &c);
	nr_cpus = cores_twin_cpus(cpus, CORES_TWIN_MAX_CPUS);
	if (!nr_cpus) {
		fprintf(stderr, "ck-cores: no CPU to run on (sched_getaffinity)\n");
		return 3;
	}
	json = c.json ? (strcmp(c.json, "-") ? fopen(c.json, "w") : stdout) : NULL;
	if (c.json && !json) {
		perror(c.json);
		return 2;
	}
	read_machine();
	cores_opts_text(&c.o, opts, sizeof(opts));
	printf("# ck-cores: the cores kernels on %u CPUs at once, one pinned thread each: "
	       "cores=%s (seed 0x%llx, %u rounds); %s; load %s\n", nr_cpus, opts,
	       (unsigned long long)cores_opts_seed(&c.o), cores_opts_rounds(&c.o), machine,
	       read_load());
	for (unsigned int i = 0; i < cores_nr_kernels(); i++) {
		const struct cores_kernel *k = cores_kernel(i);

		if (!cores_opts_family(&c.o, k->family)) {
			printf("# %s: cores=kernels: leaves the %s family out\n", k->name,
			       k->family);
			left++;
			continue;
		}
		failed += !judge_kernel(k, &c);
		ran++;
	}
	printf("# ck-cores: %u kernels judged, %u left out by --cores, %u failed: %s\n", ran,
	       left, failed, failed ? "FAIL" : "PASS");
	if (!c.verdict_only)
		failed += rates(&c);
	if (json && json != stdout)
		fclose(json);
	return failed ? 1 : 0;
}
