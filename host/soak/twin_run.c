// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_run.c - one run of the hosted soak twin (host/soak/twin_run.h): map the memory (hugetlb,
 * else THP, as asked), give it page frames, cut it into each worker's chunk pairs, start one
 * pinned thread per worker, let each run its passes for the stated time, and report.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "copy/routines.h"
#include "host/lib/machine.h"
#include "host/soak/twin_machine.h"
#include "host/soak/twin_report.h"
#include "host/soak/twin_run.h"

#define HUGE_2M		(2ULL << 20)

static u64 (*clock_ns)(void);
static u64 soak_t0;		/* set before the workers start, read-only after */
static int pagemap_fd = -1;
static pthread_barrier_t start_line;

static u64 since_start(void)
{
	return clock_ns() - soak_t0;
}

/* The physical address of @virt from /proc/self/pagemap: 0 when not present or not root. */
static u64 phys_of(const void *virt)
{
	u64 e, va = (u64)(uintptr_t)virt;

	if (pagemap_fd < 0 || pread(pagemap_fd, &e, 8, (off_t)(va >> 12) * 8) != 8)
		return 0;
	if (!(e >> 63) || !(e & ((1ULL << 55) - 1)))
		return 0;	/* bit 63: present; bits 54..0: the PFN (zero without the right) */
	return (e & ((1ULL << 55) - 1)) << 12 | (va & 0xfff);
}

/* @bytes of memory as @o->backing asks, 2 MiB aligned; r->backing says what it got. */
static u8 *map_memory(struct soak_twin_run *r, u64 bytes)
{
	enum soak_backing b = r->o->backing;
	void *p = MAP_FAILED;
	u8 *q;

	if (b == SOAK_BACK_AUTO || b == SOAK_BACK_HUGETLB) {
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p != MAP_FAILED) {
			r->backing = "hugetlb (MAP_HUGETLB, 2 MiB pages)";
			return p;
		}
		if (b == SOAK_BACK_HUGETLB)
			return NULL;
	}
	q = mmap(NULL, bytes + HUGE_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (q == MAP_FAILED)
		return NULL;
	q = (u8 *)(((uintptr_t)q + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));
	if (b == SOAK_BACK_4K) {
		madvise(q, bytes, MADV_NOHUGEPAGE);
		r->backing = "4 KiB pages (madvise MADV_NOHUGEPAGE)";
	} else {
		madvise(q, bytes, MADV_HUGEPAGE);
		r->backing = b == SOAK_BACK_THP ? "THP (madvise MADV_HUGEPAGE)" :
			     "THP (madvise MADV_HUGEPAGE): no hugetlb pages reserved "
			     "(vm.nr_hugepages) for MAP_HUGETLB";
	}
	return q;
}

/*
 * Worker i's pairs, in address order over its whole share: chunk_bytes each side, the last
 * pair the rest split in two (a share is whole 2 MiB pages, so each half is whole pages).
 */
static bool lay_out(struct soak_twin_run *r, u64 share)
{
	u64 c = r->chunk_bytes, pairs = (share + 2 * c - 1) / (2 * c);
	struct page *frames;

	frames = calloc(r->bytes >> PAGE_SHIFT, sizeof(*frames));
	if (!frames || pgmap_add((uintptr_t)r->mem >> PAGE_SHIFT, r->bytes >> PAGE_SHIFT, frames,
				 0))
		return false;
	for (unsigned int i = 0; i < r->nr; i++) {
		struct soak_twin_thread *t = &r->t[i];

		t->pair = calloc(pairs, sizeof(*t->pair));
		if (!t->pair)
			return false;
		t->nr_pairs = (unsigned int)pairs;
		for (u64 k = 0; k < pairs; k++) {
			struct soak_twin_pair *p = &t->pair[k];

			p->src = r->mem + i * share + 2 * k * c;
			p->bytes = MIN(c, (share - 2 * k * c) / 2);
			p->dst = p->src + p->bytes;
			p->fsrc.page = pfn_to_page((uintptr_t)p->src >> PAGE_SHIFT);
			p->fdst.page = pfn_to_page((uintptr_t)p->dst >> PAGE_SHIFT);
			p->fsrc.nr = p->fdst.nr = p->bytes >> PAGE_SHIFT;
		}
	}
	return true;
}

static void *worker(void *arg)
{
	struct soak_twin_thread *t = arg;
	u64 deadline;

	for (unsigned int k = 0; k < t->nr_pairs; k++)	/* fault in, on this CPU's node */
		memset(t->pair[k].src, 0, 2 * t->pair[k].bytes);
	pthread_barrier_wait(&start_line);
	t->start_ns = clock_ns();
	deadline = t->start_ns + t->run_ns;
	for (u32 pass = 0;; pass++) {
		for (unsigned int k = 0; k < t->nr_pairs; k++) {
			soak_twin_pair_run(&t->w, pass, k, &t->pair[k]);
			if (clock_ns() >= deadline) {
				t->extra_pairs = k + 1 == t->nr_pairs ? 0 : k + 1;
				t->passes = pass + (k + 1 == t->nr_pairs);
				t->w.count.ns = clock_ns() - t->start_ns;
				return NULL;
			}
		}
	}
}

