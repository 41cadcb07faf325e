// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/bench/rep.c - replicas: a hosted run's comparisons measured in fresh processes, one
 * after another (host/bench/rep.h says why and how). Owns the replicas' records: a replica
 * writes one fixed-size record per comparison to a pipe; the parent keeps every replica's
 * records and hands them to bench_compare in order, preset by preset.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/bench/par.h"
#include "host/bench/rep.h"
#include "host/lib/machine.h"

#define REP_MAGIC	0x70657263u		/* "crep" */

/* One comparison as a replica measured it: which it was, and both sides' rounds. */
struct rep_rec {
	u32 magic, mode;
	u64 key;			/* rep_key() of the two cases */
	u32 seq;			/* 1 + how many replicated presets began before its own */
	struct bench_result ra, rb;
};

struct replica {
	struct rep_rec *rec;
	unsigned int n, next;		/* records; the next one to hand out */
};

/* The presets with comparisons (primitives times single cases only). */
static const char *const replicated[] = { "rfc", "v3", "clear", "patterns", "uarch", "big",
					  "copy_pages", "seed003" };

static struct replica kept[CK_REP_MAX];
static unsigned int nr_reps;
static bool in_replicated;		/* the preset running now is one ck_rep_preset() names */
static u32 preset_seq;
static int record_fd = -1;

bool ck_rep_preset(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(replicated); i++)
		if (!strcmp(name, replicated[i]))
			return true;
	return false;
}

unsigned int ck_rep_rounds(unsigned int rounds, unsigned int n)
{
	unsigned int r = n ? (rounds + n - 1) / n : rounds;

	r = MAX(r, (unsigned int)CK_REP_MIN_ROUNDS);
	return n ? MIN(r, (unsigned int)STATS_MAX / n) : r;	/* all of them fit one result */
}

void ck_rep_spread(unsigned int mib)
{
	size_t bytes = (size_t)(mib & ~1u) << 20;	/* whole 2 MiB pages */

	/* the pages are taken now, and stay until the replica exits */
	if (bytes && !ck_host_map_thp(bytes, SZ_2M, 0xa5, NULL))
		fprintf(stderr, "ck-bench: replica: cannot hold %u MiB first: its buffers may sit "
			"where the last replica's did\n", mib);
}

