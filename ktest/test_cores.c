// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cores.c - the cores suite: cores that compute or copy wrongly. Every online CPU runs
 * the same seeded kernel at once (cores/: copy primitives, CRC32C by instruction, an integer
 * multiply/divide chain, SSE2 and AVX2 integer chains), each in its own buffers, and returns
 * a digest; the digests are put to the vote against the known answer (cores/vote.h). One
 * case per kernel, with one KTAP parameter per CPU (ok when that CPU is not named) and one
 * JSON record (cores/record.h); a CPU whose own CPUID lacks what a kernel needs skips it, and
 * the case says which and why. A CPU the vote names replays the seed beside one that did
 * not. Then the copy pairs: each CPU checks the copy the CPU before it wrote, a third CPU
 * deciding between writer and checker. cores= (t->ctx->cores) picks the seed, the rounds and
 * the families. docs/user/cores.md is the reader's page.
 */
#include "cores/k_copy.h"
#include "cores/list.h"
#include "cores/opts.h"
#include "cores/record.h"
#include "cores/vote.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/percpu.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/platform/smp.h"
#include "kernel/platform/tsc.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

struct cores_slot {
	u64 digest;
	u64 ticks;		/* the kernel's run on this CPU, TSC ticks */
	const char *why_not;	/* this CPU cannot run the kernel: why (its own CPUID) */
	bool done;
};

/* Every CPU the same seed (cores=seed:), so the same data and the same digests. */
struct cores_job {
	const struct cores_kernel *k;
	u64 seed;
	unsigned int rounds;	/* seeds seed .. seed + rounds - 1, folded */
};

static struct cores_slot slots[NR_CPUS];
static u64 digests[NR_CPUS], scratch[NR_CPUS];
static unsigned int voter_cpu[NR_CPUS];
static u8 *areas;
static unsigned int nr_ran, nr_skipped;
static u64 first_us;		/* when the first kernel started (smp_now_us) */

static void run_here(void *arg)
{
	const struct cores_job *j = arg;
	unsigned int c = this_cpu()->cpu;
	struct cores_slot *s = &slots[c];
	struct cores_area a = { areas + (u64)c * 2 * CORES_BUF,
				areas + (u64)c * 2 * CORES_BUF + CORES_BUF };
	u64 t0;

	s->why_not = j->k->cannot ? j->k->cannot(j->k) : NULL;
	if (!s->why_not) {
		u64 d = CORES_FOLD_INIT;

		t0 = rdtsc();
		for (unsigned int r = 0; r < j->rounds; r++)
			d = cores_fold(d, j->k->run(j->k, &a, j->seed + r));
		s->digest = d;
		s->ticks = rdtsc() - t0;
	}
	__atomic_store_n(&s->done, true, __ATOMIC_RELEASE);
}

static bool have_areas(struct ck_test *t)
{
	if (!areas)
		areas = (u8 *)(uintptr_t)bootmem_alloc((u64)smp_nr_cpus() * 2 * CORES_BUF, SZ_4K);
	if (!areas)
		report(t, false, "no memory for %u CPUs' buffers (%u bytes each)", smp_nr_cpus(),
		       2 * CORES_BUF);
	return areas != NULL;
}

