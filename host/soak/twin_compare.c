// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_compare.c - the hosted soak twin against stressapptest (ck-soak --compare, make
 * soak-bench): the same memory size, thread count and time, interleaved in one run.
 *
 * Each round runs one twin process (ck-soak --quiet, a fresh process that maps, touches,
 * works and exits like stressapptest does) and one stressapptest process (-M MiB -m threads
 * -s seconds), plus one stressapptest -W process unless --no-warm; the order is reversed
 * every other round (AB, BA, ...). -W matters: it swaps stressapptest's checksumming copy in
 * C for an SSE2 one with non-temporal stores, its fastest copy, and the comparison should be
 * with the peer at its best; without it the default (strict, C) copy is what most users run,
 * so both are sides. stressapptest's main loop sleeps in 5 s steps, so -s N runs N rounded up
 * to a multiple of 5 seconds: the comparison gives both sides that time. Memory: each side
 * takes 2 MiB hugetlb pages when vm.nr_hugepages has enough (the twin by MAP_HUGETLB,
 * stressapptest by SysV SHM_HUGETLB), else the twin THP and stressapptest 4 KiB pages; with
 * --hugepages (root) the comparison reserves them for the run and puts the old count back
 * at its end, so both sides stand on the same pages. Every run's output is kept in
 * --log-dir. Each side's rates are as host/soak/twin_peer.h defines them; the result per metric
 * and peer is the median of the per-round ratios twin / peer with a bootstrap 95% interval
 * (bench/stats.c), and JSON lines. Every round first measures the machine's all-core limits
 * (host/soak/twin_allcore.c: copy, read, non-temporal write, every CPU at once, and each NUMA
 * node's CPUs alone where Linux shows several), so that drift shows in them as in the sides;
 * each limit is printed as its rounds' median with a bootstrap interval, and each side's
 * checked and traffic rates as shares of the matching every-CPU limit of the same round
 * (host/soak/twin_limit.h says which and why). A benchmark, not a test: nothing asserts a
 * speed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/lib/machine.h"
#include "host/soak/twin.h"
#include "host/soak/twin_allcore.h"
#include "host/soak/twin_machine.h"
#include "host/soak/twin_peer.h"
#include "bench/migrate_calc.h"
#include "kernel/lib/json.h"

#define GB		1e9
#define NR_SIDES	3
#define MAX_SCOPES	9	/* the machine and up to 8 nodes */

enum side { SIDE_TWIN, SIDE_SAT, SIDE_SAT_WARM };
static const char *const side_names[NR_SIDES] = {
	"ck-soak twin", "stressapptest", "stressapptest -W",
};

struct compare {
	const struct ck_soak_opts *o;
	const char *self;
	unsigned int seconds, threads, sides, rounds;
	double rate[NR_SIDES][NR_SOAK_RATES][STATS_MAX];	/* 0: the run failed */
	bool failed_check;		/* a side found a miscompare or said FAIL */
	char memory[NR_SIDES][160];	/* what memory each side said it got */
	FILE *json;
	/*
	 * The all-core limits, measured in every round before its sides (0: not measured): scope
	 * 0 is every CPU at once; with several NUMA nodes, scope 1.. is each node's CPUs alone.
	 */
	struct ck_host host;
	int cpu[1024];
	unsigned int nr_cpus, nodes, nr_scopes;
	struct {
		int node;		/* -1: the machine */
		unsigned int nr;
		int cpu[1024];
		char memory[160];
		double limit[NR_SOAK_LIMITS][STATS_MAX];
	} scope[MAX_SCOPES];
};

/* The 1-minute load average, -1 when unknown. */
static double load1(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f && fscanf(f, "%lf", &l) != 1)
		l = -1;
	if (f)
		fclose(f);
	return l;
}

struct run_out {
	enum side side;
	struct sat_summary sat;
	struct twin_result twin;
	bool have_twin;
	char memory[160];
};

