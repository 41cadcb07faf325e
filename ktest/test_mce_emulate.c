// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mce_emulate.c - the mce suite's cases over emulated poison (inject=emulate: a load
 * from an armed, not-present page is turned into a #MC): the 512-offset sweep of every
 * machine-check-safe routine, the hwpoison refusal, two recoveries in a row on different
 * pages, and every online CPU (up to eight) recovering at the same moment, each from its own
 * page.
 */
#include "copy/ops.h"
#include "copy/pages.h"
#include "copy/routines.h"
#include "kernel/arch/bootmem.h"
#include "kernel/arch/paging.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/string.h"
#include "kernel/mm/page.h"
#include "kernel/platform/smp.h"
#include "ktest/lib/copy_sweep.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"
#include "ktest/mce_suite.h"
#include "mce/mce.h"

static struct sweep_env env;
static bool env_ready;

/* Poison: armed first, then unmapped; healed: mapped first, then disarmed (mce/emulate.c). */
static void poison_page(void *page, bool present)
{
	u64 a = (u64)(uintptr_t)page;

	if (!present)
		mce_emulate_arm(a);
	pg_set_attr(a, a + SZ_4K, present ? PG_RAM : PG_CACHE(PG_CACHE_WB));
	if (present)
		mce_emulate_disarm(a);
}

static u64 records(void)
{
	return mce_count();
}

static u64 record_addr(void)
{
	const struct mce_record *r = mce_last();

	return r && r->worst >= 0 ? r->banks[r->worst].addr & ~0xfffULL : 0;
}

static bool get_env(struct ck_test *t)
{
	static const u8 aligns[] = { 0, 7 };

	if (env_ready)
		return true;
	env = (struct sweep_env){
		.src = (u8 *)(uintptr_t)bootmem_alloc(SWEEP_BUF, SZ_4K),
		.dst = (u8 *)(uintptr_t)bootmem_alloc(SWEEP_BUF, SZ_4K),
		.fault_area = (u8 *)(uintptr_t)bootmem_alloc(4 * SZ_4K, SZ_4K),
		.other_area = (u8 *)(uintptr_t)bootmem_alloc(4 * SZ_4K, SZ_4K),
		.set_present = poison_page, .fault_count = records, .fault_addr = record_addr,
		.aligns = aligns, .nr_aligns = 2,
	};
	if (!report(t, env.src && env.dst && env.fault_area && env.other_area, "buffers"))
		return false;
	sweep_fill(&env);
	env_ready = true;
	return true;
}

static void emulated_sweep_one(struct ck_test *t, sweep_copy_fn fn, const char *name,
			       size_t slack)
{
	struct fault_result r;
	u64 before = mce_count();

	sweep_fault(&env, fn, false, slack, 1, &r);
	report(t, r.bad == 0, "%s: %lu of 512 offsets wrong (first at %zu: %s)", name, r.bad,
	       r.first_offset, r.why ? r.why : "");
	report(t, r.missed == 0, "%s: %lu copies without one #MC record at the poisoned line",
	       name, r.missed);
	report(t, mce_count() - before == 512 && mce_last()->kind == MCE_KIND_EMULATED &&
	       mce_last()->recovered, "%s: 512 emulated #MC records, all recovered", name);
}

void emulated_poison_sweep(struct ck_test *t)
{
	struct dispatch_caps caps;

	if (mce_cannot_recover(t) || !get_env(t))
		return;
	caps = t->ctx->caps;
	emulated_sweep_one(t, copy_mc_fragile, "copy_mc_fragile", 0);
	emulated_sweep_one(t, copy_mc_fast_string, "copy_mc_fast_string", REP_MOVSB_SLACK);
	if (caps.avx2)
		emulated_sweep_one(t, copy_mc_avx2_nt, "copy_mc_avx2_nt", 0);
	if (caps.avx512f)
		emulated_sweep_one(t, copy_mc_avx512_nt, "copy_mc_avx512_nt", 0);
	mce_report(mce_last(), "    # last record: ");
	mce_report_skip("    # ");	/* the other 1500-odd records say the same */
	mce_suite_verdict.emulate_ok = !t->failed;
}