/* Run @k on every online CPU at once; the voters' digests in digests[], their CPUs. */
static unsigned int run_everywhere(struct ck_test *t, const struct cores_job *j,
				   const char **why_not, unsigned int *nr_skipped_cpus)
{
	unsigned int n = 0, skipped = 0, late;
	u32 timeout = MAX(30000U, 200U * smp_nr_online());

	for (unsigned int c = 0; c < smp_nr_cpus(); c++)
		slots[c] = (struct cores_slot){ 0 };
	late = on_each_cpu(run_here, (void *)j, timeout);
	report(t, late == 0, "%s: %u CPUs did not finish within %u ms", j->k->name, late,
	       timeout);
	*why_not = NULL;
	for (unsigned int c = 0; c < smp_nr_cpus(); c++) {
		const struct cores_slot *s = &slots[c];

		if (!cpu_online(c))
			continue;
		if (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
			report(t, false, "%s: CPU %u (APIC id %u) did not finish", j->k->name, c,
			       smp_cpu(c)->apic_id);
		} else if (s->why_not) {
			if (!skipped++)
				*why_not = s->why_not;
			if (skipped <= 4)
				ck_diag("%s: CPU %u (APIC id %u) skips it: %s", j->k->name, c,
					smp_cpu(c)->apic_id, s->why_not);
		} else {
			voter_cpu[n] = c;
			digests[n++] = s->digest;
		}
	}
	if (skipped && n)
		ck_diag("%s: %u CPUs skip it, %u run it: the CPUs differ", j->k->name, skipped, n);
	*nr_skipped_cpus = skipped;
	return n;
}

static void say_verdict(struct ck_test *t, const struct cores_kernel *k,
			const struct cores_vote *v, u64 known)
{
	switch (v->cls) {
	case CORES_AGREE:
		ck_diag("%s: all %u CPUs agree with the known answer 0x%016llx", k->name, v->n,
			(unsigned long long)known);
		break;
	case CORES_MINORITY:
		for (unsigned int i = 0; i < MIN(v->nr_named, (unsigned int)CORES_MAX_NAMED); i++) {
			unsigned int c = voter_cpu[v->named[i]];

			report(t, false, "cores: kernel %s: CPU %u (APIC id %u) in the minority: "
			       "digest 0x%016llx; %u of %u CPUs and the known answer give 0x%016llx",
			       k->name, c, smp_cpu(c)->apic_id,
			       (unsigned long long)digests[v->named[i]], v->nr_known, v->n,
			       (unsigned long long)known);
		}
		if (v->nr_named > CORES_MAX_NAMED)
			report(t, false, "cores: kernel %s: %u more CPUs in the minority", k->name,
			       v->nr_named - CORES_MAX_NAMED);
		break;
	case CORES_REF_WRONG:
		report(t, false, "cores: kernel %s: all %u CPUs agree on 0x%016llx against the "
		       "known answer 0x%016llx: the reference or the code is wrong, no core blamed",
		       k->name, v->n, (unsigned long long)v->top, (unsigned long long)known);
		break;
	case CORES_DISPUTED:
		report(t, false, "cores: kernel %s: %u of %u CPUs agree on 0x%016llx, %u give the "
		       "known answer 0x%016llx: disputed, no core named (the reference, the code "
		       "or several cores are wrong)", k->name, v->nr_top, v->n,
		       (unsigned long long)v->top, v->nr_known, (unsigned long long)known);
		break;
	default:
		break;
	}
}

/*
 * One KTAP parameter per CPU that ran @k: ok unless the vote names it (in the minority every
 * CPU without the known answer is named; the other classes name none).
 */
static void cpu_params(struct ck_test *t, const struct cores_kernel *k,
		       const struct cores_vote *v, unsigned int n, u64 known)
{
	char name[48];

	ck_params_begin(t, k->name, n);
	for (unsigned int i = 0; i < n; i++) {
		unsigned int c = voter_cpu[i];
		bool blamed = v->cls == CORES_MINORITY && digests[i] != known;

		ck_snprintf(name, sizeof(name), "cpu%u_apic%u", c, smp_cpu(c)->apic_id);
		ck_param_result(t, i + 1, !blamed, name);
	}
}

#define REPLAY_RUNS	10

struct replay_job {
	const struct cores_job *j;
	u64 known;
	unsigned int wrong;
	u64 first_wrong_us;
};