static void take_line(struct run_out *ro, const char *line)
{
	if (ro->side != SIDE_TWIN) {
		sat_parse_line(&ro->sat, line);
		return;
	}
	if (twin_parse_result(line, &ro->twin))
		ro->have_twin = true;
	else if (!strncmp(line, "# memory: ", 10))
		snprintf(ro->memory, sizeof(ro->memory), "%.150s", line + 10);
}

/* Run @cmd, keep its output in @log and parse it; false when it could not run. */
static bool run_side(const char *cmd, const char *log, struct run_out *ro)
{
	char line[1024], full[4400];
	FILE *p, *keep = fopen(log, "w");
	int st;

	snprintf(full, sizeof(full), "%s 2>&1", cmd);
	if (keep)
		fprintf(keep, "$ %s\n", cmd);
	p = popen(full, "r");
	if (!p) {
		if (keep)
			fclose(keep);
		return false;
	}
	while (fgets(line, sizeof(line), p)) {
		if (keep)
			fputs(line, keep);
		line[strcspn(line, "\r\n")] = 0;
		take_line(ro, line);
	}
	st = pclose(p);
	if (keep) {
		fprintf(keep, "# exit status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		fclose(keep);
	}
	return st != -1;
}

/* One side's run in round @i: its rates into c->rate (0 when the run gave none). */
static void one_run(struct compare *c, enum side s, unsigned int i)
{
	char cmd[4200], log[4200];
	struct run_out ro = { .side = s };
	const char *why = NULL;

	if (s == SIDE_TWIN)
		snprintf(cmd, sizeof(cmd), "'%s' --quiet --mib %llu --threads %u --seconds %u "
			 "--chunk-mib %llu --seed 0x%llx%s", c->self,
			 (unsigned long long)c->o->mib, c->threads, c->seconds,
			 (unsigned long long)c->o->chunk_mib,
			 (unsigned long long)(c->o->seed + i),
			 c->o->backing == SOAK_BACK_4K ? " --backing 4k" :
			 c->o->backing == SOAK_BACK_THP ? " --backing thp" : "");
	else
		snprintf(cmd, sizeof(cmd), "'%s' -M %llu -m %u -s %u%s", c->o->sat,
			 (unsigned long long)c->o->mib, c->threads, c->seconds,
			 s == SIDE_SAT_WARM ? " -W" : "");
	snprintf(log, sizeof(log), "%s/round-%02u-%s.log", c->o->log_dir, i + 1,
		 s == SIDE_TWIN ? "twin" : s == SIDE_SAT ? "sat" : "sat-W");
	sat_summary_init(&ro.sat);
	if (!run_side(cmd, log, &ro))
		why = "could not start";
	else if (s == SIDE_TWIN && !ro.have_twin)
		why = "no result line";
	else if (s != SIDE_TWIN)
		why = sat_summary_unusable(&ro.sat);
	for (int k = 0; k < NR_SOAK_RATES; k++)
		c->rate[s][k][i] = why ? 0 : s == SIDE_TWIN ? ro.twin.rate[k] :
				   sat_rate(&ro.sat, (enum soak_rate)k);
	if (!why && ((s == SIDE_TWIN && !ro.twin.pass) || (s != SIDE_TWIN && !ro.sat.pass)))
		c->failed_check = true;
	if (why)
		printf("#   %s in round %u: %s (see %s)\n", side_names[s], i + 1, why, log);
	if (!c->memory[s][0])
		snprintf(c->memory[s], sizeof(c->memory[s]), "%.150s",
			 s == SIDE_TWIN ? ro.memory : ro.sat.memory);
}

static void round_json(const struct compare *c, unsigned int i, enum side s, double load)
{
	struct json_writer w;
	char line[512];

	json_record(&w, line, sizeof(line), "soak-bench-round");
	json_u64(&w, "round", i + 1);
	json_str(&w, "side", side_names[s]);
	json_bool(&w, "ok", c->rate[s][0][i] > 0);
	for (int k = 0; k < NR_SOAK_RATES; k++) {
		char key[24];

		snprintf(key, sizeof(key), "%s_gbps", soak_rate_names[k]);
		json_double(&w, key, c->rate[s][k][i] / GB, 3);
	}
	json_double(&w, "load1", load, 2);
	json_end(&w);
	fprintf(c->json, "%s\n", line);
}

/* "node": null for the machine, else the node's number. */
static void json_node(struct json_writer *w, int node)
{
	if (node < 0)
		json_null(w, "node");
	else
		json_u64(w, "node", (u64)node);
}

static void limit_round_json(const struct compare *c, unsigned int i, unsigned int sc, int l,
			     double load)
{
	struct json_writer w;
	char line[512];

	json_record(&w, line, sizeof(line), "soak-bench-limit-round");
	json_u64(&w, "round", i + 1);
	json_str(&w, "limit", soak_limit_names[l]);
	json_node(&w, c->scope[sc].node);
	json_u64(&w, "threads", c->scope[sc].nr);
	json_double(&w, "gbps", c->scope[sc].limit[l][i] / GB, 3);
	json_double(&w, "load1", load, 2);
	json_end(&w);
	fprintf(c->json, "%s\n", line);
}

/* "all-core limit" or "node 1 limit", as the lines name a scope. */
static const char *scope_name(const struct compare *c, unsigned int sc)
{
	static char buf[32];

	if (c->scope[sc].node < 0)
		return "all-core limit";
	snprintf(buf, sizeof(buf), "node %d limit", c->scope[sc].node);
	return buf;
}

/*
 * Round @i's limits before the sides run: every CPU at once, then (several nodes) each node's
 * CPUs alone over as much memory as their share of --mib.
 */
static void limit_round(struct compare *c, unsigned int i, double load)
{
	for (unsigned int sc = 0; sc < c->nr_scopes; sc++) {
		double v[NR_SOAK_LIMITS];
		u64 mib = MAX(c->o->mib * c->scope[sc].nr / c->nr_cpus, 16ULL);

		soak_allcore_measure(&c->host, c->scope[sc].cpu, c->scope[sc].nr, mib, v,
				     c->scope[sc].memory, sizeof(c->scope[sc].memory));
		printf("round %2u %s (%u CPUs at once): copy %.3f, read %.3f, nt-write %.3f GB/s "
		       "of traffic\n", i + 1, scope_name(c, sc), c->scope[sc].nr,
		       v[SOAK_LIMIT_COPY] / GB, v[SOAK_LIMIT_READ] / GB,
		       v[SOAK_LIMIT_NT_WRITE] / GB);
		for (int l = 0; l < NR_SOAK_LIMITS; l++) {
			c->scope[sc].limit[l][i] = v[l];
			if (c->json)
				limit_round_json(c, i, sc, l, load);
		}
	}
}

/* Round @i: the limits, then every side once, in order or reversed; one line with the rates. */
static void one_round(struct compare *c, unsigned int i)
{
	double load = load1();

	limit_round(c, i, load);
	for (unsigned int j = 0; j < c->sides; j++)
		one_run(c, (enum side)(i & 1 ? c->sides - 1 - j : j), i);
	printf("round %2u (%s first, load %.2f):", i + 1, i & 1 ? side_names[c->sides - 1] :
	       side_names[0], load);
	for (unsigned int s = 0; s < c->sides; s++) {
		printf("  %s %.3f", side_names[s], c->rate[s][SOAK_RATE_CHECKED][i] / GB);
		if (c->json)
			round_json(c, i, (enum side)s, load);
	}
	printf(" GB/s checked\n");
}

static double median_rate(const double *v, unsigned int n)
{
	u64 s[STATS_MAX];
	unsigned int m = 0;
	struct stats st;

	for (unsigned int i = 0; i < n; i++)
		if (v[i] > 0)
			s[m++] = (u64)v[i];
	stats_compute(s, m, &st);
	return (double)st.median;
}

static void result_json(const struct compare *c, enum side peer, int k, const struct ratio *q,
			unsigned int used)
{
	struct json_writer w;
	char line[768];

	json_record(&w, line, sizeof(line), "soak-bench");
	json_str(&w, "peer", side_names[peer]);
	json_str(&w, "rate", soak_rate_names[k]);
	json_u64(&w, "mib", c->o->mib);
	json_u64(&w, "threads", c->threads);
	json_u64(&w, "seconds", c->seconds);
	json_u64(&w, "rounds", used);
	json_double(&w, "twin_gbps", median_rate(c->rate[SIDE_TWIN][k], c->rounds) / GB, 3);
	json_double(&w, "peer_gbps", median_rate(c->rate[peer][k], c->rounds) / GB, 3);
	json_u64(&w, "ratio_x1000", q->ratio_pm);
	json_u64(&w, "ci_lo_x1000", q->lo_pm);
	json_u64(&w, "ci_hi_x1000", q->hi_pm);
	json_bool(&w, "significant", q->significant);
	json_double(&w, "load1_end", load1(), 2);	/* the machine is shared: say how busy */
	json_end(&w);
	fprintf(c->json, "%s\n", line);
}

/* The table: per peer and rate, the medians and twin / peer with its interval. */
static unsigned int results(const struct compare *c)
{
	unsigned int good = STATS_MAX;

	printf("\n%-18s %-8s %6s %10s %10s  %s\n", "peer", "rate", "rounds", "twin GB/s",
	       "peer GB/s", "twin/peer [95% CI]");
	for (unsigned int s = SIDE_SAT; s < c->sides; s++)
		for (int k = 0; k < NR_SOAK_RATES; k++) {
			struct ratio q;
			unsigned int used;
			bool ok = soak_rate_ratio(c->rate[SIDE_TWIN][k], c->rate[s][k], c->rounds,
						  &q, &used);

			good = MIN(good, used);
			if (!ok) {
				printf("%-18s %-8s %6u  fewer than 3 good rounds: no figure\n",
				       side_names[s], soak_rate_names[k], used);
				continue;
			}
			printf("%-18s %-8s %6u %10.3f %10.3f  %.3fx [%.3f, %.3f]%s\n",
			       side_names[s], soak_rate_names[k], used,
			       median_rate(c->rate[SIDE_TWIN][k], c->rounds) / GB,
			       median_rate(c->rate[s][k], c->rounds) / GB, q.ratio_pm / 1000.0,
			       q.lo_pm / 1000.0, q.hi_pm / 1000.0,
			       q.significant ? "" : "  (no difference resolved)");
			if (c->json)
				result_json(c, (enum side)s, k, &q, used);
		}
	return good;
}

static void limit_json(const struct compare *c, unsigned int sc, int l, double med, double lo,
		       double hi, unsigned int used)
{
	struct json_writer w;
	char line[768];

	json_record(&w, line, sizeof(line), "soak-bench-limit");
	json_str(&w, "limit", soak_limit_names[l]);
	json_node(&w, c->scope[sc].node);
	json_u64(&w, "threads", c->scope[sc].nr);
	json_u64(&w, "nodes", c->nodes);
	json_u64(&w, "mib", MAX(c->o->mib * c->scope[sc].nr / c->nr_cpus, 16ULL));
	json_str(&w, "memory", c->scope[sc].memory);
	json_u64(&w, "rounds", used);
	json_double(&w, "gbps", med / GB, 3);
	json_double(&w, "ci_lo_gbps", lo / GB, 3);
	json_double(&w, "ci_hi_gbps", hi / GB, 3);
	json_double(&w, "load1_end", load1(), 2);
	json_end(&w);
	fprintf(c->json, "%s\n", line);
}

/* One scope's limits: each one's median over the rounds with its bootstrap 95% interval. */
static void scope_limits(const struct compare *c, unsigned int sc)
{
	printf("\n# %ss: %u threads, one per CPU, pinned, started together behind a barrier, %d "
	       "ms a stream, over %s; traffic GB/s, median of the rounds [bootstrap 95%% CI]\n",
	       scope_name(c, sc), c->scope[sc].nr, SOAK_LIMIT_MS, c->scope[sc].memory);
	for (int l = 0; l < NR_SOAK_LIMITS; l++) {
		double med, lo, hi;
		unsigned int used;

		if (!soak_limit_median(c->scope[sc].limit[l], c->rounds, &med, &lo, &hi, &used)) {
			printf("limit %-9s %u good rounds: no figure\n", soak_limit_names[l], used);
			continue;
		}
		printf("limit %-9s %8.3f GB/s [%.3f, %.3f], %u rounds\n", soak_limit_names[l],
		       med / GB, lo / GB, hi / GB, used);
		if (c->json)
			limit_json(c, sc, l, med, lo, hi, used);
	}
}

static void limits(const struct compare *c)
{
	for (unsigned int sc = 0; sc < c->nr_scopes; sc++)
		scope_limits(c, sc);
}

static void share_json(const struct compare *c, enum side s, const struct soak_share_def *d,
		       const struct ratio *q, unsigned int used, double limit_gbps)
{
	struct json_writer w;
	char line[768];

	json_record(&w, line, sizeof(line), "soak-bench-share");
	json_str(&w, "side", side_names[s]);
	json_str(&w, "rate", soak_rate_names[d->rate]);
	json_str(&w, "limit", soak_limit_names[d->limit]);
	json_u64(&w, "limit_div", d->div);
	json_u64(&w, "rounds", used);
	json_double(&w, "side_gbps", median_rate(c->rate[s][d->rate], c->rounds) / GB, 3);
	json_double(&w, "limit_gbps", limit_gbps, 3);
	json_u64(&w, "share_x1000", q->ratio_pm);
	json_u64(&w, "ci_lo_x1000", q->lo_pm);
	json_u64(&w, "ci_hi_x1000", q->hi_pm);
	json_double(&w, "load1_end", load1(), 2);
	json_end(&w);
	fprintf(c->json, "%s\n", line);
}

/* Side @s's rate as the share @d of the every-CPU limit: one line and one record. */
static void share_row(const struct compare *c, enum side s, const struct soak_share_def *d)
{
	const double *limit = c->scope[0].limit[d->limit];
	double med, lo, hi;
	unsigned int used, n;
	struct ratio q;
	char name[40];

	snprintf(name, sizeof(name), "%s / %s%s", soak_rate_names[d->rate],
		 soak_limit_names[d->limit], d->div == 2 ? "/2" : "");
	if (!soak_limit_share(c->rate[s][d->rate], limit, d->div, c->rounds, &q, &used)) {
		printf("%-18s %-18s %6u  fewer than 3 good rounds: no figure\n", side_names[s],
		       name, used);
		return;
	}
	soak_limit_median(limit, c->rounds, &med, &lo, &hi, &n);
	printf("%-18s %-18s %6u %10.3f %10.3f  %.3f [%.3f, %.3f]\n", side_names[s], name, used,
	       median_rate(c->rate[s][d->rate], c->rounds) / GB, med / d->div / GB,
	       q.ratio_pm / 1000.0, q.lo_pm / 1000.0, q.hi_pm / 1000.0);
	if (c->json)
		share_json(c, s, d, &q, used, med / d->div / GB);
}

/* Every side's rates as shares of the matching limit of the same round. */
static void shares(const struct compare *c)
{
	printf("\n# shares of the all-core limit: per round a side's rate over that round's "
	       "limit (over half of it where /2), median [bootstrap 95%% CI]:\n");
	for (int k = 0; k < NR_SOAK_SHARES; k++)
		printf("#   %s / %s%s: %s\n", soak_rate_names[soak_shares[k].rate],
		       soak_limit_names[soak_shares[k].limit], soak_shares[k].div == 2 ? "/2" : "",
		       soak_shares[k].why);
	if (c->threads != c->nr_cpus)
		printf("#   the sides ran %u threads, the limit %u: a share below 1 is partly "
		       "that\n", c->threads, c->nr_cpus);
	printf("%-18s %-18s %6s %10s %10s  %s\n", "side", "share", "rounds", "side GB/s",
	       "limit GB/s", "share [95% CI]");
	for (unsigned int s = 0; s < c->sides; s++)
		for (int k = 0; k < NR_SOAK_SHARES; k++)
			share_row(c, (enum side)s, &soak_shares[k]);
}

/* Add node @node's CPUs that this process may use (its sysfs cpulist @list) as a scope. */
static void add_node(struct compare *c, int node, const char *list)
{
	static unsigned int cpus[1024];
	unsigned int n = mig_parse_list(list, cpus, 1024), sc = c->nr_scopes;

	c->scope[sc].node = node;
	c->scope[sc].nr = 0;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < c->nr_cpus; j++)
			if (c->cpu[j] == (int)cpus[i])
				c->scope[sc].cpu[c->scope[sc].nr++] = c->cpu[j];
	if (c->scope[sc].nr)
		c->nr_scopes++;
}

