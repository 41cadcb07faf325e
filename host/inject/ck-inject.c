// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/inject/ck-inject.c - the host injector: keeps DRAM faults alive in the RAM file of a
 * running QEMU guest (-object memory-backend-file,...,share=on, tools/ck-run.py --inject).
 *
 *	ck-inject --file /dev/shm/NAME [--period-us N] [--max-seconds S] FAULT...
 *
 * The faults are host/inject/fault.h's (stuck0:ADDR:BIT, ..., none). Every --period-us
 * microseconds (default 100) each fault takes one step. SIGUSR1 arms the flips; SIGTERM,
 * SIGINT, SIGHUP, the parent's exit (PR_SET_PDEATHSIG) or --max-seconds end it. It prints,
 * one line each, flushed at once: "ck-inject: ready ..." once the file is mapped, each
 * fault, the arming, the first change each fault made and every flip, and at the end each
 * fault's count. Times are CLOCK_MONOTONIC seconds (Python's time.monotonic() on Linux).
 *
 * Addresses are offsets in the file. They are guest physical addresses only while all of
 * the guest's RAM lies below 4 GiB in one piece, as on QEMU's q35 machine with at most 1 GiB
 * (REFERENCE.md section 10: above that q35 splits RAM at the PCI hole and the file's offsets
 * past the split are addresses above 4 GiB). So a file over 1 GiB is refused: the caller
 * (tools/ck-run.py) refuses other machines.
 *
 * Exit status: 0 done, 2 usage or a bad fault, 3 the file cannot be used.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host/inject/fault.h"

#define MAX_FAULTS 16
#define MAX_RAM (1ULL << 30)

static volatile sig_atomic_t stop, armed;

static void on_stop(int sig)
{
	stop = sig;
}

static void on_arm(int sig)
{
	armed = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void usage(void)
{
	fprintf(stderr, "usage: ck-inject --file PATH [--period-us N] [--max-seconds S] FAULT...\n"
		"  FAULT: stuck0:ADDR:BIT stuck1:ADDR:BIT zeros:ADDR:BIT ones:ADDR:BIT "
		"alias:ADDR:FROM\n         cell:ADDR:OTHER fade:ADDR:BIT:MS flip:ADDR:BIT[:MS] none\n"
		"  (host/inject/fault.h says what each does; ADDR is the file offset)\n");
	exit(2);
}

static long number(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "ck-inject: %s '%s': a whole number from %ld to %ld\n", opt, s, lo,
			hi);
		exit(2);
	}
	return v;
}

static uint64_t *map_file(const char *path, uint64_t *size)
{
	struct stat st;
	void *p;
	int fd = open(path, O_RDWR);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "ck-inject: %s: %s\n", path, strerror(errno));
		exit(3);
	}
	if (st.st_size <= 0 || st.st_size % 4096 || (uint64_t)st.st_size > MAX_RAM) {
		fprintf(stderr, "ck-inject: %s: %lld bytes: the RAM file must be whole pages and at "
			"most 1 GiB (only then, on q35, is a file offset the guest physical address)\n",
			path, (long long)st.st_size);
		exit(3);
	}
	p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		fprintf(stderr, "ck-inject: %s: mmap: %s\n", path, strerror(errno));
		exit(3);
	}
	*size = st.st_size;
	return p;
}

static void report_act(int i, const struct inj_fault *f, const struct inj_act *a, uint64_t t)
{
	if (f->kind != INJ_FLIP && f->acted != 1)
		return;
	printf("ck-inject: t=%.6f fault %d %s: %s word 0x%llx 0x%016llx -> 0x%016llx\n", secs(t),
	       i, inj_kind_name(f->kind), f->kind == INJ_FLIP ? "flipped" : "first change",
	       (unsigned long long)a->addr, (unsigned long long)a->old,
	       (unsigned long long)a->new);
	fflush(stdout);
}

static void run(struct inj_fault *f, int n, uint64_t *mem, long period_us, long max_s)
{
	struct timespec period = { period_us / 1000000, period_us % 1000000 * 1000 };
	uint64_t t0 = now_ns();
	pid_t parent = getppid();
	int was_armed = 0;

	while (!stop) {
		uint64_t t = now_ns();
		struct inj_act act;

		if (armed && !was_armed) {
			was_armed = 1;
			for (int i = 0; i < n; i++)
				inj_arm(&f[i], mem);
			printf("ck-inject: t=%.6f armed\n", secs(t));
			fflush(stdout);
		}
		for (int i = 0; i < n; i++)
			if (inj_step(&f[i], mem, t, &act))
				report_act(i, &f[i], &act, t);
		if ((max_s && t - t0 > (uint64_t)max_s * 1000000000ULL) || getppid() != parent)
			break;
		nanosleep(&period, NULL);
	}
}

int main(int argc, char **argv)
{
	struct inj_fault f[MAX_FAULTS];
	const char *path = NULL;
	long period_us = 100, max_s = 0;
	uint64_t size, *mem;
	int n = 0, i = 1;
	char why[256], desc[128];

	for (; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--file"))
			path = argv[i + 1];
		else if (!strcmp(argv[i], "--period-us"))
			period_us = number(argv[i], argv[i + 1], 10, 1000000);
		else if (!strcmp(argv[i], "--max-seconds"))
			max_s = number(argv[i], argv[i + 1], 1, 7 * 86400);
		else
			usage();
	}
	if (!path || i >= argc || argc - i > MAX_FAULTS)
		usage();
	/* Gone with the runner that started it, whatever way the runner ends. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	mem = map_file(path, &size);
	for (; i < argc; i++, n++)
		if (!inj_parse(argv[i], size, &f[n], why, sizeof(why))) {
			fprintf(stderr, "ck-inject: %s\n", why);
			return 2;
		}
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	signal(SIGHUP, on_stop);
	signal(SIGUSR1, on_arm);
	printf("ck-inject: ready: t=%.6f %d fault%s in %s (%llu bytes), every %ld us\n",
	       secs(now_ns()), n, n == 1 ? "" : "s", path, (unsigned long long)size, period_us);
	for (int k = 0; k < n; k++) {
		inj_describe(&f[k], desc, sizeof(desc));
		printf("ck-inject: fault %d: %s\n", k, desc);
	}
	fflush(stdout);
	run(f, n, mem, period_us, max_s);
	for (int k = 0; k < n; k++) {
		inj_describe(&f[k], desc, sizeof(desc));
		printf("ck-inject: end: fault %d %s: changed a word %llu times", k, desc,
		       (unsigned long long)f[k].acted);
		if (f[k].acted)
			printf(", first at t=%.6f, last at t=%.6f", secs(f[k].first_ns),
			       secs(f[k].last_ns));
		printf("\n");
	}
	fflush(stdout);
	munmap(mem, size);
	return 0;
}
