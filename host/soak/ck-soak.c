// SPDX-License-Identifier: GPL-2.0-only
/*
 * ck-soak.c - the hosted soak twin (make soak-bench): the image's soak core in a Linux
 * process, over hugepage-backed memory, one pinned thread per CPU, for a stated time.
 *
 *	ck-soak [--mib N] [--seconds S] [--threads T] [--chunk-mib C] [--seed X]
 *		[--backing auto|hugetlb|thp|4k] [--fade S] [--json FILE]
 *	ck-soak --compare [the same] [--rounds R] [--no-warm] [--hugepages] [--sat PATH]
 *		[--log-dir DIR]
 *
 * A run: N MiB mapped with MAP_HUGETLB (2 MiB pages reserved through vm.nr_hugepages), else
 * anonymous memory with madvise(MADV_HUGEPAGE) (THP; the header says how much of it Linux
 * really backed with 2 MiB pages), given page frames for the page and folio APIs. Worker i
 * is pinned to the i-th CPU the process may use and owns N/T of the memory, planned as the
 * image plans its memory (soak/plan.c); it touches its share once (Linux places it on its
 * node), then, from its own start for S seconds, runs the image's passes over it
 * (soak/pattern.c's schedule by soak/march.c, host/soak/twin_work.c: pass 0's March test,
 * then random data, walking ones, zeros and the retention pass, whose idle is --fade, 0 by
 * default), a barrier between two elements as in the image. Copies go through the
 * primitives Linux chooses on this CPU (copy/dispatch.c, as ck-bench applies it). Every
 * worker's bytes are counted over its own time (host/soak/twin_peer.h defines the three rates).
 * Miscompares are reported like the image's ledger (address, expected, actual, bits, what
 * wrote it, a re-read's verdict), with the physical address where /proc/self/pagemap gives
 * it (root). A process cannot see machine checks: corrected errors and bank contents are
 * the kernel's (mcelog, rasdaemon), and the run says so.
 *
 * Exit status: 0 PASS, 1 FAIL (a miscompare or poison), 2 bad options or no memory.
 * --compare runs the comparison with stressapptest (host/soak/twin_compare.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/stats.h"
#include "host/lib/machine.h"
#include "host/soak/twin.h"
#include "host/soak/twin_machine.h"
#include "host/soak/twin_run.h"
#include "soak/plan.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f, "usage: ck-soak [--mib 16..1048576] [--seconds 1..86400] [--threads N] "
		"[--chunk-mib 2..1024 (a power of two)] [--seed X] "
		"[--backing auto|hugetlb|thp|4k] [--fade 0..86400] [--json FILE] [--quiet]\n"
		"       ck-soak --compare [the same] [--rounds 3..%d] [--no-warm] [--hugepages] "
		"[--sat PATH] [--log-dir DIR]\n", STATS_MAX);
}

/* @s as a number in [lo, hi]; false (and a message naming @opt) otherwise. */
static bool number(const char *opt, const char *s, u64 lo, u64 hi, u64 *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *v < lo || *v > hi || s[0] == '-') {
		fprintf(stderr, "ck-soak: %s %s: want a number from %llu to %llu\n", opt, s,
			(unsigned long long)lo, (unsigned long long)hi);
		return false;
	}
	return true;
}

static bool backing_of(const char *s, enum soak_backing *b)
{
	static const char *const names[] = { "auto", "hugetlb", "thp", "4k" };

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*b = (enum soak_backing)i;
			return true;
		}
	fprintf(stderr, "ck-soak: --backing %s: want auto, hugetlb, thp or 4k\n", s);
	return false;
}

static const char *const valued[] = {
	"--mib", "--chunk-mib", "--seed", "--seconds", "--threads", "--rounds", "--backing",
	"--json", "--sat", "--log-dir", "--fade",
};