/* The copy primitives this CPU can rotate through, and its non-temporal copy (or NULL). */
static u32 copy_ops_here(const struct ck_host *h, size_t (**nt)(void *, const void *, size_t))
{
	*nt = !copy_mc_cannot_run(COPY_MC_AVX512_NT, &h->caps) ? copy_mc_avx512_nt :
	      !copy_mc_cannot_run(COPY_MC_AVX2_NT, &h->caps) ? copy_mc_avx2_nt : NULL;
	return SOAK_COPY_ALL & ~(*nt ? 0 : 1u << SOAK_COPY_NT);
}

/* Start one thread per worker, pinned; wait for them all. False when one cannot start. */
static bool run_workers(struct soak_twin_run *r)
{
	pthread_t tid[CPU_SETSIZE];
	unsigned int started = 0;

	pthread_barrier_init(&start_line, NULL, r->nr);
	soak_t0 = clock_ns();
	r->t0 = soak_t0;
	for (; started < r->nr; started++) {
		struct soak_twin_thread *t = &r->t[started];
		pthread_attr_t at;
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_attr_init(&at);
		t->pinned = !pthread_attr_setaffinity_np(&at, sizeof(set), &set);
		if (pthread_create(&tid[started], &at, worker, t))
			break;
		pthread_attr_destroy(&at);
	}
	if (started < r->nr) {
		fprintf(stderr, "ck-soak: could not start worker %u\n", started);
		exit(2);	/* the others wait at the barrier for it */
	}
	for (unsigned int i = 0; i < r->nr; i++)
		pthread_join(tid[i], NULL);
	return true;
}

/* Workers, their CPUs and memory shares; false (after a message) when it cannot be laid out. */
static bool set_up(struct soak_twin_run *r, const struct ck_soak_opts *o, u64 *share)
{
	static int cpus[CPU_SETSIZE];
	unsigned int have = ck_soak_cpus(cpus, CPU_SETSIZE);
	u64 total = o->mib << 20;

	r->nr = o->threads ? o->threads : have;
	if (!have || r->nr > have) {
		fprintf(stderr, "ck-soak: --threads %u: this process may use %u CPUs\n", r->nr,
			have);
		return false;
	}
	/* each worker's share in whole 2 MiB pages, at least one pair of 2 MiB chunks */
	*share = total / r->nr & ~(HUGE_2M - 1);
	r->chunk_bytes = MIN(o->chunk_mib << 20, (*share / 2) & ~(HUGE_2M - 1));
	if (r->chunk_bytes < HUGE_2M) {
		fprintf(stderr, "ck-soak: --mib %llu over %u workers leaves less than two 2 MiB "
			"chunks each\n", (unsigned long long)o->mib, r->nr);
		return false;
	}
	r->bytes = (u64)r->nr * *share;
	r->t = calloc(r->nr, sizeof(*r->t));
	if (!r->t)
		return false;
	for (unsigned int i = 0; i < r->nr; i++)
		r->t[i].cpu = cpus[i];
	return true;
}

int twin_run(const struct ck_soak_opts *o, const struct ck_host *host, u64 (*now)(void))
{
	static struct soak_twin_run r;
	size_t (*nt)(void *, const void *, size_t);
	u32 ops = copy_ops_here(host, &nt);
	u64 share;
	long thp_kib;

	clock_ns = now;
	r.o = o;
	r.host = host;
	if (!set_up(&r, o, &share))
		return 2;
	r.mem = map_memory(&r, r.bytes);
	if (!r.mem || !lay_out(&r, share)) {
		fprintf(stderr, "ck-soak: cannot map %llu MiB (%s)\n",
			(unsigned long long)(r.bytes >> 20),
			o->backing == SOAK_BACK_HUGETLB ? "MAP_HUGETLB: reserve 2 MiB pages with "
			"sysctl vm.nr_hugepages" : "mmap failed");
		return 2;
	}
	if (o->json && !(r.json = fopen(o->json, "w"))) {
		perror(o->json);
		return 2;
	}
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	for (unsigned int i = 0; i < r.nr; i++) {
		soak_twin_worker_init(&r.t[i].w, i, o->seed, ops, nt, phys_of, since_start);
		r.t[i].run_ns = (u64)o->seconds * 1000000000ULL;
	}
	twin_report_header(&r);
	run_workers(&r);
	r.phys_known = phys_of(r.mem) != 0;
	thp_kib = ck_host_vma_thp_kib(r.mem);
	r.thp_known = thp_kib >= 0;
	r.thp_bytes = r.thp_known ? (u64)thp_kib << 10 : 0;
	return twin_report(&r);
}