/*
 * The scopes the limits are measured over: every CPU, and each NUMA node Linux shows
 * (/sys/devices/system/node/nodeN/cpulist) where there are several; c->nodes their count.
 */
static void find_scopes(struct compare *c)
{
	char path[80], list[4096];

	c->nr_cpus = ck_soak_cpus(c->cpu, 1024);
	c->scope[0].node = -1;
	c->scope[0].nr = c->nr_cpus;
	memcpy(c->scope[0].cpu, c->cpu, sizeof(c->cpu));
	c->nr_scopes = 1;
	c->nodes = 0;
	for (int node = 0; node < 1024; node++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (!ck_host_read_line(path, list, sizeof(list)))
			continue;
		c->nodes++;
	}
	for (int node = 0; c->nodes > 1 && node < 1024 && c->nr_scopes < MAX_SCOPES; node++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (ck_host_read_line(path, list, sizeof(list)))
			add_node(c, node, list);
	}
	c->nodes = MAX(c->nodes, 1u);
}

static void header(const struct compare *c)
{
	printf("# soak-bench: the hosted soak twin (host/soak/ck-soak.c) against %s, %llu MiB, %u "
	       "threads, %u s a run, %u rounds alternating AB/BA, logs in %s/\n", c->o->sat,
	       (unsigned long long)c->o->mib, c->threads, c->seconds, c->rounds,
	       c->o->log_dir);
	printf("# rates (host/soak/twin_peer.h), bytes/s summed over threads, GB = 10^9 bytes: "
	       "checked = bytes of memory read back and compared with what was written there "
	       "(stressapptest: its Memory Copy MB/s x 2^20 / 2, as it counts each copied byte "
	       "twice and checks each copy's source once; the twin: each pair's destination and "
	       "source); copied = data copied (stressapptest: the same; the twin: 1 per 2 "
	       "checked); traffic = bytes read + written (stressapptest: its own figure; the "
	       "twin: 5 per copied byte)\n");
	printf("# ratio = median of per-round ratios twin/peer, %d-resample bootstrap 95%% CI "
	       "(bench/stats.c); the target: checked, twin/stressapptest >= 1\n",
	       STATS_BOOT_MAX);
}