/* Copy @nr pages at @src_pa with copy_mc_highpages while page @bad is poisoned (emulated). */
static int copy_over_poison(u64 src_pa, u64 dst_pa, unsigned long nr, unsigned long bad)
{
	u64 p = src_pa + bad * SZ_4K;
	int r;

	poison_page((void *)(uintptr_t)p, false);
	r = copy_mc_highpages(pfn_to_page(dst_pa >> 12), pfn_to_page(src_pa >> 12), nr);
	poison_page((void *)(uintptr_t)p, true);
	return r;
}

/*
 * The review's finding: a page already on the poison list (a prior memory_failure, or
 * MADV_HWPOISON) must be refused before any byte is read. The page is also unmapped here,
 * so a single load from it would fault: neither a #PF fixup nor a #MC record may appear.
 */
void hwpoison_refuses_copy(struct ck_test *t)
{
	u64 src = bootmem_alloc(8 * SZ_4K, SZ_4K), dst = bootmem_alloc(8 * SZ_4K, SZ_4K);
	u64 bad = src + 5 * SZ_4K, faults = ex_last.count, mces = mce_count();
	int r;

	if (!report(t, src && dst, "buffers"))
		return;
	memset((void *)(uintptr_t)dst, 0xdd, 8 * SZ_4K);
	memory_failure_queue(bad >> 12);
	report(t, page_hwpoison(pfn_to_page(bad >> 12)), "queued page is marked hwpoison");
	pg_set_attr(bad, bad + SZ_4K, PG_CACHE(PG_CACHE_WB));
	r = copy_mc_highpages(pfn_to_page(dst >> 12), pfn_to_page(src >> 12), 8);
	pg_set_attr(bad, bad + SZ_4K, PG_RAM);
	report(t, r == -EHWPOISON, "copy_mc_highpages returned %d, want -EHWPOISON", r);
	report(t, ex_last.count == faults && mce_count() == mces,
	       "no byte was read: no fault, no #MC");
	report(t, *(volatile u8 *)(uintptr_t)dst == 0xdd, "nothing was written");
	r = copy_mc_highpage(pfn_to_page(dst >> 12), pfn_to_page(bad >> 12));
	report(t, r == -EHWPOISON && ex_last.count == faults, "copy_mc_highpage refuses too");
	pfn_to_page(bad >> 12)->flags = 0;
}

void two_recoveries_in_a_row(struct ck_test *t)
{
	u64 src, dst, seq = mce_count();
	int r1, r2;

	if (mce_cannot_recover(t) || mce_copy_mc_unsafe(t))
		return;
	src = bootmem_alloc(16 * SZ_4K, SZ_4K);
	dst = bootmem_alloc(16 * SZ_4K, SZ_4K);
	if (!report(t, src && dst, "buffers"))
		return;
	r1 = copy_over_poison(src, dst, 8, 3);
	r2 = copy_over_poison(src + 8 * SZ_4K, dst + 8 * SZ_4K, 8, 3);	/* page 11 */
	report(t, r1 == -EHWPOISON && r2 == -EHWPOISON, "both copies report -EHWPOISON");
	report(t, mce_count() == seq + 2, "two #MC records");
	report(t, on_poison_list((src >> 12) + 3) && on_poison_list((src >> 12) + 11),
	       "both pfns (0x%llx, 0x%llx) are on the poison list",
	       (unsigned long long)(src >> 12) + 3, (unsigned long long)(src >> 12) + 11);
	mce_report_new("    # ");
}

/* ---- several CPUs at once ---- */

#define AT_ONCE_CPUS	8
#define AT_ONCE_PAGES	4
#define AT_ONCE_BAD	1		/* the poisoned page of each CPU's source */
#define AT_ONCE_LEN	(AT_ONCE_PAGES * SZ_4K)
#define AT_ONCE_LEFT	(AT_ONCE_LEN - AT_ONCE_BAD * SZ_4K)
#define AT_ONCE_ROUNDS	64
#define AT_ONCE_WAIT_MS	20000

/* One CPU's part: its buffers, its armed page, what its copies returned. */
struct at_once {
	unsigned int cpu;
	u8 *src, *dst;
	u64 bad;			/* physical address of its poisoned page */
	bool armed, late;
	unsigned int rounds, wrong;	/* rounds copied; with a wrong count or bytes */
	size_t left;			/* the last count left */
	unsigned int records;		/* records of its own, as the round checks found */
	u64 queued;
};

