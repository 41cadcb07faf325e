// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_allcore.c - the all-core limits (host/soak/twin_allcore.h): one pinned thread
 * per CPU, each over its own hugetlb (else THP) memory, released together behind a barrier
 * into each of the bandwidth probe's streams (bench/probe.h: the read of every line, the
 * non-temporal copy, rep movsb, movnti of non-zero words) for SOAK_LIMIT_MS, then
 * aggregated by host/soak/twin_limit.c. A benchmark, nothing here is asserted.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench/probe.h"
#include "copy/dispatch.h"
#include "copy/routines.h"
#include "host/soak/twin_allcore.h"

#define HUGE_2M		(2ULL << 20)
#define LIMIT_CHUNK	(16ULL << 20)	/* a stream checks its clock after each chunk */
#define LIMIT_THREADS	1024

enum stream { ST_READ, ST_NT_COPY, ST_MOVSB_COPY, ST_NT_WRITE, NR_ST };

struct limit_thread {
	pthread_t tid;
	int cpu;
	u64 half;			/* bytes of source, and of destination */
	u8 *map, *src, *dst;
	u64 map_bytes;
	bool hugetlb, ok;
	struct soak_limit_thread st[NR_ST];
};

static struct {
	pthread_barrier_t bar;
	size_t (*nt_copy)(void *dst, const void *src, size_t len);
	struct limit_thread t[LIMIT_THREADS];
} lim;

static u64 clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* The thread's memory, mapped and touched by the thread itself (so local to its node). */
static bool map_own(struct limit_thread *t)
{
	void *p;

	t->map_bytes = 2 * t->half;
	p = mmap(NULL, t->map_bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	t->hugetlb = p != MAP_FAILED;
	if (!t->hugetlb) {
		t->map_bytes += HUGE_2M;
		p = mmap(NULL, t->map_bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return false;
	}
	t->map = p;
	t->src = (u8 *)(((uintptr_t)p + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));
	if (!t->hugetlb)
		madvise(t->src, 2 * t->half, MADV_HUGEPAGE);
	t->dst = t->src + t->half;
	for (u64 i = 0; i < 2 * t->half; i += 8)	/* non-zero data, every page touched */
		*(u64 *)(t->src + i) = i * 0x9e3779b97f4a7c15ULL;
	return true;
}

/* Chunk @off of stream @s; the traffic it moved (a copy counts its bytes twice). */
static u64 chunk(const struct limit_thread *t, enum stream s, u64 off, u64 len)
{
	switch (s) {
	case ST_READ:		probe_read_lines(t->src + off, len); return len;
	case ST_NT_COPY:	lim.nt_copy(t->dst + off, t->src + off, len); return 2 * len;
	case ST_MOVSB_COPY:	memcpy_erms(t->dst + off, t->src + off, len); return 2 * len;
	default:		probe_nt_write(t->dst + off, len); return len;
	}
}

static void *limit_thread(void *arg)
{
	struct limit_thread *t = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	t->ok = map_own(t);
	for (int s = 0; s < NR_ST; s++) {
		u64 len = MIN(LIMIT_CHUNK, t->half), off = 0, bytes = 0, t0, end;

		pthread_barrier_wait(&lim.bar);	/* every thread starts each stream at once */
		if (!t->ok || (s == ST_NT_COPY && !lim.nt_copy))
			continue;
		t0 = clock_ns();
		end = t0 + SOAK_LIMIT_MS * 1000000ULL;
		do {
			bytes += chunk(t, (enum stream)s, off, len);
			off = off + 2 * len > t->half ? 0 : off + len;
		} while (clock_ns() < end);
		t->st[s] = (struct soak_limit_thread){ bytes, clock_ns() - t0 };
	}
	if (t->map)
		munmap(t->map, t->map_bytes);
	return NULL;
}

/* Stream @s's all-core rate from every thread's bytes and time. */
static double stream_rate(unsigned int nr, enum stream s)
{
	struct soak_limit_thread v[LIMIT_THREADS];

	for (unsigned int i = 0; i < nr; i++)
		v[i] = lim.t[i].st[s];
	return soak_limit_rate(v, nr);
}

bool soak_allcore_measure(const struct ck_host *h, const int *cpu, unsigned int nr, u64 mib,
			  double limit[NR_SOAK_LIMITS], char *memory, size_t size)
{
	u64 half = ((mib << 20) / MAX(nr, 1u) / 2) & ~(HUGE_2M - 1);
	unsigned int started = 0, huge = 0, ok = 0;

	memset(limit, 0, NR_SOAK_LIMITS * sizeof(*limit));
	if (!nr || nr > LIMIT_THREADS || !half) {
		printf("# all-core limit: %u CPUs, %llu MiB: cannot share it out\n", nr,
		       (unsigned long long)mib);
		return false;
	}
	lim.nt_copy = !copy_mc_cannot_run(COPY_MC_AVX512_NT, &h->caps) ? copy_mc_avx512_nt :
		      !copy_mc_cannot_run(COPY_MC_AVX2_NT, &h->caps) ? copy_mc_avx2_nt : NULL;
	pthread_barrier_init(&lim.bar, NULL, nr);
	for (unsigned int i = 0; i < nr; i++) {
		lim.t[i] = (struct limit_thread){ .cpu = cpu[i], .half = half };
		if (pthread_create(&lim.t[i].tid, NULL, limit_thread, &lim.t[i]))
			break;
		started++;
	}
	if (started < nr) {	/* the barrier waits for nr: it cannot be passed, say so */
		printf("# all-core limit: could start only %u of %u threads\n", started, nr);
		exit(2);	/* atexit still puts vm.nr_hugepages back */
	}
	for (unsigned int i = 0; i < nr; i++) {
		pthread_join(lim.t[i].tid, NULL);
		huge += lim.t[i].hugetlb;
		ok += lim.t[i].ok;
	}
	pthread_barrier_destroy(&lim.bar);
	snprintf(memory, size, "%s, %u x 2 x %llu MiB", huge == nr ? "hugetlb (MAP_HUGETLB)" :
		 huge ? "hugetlb for some threads, THP for the rest" :
		 "THP (madvise MADV_HUGEPAGE): no hugetlb pages free", nr,
		 (unsigned long long)half >> 20);
	if (ok < nr) {
		printf("# all-core limit: %u of %u threads could not map their memory\n",
		       nr - ok, nr);
		return false;
	}
	limit[SOAK_LIMIT_READ] = stream_rate(nr, ST_READ);
	limit[SOAK_LIMIT_COPY] = MAX(stream_rate(nr, ST_NT_COPY), stream_rate(nr, ST_MOVSB_COPY));
	limit[SOAK_LIMIT_NT_WRITE] = stream_rate(nr, ST_NT_WRITE);
	return true;
}
