// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_out.c - the `migrate` preset's report (bench/migrate_out.h): what it is about to
 * do, then per folio size the table, JSON lines and LAVA lines of what bench/migrate.c
 * measured. Times are medians over the rounds of one CPU count, in ns.
 */
#include "bench/migrate_out.h"
#include "kernel/arch/paging.h"
#include "kernel/console/printk.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"

static void fmt_pm(char *buf, size_t size, u32 pm, unsigned int unit)
{
	if (unit == 10)
		ck_snprintf(buf, size, "%u.%u", pm / 10, pm % 10);
	else
		ck_snprintf(buf, size, "%u.%03u", pm / 1000, pm % 1000);
}

static void mig_out_head(const struct bench_env *env, u64 leaf, unsigned int nr,
			 unsigned int rounds)
{
	char size[16];

	bench_fmt_size(leaf, size, sizeof(size));
	bench_outf(env, "bench: migrate: %s folios x%u, %u rounds at each CPU count; medians in "
		   "ns", size, nr, rounds);
	bench_outf(env, "  %4s %-13s %-8s %10s %10s %10s %10s %10s %6s", "cpus", "fn", "copy",
		   "unmap", "shootdown", "copy", "remap", "total", "copy%");
}

static void record(const struct bench_env *env, u64 leaf, unsigned int nr,
		   const struct mig_count *c, int f)
{
	const struct mig_row *r = &c->row[f];
	struct json_writer w;
	char buf[640];

	json_record(&w, buf, sizeof(buf), "migrate");
	json_str(&w, "machine", env->machine);
	json_u64(&w, "folio_bytes", leaf);
	json_u64(&w, "folios", nr);
	json_str(&w, "fn", mig_copy_fn[f]);
	json_str(&w, "copy", mig_copy_form[f]);
	json_u64(&w, "cpus", c->cpus);
	json_u64(&w, "rounds", c->rounds);
	for (int p = 0; p < MIG_NR_PHASES; p++) {
		char key[24];

		ck_snprintf(key, sizeof(key), "%s_ns", mig_phase_names[p]);
		json_u64(&w, key, r->med[p]);
	}
	json_u64(&w, "total_ns", r->total);
	json_fixed(&w, "copy_share", mig_share_pm(r->med, MIG_COPY), 3);
	json_u64(&w, "shootdowns", r->shootdowns);
	json_u64(&w, "acks", r->acks);
	json_u64(&w, "verified", r->verified);
	if (json_end(&w) > 0)
		env->out(buf);
}

/* Amdahl and the round ratio of one function's batched form against its per-page one. */
static void gain_lines(const struct bench_env *env, const char *size, const struct mig_count *c,
		       int fn)
{
	const struct mig_row *pp = &c->row[2 * fn], *b = &c->row[2 * fn + 1];
	const struct ratio *r = &c->ratio[fn];
	char s[4][16];
	struct mig_amdahl am;

	mig_amdahl(pp->med, pp->total, b->med, b->total, &am);
	fmt_pm(s[0], 16, am.copy_share_pm, 10);
	fmt_pm(s[1], 16, am.copy_speedup_pm, 1000);
	fmt_pm(s[2], 16, am.predicted_pm, 1000);
	fmt_pm(s[3], 16, am.measured_pm, 1000);
	bench_outf(env, "bench: migrate: %s cpus=%u: %s Amdahl: copy share %s%% x copy speed-up "
		   "%sx predicts %sx end to end; measured %sx", size, c->cpus,
		   mig_copy_fn[2 * fn], s[0], s[1], s[2], s[3]);
	if (!c->have_ratio[fn])
		return;
	fmt_pm(s[0], 16, r->ratio_pm, 1000);
	fmt_pm(s[1], 16, r->lo_pm, 1000);
	fmt_pm(s[2], 16, r->hi_pm, 1000);
	bench_outf(env, "bench: migrate: %s cpus=%u: %s batched vs per-page, median of round "
		   "ratios %sx [%s, %s]", size, c->cpus, mig_copy_fn[2 * fn], s[0], s[1], s[2]);
}