static struct {
	struct smp_barrier go;
	unsigned int n;
	u64 seq;			/* the first record of the round being checked */
	unsigned int bad_records, missing;
	struct at_once cpu[AT_ONCE_CPUS];
} once;

static void arm_own(void *arg)
{
	struct at_once *w = arg;

	w->armed = mce_emulate_arm(w->bad);
}

static void disarm_own(void *arg)
{
	mce_emulate_disarm(((struct at_once *)arg)->bad);
}

/* The part whose CPU took record @r, or NULL. */
static struct at_once *part_of(const struct mce_record *r)
{
	for (unsigned int i = 0; r && i < once.n; i++)
		if (once.cpu[i].cpu == r->cpu)
			return &once.cpu[i];
	return NULL;
}

/* After a round: one record per CPU, each emulated, recovered, naming its CPU's own page. */
static void check_round(void)
{
	u64 end = mce_count();

	once.missing += end - once.seq != once.n;
	for (u64 s = once.seq; s < end; s++) {
		const struct mce_record *r = mce_get(s);
		struct at_once *w = part_of(r);

		if (!w || r->kind != MCE_KIND_EMULATED || !r->recovered || !r->pfn_valid ||
		    r->pfn != w->bad >> 12) {
			if (!once.bad_records++ && r)
				ck_diag("record #%llu: CPU %u, kind %d, %s, pfn 0x%llx",
					(unsigned long long)s, r->cpu, r->kind,
					r->recovered ? "recovered" : "not recovered",
					(unsigned long long)r->pfn);
			continue;
		}
		w->records++;
	}
	once.seq = end;
}

static bool together(struct at_once *w)
{
	if (!smp_barrier_wait(&once.go, AT_ONCE_WAIT_MS))
		return true;
	w->late = true;
	return false;
}

/*
 * Each round: every CPU leaves the barrier together and copies over its own poisoned page;
 * when all are done the first CPU checks the round's records while the others wait.
 */
static void copy_rounds(void *arg)
{
	struct at_once *w = arg;

	for (unsigned int r = 0; r < AT_ONCE_ROUNDS; r++) {
		if (!together(w))
			return;
		w->left = copy_mc_to_kernel(w->dst, w->src, AT_ONCE_LEN);
		w->wrong += w->left != AT_ONCE_LEFT ||
			    memcmp(w->dst, w->src, AT_ONCE_LEN - w->left);
		memset(w->dst, 0, AT_ONCE_LEN);
		w->rounds++;
		if (!together(w))
			return;
		if (w == &once.cpu[0])
			check_round();
		if (!together(w))
			return;
	}
}

/* What Linux's callers of copy_mc do with the count left: queue the page it stopped at. */
static void queue_own(void *arg)
{
	struct at_once *w = arg;
	u64 first = (u64)(uintptr_t)w->src >> 12;

	w->queued = memory_failure_queue_copy(first, AT_ONCE_PAGES,
					      first + (AT_ONCE_LEN - w->left) / SZ_4K);
}

/* Run @fn for every CPU's part on that CPU, one CPU after the other. */
static bool on_each_part(void (*fn)(void *arg))
{
	bool ok = true;

	for (unsigned int i = 0; i < once.n; i++)
		ok &= on_cpu(once.cpu[i].cpu, fn, &once.cpu[i], AT_ONCE_WAIT_MS) == 0;
	return ok;
}

/* The online CPUs that take part (up to eight), each with a machine-check state. */
static bool pick_cpus(struct ck_test *t)
{
	once.n = 0;
	for (unsigned int c = 0; c < smp_nr_cpus() && once.n < AT_ONCE_CPUS; c++) {
		const struct mce_cpu_facts *f = mce_cpu_facts(c);

		if (!cpu_online(c))
			continue;
		if (!f || !f->started) {
			ck_skip(t, "CPU %u has no machine-check state: it cannot take emulated "
				"poison", c);
			return false;
		}
		once.cpu[once.n++].cpu = c;
	}
	if (once.n < 2) {
		ck_skip(t, "one CPU online: two CPUs are needed to recover at the same moment");
		return false;
	}
	return true;
}

