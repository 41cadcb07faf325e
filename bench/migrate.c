// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate.c - the `migrate` preset: page migration end to end on every online CPU, to see
 * how much of a migration the copy is and so how a faster folio_copy shows in move_pages.
 *
 * Folios of one size (4 KiB, 2 MiB or 1 GiB leaves) are mapped in the test address space
 * (kernel/arch/paging.h, apart from the identity map) and read by the CPUs taking part, so
 * each one's TLB holds their entries. The CPUs other than this one stay in one posted
 * function (a worker) for the whole preset, taking interrupts between commands
 * (smp_tlb_window()): no CR3 reload between functions hides a missed shootdown. One
 * migration of the batch is Linux's migrate_pages() on a batch of folios: try_to_migrate()
 * clears each folio's entry and defers the flush (one shootdown for the batch, to the CPUs
 * that used the mapping, try_to_unmap_flush()), move_to_new_folio() copies each folio,
 * remove_migration_ptes() maps the new ones. A not-present entry is not cached, so the remap
 * needs no second shootdown. Each phase is timed, the copy by folio_copy or folio_mc_copy,
 * per page (before the seeds) or batched (seed 000, and seed 002's v3 for folio_mc_copy),
 * the four forms in alternating order; after each migration (not timed) the old pages are
 * overwritten and every CPU taking part reads the whole batch through the remapped
 * addresses, so a CPU that kept a stale entry reads the overwritten page and fails the
 * preset, as does a CPU that does not acknowledge a shootdown.
 *
 * The CPUs taking part sweep over the counts of mig_cpu_counts(): 1, 2, 4 ... and all; the
 * others are not asked (they never touched the batch). This file measures: each folio size
 * is measured whole, at every CPU count, into a struct mig_size, then handed to the report
 * (bench/migrate_out.c), which prints it; what goes wrong while measuring is said at once
 * (bench_failf), as the harness does.
 */
#include "bench/harness.h"
#include "bench/image.h"
#include "bench/migrate.h"
#include "bench/migrate_calc.h"
#include "bench/migrate_copy.h"
#include "bench/migrate_out.h"
#include "bench/platform.h"
#include "bench/stats.h"
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"

#define MIG_MAX_CPUS	64
#define MIG_MAX_ROUNDS	200
#define MIG_1G_ROUNDS	10		/* 1 GiB: each migration moves 1 GiB four ways */
#define MIG_ACK_US	1000000		/* a CPU must acknowledge a shootdown within 1 s */
#define MIG_CMD_MS	60000		/* a worker's command (reading the batch) */
/*
 * How long a worker waits for its next command before it takes the initiator for gone:
 * longer than one migration between two commands, 1 GiB by folio_mc_copy under QEMU TCG
 * included (about 5 min on a loaded host; a fraction of a second on hardware).
 */
#define MIG_IDLE_MS	3600000
#define MIG_POISON	0xdbdbdbdbdbdbdbdbULL

enum mig_cmd { CMD_TOUCH, CMD_VERIFY, CMD_EXIT };

struct mig_set {
	u64 leaf, va, area[2];		/* area[cur] holds the folios now */
	unsigned int nr, cur;
};

/* Written by this CPU before a command's generation, read by the workers after it. */
static struct {
	const struct mig_set *set;
	volatile u32 gen;
	volatile u32 cmd;
	unsigned int n;			/* CPUs taking part, this one included */
	unsigned int posted;		/* CPUs with a worker, this one included */
	volatile u32 done[MIG_MAX_CPUS];
	u64 bad[MIG_MAX_CPUS], bad_va[MIG_MAX_CPUS], bad_val[MIG_MAX_CPUS];
} ctl;

static unsigned int online[MIG_MAX_CPUS];
static struct mig_round rounds[MIG_NR_COPIES][MIG_MAX_ROUNDS];
static u64 scratch[MIG_MAX_ROUNDS], totals[MIG_NR_COPIES][MIG_MAX_ROUNDS];

static u64 expect(u64 word)
{
	return (word + 1) * 0x9e3779b97f4a7c15ULL;
}

static u64 now_ns(void)
{
	return tsc_to_ns(rdtsc_ordered());
}

/*
 * Touch every page (TLB entries); verify every page's first word and all of my share. The
 * direction alternates with each command, so a command starts with the pages the last one
 * read last: the entries most likely still in a small TLB (QEMU's, or a real one with 4 KiB
 * pages), and the ones a missed shootdown would leave stale.
 */
static void run_cmd(unsigned int me, enum mig_cmd cmd)
{
	const struct mig_set *s = ctl.set;
	u64 per = s->leaf / SZ_4K, pages = per * s->nr, bad = 0, bad_va = 0, bad_val = 0;
	bool down = ctl.gen & 1;

	for (u64 j = 0; j < pages; j++) {
		u64 pg = down ? pages - 1 - j : j;
		const volatile u64 *p = (const u64 *)(uintptr_t)(s->va + pg * SZ_4K);
		bool all = cmd == CMD_VERIFY && (pg / per) % ctl.n == me;

		for (u64 w = 0; w < (all ? SZ_4K / 8 : 1); w++) {
			u64 v = p[w];

			if (cmd == CMD_VERIFY && v != expect(pg * (SZ_4K / 8) + w) && !bad++) {
				bad_va = (u64)(uintptr_t)&p[w];
				bad_val = v;
			}
		}
	}
	ctl.bad[me] = bad;
	ctl.bad_va[me] = bad_va;
	ctl.bad_val[me] = bad_val;
}

static void worker(void *arg)
{
	unsigned int me = (unsigned int)(uintptr_t)arg;
	u32 seen = 0;

	for (;;) {
		u64 end = smp_now_us() + (u64)MIG_IDLE_MS * 1000;
		u32 gen;

		while ((gen = __atomic_load_n(&ctl.gen, __ATOMIC_ACQUIRE)) == seen) {
			if (smp_now_us() > end)
				return;		/* the initiator is gone: leave */
			smp_tlb_window();
		}
		seen = gen;
		if (ctl.cmd == CMD_EXIT)
			return;
		if (me < ctl.n)		/* not taking part: keep off the batch */
			run_cmd(me, ctl.cmd);
		__atomic_store_n(&ctl.done[me], gen, __ATOMIC_RELEASE);
	}
}

/* Run @cmd on every CPU of the preset; the number of workers that did not finish. */
static unsigned int command(enum mig_cmd cmd)
{
	u32 gen = ctl.gen + 1;
	unsigned int late = 0;
	u64 end;

	ctl.cmd = cmd;
	__atomic_store_n(&ctl.gen, gen, __ATOMIC_RELEASE);
	if (cmd == CMD_EXIT)
		return 0;
	run_cmd(0, cmd);
	end = smp_now_us() + (u64)MIG_CMD_MS * 1000;
	for (unsigned int i = 1; i < ctl.n; i++) {
		while (__atomic_load_n(&ctl.done[i], __ATOMIC_ACQUIRE) != gen &&
		       smp_now_us() <= end)
			cpu_relax();
		if (ctl.done[i] != gen)
			late++;
	}
	return late;
}

static bool folio_at(u64 pa, u64 leaf, struct folio *f)
{
	f->page = pfn_to_page(pa >> PAGE_SHIFT);
	f->nr = leaf / SZ_4K;
	return f->page != NULL;
}

/* One copy of @nr folios' worth from @from to @to with form @f; false when one failed. */
static bool copy_batch(const struct bench_env *env, const struct mig_set *s, u64 from, u64 to,
		       enum mig_copy f)
{
	bool ok = true;

	for (unsigned int i = 0; i < s->nr; i++) {
		struct folio src, dst;
		int ret = 0;

		if (!folio_at(from + i * s->leaf, s->leaf, &src) ||
		    !folio_at(to + i * s->leaf, s->leaf, &dst)) {
			ok = false;
			continue;
		}
		ret = mig_copy_folio(f, &dst, &src);
		if (ret) {
			bench_failf(env, "migrate: %s (%s) of folio %u returned %d", mig_copy_fn[f],
				    mig_copy_form[f], i, ret);
			ok = false;
		}
	}
	return ok;
}

/* One migration of the whole batch to the other area with form @f, timed per phase. */
static bool migrate_once(const struct bench_env *env, struct mig_set *s, enum mig_copy f,
			 struct mig_round *r, struct mig_row *a)
{
	u64 from = s->area[s->cur], to = s->area[!s->cur], t[5], pa;
	struct smp_tlb_result tr;
	bool ok = true, copied;

	t[0] = now_ns();
	for (unsigned int i = 0; i < s->nr; i++)
		if (pg_space_unmap(s->va + i * s->leaf, s->leaf, &pa) || pa != from + i * s->leaf)
			ok = false;
	t[1] = now_ns();
	smp_flush_tlb_cpus(online, ctl.n, s->va, (u64)s->nr * s->leaf, s->leaf, MIG_ACK_US,
			   &tr);
	t[2] = now_ns();
	copied = copy_batch(env, s, from, to, f);
	t[3] = now_ns();
	for (unsigned int i = 0; i < s->nr; i++)
		if (pg_space_map(s->va + i * s->leaf, to + i * s->leaf, s->leaf, PG_RAM))
			ok = false;
	t[4] = now_ns();
	for (int p = 0; p < MIG_NR_PHASES; p++)
		r->ns[p] = t[p + 1] - t[p];
	s->cur = !s->cur;
	a->shootdowns++;
	a->acks += tr.acked;
	if (!ok)
		bench_failf(env, "migrate: the test address space refused an unmap or a map");
	for (unsigned int i = 0; i < tr.nr_missing && i < SMP_TLB_MAX_NAMED; i++)
		bench_failf(env, "migrate: CPU %u did not acknowledge the TLB shootdown within "
			    "%u ms", tr.missing[i], MIG_ACK_US / 1000);
	if (tr.acked != ctl.n)
		bench_failf(env, "migrate: %u of the %u CPUs using the batch acknowledged the "
			    "shootdown", tr.acked, ctl.n);
	return ok && copied && !tr.nr_missing && tr.acked == ctl.n;
}

/* Not timed: the old pages overwritten, then every CPU reads the batch where it now is. */
static bool verify(const struct bench_env *env, const struct mig_set *s, struct mig_row *a)
{
	unsigned int late;
	bool ok = true;

	memset((void *)(uintptr_t)s->area[!s->cur], 0xdb, (size_t)s->nr * s->leaf);
	late = command(CMD_VERIFY);
	if (late) {
		bench_failf(env, "migrate: %u CPU%s did not finish reading the batch", late,
			    late == 1 ? "" : "s");
		return false;
	}
	for (unsigned int i = 0; i < ctl.n; i++) {
		if (!ctl.bad[i])
			continue;
		bench_failf(env, "migrate: CPU %u read %llu wrong words after the remap, the first "
			    "at %#llx (%s)", online[i], (unsigned long long)ctl.bad[i],
			    (unsigned long long)ctl.bad_va[i],
			    ctl.bad_val[i] == MIG_POISON ?
			    "the old page: a stale TLB entry" : "neither old nor new");
		ok = false;
	}
	if (ok)
		a->verified++;
	return ok;
}

/*
 * Map the batch from area 0, filled through the identity map; false: not measured, and why
 * in @r (a failure: the run asked for this size) or said already (bench_failf).
 */
static bool set_up(const struct bench_env *env, struct mig_set *s, struct mig_size *r)
{
	u64 bytes = (u64)s->nr * s->leaf;
	u64 *p;

	for (int i = 0; i < 2; i++) {
		s->area[i] = (u64)(uintptr_t)bench_image_alloc(bytes);
		if (!s->area[i]) {
			ck_snprintf(r->why, sizeof(r->why), "no memory for two areas of %llu MiB "
				    "(%u folio%s each)", (unsigned long long)bytes >> 20, s->nr,
				    s->nr == 1 ? "" : "s");
			r->fail = true;
			return false;
		}
	}
	p = (u64 *)(uintptr_t)s->area[0];
	for (u64 w = 0; w < bytes / 8; w++)
		p[w] = expect(w);
	s->cur = 0;
	for (unsigned int f = 0; f < s->nr; f++)
		if (pg_space_map(s->va + f * s->leaf, s->area[0] + f * s->leaf, s->leaf, PG_RAM)) {
			bench_failf(env, "migrate: cannot map %llu KiB leaves at %#llx",
				    (unsigned long long)s->leaf >> 10, (unsigned long long)s->va);
			return false;
		}
	ctl.set = s;
	return true;
}

static void tear_down(struct mig_set *s)
{
	struct smp_tlb_result tr;

	if (!s->area[0] || !s->area[1])
		return;		/* nothing was mapped */
	for (unsigned int f = 0; f < s->nr; f++)
		pg_space_unmap(s->va + f * s->leaf, s->leaf, NULL);
	smp_flush_tlb_range(s->va, (u64)s->nr * s->leaf, s->leaf, MIG_ACK_US, &tr);
}

/* @n rounds of the four forms in mig_round_form()'s order; false at the first failure. */
static bool run_rounds(const struct bench_env *env, struct mig_set *s, unsigned int n,
		       struct mig_count *c)
{
	if (command(CMD_TOUCH)) {
		bench_failf(env, "migrate: a CPU did not read the batch");
		return false;
	}
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int k = 0; k < MIG_NR_COPIES; k++) {
			enum mig_copy f = mig_round_form(i, k);

			if (!migrate_once(env, s, f, &rounds[f][i], &c->row[f]) ||
			    !verify(env, s, &c->row[f]))
				return false;
			totals[f][i] = mig_total(rounds[f][i].ns);
		}
	}
	return true;
}