static void mig_out_count(const struct bench_env *env, u64 leaf, unsigned int nr,
			  const struct mig_count *c)
{
	u64 sd = 0, acks = 0, ver = 0;
	char size[16], slug[16];

	bench_fmt_size(leaf, size, sizeof(size));
	for (int f = 0; f < MIG_NR_COPIES; f++) {
		const struct mig_row *r = &c->row[f];
		u32 sh = mig_share_pm(r->med, MIG_COPY);

		bench_outf(env, "  %4u %-13s %-8s %10llu %10llu %10llu %10llu %10llu %4u.%u",
			   c->cpus, mig_copy_fn[f], mig_copy_form[f],
			   (unsigned long long)r->med[0], (unsigned long long)r->med[1],
			   (unsigned long long)r->med[2], (unsigned long long)r->med[3],
			   (unsigned long long)r->total, sh / 10, sh % 10);
		record(env, leaf, nr, c, f);
		sd += r->shootdowns;
		acks += r->acks;
		ver += r->verified;
	}
	bench_outf(env, "bench: migrate: %s cpus=%u: verified: %llu migrations, after each all "
		   "%u CPU%s read the copied data through the remapped addresses", size, c->cpus,
		   (unsigned long long)ver, c->cpus, c->cpus == 1 ? "" : "s");
	bench_outf(env, "bench: migrate: %s cpus=%u: shootdowns: %llu, acknowledgements %llu "
		   "(%u CPU%s each)", size, c->cpus, (unsigned long long)sd,
		   (unsigned long long)acks, c->cpus, c->cpus == 1 ? "" : "s");
	gain_lines(env, size, c, 0);
	gain_lines(env, size, c, 1);
	ck_slug(slug, sizeof(slug), size);
	for (int f = 0; f < MIG_NR_COPIES; f++)
		bench_outf(env, "# ck-lava <bench.migrate.%s.cpus%u.%s.%s pass %llu ns>", slug,
			   c->cpus, mig_copy_fn[f], mig_copy_form[f],
			   (unsigned long long)c->row[f].total);
}

/* One summary row: what the shootdown and the copy are of a per-page folio_copy migration. */
static void sweep_row(const struct bench_env *env, u64 leaf, const struct mig_count *c)
{
	const struct mig_row *pp = &c->row[MIG_FC_PER_PAGE];
	struct mig_amdahl am[2];
	char s[6][16], buf[512];
	struct json_writer w;

	for (int fn = 0; fn < 2; fn++)
		mig_amdahl(c->row[2 * fn].med, c->row[2 * fn].total, c->row[2 * fn + 1].med,
			   c->row[2 * fn + 1].total, &am[fn]);
	fmt_pm(s[0], 16, mig_share_pm(pp->med, MIG_SHOOTDOWN), 10);
	fmt_pm(s[1], 16, am[0].copy_share_pm, 10);
	fmt_pm(s[2], 16, am[0].predicted_pm, 1000);
	fmt_pm(s[3], 16, am[0].measured_pm, 1000);
	fmt_pm(s[4], 16, am[1].predicted_pm, 1000);
	fmt_pm(s[5], 16, am[1].measured_pm, 1000);
	bench_outf(env, "  %4u %10llu %6s%% %6s%% %8sx %8sx %8sx %8sx", c->cpus,
		   (unsigned long long)pp->med[MIG_SHOOTDOWN], s[0], s[1], s[2], s[3], s[4], s[5]);
	json_record(&w, buf, sizeof(buf), "migrate-sweep");
	json_str(&w, "machine", env->machine);
	json_u64(&w, "folio_bytes", leaf);
	json_u64(&w, "cpus", c->cpus);
	json_u64(&w, "shootdown_ns", pp->med[MIG_SHOOTDOWN]);
	json_fixed(&w, "shootdown_share", mig_share_pm(pp->med, MIG_SHOOTDOWN), 3);
	json_fixed(&w, "copy_share", am[0].copy_share_pm, 3);
	json_fixed(&w, "folio_copy_predicted", am[0].predicted_pm, 3);
	json_fixed(&w, "folio_copy_measured", am[0].measured_pm, 3);
	json_fixed(&w, "folio_mc_copy_predicted", am[1].predicted_pm, 3);
	json_fixed(&w, "folio_mc_copy_measured", am[1].measured_pm, 3);
	if (json_end(&w) > 0)
		env->out(buf);
}