/* The kernel again, REPLAY_RUNS times on this CPU alone, against the known answer. */
static void replay_here(void *arg)
{
	struct replay_job *r = arg;
	unsigned int c = this_cpu()->cpu;
	struct cores_area a = { areas + (u64)c * 2 * CORES_BUF,
				areas + (u64)c * 2 * CORES_BUF + CORES_BUF };
	u64 t0 = smp_now_us();

	for (unsigned int i = 0; i < REPLAY_RUNS; i++) {
		u64 d = CORES_FOLD_INIT;

		for (unsigned int k = 0; k < r->j->rounds; k++)
			d = cores_fold(d, r->j->k->run(r->j->k, &a, r->j->seed + k));
		if (d != r->known && !r->wrong++)
			r->first_wrong_us = smp_now_us() - t0;
	}
}

/*
 * Isolate before blaming: the first CPU the vote named replays the seed, and so does the
 * last CPU that gave the known answer (numbered furthest from it, as MADT order goes).
 */
static void replay(struct ck_test *t, const struct cores_job *j, const struct cores_vote *v,
		   u64 known, struct cores_replay *out)
{
	struct replay_job mine = { j, known, 0, 0 }, theirs = { j, known, 0, 0 };
	unsigned int other = ~0U;

	for (unsigned int i = 0; i < v->n; i++)
		if (digests[i] == known)
			other = voter_cpu[i];
	*out = (struct cores_replay){ .cpu = voter_cpu[v->named[0]], .other_cpu = other };
	if (other == ~0U)
		return;
	report(t, on_cpu(out->cpu, replay_here, &mine, 30000) == 0 &&
	       on_cpu(other, replay_here, &theirs, 30000) == 0,
	       "replays on CPUs %u and %u finished", out->cpu, other);
	*out = (struct cores_replay){ out->cpu, other, REPLAY_RUNS, mine.wrong, theirs.wrong,
				      mine.first_wrong_us };
	ck_diag("%s: replayed %u times: CPU %u wrong %u times%s, CPU %u (it gave the known answer) "
		"wrong %u times: %s", j->k->name, REPLAY_RUNS, out->cpu, mine.wrong,
		mine.wrong ? "" : " (not reproduced)", other, theirs.wrong,
		cores_replay_class(mine.wrong, theirs.wrong));
}

/* The kernel's JSON record, as a diagnostic line of its case. */
static void say_record(const struct cores_job *j, const struct cores_vote *v, u64 known,
		       unsigned int skipped, const char *why_not, u64 slowest_us,
		       const struct cores_replay *rp)
{
	struct cores_named_cpu named[CORES_MAX_NAMED];
	struct cores_result r = { .kernel = j->k->name, .family = j->k->family,
				  .seed = j->seed, .rounds = j->rounds, .skipped = skipped,
				  .why_not = why_not, .known = known, .vote = v, .named = named,
				  .slowest_us = slowest_us, .replay = rp };
	char buf[1024];

	for (unsigned int i = 0; i < MIN(v->nr_named, (unsigned int)CORES_MAX_NAMED); i++) {
		unsigned int c = voter_cpu[v->named[i]];

		named[i] = (struct cores_named_cpu){ c, smp_cpu(c)->apic_id, digests[v->named[i]] };
	}
	cores_record_json(&r, buf, sizeof(buf));
	printk("    # %s\n", buf);		/* whole: ck_diag() keeps 255 characters */
}