/* One option (and its value at argv[*i + 1]); false after a message. */
static bool parse_one(struct ck_soak_opts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	bool known = false;
	u64 n;

	if (!strcmp(a, "--compare") || !strcmp(a, "--quiet") || !strcmp(a, "--no-warm") ||
	    !strcmp(a, "--hugepages")) {
		o->compare |= a[2] == 'c';
		o->quiet |= a[2] == 'q';
		o->warm &= a[2] != 'n';
		o->hugepages |= a[2] == 'h';
		return true;
	}
	for (unsigned int k = 0; k < ARRAY_SIZE(valued); k++)
		known |= !strcmp(a, valued[k]);
	if (!known) {
		fprintf(stderr, "ck-soak: unknown option %s\n", a);
		return false;
	}
	if (!v) {
		fprintf(stderr, "ck-soak: %s needs a value\n", a);
		return false;
	}
	++*i;
	if (!strcmp(a, "--mib"))
		return number(a, v, 16, 1ULL << 20, &o->mib);
	if (!strcmp(a, "--chunk-mib")) {
		if (!number(a, v, 2, 1024, &o->chunk_mib))
			return false;
		if (o->chunk_mib & (o->chunk_mib - 1))
			fprintf(stderr, "ck-soak: --chunk-mib %s: not a power of two\n", v);
		return !(o->chunk_mib & (o->chunk_mib - 1));
	}
	if (!strcmp(a, "--seed"))
		return number(a, v, 0, ~0ULL, &o->seed);
	if (!strcmp(a, "--fade")) {
		if (!number(a, v, 0, 86400, &n))
			return false;
		o->fade_s = (unsigned int)n;
		return true;
	}
	if (!strcmp(a, "--seconds") || !strcmp(a, "--threads") || !strcmp(a, "--rounds")) {
		u64 hi = a[2] == 's' ? 86400 : a[2] == 't' ? CPU_SETSIZE : STATS_MAX;

		if (!number(a, v, a[2] == 'r' ? 3 : 1, hi, &n))
			return false;
		*(a[2] == 's' ? &o->seconds : a[2] == 't' ? &o->threads : &o->rounds) =
			(unsigned int)n;
		return true;
	}
	if (!strcmp(a, "--backing"))
		return backing_of(v, &o->backing);
	if (!strcmp(a, "--json") || !strcmp(a, "--sat") || !strcmp(a, "--log-dir")) {
		*(a[2] == 'j' ? &o->json : a[2] == 's' ? &o->sat : &o->log_dir) = v;
		return true;
	}
	return false;	/* not reached: every name in valued[] is handled above */
}

static int parse(int argc, char **argv, struct ck_soak_opts *o)
{
	*o = (struct ck_soak_opts){ .seconds = 5, .chunk_mib = SOAK_CHUNK_DEFAULT >> 20,
				    .seed = 0x636b2d736f616b31ULL, .rounds = 9, .warm = true,
				    .sat = "stressapptest", .log_dir = "build/soak-bench" };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			exit(0);
		}
		if (!parse_one(o, argc, argv, &i)) {
			usage(stderr);
			return 2;
		}
	}
	return 0;
}

/* Four times the largest cache CPUID describes (so both sides measure memory), >= 1 GiB. */
static u64 default_mib(void)
{
	const char *src;
	u64 cache = ck_host_largest_cache(&src);
	u64 mib = MAX(1024ULL, (4 * cache + (256ULL << 20) - 1) >> 20);

	return mib & ~255ULL;
}

int main(int argc, char **argv)
{
	struct ck_soak_opts o;
	struct ck_host host;
	char line[512], exe[4096];
	ssize_t n;
	int err = parse(argc, argv, &o);

	if (err)
		return err;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!o.mib)
		o.mib = default_mib();
	if (o.compare) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0) {
			fprintf(stderr, "ck-soak: cannot find this program's path\n");
			return 2;
		}
		exe[n] = 0;
		return ck_soak_compare(&o, exe);
	}
	ck_soak_machine(line, sizeof(line));
	if (!o.quiet)
		printf("# machine: %s\n", line);
	ck_host_probe(&host);
	return twin_run(&o, &host, now_ns);
}
