// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/bench/par.c - the hosted side of the `parallel` preset: bench/parallel.c's par_ops
 * over one pthread per CPU, each pinned (pthread_attr_setaffinity_np) to one CPU of the set
 * the process was allowed when it started (saved before ck-bench pins its main thread).
 *
 *   CPUs' nodes   libnuma's numa_node_of_cpu (libnuma.so.1 loaded at run time, as ck-bench
 *                 does: the build does not need it), else /sys/devices/system/node/node*
 *                 cpulist, else node 0 for all; the source is printed.
 *   memory        mmap, 2 MiB aligned, MADV_HUGEPAGE, bound to the CPU's node with mbind
 *                 (the system call: no libnuma needed) when there is more than one node;
 *                 filled by the CPU's own thread, so first touch is local as well.
 *   run           workers sleep on a condition variable between runs; a run wakes them,
 *                 they spin at a barrier until all n have arrived (or PAR_HOST_BARRIER_S
 *                 pass: the run is abandoned, nothing runs), then each calls fn; the main
 *                 thread waits up to PAR_HOST_RUN_S for all of them.
 *   clock         CLOCK_MONOTONIC_RAW in ns (one timebase on every CPU).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench/migrate_calc.h"
#include "bench/parallel.h"
#include "host/bench/par.h"
#include "host/lib/machine.h"

#define PAR_HOST_BARRIER_S	10
#define PAR_HOST_RUN_S		120

static cpu_set_t start_set;
static bool start_set_ok;

/* ck-bench pins its main thread first thing in main(): keep the set it started with. */
__attribute__((constructor)) static void save_start_set(void)
{
	start_set_ok = !sched_getaffinity(0, sizeof(start_set), &start_set);
}

unsigned int ck_bench_start_cpus(int *cpus, unsigned int max)
{
	unsigned int n = 0;

	for (int c = 0; c < CPU_SETSIZE && n < max && start_set_ok; c++)
		if (CPU_ISSET(c, &start_set))
			cpus[n++] = c;
	return n;
}

struct worker {
	pthread_t thread;
	unsigned int cpu;		/* Linux CPU number */
	int node;
	unsigned int seen;		/* last generation handled */
};

static struct worker workers[PAR_MAX_CPUS];
static unsigned int nr_workers, nr_nodes;

/* The run in progress (under lock, except the atomics the spinning workers read). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static unsigned int gen, finished;
static bool quit;
static int slot_of[PAR_MAX_CPUS];	/* worker -> i in the run, or -1 */
static unsigned int job_n;
static void (*job_fn)(void *arg, unsigned int i);
static void *job_arg;
static unsigned int arrived;		/* atomics */
static int released;			/* 0 waiting, 1 go, 2 abandoned */

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static u64 host_clock(void *ctx)
{
	(void)ctx;
	return mono_ns();
}

