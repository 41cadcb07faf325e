// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/bench/mig.c - the hosted side of the `migrate` preset (bench/migrate.c is the image's):
 * what a migration costs when Linux does the unmap, the shootdown and the remap, with the
 * project's copies between. A process cannot send IPIs; the kernel sends them for it.
 *
 *   memory   two memfd files, old and new, each mapped twice: at the user address (the
 *            "process's" mapping, 4 KiB PTEs, MAP_SHARED) and at a view the copy uses (the
 *            kernel's direct map in Linux); the views' pages are frames (kernel/mm/page.h),
 *            so the folio APIs copy them. Folios of MIG_H_FOLIO bytes mapped by 4 KiB PTEs.
 *   threads  at each CPU count of mig_cpu_counts(), one per CPU besides this one, pinned,
 *            started for that count and joined after it; between commands they spin (a
 *            sleeping CPU's TLB may be flushed lazily, skipping the IPI), so every CPU of
 *            the count runs this mm when the kernel flushes, and no other does.
 *   phases   munmap   the kernel clears the PTEs and flushes the TLB of every CPU that ran
 *                     this mm: the image's unmap and shootdown together;
 *            copy     old view to new view, folio_copy / folio_mc_copy per page or batched;
 *            remap    mmap of the new file at the same address (MAP_FIXED) and a first
 *                     touch of every page by every thread: the kernel fills the PTEs at
 *                     fault time, so the faults are the remap.
 *   check    (not timed) the old file overwritten, then every thread reads all pages (all
 *            words of its share) at the user address: a stale translation or a missed copy
 *            reads the wrong word and fails the preset.
 *
 * move_pages(2) end to end, where Linux does it all, comes after (host/bench/movep.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/migrate_calc.h"
#include "bench/migrate_copy.h"
#include "bench/stats.h"
#include "host/bench/mig.h"
#include "host/bench/par.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "kernel/mm/page.h"

#define MIG_H_CPUS	256
#define MIG_H_FOLIO	(2UL << 20)
#define MIG_H_ROUNDS	200
#define MIG_H_COUNTS	16

enum { CMD_TOUCH, CMD_VERIFY, CMD_EXIT };

static struct {
	volatile u64 *va;		/* the user mapping */
	size_t bytes;
	unsigned int n;			/* threads, this one included */
	volatile u32 gen, cmd;
	volatile u32 done[MIG_H_CPUS];
	u64 bad[MIG_H_CPUS];
} hc;

struct mig_file {
	int fd;
	u64 *view;
	struct page *frames;
};

static struct mig_round rounds[MIG_NR_COPIES][MIG_H_ROUNDS];
static u64 totals[MIG_NR_COPIES][MIG_H_ROUNDS], scratch[MIG_H_ROUNDS];

static u64 expect(u64 word)
{
	return (word + 1) * 0x9e3779b97f4a7c15ULL;
}

static void run_cmd(unsigned int me, u32 cmd)
{
	u64 words = hc.bytes / 8, per = MIG_H_FOLIO / 8, bad = 0;

	for (u64 w = 0; w < words; w += 512) {
		bool all = cmd == CMD_VERIFY && (w / per) % hc.n == me;

		for (u64 i = w; i < w + (all ? 512 : 1); i++)
			if (hc.va[i] != expect(i) && cmd == CMD_VERIFY)
				bad++;
	}
	hc.bad[me] = bad;
}

static void *worker(void *arg)
{
	unsigned int me = (unsigned int)(uintptr_t)arg;
	u32 seen = 0;

	for (;;) {
		u32 gen;

		while ((gen = __atomic_load_n(&hc.gen, __ATOMIC_ACQUIRE)) == seen)
			__builtin_ia32_pause();
		seen = gen;
		if (hc.cmd == CMD_EXIT)
			return NULL;
		run_cmd(me, hc.cmd);
		__atomic_store_n(&hc.done[me], gen, __ATOMIC_RELEASE);
	}
}

static void command(u32 cmd)
{
	u32 gen = hc.gen + 1;

	hc.cmd = cmd;
	__atomic_store_n(&hc.gen, gen, __ATOMIC_RELEASE);
	if (cmd == CMD_EXIT)
		return;
	run_cmd(0, cmd);
	for (unsigned int i = 1; i < hc.n; i++)
		while (__atomic_load_n(&hc.done[i], __ATOMIC_ACQUIRE) != gen)
			__builtin_ia32_pause();
}

static bool file_open(struct mig_file *f, size_t bytes)
{
	f->fd = memfd_create("ck-migrate", 0);
	if (f->fd < 0 || ftruncate(f->fd, (off_t)bytes))
		return false;
	f->view = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, f->fd, 0);
	if (f->view == MAP_FAILED)
		return false;
	f->frames = calloc(bytes >> PAGE_SHIFT, sizeof(*f->frames));
	return f->frames && !pgmap_add((uintptr_t)f->view >> PAGE_SHIFT, bytes >> PAGE_SHIFT,
				       f->frames, 0);
}

static bool map_user(const struct mig_file *f)
{
	void *p = mmap((void *)hc.va, hc.bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		       f->fd, 0);

	return p == (void *)hc.va;
}

static int copy_folios(const struct mig_file *from, const struct mig_file *to, enum mig_copy c)
{
	int ret = 0;

	for (size_t off = 0; off < hc.bytes; off += MIG_H_FOLIO) {
		struct folio s = { pfn_to_page(((uintptr_t)from->view + off) >> PAGE_SHIFT),
				   MIG_H_FOLIO >> PAGE_SHIFT };
		struct folio d = { pfn_to_page(((uintptr_t)to->view + off) >> PAGE_SHIFT),
				   MIG_H_FOLIO >> PAGE_SHIFT };

		ret |= mig_copy_folio(c, &d, &s);
	}
	return ret;
}

/* One migration old -> new with form @c, then the check; false on any failure. */
static bool migrate_once(const struct bench_env *env, struct mig_file *f, unsigned int *cur,
			 enum mig_copy c, struct mig_round *r)
{
	struct mig_file *from = &f[*cur], *to = &f[!*cur];
	u64 t[4];
	int ret;

	t[0] = env->now_ns();
	ret = munmap((void *)hc.va, hc.bytes);
	t[1] = env->now_ns();
	ret |= copy_folios(from, to, c);
	t[2] = env->now_ns();
	if (!map_user(to))
		ret = -1;
	else
		command(CMD_TOUCH);
	t[3] = env->now_ns();
	*r = (struct mig_round){ .ns = { [MIG_UNMAP] = t[1] - t[0], [MIG_COPY] = t[2] - t[1],
					 [MIG_REMAP] = t[3] - t[2] } };
	*cur = !*cur;
	if (ret) {
		bench_failf(env, "migrate (hosted): %s %s: munmap, mmap or the copy failed (%d)",
			    mig_copy_fn[c], mig_copy_form[c], ret);
		return false;
	}
	memset(from->view, 0xdb, hc.bytes);
	command(CMD_VERIFY);
	for (unsigned int i = 0; i < hc.n; i++)
		if (hc.bad[i]) {
			bench_failf(env, "migrate (hosted): thread %u read %llu wrong words after "
				    "the remap (%s %s)", i, (unsigned long long)hc.bad[i],
				    mig_copy_fn[c], mig_copy_form[c]);
			return false;
		}
	return true;
}


static pthread_t threads[MIG_H_CPUS];

/* hc.n - 1 pinned threads on @cpus[1..]; false (none left running) when one cannot start. */
static bool start_threads(const struct bench_env *env, const int *cpus)
{
	hc.gen = 0;
	for (unsigned int i = 1; i < hc.n; i++) {
		pthread_attr_t attr;
		cpu_set_t one;
		int err;

		hc.done[i] = 0;
		CPU_ZERO(&one);
		CPU_SET(cpus[i], &one);
		pthread_attr_init(&attr);
		err = pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		if (!err)
			err = pthread_create(&threads[i], &attr, worker, (void *)(uintptr_t)i);
		pthread_attr_destroy(&attr);
		if (err) {
			bench_failf(env, "migrate (hosted): no thread on CPU %d: %s", cpus[i],
				    strerror(err));
			hc.n = i;
			command(CMD_EXIT);
			for (unsigned int j = 1; j < i; j++)
				pthread_join(threads[j], NULL);
			return false;
		}
	}
	return true;
}

static void stop_threads(void)
{
	command(CMD_EXIT);
	for (unsigned int i = 1; i < hc.n; i++)
		pthread_join(threads[i], NULL);
}

static const char *const phase_head[MIG_NR_PHASES] = { "munmap", "-", "copy", "mmap+touch" };

static void row(const struct bench_env *env, unsigned int cpus, enum mig_copy c,
		const u64 med[MIG_NR_PHASES], u64 total, unsigned int n)
{
	char buf[512];
	struct json_writer w;
	u32 sh = mig_share_pm(med, MIG_COPY);

	bench_outf(env, "  %4u %-13s %-8s %10llu %10llu %12llu %10llu %4u.%u", cpus,
		   mig_copy_fn[c], mig_copy_form[c], (unsigned long long)med[MIG_UNMAP],
		   (unsigned long long)med[MIG_COPY], (unsigned long long)med[MIG_REMAP],
		   (unsigned long long)total, sh / 10, sh % 10);
	json_record(&w, buf, sizeof(buf), "migrate-hosted");
	json_str(&w, "machine", env->machine);
	json_u64(&w, "folio_bytes", MIG_H_FOLIO);
	json_u64(&w, "bytes", hc.bytes);
	json_str(&w, "fn", mig_copy_fn[c]);
	json_str(&w, "copy", mig_copy_form[c]);
	json_u64(&w, "cpus", cpus);
	json_u64(&w, "rounds", n);
	json_u64(&w, "verified", n);
	for (int p = 0; p < MIG_NR_PHASES; p++) {
		char key[24];

		if (p == MIG_SHOOTDOWN)
			continue;		/* inside munmap here */
		ck_snprintf(key, sizeof(key), "%s_ns", p == MIG_UNMAP ? "munmap" :
			    p == MIG_COPY ? "copy" : "mmap_touch");
		json_u64(&w, key, med[p]);
	}
	json_u64(&w, "total_ns", total);
	json_fixed(&w, "copy_share", sh, 3);
	if (json_end(&w) > 0)
		env->out(buf);
}

/* @n rounds of the four forms at hc.n CPUs, then their rows; false at the first failure. */
static bool run_count(const struct bench_env *env, struct mig_file *f, unsigned int *cur,
		      unsigned int n)
{
	u64 med[MIG_NR_COPIES][MIG_NR_PHASES], tot[MIG_NR_COPIES];

	command(CMD_TOUCH);
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < MIG_NR_COPIES; k++) {
			enum mig_copy c = mig_round_form(i, k);

			if (!migrate_once(env, f, cur, c, &rounds[c][i]))
				return false;
			totals[c][i] = mig_total(rounds[c][i].ns);
		}
	for (int c = 0; c < MIG_NR_COPIES; c++) {
		mig_medians(rounds[c], n, scratch, med[c], &tot[c]);
		row(env, hc.n, (enum mig_copy)c, med[c], tot[c], n);
	}
	for (int fn = 0; fn < 2; fn++) {
		struct mig_amdahl am;

		mig_amdahl(med[2 * fn], tot[2 * fn], med[2 * fn + 1], tot[2 * fn + 1], &am);
		bench_outf(env, "# migrate (hosted): cpus=%u: %s batched: copy %u.%03ux, end to end "
			   "%u.%03ux (Amdahl predicts %u.%03ux from a copy share of %u.%u%%)", hc.n,
			   mig_copy_fn[2 * fn], am.copy_speedup_pm / 1000, am.copy_speedup_pm % 1000,
			   am.measured_pm / 1000, am.measured_pm % 1000, am.predicted_pm / 1000,
			   am.predicted_pm % 1000, am.copy_share_pm / 10, am.copy_share_pm % 10);
	}
	bench_outf(env, "# migrate (hosted): cpus=%u: verified: %u migrations, after each all %u "
		   "thread%s read the copied data at the remapped address", hc.n,
		   n * MIG_NR_COPIES, hc.n, hc.n == 1 ? "" : "s");
	return true;
}

/* This CPU first, then the others the process was allowed at start; how many. */
static unsigned int take_cpus(int *cpus)
{
	int start[MIG_H_CPUS], self = sched_getcpu();
	unsigned int n = ck_bench_start_cpus(start, MIG_H_CPUS), k = 1;

	cpus[0] = self;
	for (unsigned int i = 0; i < n; i++)
		if (start[i] != self)
			cpus[k++] = start[i];
	return self < 0 ? 0 : k;
}

static bool set_up(const struct bench_env *env, struct mig_file *f, size_t bytes)
{
	void *va;

	hc.bytes = bytes;
	if (!file_open(&f[0], bytes) || !file_open(&f[1], bytes)) {
		bench_failf(env, "migrate (hosted): two memfd files of %zu MiB, mapped and "
			    "registered: %s", bytes >> 20, strerror(errno));
		return false;
	}
	for (u64 w = 0; w < bytes / 8; w++)
		f[0].view[w] = expect(w);
	va = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, f[0].fd, 0);
	if (va == MAP_FAILED) {
		bench_failf(env, "migrate (hosted): no user mapping: %s", strerror(errno));
		return false;
	}
	hc.va = va;
	return true;
}