/* The medians and ratios of one CPU count's rounds. */
static void summarize(unsigned int n, struct mig_count *c)
{
	c->rounds = n;
	for (int f = 0; f < MIG_NR_COPIES; f++)
		mig_medians(rounds[f], n, scratch, c->row[f].med, &c->row[f].total);
	for (int fn = 0; fn < 2; fn++)
		c->have_ratio[fn] = stats_round_ratio(totals[2 * fn], totals[2 * fn + 1], n, 1000,
						      STATS_SEED, &c->ratio[fn]);
}

/* One folio size of @r over the CPU counts: set up, the rounds; unmapped at the end. */
static void measure(const struct bench_env *env, struct mig_size *r, u64 va)
{
	static struct mig_set s;

	s = (struct mig_set){ .leaf = r->leaf, .nr = r->nr, .va = va };
	r->k = mig_cpu_counts(ctl.posted, r->cpus, MIG_MAX_COUNTS);
	r->measured = set_up(env, &s, r);
	for (r->done = 0; r->measured && r->done < r->k; r->done++) {
		struct mig_count *c = &r->count[r->done];

		*c = (struct mig_count){ .cpus = r->cpus[r->done] };
		ctl.n = r->cpus[r->done];
		if (!run_rounds(env, &s, r->rounds, c))
			break;
		summarize(r->rounds, c);
	}
	ctl.n = ctl.posted;
	tear_down(&s);		/* what was mapped, even after a failure */
}