static void run_kernel(struct ck_test *t, const char *name)
{
	const struct cores_kernel *k = cores_kernel_named(name, strlen(name));
	const struct cores_opts *o = &t->ctx->cores;
	struct cores_job j = { .k = k, .seed = cores_opts_seed(o), .rounds = cores_opts_rounds(o) };
	struct cores_vote v;
	const char *why_not;
	unsigned int n, skipped;
	u64 known = CORES_FOLD_INIT, slowest = 0;
	struct cores_replay rp;

	if (!report(t, k != NULL, "kernel %s is in cores/list.c", name))
		return;
	if (!cores_opts_family(o, k->family)) {
		nr_skipped++;
		ck_skip(t, "cores=kernels: leaves the %s family out", k->family);
		return;
	}
	if (!have_areas(t))
		return;
	if (!first_us)
		first_us = smp_now_us();
	n = run_everywhere(t, &j, &why_not, &skipped);
	if (!n) {
		cores_vote(digests, 0, 0, scratch, &v);
		say_record(&j, &v, 0, skipped, why_not, 0, NULL);
		nr_skipped++;
		ck_skip(t, "no CPU can run it: %s", why_not ? why_not : "none online");
		return;
	}
	nr_ran++;
	for (unsigned int r = 0; r < j.rounds; r++)
		known = cores_fold(known, k->known(k, j.seed + r));
	cores_vote(digests, n, known, scratch, &v);
	for (unsigned int i = 0; i < n; i++)
		slowest = MAX(slowest, slots[voter_cpu[i]].ticks);
	ck_diag("%s (%s): %u CPUs, seed 0x%llx, %u rounds, %u distinct digests, slowest CPU %llu "
		"us: %s", k->name, k->family, n, (unsigned long long)j.seed, j.rounds, v.nr_groups,
		(unsigned long long)(tsc_to_ns(slowest) / 1000), cores_class_name(v.cls));
	say_verdict(t, k, &v, known);
	if (v.cls == CORES_MINORITY)
		replay(t, &j, &v, known, &rp);
	say_record(&j, &v, known, skipped, why_not, tsc_to_ns(slowest) / 1000,
		   v.cls == CORES_MINORITY ? &rp : NULL);
	cpu_params(t, k, &v, n, known);
}

/* Copy here, check there: the CPUs that ran a copy kernel, in a ring. */
static unsigned int ring[NR_CPUS], ring_pos[NR_CPUS], ring_n;
static u64 checked[NR_CPUS];

static u8 *dst_of(unsigned int cpu)
{
	return areas + (u64)cpu * 2 * CORES_BUF + CORES_BUF;
}

/* This CPU checks the copy the CPU before it in the ring wrote. */
static void check_neighbour(void *arg)
{
	unsigned int c = this_cpu()->cpu, w = ring[(ring_pos[c] + ring_n - 1) % ring_n];

	checked[c] = cores_copy_check_other(dst_of(w), CORES_BUF);
}

static void check_again(void *arg)
{
	unsigned int w = *(unsigned int *)arg;

	checked[this_cpu()->cpu] = cores_copy_check_other(dst_of(w), CORES_BUF);
}

/* One copy kernel's pairs: true when every checker found its writer's copy right. */
static bool pairs_of(struct ck_test *t, const struct cores_kernel *k, u64 seed)
{
	struct cores_job j = { .k = k, .seed = seed, .rounds = 1 };
	u64 known = k->known(k, seed);
	unsigned int bad = 0;
	const char *why_not;
	unsigned int skipped;

	ring_n = run_everywhere(t, &j, &why_not, &skipped);
	if (ring_n < 2) {
		ck_diag("pairs: %s: %u CPUs ran it (%s): no pair", k->name, ring_n,
			why_not ? why_not : "one CPU");
		return true;
	}
	for (unsigned int i = 0; i < ring_n; i++) {
		ring[i] = voter_cpu[i];
		ring_pos[voter_cpu[i]] = i;
	}
	report(t, on_each_cpu(check_neighbour, NULL, MAX(30000U, 200U * smp_nr_online())) == 0,
	       "pairs: %s: every CPU checked its neighbour's copy in time", k->name);
	for (unsigned int i = 0; i < ring_n; i++) {
		unsigned int c = ring[i], w = ring[(i + ring_n - 1) % ring_n];
		unsigned int third = ring[(i + 1) % ring_n];
		bool have_third = third != w && third != c;
		u64 again = 0;
		enum cores_pair p;

		if (checked[c] == known)
			continue;
		if (have_third)
			have_third = on_cpu(third, check_again, &w, 30000) == 0;
		again = checked[third];
		p = cores_pair_judge(false, have_third, again == known);
		bad++;
		report(t, false, "cores: pairs: kernel %s: CPU %u (APIC id %u) found CPU %u's copy "
		       "wrong (0x%016llx, known 0x%016llx); CPU %u checked it again: %s; the %s is "
		       "named: CPU %u (APIC id %u)", k->name, c, smp_cpu(c)->apic_id, w,
		       (unsigned long long)checked[c], (unsigned long long)known, third,
		       !have_third ? "no third CPU" : again == known ? "right" : "wrong too",
		       cores_pair_name(p), p == CORES_PAIR_CHECKER ? c : w,
		       smp_cpu(p == CORES_PAIR_CHECKER ? c : w)->apic_id);
	}
	return !bad;
}

