// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/cores/twin.c - the cores kernels on pinned threads (host/cores/twin.h): a thread per
 * CPU, pinned with sched_setaffinity(2) to it, its buffers allocated and first touched there,
 * then a start gate (each thread counts itself ready and spins, yielding, until the main
 * thread opens it once all are) so that every CPU starts the kernel at once; each asks its own
 * CPUID whether it can run the kernel (the kernel's cannot(), as on the image) and its
 * initial APIC id. A thread that cannot be started closes the gate: the others run nothing.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/cores/twin.h"

u64 cores_twin_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

unsigned int cores_twin_cpus(int *cpus, unsigned int max)
{
	cpu_set_t set;
	unsigned int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

enum { GATE_WAIT, GATE_OPEN, GATE_CLOSED };

struct gate {
	unsigned int ready;		/* atomics */
	int state;
};

struct worker {
	pthread_t thread;
	const struct cores_twin_job *j;
	struct gate *gate;
	struct cores_twin_slot *s;
};

/* Count this thread ready, then wait for the gate: true when it opened. */
static bool gate_pass(struct gate *g)
{
	int st;

	__atomic_add_fetch(&g->ready, 1, __ATOMIC_ACQ_REL);
	while ((st = __atomic_load_n(&g->state, __ATOMIC_ACQUIRE)) == GATE_WAIT)
		sched_yield();
	return st == GATE_OPEN;
}

static bool pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return !sched_setaffinity(0, sizeof(set), &set) && sched_getcpu() == cpu;
}

/* The rounds of @j on this CPU, as twin.h says (@repeat 0: the verdict's fold). */
static void work(const struct cores_twin_job *j, const struct cores_area *a,
		 struct cores_twin_slot *s)
{
	u64 d = CORES_FOLD_INIT;

	for (unsigned int i = 0; i < (j->repeat ? j->repeat : 1); i++) {
		for (unsigned int r = 0; r < j->rounds; r++) {
			u64 x = j->k->run(j->k, a, j->seed + r);

			if (j->repeat && x != j->known[r])
				s->wrong++;
			d = cores_fold(d, x);
		}
	}
	s->digest = d;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct cores_twin_slot *s = w->s;
	struct cores_area a = { NULL, NULL };
	u8 *buf;

	s->failed = !pin(s->cpu);
	s->apic = cpuid(CPUID_LEAF_SIGNATURE).ebx >> 24;
	s->why_not = s->failed || !w->j->k->cannot ? NULL : w->j->k->cannot(w->j->k);
	buf = s->failed || s->why_not ? NULL : aligned_alloc(4096, 2 * CORES_BUF);
	if (buf) {
		memset(buf, 0, 2 * CORES_BUF);		/* first touch, on this CPU */
		a = (struct cores_area){ buf, buf + CORES_BUF };
	} else if (!s->failed && !s->why_not) {
		s->failed = true;
	}
	if (!gate_pass(w->gate))
		s->failed = true;
	else if (buf) {
		s->t0 = cores_twin_now_ns();
		work(w->j, &a, s);
		s->t1 = cores_twin_now_ns();
	}
	free(buf);
	return NULL;
}

bool cores_twin_run(const struct cores_twin_job *j, const int *cpus, unsigned int n,
		    struct cores_twin_slot *out)
{
	static struct worker w[CORES_TWIN_MAX_CPUS];
	struct gate gate = { 0, GATE_WAIT };
	unsigned int made = 0;
	int err = 0;

	if (!n || n > CORES_TWIN_MAX_CPUS)
		return false;
	for (unsigned int i = 0; i < n; i++) {
		out[i] = (struct cores_twin_slot){ .cpu = cpus[i] };
		w[i] = (struct worker){ .j = j, .gate = &gate, .s = &out[i] };
	}
	for (; made < n && !err; made++)
		err = pthread_create(&w[made].thread, NULL, worker_main, &w[made]);
	if (err) {
		made--;
		fprintf(stderr, "ck-cores: cannot start the thread for CPU %d (%u of %u): %s\n",
			cpus[made], made + 1, n, strerror(err));
		__atomic_store_n(&gate.state, GATE_CLOSED, __ATOMIC_RELEASE);
	} else {
		while (__atomic_load_n(&gate.ready, __ATOMIC_ACQUIRE) < n)
			sched_yield();
		__atomic_store_n(&gate.state, GATE_OPEN, __ATOMIC_RELEASE);
	}
	for (unsigned int i = 0; i < made; i++)
		pthread_join(w[i].thread, NULL);
	return !err;
}