/* @nr folios of @leaf bytes at @va, @rounds rounds at each CPU count: measured, reported. */
static void run_set(const struct bench_env *env, u64 leaf, unsigned int nr, u64 va,
		    unsigned int rounds)
{
	static struct mig_size r;

	r = (struct mig_size){ .leaf = leaf, .nr = nr, .rounds = rounds };
	measure(env, &r, va);
	mig_out_size(env, &r);
}

/* A size not measured, and why: a failure when the run promised it (@fail). */
static void skip_set(const struct bench_env *env, u64 leaf, const char *why, bool fail)
{
	static struct mig_size r;

	r = (struct mig_size){ .leaf = leaf, .fail = fail };
	ck_snprintf(r.why, sizeof(r.why), "%s", why);
	mig_out_size(env, &r);
}

/* Post a worker on every other online CPU; ctl.posted CPUs take part at most. */
static void post_workers(const struct bench_env *env)
{
	ctl.gen = 0;
	ctl.posted = ctl.n;
	for (unsigned int i = 1; i < ctl.n; i++) {
		ctl.done[i] = 0;
		if (on_cpu_async(online[i], worker, (void *)(uintptr_t)i)) {
			bench_failf(env, "migrate: CPU %u is busy: it cannot take part", online[i]);
			ctl.posted = i;	/* the workers posted so far still take their commands */
			break;
		}
	}
	ctl.n = ctl.posted;
}