unsigned int ck_bench_migrate(const struct bench_env *env, unsigned int rounds, bool tiny)
{
	static struct mig_file f[2];
	static int cpus[MIG_H_CPUS];
	unsigned int nc = take_cpus(cpus), counts[MIG_H_COUNTS], k, cur = 0, done = 0;

	rounds = MIN(rounds, MIG_H_ROUNDS);
	k = mig_cpu_counts(nc, counts, MIG_H_COUNTS);
	bench_outf(env, "# migrate (hosted): %u CPU%s allowed; at each count of them, threads "
		   "pinned one per CPU read a %zu MiB MAP_SHARED mapping of 4 KiB pages (%lu KiB "
		   "folios); %u rounds of folio_copy and folio_mc_copy, per page and batched",
		   nc, nc == 1 ? "" : "s", (size_t)(tiny ? 2 : 16) * MIG_H_FOLIO >> 20,
		   MIG_H_FOLIO >> 10, rounds);
	bench_outf(env, "# migrate (hosted): munmap = the kernel's unmap and TLB shootdown to "
		   "every CPU running this mm; copy = the project's routines, view to view; "
		   "mmap+touch = mmap of the new file and every thread's first touch (the faults "
		   "fill the PTEs); move_pages(2) end to end follows");
	if (!nc || !set_up(env, f, (size_t)(tiny ? 2 : 16) * MIG_H_FOLIO))
		return 0;
	bench_outf(env, "  %4s %-13s %-8s %10s %10s %12s %10s %6s", "cpus", "fn", "copy",
		   phase_head[MIG_UNMAP], phase_head[MIG_COPY], phase_head[MIG_REMAP], "total",
		   "copy%");
	for (; done < k; done++) {
		bool ok;

		hc.n = counts[done];
		if (!start_threads(env, cpus))
			break;
		ok = run_count(env, f, &cur, rounds);
		stop_threads();
		if (!ok)
			break;
	}
	munmap((void *)hc.va, hc.bytes);
	return done;
}