/* Wait for the others; true when released, false when the run was abandoned. */
static bool barrier(unsigned int n)
{
	u64 until = mono_ns() + PAR_HOST_BARRIER_S * 1000000000ULL;
	int expect = 0;

	if (__atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL) == n)
		return __atomic_compare_exchange_n(&released, &expect, 1, false, __ATOMIC_ACQ_REL,
						   __ATOMIC_ACQUIRE) || expect == 1;
	for (;;) {
		int r = __atomic_load_n(&released, __ATOMIC_ACQUIRE);

		if (r)
			return r == 1;
		if (mono_ns() > until) {
			expect = 0;
			if (__atomic_compare_exchange_n(&released, &expect, 2, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				return false;
			return expect == 1;
		}
		__builtin_ia32_pause();
	}
}

static void *worker_main(void *p)
{
	struct worker *w = p;
	unsigned int me = (unsigned int)(w - workers);

	for (;;) {
		int i;
		unsigned int n;

		pthread_mutex_lock(&lock);
		while (w->seen == gen && !quit)
			pthread_cond_wait(&wake, &lock);
		w->seen = gen;
		i = slot_of[me];
		n = job_n;
		pthread_mutex_unlock(&lock);
		if (quit)
			return NULL;
		if (i < 0)
			continue;
		if (barrier(n))
			job_fn(job_arg, (unsigned int)i);
		pthread_mutex_lock(&lock);
		finished++;
		pthread_cond_signal(&done);
		pthread_mutex_unlock(&lock);
	}
}

static int host_run(void *ctx, const unsigned int *cpus, unsigned int n,
		    void (*fn)(void *arg, unsigned int i), void *arg)
{
	struct timespec until;
	int err = 0;

	(void)ctx;
	pthread_mutex_lock(&lock);
	for (unsigned int w = 0; w < nr_workers; w++)
		slot_of[w] = -1;
	for (unsigned int i = 0; i < n; i++)
		slot_of[cpus[i]] = (int)i;
	job_n = n;
	job_fn = fn;
	job_arg = arg;
	finished = 0;
	__atomic_store_n(&arrived, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&released, 0, __ATOMIC_RELEASE);
	gen++;
	pthread_cond_broadcast(&wake);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += PAR_HOST_RUN_S;
	while (finished < n && !err)
		if (pthread_cond_timedwait(&done, &lock, &until) == ETIMEDOUT)
			err = -PAR_ETIMEDOUT;
	pthread_mutex_unlock(&lock);
	if (!err && __atomic_load_n(&released, __ATOMIC_ACQUIRE) == 2)
		err = -PAR_ETIMEDOUT;		/* someone never reached the barrier */
	return err;
}

static int host_cpu_node(void *ctx, unsigned int cpu)
{
	(void)ctx;
	return workers[cpu].node;
}

static unsigned int host_cpu_id(void *ctx, unsigned int cpu)
{
	(void)ctx;
	return workers[cpu].cpu;
}

static void *host_alloc(void *ctx, unsigned int node, u64 bytes)
{
	size_t len = (size_t)bytes + (2u << 20);
	u8 *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *p;

	(void)ctx;
	if (q == MAP_FAILED)
		return NULL;
	p = (void *)(((uintptr_t)q + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
	madvise(p, (size_t)bytes, MADV_HUGEPAGE);
	if (nr_nodes > 1 && node < CK_HOST_NODES_MAX && !ck_host_bind(p, (size_t)bytes, node, -1))
		printf("# parallel: mbind to node %u failed (%s): first touch places it\n", node,
		       strerror(errno));
	return p;
}

/* Give @node to every worker whose CPU a sysfs cpulist ("0-3,8,10-11") names. */
static void apply_cpulist(const char *list, int node)
{
	static unsigned int cpus[CPU_SETSIZE];
	unsigned int n = mig_parse_list(list, cpus, CPU_SETSIZE);

	for (unsigned int i = 0; i < n; i++)
		for (unsigned int w = 0; w < nr_workers; w++)
			if (workers[w].cpu == cpus[i])
				workers[w].node = node;
}

/* Each worker's node; returns where the nodes came from. */
static const char *find_nodes(void)
{
	void *h = dlopen("libnuma.so.1", RTLD_NOW);
	DIR *d;
	struct dirent *e;
	bool any = false;

	if (h) {
		int (*available)(void) = (int (*)(void))dlsym(h, "numa_available");
		int (*node_of_cpu)(int) = (int (*)(int))dlsym(h, "numa_node_of_cpu");

		if (available && node_of_cpu && available() >= 0) {
			for (unsigned int w = 0; w < nr_workers; w++)
				workers[w].node = MAX(node_of_cpu((int)workers[w].cpu), 0);
			return "libnuma (numa_node_of_cpu)";
		}
	}
	d = opendir("/sys/devices/system/node");
	while (d && (e = readdir(d))) {
		char path[300], list[4096];
		int node;

		if (sscanf(e->d_name, "node%d", &node) != 1 || node < 0 || node >= PAR_MAX_NODES)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/%s/cpulist", e->d_name);
		if (ck_host_read_line(path, list, sizeof(list))) {
			apply_cpulist(list, node);
			any = true;
		}
	}
	if (d)
		closedir(d);
	return any ? "/sys/devices/system/node (libnuma.so.1 not installed)" :
	       "nowhere: no libnuma, no /sys/devices/system/node: every CPU on node 0";
}

static bool start_workers(void)
{
	bool seen[PAR_MAX_NODES] = { false };

	nr_workers = nr_nodes = 0;
	quit = false;
	gen = 0;
	for (unsigned int c = 0; c < CPU_SETSIZE && nr_workers < PAR_MAX_CPUS; c++) {
		struct worker *w = &workers[nr_workers];
		pthread_attr_t attr;
		cpu_set_t one;
		int err;

		if (!CPU_ISSET(c, &start_set))
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		*w = (struct worker){ .cpu = c };
		pthread_attr_init(&attr);
		err = pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		if (!err)
			err = pthread_create(&w->thread, &attr, worker_main, w);
		pthread_attr_destroy(&attr);
		if (err) {
			printf("# parallel: CPU %u: no pinned thread (%s): left out\n", c,
			       strerror(err));
			continue;
		}
		nr_workers++;
	}
	printf("# parallel: CPU nodes from %s\n", find_nodes());
	for (unsigned int w = 0; w < nr_workers; w++)
		if (!seen[workers[w].node]) {
			seen[workers[w].node] = true;
			nr_nodes++;
		}
	return nr_workers > 0;
}

static void stop_workers(void)
{
	pthread_mutex_lock(&lock);
	quit = true;
	pthread_cond_broadcast(&wake);
	pthread_mutex_unlock(&lock);
	for (unsigned int w = 0; w < nr_workers; w++)
		pthread_join(workers[w].thread, NULL);
	nr_workers = 0;
}

unsigned int ck_bench_parallel(const struct bench_env *env, unsigned int rounds, bool tiny)
{
	struct par_ops ops = { .cpu_node = host_cpu_node, .cpu_id = host_cpu_id,
			       .alloc = host_alloc, .run = host_run, .clock = host_clock,
			       .clock_hz = 1000000000ULL };
	struct par_config cfg = { .ops = &ops, .out = env->out, .machine = env->machine,
				  .bytes = tiny ? PAR_TINY_BYTES : PAR_DEFAULT_BYTES,
				  .rounds = rounds };
	unsigned int good;

	if (!start_set_ok || !start_workers()) {
		printf("# parallel: cannot start pinned threads: skipped\n");
		return 0;
	}
	ops.nr_cpus = nr_workers;
	printf("# parallel: %u pinned threads (one per CPU the process was allowed at start), "
	       "memory %s, clock CLOCK_MONOTONIC_RAW\n", nr_workers, nr_nodes > 1 ?
	       "mbind to each CPU's node, THP, first touch by its CPU" :
	       "THP, first touch by its CPU (one node: no binding)");
	good = bench_parallel(&cfg);
	stop_workers();
	return good;
}

int ck_bench_node_cpu(unsigned int node)
{
	void *h = dlopen("libnuma.so.1", RTLD_NOW);
	int (*node_of_cpu)(int) = h ? (int (*)(int))dlsym(h, "numa_node_of_cpu") : NULL;

	if (!start_set_ok || !node_of_cpu)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &start_set) && node_of_cpu(c) == (int)node)
			return c;
	return -1;
}
