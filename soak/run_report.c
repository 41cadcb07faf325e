// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_report.c - the soak's results once every CPU has finished or been found stuck
 * (run_int.h): the coverage, every ledger entry as text (a miscompare's went out when it
 * was found) and as a JSON record, the ledger
 * table (by DIMM, or by node and range), the KTAP suite "soak" with one case per node and
 * its LAVA lines, the "# copykernel-soak:" summary line and its JSON record, then the final
 * checkpoint (run_ckpt.c).
 *
 * The verdict is soak/ledger.c's, and one more rule the ledger cannot see: every CPU
 * not found stuck must have touched, in each whole pass, every page of its slices that was
 * not retired. A node's case fails on any event there but a corrected error (those count
 * against the threshold per DIMM or range, as the verdict does), on a stuck CPU of that node,
 * and on everything when entries went unstored while the soak fails.
 */
#include "kernel/console/printk.h"
#include "kernel/include/page_types.h"
#include "kernel/lib/string.h"
#include "soak/report.h"
#include "soak/run_int.h"


static struct soak_totals tot;
static struct soak_verdict verdict;
static const struct soak_event *first;	/* of note, for the checkpoint */
static char line[1536];

static void out(const char *s)
{
	console_write(s, strlen(s));
	console_write("\n", 1);
}

static u64 slice_pages(unsigned int idx)
{
	struct soak_slice s;
	u64 n = 0;

	for (unsigned int i = 0; soak_plan_slice(&soak.plan, idx, i, &s); i++)
		n += s.size >> PAGE_SHIFT;
	return n;
}

/* Each live CPU's whole passes touched all its pages but the retired ones. */
static bool coverage(void)
{
	u64 touched = 0, stuck_pages = 0, retired = 0;
	bool ok = true;

	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		struct soak_cpu *sc = soak_cpu_of(i);
		u64 want = slice_pages(i);

		if (soak_is_stuck(i)) {
			stuck_pages += want;
			continue;
		}
		retired += sc->ledger.count[SOAK_EV_RETIRED_PAGE];
		touched += sc->passes ? sc->first_pages : sc->pass_pages;
		if (!sc->passes && want) {
			/* A timed soak that ended inside its first pass left memory unchecked. */
			printk("soak: coverage: CPU %u did not finish its first pass: %llu of its %llu "
			       "pages touched when the time was up\n", soak.cpu_of[i],
			       (unsigned long long)sc->pass_pages, (unsigned long long)want);
			ok = false;
		} else if (sc->first_pages + sc->ledger.count[SOAK_EV_RETIRED_PAGE] < want) {
			printk("soak: coverage: CPU %u touched %llu of its %llu pages in a pass\n",
			       soak.cpu_of[i], (unsigned long long)sc->min_pages,
			       (unsigned long long)want);
			ok = false;
		}
	}
	printk("soak: coverage: the first pass touched %llu pages of the %llu the plan covers "
	       "(%llu retired, %llu on stuck CPUs not counted)\n", (unsigned long long)touched,
	       (unsigned long long)soak.plan.covered_pages, (unsigned long long)retired,
	       (unsigned long long)stuck_pages);
	return ok;
}

static void fold(void)
{
	soak_fold(&tot, &first);
	soak_judge(&tot, &verdict);
}

static void print_events(void)
{
	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		const struct soak_ledger *l = &soak_cpu_of(i)->ledger;

		for (unsigned int k = 0; k < l->nr; k++) {
			/* a miscompare's line went out when it was found (run_work.c) */
			if (l->ev[k].kind != SOAK_EV_MISCOMPARE) {
				soak_event_text(&l->ev[k], &soak.map, line, sizeof(line));
				out(line);
			}
			soak_event_json(&l->ev[k], &soak.map, line, sizeof(line));
			out(line);
		}
	}
	for (unsigned int b = 0; b < tot.nr_buckets; b++) {
		soak_bucket_text(&tot, b, &soak.map, line, sizeof(line));
		out(line);
	}
}

/* Whether node @n's memory and CPUs saw nothing that fails a soak. */
static bool node_ok(unsigned int n)
{
	u64 corrected = 0;

	if (!verdict.pass && tot.not_stored)
		return false;
	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		const struct soak_ledger *l = &soak_cpu_of(i)->ledger;

		for (unsigned int k = 0; k < l->nr; k++) {
			const struct soak_event *e = &l->ev[k];
			unsigned int node = e->kind == SOAK_EV_STUCK_CPU ?
					    (unsigned int)smp_cpu_node(e->cpu) : e->node;

			if (node != n)
				continue;
			if (e->kind != SOAK_EV_CORRECTED)
				return false;
			corrected++;
		}
	}
	return corrected <= (tot.ce_threshold ? tot.ce_threshold : SOAK_CE_THRESHOLD);
}

static void print_ktap(bool pass)
{
	unsigned int n = soak.plan.nr_nodes;
	bool all = true;

	printk("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: soak\n    1..%u\n", n);
	for (unsigned int i = 0; i < n; i++) {
		bool ok = node_ok(i) && pass;

		all &= ok;
		printk("    %sok %u node%u\n    # ck-lava <soak.node%u %s>\n", ok ? "" : "not ",
		       i + 1, i, i, ok ? "pass" : "fail");
	}
	printk("%sok 1 soak\n", all && pass ? "" : "not ");
}

/*
 * The run's own rules, after the ledger's: every CPU covered its pages, and a soak_fault=
 * knob did what it asked (@knob_ok). A ledger that passes takes the first failing one, so
 * that the summary line, its JSON and the final checkpoint all say FAIL with the reason.
 */
static bool run_rules(bool knob_ok)
{
	const char *why = NULL;
	bool cov = coverage();

	if (!cov) {
		printk("soak: FAIL: a CPU did not touch all its pages in a whole pass\n");
		why = "a CPU did not touch all its pages in a whole pass";
	} else if (!knob_ok) {
		why = "the soak_fault= knob did not do what it asked";
	}
	/*
	 * A soak stopped before its first pass read anything (pass 0 begins by writing) failed
	 * "nothing was soaked" because it did not cover its memory: the coverage says why.
	 */
	if (why && (verdict.pass || (!cov && verdict.rule >= 0 &&
				     soak_rules[verdict.rule].scope == SOAK_SCOPE_NOTHING_SOAKED)))
		verdict = (struct soak_verdict){ .pass = false, .rule = -1, .bucket = -1,
						 .run_reason = why };
	else if (why)
		printk("soak: FAIL also: %s\n", why);
	return cov && knob_ok;
}

bool soak_report(bool knob_ok)
{
	bool pass;

	fold();
	print_events();
	pass = run_rules(knob_ok) && verdict.pass;
	print_ktap(pass);
	soak_summary_text(&tot, &verdict, &soak.map, line, sizeof(line));
	out(line);
	soak_summary_json(&tot, &verdict, &soak.map, line, sizeof(line));
	out(line);
	printk("# ck-lava <soak %s>\n", pass ? "pass" : "fail");
	soak_checkpoint_final(&tot, &verdict, first);
	return pass;
}