/*
 * 1 GiB leaves, one folio. With bench_migrate_size=1g they are promised: a CPU without them
 * or too little memory fails the preset. With all they are promised where the CPU has them,
 * unless the run is at test sizes; where it has none, that is said and recorded.
 */
static void run_1g(const struct bench_env *env, const struct bench_image_opts *opts,
		   unsigned int runs)
{
	bool promised = opts->migrate_size == MIGRATE_SIZE_1G;

	if (!pg_gbpages())
		skip_set(env, SZ_1G, "the CPU has no 1 GiB pages (CPUID X86_FEATURE_GBPAGES, "
			 "pdpe1gb, is clear)", promised);
	else if (opts->tiny && !promised)
		skip_set(env, SZ_1G, "not at test sizes (bench_tiny=yes; bench_migrate_size=1g "
			 "measures it)", false);
	else
		run_set(env, SZ_1G, 1, PG_SPACE_BASE + 2 * SZ_1G, MIN(runs, MIG_1G_ROUNDS));
}

/* The sizes bench_migrate_size= names, smallest first; all: 1 GiB where it can be. */
static void run_sizes(const struct bench_env *env, const struct bench_image_opts *opts,
		      unsigned int runs)
{
	enum bench_migrate_size m = opts->migrate_size;

	if (m == MIGRATE_SIZE_ALL || m == MIGRATE_SIZE_4K)
		run_set(env, SZ_4K, opts->tiny ? 64 : 512, PG_SPACE_BASE, runs);
	if (m == MIGRATE_SIZE_ALL || m == MIGRATE_SIZE_2M)
		run_set(env, SZ_2M, opts->tiny ? 1 : 32, PG_SPACE_BASE + SZ_1G, runs);
	if (m == MIGRATE_SIZE_ALL || m == MIGRATE_SIZE_1G)
		run_1g(env, opts, runs);
}

void bench_image_migrate(const struct bench_image_opts *opts)
{
	struct bench_env env;
	struct bench_platform plat;
	unsigned int n = 0, self = smp_processor_id(), cnt[MIG_MAX_COUNTS], k;
	unsigned int runs = MIN(opts->runs ? opts->runs : 30, MIG_MAX_ROUNDS);

	bench_image_env(&env, &plat, &opts->caps);
	online[n++] = self;
	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		if (c != self && cpu_online(c) && n < MIG_MAX_CPUS)
			online[n++] = c;
	printk("\n== preset migrate ==\n");
	ctl.n = n;
	post_workers(&env);
	k = mig_cpu_counts(ctl.posted, cnt, MIG_MAX_COUNTS);
	mig_out_intro(&env, n, cnt, k, runs, cpu()->hypervisor);
	run_sizes(&env, opts, runs);
	command(CMD_EXIT);
	for (unsigned int i = 1; i < ctl.posted; i++)
		on_cpu_wait(online[i], MIG_CMD_MS);
}