static void mig_out_sweep(const struct bench_env *env, u64 leaf, const struct mig_count *c,
			  unsigned int k)
{
	char size[16];

	bench_fmt_size(leaf, size, sizeof(size));
	bench_outf(env, "bench: migrate: %s over CPU counts, one row each: per-page folio_copy's "
		   "shootdown (ns, share) and copy share; batched over per-page end to end, "
		   "predicted by Amdahl and measured", size);
	bench_outf(env, "  %4s %10s %7s %7s %9s %9s %9s %9s", "cpus", "shootdown", "sd%", "copy%",
		   "fc pred", "fc meas", "mc pred", "mc meas");
	for (unsigned int i = 0; i < k; i++)
		sweep_row(env, leaf, &c[i]);
}

static void mig_out_not_measured(const struct bench_env *env, u64 leaf, const char *why,
				 bool fail)
{
	struct json_writer w;
	char size[16], slug[16], buf[512];

	bench_fmt_size(leaf, size, sizeof(size));
	if (fail)
		bench_failf(env, "migrate: %s folios not measured: %s", size, why);
	else
		bench_outf(env, "bench: migrate: %s folios not measured: %s", size, why);
	json_record(&w, buf, sizeof(buf), "migrate-not-measured");
	json_str(&w, "machine", env->machine);
	json_u64(&w, "folio_bytes", leaf);
	json_str(&w, "why", why);
	json_bool(&w, "failed", fail);
	if (json_end(&w) > 0)
		env->out(buf);
	ck_slug(slug, sizeof(slug), size);
	bench_outf(env, "# ck-lava <bench.migrate.%s %s>", slug, fail ? "fail" : "skip");
}

/* Seed 000 (the RFC, Zen 5), 2 MiB folios: folio_copy's gain and move_pages()' gain. */
static void seed_line(const struct bench_env *env, u32 copy_pm, u32 move_pm, const char *dir)
{
	u32 s = mig_share_for_pm(copy_pm, move_pm);

	bench_outf(env, "bench: migrate: seed 000 %s 2M: folio_copy %u.%02ux, move_pages "
		   "%u.%02ux: by Amdahl the copy was %u.%u%% of the migration", dir,
		   copy_pm / 1000, copy_pm % 1000 / 10, move_pm / 1000, move_pm % 1000 / 10,
		   s / 10, s % 10);
}

static void mig_out_seeds(const struct bench_env *env)
{
	seed_line(env, 2010, 1110, "DRAM0->DRAM1");
	seed_line(env, 1440, 1180, "DRAM0->CXL");
}

void mig_out_intro(const struct bench_env *env, unsigned int online, const unsigned int *cnt,
		   unsigned int k, unsigned int rounds, bool hypervisor)
{
	printk("bench: migrate: %u online CPU%s; at each count of", online,
	       online == 1 ? "" : "s");
	for (unsigned int i = 0; i < k; i++)
		printk("%s %u", i ? "," : "", cnt[i]);
	printk(" they read every folio through the test address space at %#llx; folio_copy and "
	       "folio_mc_copy, per page and batched, alternate, %u rounds\n",
	       (unsigned long long)PG_SPACE_BASE, rounds);
	printk("bench: migrate: the sequence of Linux's migrate_pages() on a batch: unmap each "
	       "folio (try_to_migrate), one TLB shootdown by IPI to the CPUs using it "
	       "(try_to_unmap_flush), copy (move_to_new_folio), remap (remove_migration_ptes); "
	       "no shootdown after the remap\n");
	mig_out_seeds(env);
	printk("bench: migrate: hosted (the kernel's munmap and mmap, not these phases): "
	       "ck-bench --preset migrate\n");
	if (hypervisor)
		printk("bench: migrate: under a hypervisor (QEMU TCG included) the times say "
		       "nothing about hardware; the verification and the acknowledgements do\n");
}

void mig_out_size(const struct bench_env *env, const struct mig_size *s)
{
	char size[16], slug[16];

	if (!s->measured) {
		if (s->why[0])
			mig_out_not_measured(env, s->leaf, s->why, s->fail);
		return;
	}
	mig_out_head(env, s->leaf, s->nr, s->rounds);
	for (unsigned int i = 0; i < s->done; i++)
		mig_out_count(env, s->leaf, s->nr, &s->count[i]);
	if (s->done == s->k) {
		mig_out_sweep(env, s->leaf, s->count, s->k);
		return;
	}
	bench_fmt_size(s->leaf, size, sizeof(size));
	ck_slug(slug, sizeof(slug), size);
	bench_outf(env, "bench: migrate: %s stopped at %u CPUs", size, s->cpus[s->done]);
	bench_outf(env, "# ck-lava <bench.migrate.%s fail>", slug);
}
