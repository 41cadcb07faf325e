// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate.c - the `migrate` preset: page migration end to end on every online CPU, to see
 * how much of a migration the copy is and so how a faster folio_copy shows in move_pages.
 *
 * Folios of one size (4 KiB or 2 MiB leaves) are mapped in the test address space
 * (kernel/arch/paging.h, apart from the identity map) and read by every online CPU, so each
 * CPU's TLB holds their entries. The CPUs other than this one stay in one posted function
 * (a worker) for the whole preset, taking interrupts between commands (smp_tlb_window()):
 * no CR3 reload between functions hides a missed shootdown. One migration of the batch is
 * Linux's migrate_pages() on a batch of folios: try_to_migrate() clears each folio's entry
 * and defers the flush (one shootdown for the batch, try_to_unmap_flush()),
 * move_to_new_folio() copies each folio, remove_migration_ptes() maps the new ones. A
 * not-present entry is not cached, so the remap needs no second shootdown. Each phase is
 * timed, with the copy per page (folio_copy before the seeds) or batched, in alternating
 * order; after each migration (not timed) the old pages are overwritten and every CPU reads
 * the whole batch through the remapped addresses, so a CPU that kept a stale entry reads the
 * overwritten page and fails the preset, as does a CPU that does not acknowledge a shootdown.
 *
 * Not built: 1 GiB leaves, the sweep over 1..N CPUs, the hosted form (the preset says so).
 */
#include "bench/harness.h"
#include "bench/image.h"
#include "bench/migrate.h"
#include "bench/migrate_calc.h"
#include "bench/presets.h"
#include "bench/stats.h"
#include "copy/pages.h"
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"
#include "kernel/lib/string.h"
#include "kernel/platform/cpu.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"

#define MIG_MAX_CPUS	64
#define MIG_MAX_ROUNDS	200
#define MIG_ACK_US	1000000		/* a CPU must acknowledge a shootdown within 1 s */
#define MIG_CMD_MS	60000		/* a worker's command (reading the batch) */
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
	volatile u32 done[MIG_MAX_CPUS];
	u64 bad[MIG_MAX_CPUS], bad_va[MIG_MAX_CPUS], bad_val[MIG_MAX_CPUS];
} ctl;

static unsigned int online[MIG_MAX_CPUS];
static struct mig_round rounds[2][MIG_MAX_ROUNDS];
static u64 scratch[MIG_MAX_ROUNDS], totals[2][MIG_MAX_ROUNDS];

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
		u64 end = smp_now_us() + (u64)MIG_CMD_MS * 1000;
		u32 gen;

		while ((gen = __atomic_load_n(&ctl.gen, __ATOMIC_ACQUIRE)) == seen) {
			if (smp_now_us() > end)
				return;		/* the initiator is gone: leave */
			smp_tlb_window();
		}
		seen = gen;
		if (ctl.cmd == CMD_EXIT)
			return;
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

struct mig_acct {
	u64 shootdowns, acks, migrations, verified;
	bool failed;
};

/* One migration of the whole batch to the other area, timed per phase. */
static bool migrate_once(const struct bench_env *env, struct mig_set *s, bool batched,
			 struct mig_round *r, struct mig_acct *a)
{
	u64 from = s->area[s->cur], to = s->area[!s->cur], t[5], pa;
	struct smp_tlb_result tr;
	bool ok = true;

	t[0] = now_ns();
	for (unsigned int f = 0; f < s->nr; f++)
		if (pg_space_unmap(s->va + f * s->leaf, s->leaf, &pa) || pa != from + f * s->leaf)
			ok = false;
	t[1] = now_ns();
	smp_flush_tlb_range(s->va, (u64)s->nr * s->leaf, s->leaf, MIG_ACK_US, &tr);
	t[2] = now_ns();
	for (unsigned int f = 0; f < s->nr; f++) {
		struct folio src, dst;

		if (!folio_at(from + f * s->leaf, s->leaf, &src) ||
		    !folio_at(to + f * s->leaf, s->leaf, &dst)) {
			ok = false;
			continue;
		}
		if (batched)
			folio_copy_batched(&dst, &src);
		else
			folio_copy_per_page(&dst, &src);
	}
	t[3] = now_ns();
	for (unsigned int f = 0; f < s->nr; f++)
		if (pg_space_map(s->va + f * s->leaf, to + f * s->leaf, s->leaf, PG_RAM))
			ok = false;
	t[4] = now_ns();
	for (int p = 0; p < MIG_NR_PHASES; p++)
		r->ns[p] = t[p + 1] - t[p];
	s->cur = !s->cur;
	a->shootdowns++;
	a->acks += tr.acked;
	a->migrations++;
	if (!ok)
		bench_failf(env, "migrate: the test address space refused an unmap or a map");
	for (unsigned int i = 0; i < tr.nr_missing && i < SMP_TLB_MAX_NAMED; i++)
		bench_failf(env, "migrate: CPU %u did not acknowledge the TLB shootdown within "
			    "%u ms", tr.missing[i], MIG_ACK_US / 1000);
	return ok && !tr.nr_missing;
}

