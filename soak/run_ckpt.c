// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_ckpt.c - the soak's side of its black box (run_int.h): the sink the run registers
 * (soak_set_checkpoint_sink), every CPU's ledger folded into totals, the boot CPU's
 * checkpoints while the soak runs as soak_ckpt_due() paces them (the first, one per new kind
 * of event, then every SOAK_CKPT_INTERVAL_NS), and the final one, with the verdict, before
 * the lines that print it (run_report.c). Each keeps the first miscompares (address, expected,
 * actual), so that a reset after one still names it on the next boot.
 *
 * While the other CPUs soak, their ledgers are read as soak/ledger.h allows a reader
 * that is not their writer: counts and buckets by soak_ledger_snapshot(), the event of note
 * only among the entries each CPU has published (soak_ledger_stored()), never an entry it
 * may be writing. So a mid-run checkpoint lags. Each CPU is read at a slightly different
 * moment; an event a CPU records during the read may be in its count and not yet in its
 * bucket, or in neither; bytes verified lag by the run a CPU is verifying (one piece);
 * passes are the slowest live CPU's whole passes. After every CPU has finished (the final
 * checkpoint, the report) the same fold is exact.
 */
#include "kernel/include/errno.h"
#include "soak/checkpoint.h"
#include "soak/run_int.h"

static int (*sink)(const void *rec, size_t len);

/* Only the boot CPU touches these. */
static struct {
	u64 last_ns;			/* when the last one was written; ~0: none yet */
	u32 written;			/* the kinds of event it had */
	struct soak_ledger snap;
	struct soak_totals tot;
	struct soak_ckpt c;
	u8 rec[SOAK_CKPT_MAX];
} ck = { .last_ns = ~0ULL };

void soak_set_checkpoint_sink(int (*write)(const void *rec, size_t len))
{
	sink = write;
}

void soak_fold(struct soak_totals *t, const struct soak_event **first)
{
	u32 passes = ~0u;

	soak_totals_init(t);
	t->seed = soak.seed;
	t->elapsed_ns = soak_elapsed_ns();
	t->bytes_per_pass = soak.plan.covered_bytes;
	t->free_bytes = soak.plan.free_bytes;
	*first = NULL;
	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		struct soak_cpu *sc = soak_cpu_of(i);
		u32 p = __atomic_load_n(&sc->passes, __ATOMIC_RELAXED);

		soak_ledger_snapshot(&ck.snap, &sc->ledger);
		soak_totals_add(t, &ck.snap);
		t->bytes_verified += __atomic_load_n(&sc->bytes_verified, __ATOMIC_RELAXED);
		if (!soak_is_stuck(i) && p < passes)
			passes = p;
		*first = soak_ckpt_note(*first, sc->ledger.ev, soak_ledger_stored(&sc->ledger));
	}
	t->passes = passes == ~0u ? 0 : passes;
	t->cpus = soak.nr_cpus - soak_nr_stuck();
}

/* The kinds of event counted so far on every CPU (soak_ckpt_due()'s @kinds). */
static u32 live_kinds(void)
{
	u32 m = 0;

	for (unsigned int i = 0; i < soak.nr_cpus; i++)
		for (int k = 0; k < NR_SOAK_EV; k++)
			if (__atomic_load_n(&soak_cpu_of(i)->ledger.count[k], __ATOMIC_RELAXED))
				m |= 1u << k;
	return m;
}

/*
 * To the sink, which says each one it stored on the console. -EAGAIN (too soon for its own
 * pacing) and -EBUSY (the run's summary is being stored) are not written: the next tick asks
 * again. Its other errors it has said too; they count as the attempt, so that a firmware
 * that refuses is not asked again at every piece.
 */
static void hand(u64 now_ns, const struct soak_totals *t, const struct soak_verdict *v,
		 const struct soak_event *first, bool final)
{
	size_t len;
	int ret;

	soak_ckpt_from(&ck.c, t, v, first, &soak.map, final);
	if (soak.opts.cmdline_errors)	/* the run's verdict is never PASS: its box says so */
		ck.c.flags |= SOAK_CKPT_CMDLINE;
	/* the first miscompares, among the entries each CPU has published */
	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		const struct soak_ledger *l = &soak_cpu_of(i)->ledger;
		unsigned int n = soak_ledger_stored(l);

		for (unsigned int k = 0; k < n; k++)
			soak_ckpt_add_miscompare(&ck.c, &l->ev[k]);
	}
	len = soak_ckpt_encode(&ck.c, ck.rec, sizeof(ck.rec));
	ret = sink(ck.rec, len);
	if (ret == -EAGAIN || ret == -EBUSY)
		return;
	ck.last_ns = now_ns;
	ck.written = soak_kinds(t);
}

void soak_checkpoint_tick(void)
{
	const struct soak_event *first;
	struct soak_verdict v;
	u64 now = soak_elapsed_ns();

	if (!sink || !soak_ckpt_due(now, ck.last_ns, live_kinds(), ck.written, 0))
		return;
	soak_fold(&ck.tot, &first);
	soak_judge(&ck.tot, &v);
	/* "Nothing was soaked" is the end's rule: a soak under way has not failed it yet. */
	if (!v.pass && soak_rules[v.rule].scope == SOAK_SCOPE_NOTHING_SOAKED)
		v = (struct soak_verdict){ .pass = true, .rule = -1, .bucket = -1 };
	hand(now, &ck.tot, &v, first, false);
}

void soak_checkpoint_final(const struct soak_totals *t, const struct soak_verdict *v,
			   const struct soak_event *first)
{
	if (sink)
		hand(soak_elapsed_ns(), t, v, first, true);
}