/*
 * Every copy kernel's destination checked by another CPU (the next in a ring: linear in the
 * CPUs), a third deciding between the writer and the checker. One KTAP parameter per kernel.
 */
static void copy_pairs(struct ck_test *t)
{
	const struct cores_opts *o = &t->ctx->cores;
	unsigned int idx = 0;
	bool ok[32];

	if (smp_nr_online() < 2) {
		ck_skip(t, "one CPU online: no pairs");
		return;
	}
	if (!cores_opts_family(o, "copy")) {
		ck_skip(t, "cores=kernels: leaves the copy family out");
		return;
	}
	if (!have_areas(t))
		return;
	ck_diag("pairs: each of %u CPUs checks the copy of the CPU before it; a third decides",
		smp_nr_online());
	for (unsigned int i = 0; i < cores_nr_kernels() && idx < ARRAY_SIZE(ok); i++)
		if (!strcmp(cores_kernel(i)->family, "copy"))
			ok[idx++] = pairs_of(t, cores_kernel(i), cores_opts_seed(o));
	ck_params_begin(t, "copy_pairs", idx);
	for (unsigned int i = 0, p = 0; i < cores_nr_kernels() && p < idx; i++)
		if (!strcmp(cores_kernel(i)->family, "copy"))
			ck_param_result(t, p + 1, ok[p], cores_kernel(i)->name), p++;
}

static void kernels_covered(struct ck_test *t)
{
	ck_diag("%u of %u kernels ran, %u skipped on every CPU or by cores=", nr_ran,
		cores_nr_kernels(), nr_skipped);
	if (first_us)
		ck_diag("the kernels took %llu ms on %u CPUs, votes and reports included",
			(unsigned long long)(smp_now_us() - first_us) / 1000, smp_nr_online());
	report(t, nr_ran + nr_skipped == cores_nr_kernels(),
	       "every kernel of cores/list.c has a case here (%u ran + %u skipped, %u listed)",
	       nr_ran, nr_skipped, cores_nr_kernels());
}

#define KCASE(nm)							\
	static void case_##nm(struct ck_test *t)			\
	{								\
		run_kernel(t, #nm);					\
	}
#define KENTRY(nm)	{ #nm, case_##nm }

KCASE(copy_page_rep)
KCASE(copy_page_unrolled)
KCASE(memcpy_erms)
KCASE(memcpy_orig)
KCASE(copy_mc_fragile)
KCASE(copy_mc_erms)
KCASE(copy_mc_avx2_nt)
KCASE(crc32c)
KCASE(muldiv)
KCASE(vec_sse2)
KCASE(vec_avx2)
KCASE(x87)

CK_SUITE(cores, 85,
	 KENTRY(copy_page_rep), KENTRY(copy_page_unrolled), KENTRY(memcpy_erms),
	 KENTRY(memcpy_orig), KENTRY(copy_mc_fragile), KENTRY(copy_mc_erms),
	 KENTRY(copy_mc_avx2_nt), KENTRY(crc32c), KENTRY(muldiv), KENTRY(vec_sse2),
	 KENTRY(vec_avx2), KENTRY(x87),
	 CK_CASE(copy_pairs),
	 CK_CASE(kernels_covered));