#define NR_HUGEPAGES	"/proc/sys/vm/nr_hugepages"
static long hugepages_before = -1;	/* the count to put back, -1: nothing to do */
static char hugepages_text[24];		/* the same as text, for the signal handler */

static long read_hugepages(void)
{
	return ck_host_read_long(NR_HUGEPAGES);
}

static bool write_hugepages(long n)
{
	FILE *f = fopen(NR_HUGEPAGES, "w");
	bool ok = f && fprintf(f, "%ld\n", n) > 0;

	return f && !fclose(f) && ok;
}

static void restore_hugepages(void)
{
	if (hugepages_before >= 0 && write_hugepages(hugepages_before))
		printf("# vm.nr_hugepages back to %ld\n", hugepages_before);
	hugepages_before = -1;
}

/* Interrupted: put the count back with async-signal-safe calls only, then die of @sig. */
static void on_signal(int sig)
{
	int fd = open(NR_HUGEPAGES, O_WRONLY);

	if (fd >= 0) {
		ssize_t n = write(fd, hugepages_text, strlen(hugepages_text));

		(void)n;	/* a failure cannot be told from here */
		close(fd);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Enough 2 MiB pages for one side's @mib (the sides run one at a time), put back at exit. */
static void reserve_hugepages(u64 mib)
{
	long before = read_hugepages(), want = (long)((mib + 1) / 2) + 8, got;

	if (before < 0 || before >= want) {
		printf("# --hugepages: vm.nr_hugepages is %ld: %s\n", before,
		       before < 0 ? "cannot read it" : "enough already");
		return;
	}
	if (!write_hugepages(want)) {
		printf("# --hugepages: cannot write %s (%s): the sides take what they get\n",
		       NR_HUGEPAGES, geteuid() ? "not root" : strerror(errno));
		return;
	}
	hugepages_before = before;
	snprintf(hugepages_text, sizeof(hugepages_text), "%ld\n", before);
	atexit(restore_hugepages);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	got = read_hugepages();
	printf("# --hugepages: vm.nr_hugepages %ld -> %ld (asked %ld)%s\n", before, got, want,
	       got < want ? ": memory too fragmented for all of them, the rest is THP/4 KiB" :
	       "");
}

/* stressapptest is there and runs; false after saying how to get it. */
static bool have_sat(const char *sat)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "command -v '%s' >/dev/null 2>&1", sat);
	if (!system(cmd))
		return true;
	fprintf(stderr, "ck-soak: %s is not installed: `tools/ensure-deps.sh soak-bench` "
		"installs it as root (Debian package stressapptest)\n", sat);
	return false;
}