/* A number of kB from /proc/meminfo (@key with its colon), or -1. */
static long meminfo_kb(const char *key)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && kb < 0 && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			kb = strtol(line + strlen(key), NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/*
 * The most a replica may hold: CK_REP_SPREAD_MAX_MIB, at most a quarter of the memory
 * available now (a replica's own buffers come on top), none under an address-space limit
 * (ulimit -v), where it could leave no room for the buffers.
 */
static unsigned int spread_max(void)
{
	struct rlimit as;
	long avail = meminfo_kb("MemAvailable:");

	if (!getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY)
		return 0;
	if (avail >= 0)
		return (unsigned int)MIN((long)CK_REP_SPREAD_MAX_MIB, avail / 1024 / 4);
	return CK_REP_SPREAD_MAX_MIB;
}

/*
 * Replica @i's spread: whole 2 MiB pages, 0 .. @most MiB, at random, and none drawn for
 * replicas 0 .. @i - 1 of @drawn (two alike would put their buffers in one place).
 */
static unsigned int draw_spread(const unsigned int *drawn, unsigned int i, unsigned int most)
{
	unsigned int pages = most / 2 + 1, v;
	bool again;
	u64 r = 0;

	do {
		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
			r = ((u64)getpid() << 32 ^ (u64)time(NULL) ^ r) * 0x9e3779b97f4a7c15ULL;
		v = (unsigned int)(r % pages) * 2;
		again = false;
		for (unsigned int k = 0; k < i && pages > CK_REP_MAX; k++)
			again |= drawn[k] == v;
	} while (again);
	return v;
}

static u64 fnv(u64 h, const void *p, size_t len)
{
	const u8 *b = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static u64 fnv_str(u64 h, const char *s)
{
	return fnv(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/*
 * What makes two comparisons the same one: both cases' names, sizes, nodes, data, CPU (a
 * NUMA row runs on its source node's CPU) and mode.
 */
static u64 rep_key(const struct bench_case *a, const struct bench_case *b, enum bench_mode m)
{
	const struct bench_case *c[2] = { a, b };
	u64 h = 0xcbf29ce484222325ULL;

	h = fnv(h, &m, sizeof(m));
	for (unsigned int i = 0; i < 2; i++) {
		h = fnv_str(fnv_str(h, c[i]->api), c[i]->primitive);
		h = fnv(h, &c[i]->bytes, sizeof(c[i]->bytes));
		h = fnv_str(fnv_str(h, c[i]->src_node), c[i]->dst_node);
		h = fnv_str(fnv_str(h, c[i]->src_pattern), c[i]->dst_pattern);
		h = fnv(h, &c[i]->cpu1, sizeof(c[i]->cpu1));
	}
	return h;
}

void ck_rep_preset_begin(const char *name)
{
	in_replicated = ck_rep_preset(name);
	preset_seq += in_replicated;
}

/* ---- the replica's side ---- */

void ck_rep_record_to(int fd)
{
	record_fd = fd;
}

void ck_rep_record(const struct bench_case *a, const struct bench_case *b, enum bench_mode m,
		   const struct bench_result *ra, const struct bench_result *rb)
{
	static struct rep_rec r;
	const char *p = (const char *)&r;
	size_t left = sizeof(r);

	memset(&r, 0, sizeof(r));
	r.magic = REP_MAGIC;
	r.mode = m;
	r.key = rep_key(a, b, m);
	r.seq = preset_seq;
	r.ra = *ra;
	r.rb = *rb;
	while (left) {
		ssize_t w = write(record_fd, p, left);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			perror("ck-bench: replica: writing a record");
			exit(1);
		}
		p += w;
		left -= (size_t)w;
	}
}

/* ---- the parent's side ---- */

/* Everything the replica on @fd writes, until it closes it; false when it was damaged. */
static bool collect(int fd, struct replica *rp)
{
	size_t cap = 0, len = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t n;

		if (len == cap) {
			size_t grown = cap ? 2 * cap : sizeof(struct rep_rec) * 64;
			char *nb = realloc(buf, grown);

			if (!nb) {
				free(buf);
				return false;
			}
			buf = nb;
			cap = grown;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("ck-bench: replicas: reading a replica's records");
			free(buf);
			return false;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	rp->rec = (struct rep_rec *)buf;
	rp->n = (unsigned int)(len / sizeof(struct rep_rec));
	rp->next = 0;
	for (unsigned int i = 0; i < rp->n; i++)
		if (rp->rec[i].magic != REP_MAGIC)
			return false;
	return len % sizeof(struct rep_rec) == 0;
}

/*
 * @argv, then --replica-fd @fd --rounds @rounds --placements 1 --replica-spread @spread (the
 * last of each wins).
 */
static char **child_argv(int argc, char **argv, int fd, unsigned int rounds,
			 unsigned int spread)
{
	static char fds[16], rs[16], ss[16];
	char **v = calloc((size_t)argc + 9, sizeof(*v));

	if (!v)
		return NULL;
	for (int i = 0; i < argc; i++)
		v[i] = argv[i];
	snprintf(fds, sizeof(fds), "%d", fd);
	snprintf(rs, sizeof(rs), "%u", rounds);
	v[argc] = "--replica-fd";
	v[argc + 1] = fds;
	v[argc + 2] = "--rounds";
	v[argc + 3] = rs;
	v[argc + 4] = "--placements";
	v[argc + 5] = "1";
	snprintf(ss, sizeof(ss), "%u", spread);
	v[argc + 6] = "--replica-spread";
	v[argc + 7] = ss;
	return v;
}

/* A replica runs on every CPU this program started with: it pins itself, as this one did. */
static void unpin(void)
{
	int cpus[CPU_SETSIZE];
	unsigned int n = ck_bench_start_cpus(cpus, CPU_SETSIZE);
	cpu_set_t set;

	CPU_ZERO(&set);
	for (unsigned int c = 0; c < n; c++)
		CPU_SET(cpus[c], &set);
	if (n)
		sched_setaffinity(0, sizeof(set), &set);
}

/* In the child: stdout to /dev/null, the start set of CPUs, then this program again. */
static void exec_replica(char **v, int rfd)
{
	int null = open("/dev/null", O_WRONLY);

	close(rfd);
	if (null >= 0)
		dup2(null, STDOUT_FILENO);
	unpin();
	execv("/proc/self/exe", v);
	perror("ck-bench: replica: exec /proc/self/exe");
	_exit(1);
}

/*
 * How replica @i ended: 0 when its records count (status 0; or 3, a case it could not
 * measure, which this process will fail and say again itself), else the status (said).
 */
static int verdict(unsigned int i, pid_t pid, bool ok)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("ck-bench: replicas: waitpid");
			return 1;
		}
	if (!WIFEXITED(status) || (WEXITSTATUS(status) && WEXITSTATUS(status) != 3)) {
		fprintf(stderr, "ck-bench: replica %u %s %d\n", i + 1,
			WIFEXITED(status) ? "exited with status" : "was killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	if (!ok) {
		fprintf(stderr, "ck-bench: replica %u: its records are damaged\n", i + 1);
		return 1;
	}
	if (WEXITSTATUS(status))
		printf("# replica %u: status 3 (a case it could not measure; this run says which "
		       "and fails the same way)\n", i + 1);
	return 0;
}

/* Replica @i: run it after holding @spread MiB, keep its records; 0, or its status (said). */
static int run_one(int argc, char **argv, unsigned int i, unsigned int rounds,
		   unsigned int spread)
{
	int pfd[2];
	char **v;
	pid_t pid;
	bool ok;

	if (pipe(pfd)) {
		perror("ck-bench: replicas: pipe");
		return 1;
	}
	v = child_argv(argc, argv, pfd[1], rounds, spread);
	fflush(NULL);
	pid = v ? fork() : -1;
	if (pid == 0)
		exec_replica(v, pfd[0]);
	close(pfd[1]);
	free(v);
	if (pid < 0) {
		close(pfd[0]);
		perror("ck-bench: replicas: fork");
		return 1;
	}
	ok = collect(pfd[0], &kept[i]);
	close(pfd[0]);
	return verdict(i, pid, ok);
}

static void drop_all(void)
{
	for (unsigned int i = 0; i < nr_reps; i++)
		free(kept[i].rec);
	memset(kept, 0, sizeof(kept));
	nr_reps = 0;
}

int ck_rep_spawn(int argc, char **argv, unsigned int n, unsigned int rounds)
{
	unsigned int spread[CK_REP_MAX], most = spread_max();
	struct timespec t0, t1;

	n = MIN(n, (unsigned int)CK_REP_MAX);
	if (meminfo_kb("HugePages_Free:") > 0)
		printf("# replicas: hugetlb pages are reserved, and the buffers come from them: "
		       "holding memory first does not move those, so the replicas may share one "
		       "placement of their buffers\n");
	for (unsigned int i = 0; i < n; i++) {
		int err;

		spread[i] = draw_spread(spread, i, most);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		err = run_one(argc, argv, i, rounds, spread[i]);
		if (err) {
			fprintf(stderr, "ck-bench: the replicas' rounds are not used: this process "
				"measures every comparison itself (--placements)\n");
			nr_reps = i + 1;
			drop_all();
			return err;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("# replica %u of %u: %u comparisons of %u rounds in %.1f s, its buffers "
		       "taken after %u MiB held\n", i + 1, n, kept[i].n, rounds,
		       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
		       spread[i]);
	}
	nr_reps = n;
	return 0;
}

/*
 * Replica @i's record of the comparison @key in the current preset: the first one from its
 * next unused record on, past any of earlier presets or that this process never asked for;
 * NULL when it has none.
 */
static const struct rep_rec *next_of(unsigned int i, u64 key)
{
	struct replica *rp = &kept[i];

	for (unsigned int j = rp->next; j < rp->n && rp->rec[j].seq <= preset_seq; j++)
		if (rp->rec[j].seq == preset_seq && rp->rec[j].key == key) {
			rp->next = j;
			return &rp->rec[j];
		}
	return NULL;
}

static void noise_merge(struct noise_acct *to, const struct noise_acct *from, bool first)
{
	if (first) {
		*to = *from;
		return;
	}
	to->smis += from->smis;
	to->smi_timings += from->smi_timings;
	to->freq_changes += from->freq_changes;
	to->not_c0 += from->not_c0;
	to->backwards += from->backwards;
	if (from->mhz_min && (!to->mhz_min || from->mhz_min < to->mhz_min))
		to->mhz_min = from->mhz_min;
	to->mhz_max = MAX(to->mhz_max, from->mhz_max);
}

/*
 * Append a replica's side @from to @to as block @group. Replicas calibrate their own
 * repetitions, so each sample is scaled to @reps operations (a round's ratio is unchanged:
 * both its sides ran the same repetitions).
 */
static void side_merge(struct bench_result *to, const struct bench_result *from,
		       unsigned int group, unsigned int reps, bool first)
{
	noise_merge(&to->noise, &from->noise, first);
	for (unsigned int s = 0; s < from->runs && to->runs < STATS_MAX; s++) {
		to->samples[to->runs] = from->samples[s] * reps / MAX(from->reps, 1u);
		to->placed[to->runs++] = (u8)group;
	}
	to->rounds += from->rounds;
	to->disturbed += from->disturbed;
	to->discarded += from->discarded;
	to->k = from->k;
	to->reps = reps;
}

/*
 * Merge the records @r[0 .. nr_reps - 1] of one comparison into @ra and @rb, each replica's
 * rounds one block; the blocks (a replica that kept no round, every timing read 0 ns, is
 * none), at least 1.
 */
static unsigned int merge(const struct rep_rec *const *r, struct bench_result *ra,
			  struct bench_result *rb)
{
	unsigned int reps = 1, groups = 0;

	for (unsigned int i = 0; i < nr_reps; i++)
		reps = MAX(reps, r[i]->ra.reps);
	ra->runs = rb->runs = ra->rounds = rb->rounds = 0;
	ra->disturbed = rb->disturbed = ra->discarded = rb->discarded = 0;
	for (unsigned int i = 0; i < nr_reps; i++) {
		side_merge(ra, &r[i]->ra, groups, reps, i == 0);
		side_merge(rb, &r[i]->rb, groups, reps, i == 0);
		groups += r[i]->ra.runs > 0;
	}
	return MAX(groups, 1u);
}

unsigned int ck_rep_replay(const struct bench_case *a, const struct bench_case *b,
			   enum bench_mode m, struct bench_result *ra, struct bench_result *rb)
{
	const struct rep_rec *r[CK_REP_MAX];
	u64 key = rep_key(a, b, m);

	if (nr_reps < 2 || !in_replicated)
		return 0;
	for (unsigned int i = 0; i < nr_reps; i++) {
		r[i] = next_of(i, key);
		if (!r[i]) {
			printf("# replicas: replica %u did not measure %s %s/%s %llu bytes: "
			       "measured in this process\n", i + 1, a->api, a->primitive,
			       b->primitive, (unsigned long long)a->bytes);
			return 0;
		}
	}
	for (unsigned int i = 0; i < nr_reps; i++)
		kept[i].next++;
	return merge(r, ra, rb);
}

/* Replica @i's record @nth (0: the first) of those with @seq and @key; NULL: none. */
static const struct rep_rec *nth_of(unsigned int i, u32 seq, u64 key, unsigned int nth)
{
	for (unsigned int j = 0; j < kept[i].n; j++) {
		const struct rep_rec *c = &kept[i].rec[j];

		if (c->seq == seq && c->key == key && !nth--)
			return c;
	}
	return NULL;
}

/*
 * The blocks' relative half-width (@rel, ppm) of replica 0's record @j, over every replica;
 * false when some replica has no such record or the rounds give no replication interval.
 */
static bool rel_half_of(unsigned int j, struct bench_result *ra, struct bench_result *rb,
			u32 *rel)
{
	const struct rep_rec *first = &kept[0].rec[j], *r[CK_REP_MAX];
	unsigned int nth = 0, groups;
	struct ratio q;

	for (unsigned int k = 0; k < j; k++)
		nth += kept[0].rec[k].seq == first->seq && kept[0].rec[k].key == first->key;
	for (unsigned int i = 0; i < nr_reps; i++)
		if (!(r[i] = nth_of(i, first->seq, first->key, nth)))
			return false;
	groups = merge(r, ra, rb);
	/* one resample: the replication interval does not depend on the rounds' bootstrap */
	if (!stats_round_ratio_placed(ra->samples, rb->samples, ra->placed, ra->runs, groups,
				      1, STATS_SEED, &q) || !q.replication)
		return false;
	*rel = stats_rel_half_ppm(&q);
	return true;
}

bool ck_rep_pool(u32 min_half_ppm[BENCH_NR_MODES], unsigned int rows[BENCH_NR_MODES])
{
	static struct bench_result ra, rb;
	static u32 rel[BENCH_NR_MODES][CK_REP_POOL_MAX];
	bool any = false;

	for (unsigned int m = 0; m < BENCH_NR_MODES; m++)
		rows[m] = 0;
	for (unsigned int j = 0; nr_reps >= 2 && j < kept[0].n; j++) {
		u32 mode = kept[0].rec[j].mode;

		if (mode < BENCH_NR_MODES && rows[mode] < CK_REP_POOL_MAX &&
		    rel_half_of(j, &ra, &rb, &rel[mode][rows[mode]]))
			rows[mode]++;
	}
	for (unsigned int m = 0; m < BENCH_NR_MODES; m++) {
		min_half_ppm[m] = stats_rms_ppm(rel[m], rows[m]);
		any |= min_half_ppm[m] != 0;
	}
	return any;
}