static bool get_parts(struct ck_test *t)
{
	once.bad_records = once.missing = 0;
	for (unsigned int i = 0; i < once.n; i++) {
		struct at_once *w = &once.cpu[i];

		if (!w->src) {
			w->src = (u8 *)(uintptr_t)bootmem_alloc(AT_ONCE_LEN, SZ_4K);
			w->dst = (u8 *)(uintptr_t)bootmem_alloc(AT_ONCE_LEN, SZ_4K);
		}
		if (!report(t, w->src && w->dst, "buffers for CPU %u", w->cpu))
			return false;
		for (size_t b = 0; b < AT_ONCE_LEN; b++)
			w->src[b] = (u8)(b * 13 + w->cpu * 71 + 1);
		w->bad = (u64)(uintptr_t)w->src + AT_ONCE_BAD * SZ_4K;
		w->armed = w->late = false;
		w->rounds = w->wrong = w->records = 0;
	}
	return true;
}

/* The page-table changes, on this CPU while the others are idle (they reload CR3 per job). */
static void set_present(bool present)
{
	for (unsigned int i = 0; i < once.n; i++)
		pg_set_attr(once.cpu[i].bad, once.cpu[i].bad + SZ_4K,
			    present ? PG_RAM : PG_CACHE(PG_CACHE_WB));
}

static void check_parts(struct ck_test *t)
{
	report(t, !once.missing && !once.bad_records, "%u of %u rounds without one record per "
	       "CPU; %u records not an emulated, recovered #MC naming its own CPU's page",
	       once.missing, AT_ONCE_ROUNDS, once.bad_records);
	for (unsigned int i = 0; i < once.n; i++) {
		struct at_once *w = &once.cpu[i];

		report(t, !w->late && w->rounds == AT_ONCE_ROUNDS && !w->wrong,
		       "CPU %u: %u of %u rounds, %u with a wrong count or bytes (copy_mc_to_kernel "
		       "returned %zu, want %lu)", w->cpu, w->rounds, AT_ONCE_ROUNDS, w->wrong,
		       w->left, (unsigned long)AT_ONCE_LEFT);
		report(t, w->records == AT_ONCE_ROUNDS, "CPU %u: %u records of its own, want %u",
		       w->cpu, w->records, AT_ONCE_ROUNDS);
		report(t, w->queued == w->bad >> 12 && on_poison_list(w->bad >> 12),
		       "CPU %u: its pfn 0x%llx queued (0x%llx)", w->cpu,
		       (unsigned long long)w->bad >> 12, (unsigned long long)w->queued);
	}
}

/*
 * Every online CPU (two at least, eight at most) arms its own page, and in each of 64 rounds
 * all of them start copy_mc_to_kernel over their page at the same moment (a barrier): each
 * must recover with the count left at its poisoned page, and each round must leave one
 * record per CPU naming that CPU and its own page (the emulated bank lives in that CPU's
 * register file). Each page is queued once the copies are over (the poison list and the
 * handler's note of the bank's page are one list for all CPUs, kernel/mm/page.c: they are
 * visited one CPU at a time).
 */
void recoveries_on_several_cpus_at_once(struct ck_test *t)
{
	bool all_armed = true, posted = true;

	if (mce_cannot_recover(t) || mce_copy_mc_unsafe(t) || !pick_cpus(t) || !get_parts(t))
		return;
	on_each_part(arm_own);
	for (unsigned int i = 0; i < once.n; i++)
		all_armed &= once.cpu[i].armed;
	if (report(t, all_armed, "every CPU armed its own page")) {
		set_present(false);
		smp_barrier_init(&once.go, once.n);
		once.seq = mce_count();
		for (unsigned int i = 1; i < once.n; i++)
			posted &= on_cpu_async(once.cpu[i].cpu, copy_rounds, &once.cpu[i]) == 0;
		copy_rounds(&once.cpu[0]);
		for (unsigned int i = 1; i < once.n; i++)
			posted &= on_cpu_wait(once.cpu[i].cpu, AT_ONCE_WAIT_MS) == 0;
		set_present(true);
		report(t, posted, "every CPU ran its copies");
		report(t, on_each_part(queue_own), "every CPU queued its page");
		check_parts(t);
		ck_diag("%u CPUs x %u rounds, each over its own poisoned page at once", once.n,
			AT_ONCE_ROUNDS);
	}
	on_each_part(disarm_own);
	mce_report(mce_last(), "    # last record: ");
	mce_report_skip("    # ");
}