int ck_soak_compare(const struct ck_soak_opts *o, const char *self)
{
	static struct compare c;
	int cpus[1024];
	unsigned int good;
	char line[512];

	c = (struct compare){ .o = o, .self = self, .rounds = o->rounds,
			      .sides = o->warm ? 3 : 2 };
	c.threads = o->threads ? o->threads : ck_soak_cpus(cpus, 1024);
	c.seconds = (o->seconds + 4) / 5 * 5;
	if (!have_sat(o->sat))
		return 2;
	if (o->hugepages)
		reserve_hugepages(o->mib);
	if (c.seconds != o->seconds)
		printf("# --seconds %u: stressapptest sleeps in 5 s steps, so both sides run "
		       "%u s\n", o->seconds, c.seconds);
	if (mkdir(o->log_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "ck-soak: --log-dir %s: %s\n", o->log_dir, strerror(errno));
		return 2;
	}
	if (o->json && !(c.json = fopen(o->json, "w"))) {
		perror(o->json);
		return 2;
	}
	ck_soak_machine(line, sizeof(line));
	printf("# machine: %s\n", line);
	if (c.json) {
		struct json_writer w;
		char rec[768];

		json_record(&w, rec, sizeof(rec), "machine");
		json_str(&w, "machine", line);
		json_end(&w);
		fprintf(c.json, "%s\n", rec);
	}
	header(&c);
	ck_host_probe(&c.host);
	find_scopes(&c);
	if (c.nodes > 1)
		printf("# NUMA: %u nodes: the limits of every CPU at once, then of each node's "
		       "CPUs alone (%u with CPUs here; each thread's memory first-touched on its "
		       "own node); the shares use every CPU's\n", c.nodes, c.nr_scopes - 1);
	else
		printf("# NUMA: 1 node: the limits of every CPU at once are that node's\n");
	for (unsigned int i = 0; i < c.rounds; i++)
		one_round(&c, i);
	printf("# memory: twin %s; stressapptest %s\n", c.memory[SIDE_TWIN][0] ?
	       c.memory[SIDE_TWIN] : "(not said)", c.memory[SIDE_SAT][0] ? c.memory[SIDE_SAT] :
	       "(not said)");
	good = results(&c);
	limits(&c);
	shares(&c);
	printf("# load average at the end: %.2f%s\n", load1(), c.failed_check ?
	       "; a run reported FAIL (a miscompare): see its log" : "");
	if (c.json)
		fclose(c.json);
	restore_hugepages();
	if (good < 3)
		return 2;
	return c.failed_check ? 1 : 0;
}