/* Not timed: the old pages overwritten, then every CPU reads the batch where it now is. */
static bool verify(const struct bench_env *env, const struct mig_set *s, struct mig_acct *a)
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

/* Map the batch from area 0, filled through the identity map, and let every CPU touch it. */
static bool set_up(const struct bench_env *env, struct mig_set *s)
{
	u64 bytes = (u64)s->nr * s->leaf;
	u64 *p;

	for (int i = 0; i < 2; i++) {
		s->area[i] = (u64)(uintptr_t)bench_image_alloc(bytes);
		if (!s->area[i]) {
			bench_failf(env, "migrate: no memory for %u folios of %llu KiB", s->nr,
				    (unsigned long long)s->leaf >> 10);
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

/* @n rounds, per-page and batched alternating AB, BA; false at the first failure. */
static bool run_rounds(const struct bench_env *env, struct mig_set *s, unsigned int n,
		       struct mig_acct *a)
{
	if (command(CMD_TOUCH)) {
		bench_failf(env, "migrate: a CPU did not read the batch");
		return false;
	}
	for (unsigned int i = 0; i < n; i++) {
		for (int k = 0; k < 2; k++) {
			bool batched = (i & 1) ? !k : k;

			if (!migrate_once(env, s, batched, &rounds[batched][i], a) ||
			    !verify(env, s, a))
				return false;
			totals[batched][i] = mig_total(rounds[batched][i].ns);
		}
	}
	return true;
}

static const char *const mode_names[2] = { "per_page", "batched" };

static void record(const struct bench_env *env, const struct mig_set *s, int m,
		   const u64 med[MIG_NR_PHASES], u64 total, unsigned int n)
{
	char buf[512];
	struct json_writer w;

	json_record(&w, buf, sizeof(buf), "migrate");
	json_str(&w, "machine", env->machine);
	json_u64(&w, "folio_bytes", s->leaf);
	json_u64(&w, "folios", s->nr);
	json_str(&w, "copy", mode_names[m]);
	json_u64(&w, "cpus", ctl.n);
	json_u64(&w, "rounds", n);
	for (int p = 0; p < MIG_NR_PHASES; p++) {
		char key[24];

		ck_snprintf(key, sizeof(key), "%s_ns", mig_phase_names[p]);
		json_u64(&w, key, med[p]);
	}
	json_u64(&w, "total_ns", total);
	json_fixed(&w, "copy_share", mig_share_pm(med, MIG_COPY), 3);
	if (json_end(&w) > 0)
		env->out(buf);
}

static void report(const struct bench_env *env, const struct mig_set *s, unsigned int n,
		   const struct mig_acct *a)
{
	u64 med[2][MIG_NR_PHASES], tot[2];
	struct mig_amdahl am;
	struct ratio r;
	char size[16];

	bench_fmt_size(s->leaf, size, sizeof(size));
	bench_outf(env, "bench: migrate: %s folios x%u, %u CPU%s, %u rounds; medians in ns",
		   size, s->nr, ctl.n, ctl.n == 1 ? "" : "s", n);
	bench_outf(env, "  %-9s %10s %10s %10s %10s %10s %7s", "copy", "unmap", "shootdown",
		   "copy", "remap", "total", "copy%");
	for (int m = 0; m < 2; m++) {
		u32 sh;

		mig_medians(rounds[m], n, scratch, med[m], &tot[m]);
		sh = mig_share_pm(med[m], MIG_COPY);
		bench_outf(env, "  %-9s %10llu %10llu %10llu %10llu %10llu %5u.%u", mode_names[m],
			   (unsigned long long)med[m][0], (unsigned long long)med[m][1],
			   (unsigned long long)med[m][2], (unsigned long long)med[m][3],
			   (unsigned long long)tot[m], sh / 10, sh % 10);
		record(env, s, m, med[m], tot[m], n);
	}
	mig_amdahl(med[0], tot[0], med[1], tot[1], &am);
	bench_outf(env, "bench: migrate: %s Amdahl: copy share %u.%u%% x copy speed-up %u.%03ux "
		   "predicts %u.%03ux end to end; measured %u.%03ux", size,
		   am.copy_share_pm / 10, am.copy_share_pm % 10, am.copy_speedup_pm / 1000,
		   am.copy_speedup_pm % 1000, am.predicted_pm / 1000, am.predicted_pm % 1000,
		   am.measured_pm / 1000, am.measured_pm % 1000);
	if (stats_round_ratio(totals[0], totals[1], n, 1000, STATS_SEED, &r))
		bench_outf(env, "bench: migrate: %s batched vs per-page, median of round ratios "
			   "%u.%03ux [%u.%03u, %u.%03u]", size, r.ratio_pm / 1000,
			   r.ratio_pm % 1000, r.lo_pm / 1000, r.lo_pm % 1000, r.hi_pm / 1000,
			   r.hi_pm % 1000);
	bench_outf(env, "bench: migrate: %s verified: %llu migrations, after each all %u CPU%s "
		   "read the copied data through the remapped addresses", size,
		   (unsigned long long)a->verified, ctl.n, ctl.n == 1 ? "" : "s");
	bench_outf(env, "bench: migrate: %s shootdowns: %llu, acknowledgements %llu (%u CPU%s "
		   "each)", size, (unsigned long long)a->shootdowns, (unsigned long long)a->acks,
		   ctl.n, ctl.n == 1 ? "" : "s");
	bench_outf(env, "# ck-lava <bench.migrate.%s.per_page pass %llu ns>", size,
		   (unsigned long long)tot[0]);
	bench_outf(env, "# ck-lava <bench.migrate.%s.batched pass %llu ns>", size,
		   (unsigned long long)tot[1]);
	bench_outf(env, "# ck-lava <bench.migrate.%s.copy_share pass %u pm>", size,
		   am.copy_share_pm);
}

/* One folio size: set up, the rounds, the report; the batch unmapped again at the end. */
static void run_set(const struct bench_env *env, u64 leaf, unsigned int nr, u64 va,
		    unsigned int n)
{
	static struct mig_set s;
	struct mig_acct a = { 0 };
	char size[16];

	s = (struct mig_set){ .leaf = leaf, .nr = nr, .va = va };
	bench_fmt_size(leaf, size, sizeof(size));
	if (set_up(env, &s) && run_rounds(env, &s, n, &a))
		report(env, &s, n, &a);
	else
		bench_outf(env, "# ck-lava <bench.migrate.%s fail>", size);
	tear_down(&s);		/* what was mapped, even after a failure */
}

/* Seed 000 (the RFC, Zen 5), 2 MiB folios: folio_copy's gain and move_pages()' gain. */
static void seed_line(u32 copy_pm, u32 move_pm, const char *dir)
{
	u32 s = mig_share_for_pm(copy_pm, move_pm);

	printk("bench: migrate: seed 000 %s 2M: folio_copy %u.%02ux, move_pages %u.%02ux: by "
	       "Amdahl the copy was %u.%u%% of the migration\n", dir, copy_pm / 1000,
	       copy_pm % 1000 / 10, move_pm / 1000, move_pm % 1000 / 10, s / 10, s % 10);
}

void bench_image_migrate(const struct bench_image_opts *opts)
{
	struct bench_env env;
	struct bench_platform plat;
	unsigned int n = 0, self = smp_processor_id();
	unsigned int runs = MIN(opts->runs ? opts->runs : 30, MIG_MAX_ROUNDS);

	bench_image_env(&env, &plat, &opts->caps);
	online[n++] = self;
	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		if (c != self && cpu_online(c) && n < MIG_MAX_CPUS)
			online[n++] = c;
	printk("\n== preset migrate ==\n");
	printk("bench: migrate: %u online CPU%s read every folio through the test address space "
	       "at %#llx; per-page and batched folio_copy alternate, %u rounds\n", n,
	       n == 1 ? "" : "s", (unsigned long long)PG_SPACE_BASE, runs);
	printk("bench: migrate: the sequence of Linux's migrate_pages() on a batch: unmap each "
	       "folio (try_to_migrate), one TLB shootdown by IPI (try_to_unmap_flush), copy "
	       "(move_to_new_folio), remap (remove_migration_ptes); no shootdown after the remap"
	       "\n");
	seed_line(2010, 1110, "DRAM0->DRAM1");
	seed_line(1440, 1180, "DRAM0->CXL");
	printk("bench: migrate: not built: 1 GiB leaves, the sweep over 1..N CPUs, the hosted "
	       "form\n");
	if (cpu()->hypervisor)
		printk("bench: migrate: under a hypervisor (QEMU TCG included) the times say "
		       "nothing about hardware; the verification and the acknowledgements do\n");
	ctl.n = n;
	ctl.gen = 0;
	for (unsigned int i = 1; i < n; i++) {
		ctl.done[i] = 0;
		if (on_cpu_async(online[i], worker, (void *)(uintptr_t)i)) {
			bench_failf(&env, "migrate: CPU %u is busy: it cannot take part", online[i]);
			ctl.n = i;	/* the workers posted so far still take their commands */
			break;
		}
	}
	run_set(&env, SZ_4K, opts->tiny ? 64 : 512, PG_SPACE_BASE, runs);
	run_set(&env, SZ_2M, opts->tiny ? 4 : 32, PG_SPACE_BASE + SZ_1G, runs);
	command(CMD_EXIT);
	for (unsigned int i = 1; i < ctl.n; i++)
		on_cpu_wait(online[i], MIG_CMD_MS);
}
