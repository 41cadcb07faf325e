// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_run.c - one run of the hosted soak twin (host/soak/twin_run.h): map the memory
 * (hugetlb, else THP, as asked), give it page frames, plan it among the workers as the image
 * plans its memory among its CPUs, start one pinned thread per worker, let each run the
 * image's passes for the stated time (a barrier between two elements, as in the image), and
 * report.
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

/* Page frames for the mapping, and the plan: one range, every worker on node 0. */
static bool lay_out(struct soak_twin_run *r)
{
	static u8 cpu_node[SOAK_MAX_CPUS];
	struct soak_range range = { (u64)(uintptr_t)r->mem, r->bytes, 0 };
	struct soak_plan_in in = { .ranges = &range, .nr_ranges = 1, .cpu_node = cpu_node,
				   .nr_cpus = r->nr, .nr_nodes = 1,
				   .chunk_bytes = r->chunk_bytes };
	struct page *frames = calloc(r->bytes >> PAGE_SHIFT, sizeof(*frames));
	const char *why;

	if (!frames || pgmap_add((uintptr_t)r->mem >> PAGE_SHIFT, r->bytes >> PAGE_SHIFT, frames,
				 0))
		return false;
	if (soak_plan_make(&in, &r->plan, &why)) {
		fprintf(stderr, "ck-soak: no plan: %s\n", why);
		return false;
	}
	r->prog = (struct soak_prog){ &r->plan, r->o->seed, r->t[0].w.ops };
	return true;
}

static struct soak_twin_run *run;

/* The barrier before element @g: every other worker finished the ones before, or stopped. */
static bool barrier(struct soak_twin_thread *t, u64 g, u64 deadline)
{
	for (;;) {
		bool all = true;

		for (unsigned int i = 0; i < run->nr && all; i++) {
			struct soak_twin_thread *o = &run->t[i];

			all = o == t || __atomic_load_n(&o->el_done, __ATOMIC_ACQUIRE) >= g ||
			      __atomic_load_n(&o->done, __ATOMIC_ACQUIRE);
		}
		if (all)
			return true;
		if (clock_ns() - soak_t0 >= deadline)
			return false;
		sched_yield();
	}
}

static void *worker(void *arg)
{
	struct soak_twin_thread *t = arg;
	struct soak_slice s;
	u64 deadline, g = 0;

	/* fault in, on this CPU's node */
	for (unsigned int k = 0; soak_plan_slice(&run->plan, t->w.index, k, &s); k++)
		memset((void *)(uintptr_t)s.base, 0, s.size);
	pthread_barrier_wait(&start_line);
	t->start_ns = clock_ns();
	deadline = t->start_ns - soak_t0 + t->run_ns;
	for (u32 pass = 0;; pass++) {
		const struct soak_pass_row *row = soak_pass_row(pass, NULL);

		for (unsigned int el = 0; el < row->nr_el; el++, g++) {
			t->extra_els = el;
			if (!barrier(t, g, deadline) ||
			    !soak_twin_el_run(&t->w, &run->prog, pass, el, run->fade_ns, deadline))
				goto out;
			__atomic_store_n(&t->el_done, g + 1, __ATOMIC_RELEASE);
		}
		t->passes = pass + 1;
	}
out:
	t->w.count.ns = clock_ns() - t->start_ns;
	__atomic_store_n(&t->done, true, __ATOMIC_RELEASE);
	return NULL;
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
	for (unsigned int i = 0; i < r.nr; i++) {
		soak_twin_worker_init(&r.t[i].w, i, ops, nt, phys_of, since_start);
		r.t[i].run_ns = (u64)o->seconds * 1000000000ULL;
	}
	r.fade_ns = (u64)o->fade_s * 1000000000ULL;
	run = &r;
	if (!r.mem || !lay_out(&r)) {
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
	twin_report_header(&r);
	run_workers(&r);
	r.phys_known = phys_of(r.mem) != 0;
	thp_kib = ck_host_vma_thp_kib(r.mem);
	r.thp_known = thp_kib >= 0;
	r.thp_bytes = r.thp_known ? (u64)thp_kib << 10 : 0;
	return twin_report(&r);
}
