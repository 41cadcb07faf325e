// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_report.c - the soak's results once every CPU has finished or been found stuck
 * (run_int.h): the coverage (soak/cover.h: a CPU that fell short names the pages it left
 * and why), the final checkpoint (run_ckpt.c), every ledger entry as text (a miscompare's
 * went out when it was found) and as a JSON record, the ledger table (by DIMM, or by node
 * and range), each CPU's passes and their times, the KTAP suite "soak" with one case per
 * node and its LAVA lines, the "# copykernel-soak:" summary line and its JSON record.
 *
 * The verdict is soak/ledger.c's, and one more rule the ledger cannot see: every CPU
 * not found stuck must have touched, in its first whole pass, every page of its slices that
 * the soak did not retire. A node's case is the ledger's rules over that node's own events
 * and buckets (soak_judge_node), and fails too when a CPU left that node's memory uncovered:
 * so no node fails while the soak passes, and a clean node passes whatever another did.
 */
#include "kernel/console/printk.h"
#include "kernel/include/page_types.h"
#include "kernel/lib/string.h"
#include "kernel/mm/page.h"
#include "soak/cover.h"
#include "soak/report.h"
#include "soak/run_int.h"

#define SOAK_OUT_SHOWN	8	/* out pages named per CPU */

static struct soak_totals tot;
static struct soak_verdict verdict;
static const struct soak_event *first;	/* of note, for the checkpoint */
static char line[1536];

static void out(const char *s)
{
	console_write(s, strlen(s));
	console_write("\n", 1);
}

/* Why the page at @pa is out of the soak, from its frame and the poison list. */
static enum soak_out out_why(u64 pa, void *ctx)
{
	struct page *p = pfn_to_page(pa >> PAGE_SHIFT);
	u16 f = p ? __atomic_load_n(&p->flags, __ATOMIC_ACQUIRE) : 0;

	(void)ctx;
	if (f & PG_RETIRED)
		return SOAK_OUT_RETIRED;
	if (!(f & PG_HWPOISON))
		return SOAK_OUT_NONE;
	for (u64 i = 0; i < soak.nr_out_before && i < SOAK_OUT_KEPT; i++)
		if (soak.out_before[i] == pa)
			return SOAK_OUT_POISON_BEFORE;
	return soak.nr_out_before > SOAK_OUT_KEPT ? SOAK_OUT_POISON_UNTOLD : SOAK_OUT_POISON;
}

/* CPU @idx fell short: the pages of its slices out of the soak, and why each is. */
static void say_out_pages(unsigned int idx)
{
	struct soak_out_page pg[SOAK_OUT_SHOWN];
	u64 n = soak_cover_out(&soak.plan, idx, out_why, NULL, pg, SOAK_OUT_SHOWN);

	if (!n)
		printk("soak: coverage: no page of CPU %u's slices is marked out of the soak: "
		       "which pages it missed is not known\n", soak.cpu_of[idx]);
	for (unsigned int i = 0; i < n && i < SOAK_OUT_SHOWN; i++)
		printk("soak: coverage: CPU %u did not touch page 0x%llx: %s\n", soak.cpu_of[idx],
		       (unsigned long long)pg[i].pa, soak_out_text(pg[i].why));
	if (n > SOAK_OUT_SHOWN)
		printk("soak: coverage: CPU %u: %llu more pages of its slices are out of the soak\n",
		       soak.cpu_of[idx], (unsigned long long)(n - SOAK_OUT_SHOWN));
}

/*
 * Each live CPU's first whole pass touched all its pages but the retired ones; returns the
 * nodes whose memory a CPU left uncovered (bit n: node n), 0 when none.
 */
static u32 coverage(void)
{
	u64 touched = 0, stuck_pages = 0, retired = 0;
	u32 nodes = 0;

	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		struct soak_cpu *sc = soak_cpu_of(i);
		struct soak_cover_cpu c = {
			.want = soak_cover_want(&soak.plan, i), .passes = sc->passes,
			.touched = sc->passes ? sc->first_pages : sc->pass_pages,
			.retired = sc->ledger.count[SOAK_EV_RETIRED_PAGE], .stuck = soak_is_stuck(i) };

		switch (soak_cover_judge(&c)) {
		case SOAK_COVER_STUCK:
			stuck_pages += c.want;
			continue;
		case SOAK_COVER_UNFINISHED:
			/* A timed soak that ended inside its first pass left memory unchecked. */
			printk("soak: coverage: CPU %u did not finish its first pass: %llu of its %llu "
			       "pages touched when the time was up\n", soak.cpu_of[i],
			       (unsigned long long)c.touched, (unsigned long long)c.want);
			nodes |= soak_cover_nodes(&soak.plan, i);
			break;
		case SOAK_COVER_SHORT:
			printk("soak: coverage: CPU %u touched %llu of its %llu pages in a pass (%llu "
			       "retired)\n", soak.cpu_of[i], (unsigned long long)c.touched,
			       (unsigned long long)c.want, (unsigned long long)c.retired);
			say_out_pages(i);
			nodes |= soak_cover_nodes(&soak.plan, i);
			break;
		default:
			break;
		}
		retired += c.retired;
		touched += c.touched;
	}
	printk("soak: coverage: the first pass touched %llu pages of the %llu the plan covers "
	       "(%llu retired, %llu on stuck CPUs not counted)\n", (unsigned long long)touched,
	       (unsigned long long)soak.plan.covered_pages, (unsigned long long)retired,
	       (unsigned long long)stuck_pages);
	return nodes;
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

/* Each CPU's passes, a line and a record each, and the whole pass's time. */
static void print_cpus(void)
{
	u64 slowest = 0;
	bool all = soak.nr_cpus > soak_nr_stuck();
	unsigned int by = 0;

	for (unsigned int i = 0; i < soak.nr_cpus; i++) {
		struct soak_cpu *sc = soak_cpu_of(i);
		struct soak_cpu_figures f = {
			.cpu = soak.cpu_of[i], .node = soak.plan.cpu_node[i],
			.stuck = soak_is_stuck(i), .passes = sc->passes,
			.pages = soak_cover_want(&soak.plan, i), .first_ns = sc->first_ns,
			.min_ns = sc->min_ns, .max_ns = sc->max_ns, .done_ns = sc->done_ns };

		soak_cpu_text(&f, line, sizeof(line));
		out(line);
		soak_cpu_json(&f, line, sizeof(line));
		out(line);
		if (f.stuck || !f.pages)
			continue;
		all &= f.passes > 0;
		if (f.passes && f.first_ns >= slowest) {
			slowest = f.first_ns;
			by = f.cpu;
		}
	}
	if (all)
		printk("soak: the first whole pass over all %llu bytes took %llu.%03llus (CPU %u's, "
		       "the slowest)\n", (unsigned long long)soak.plan.covered_bytes,
		       (unsigned long long)(slowest / 1000000000ULL),
		       (unsigned long long)(slowest / 1000000 % 1000), by);
}

void soak_speed_print(unsigned int row, bool so_far)
{
	static struct soak_row_count c[SOAK_MAX_CPUS];
	static char buf[512];
	struct soak_speed_row r;
	unsigned int n = 0;

	if (row >= soak_schedule_rows || row >= SOAK_SPEED_ROWS)
		return;
	for (unsigned int i = 0; i < soak.nr_cpus; i++)
		if (!soak_is_stuck(i))
			c[n++] = soak_cpu_of(i)->row[row];
	soak_speed_fold(&r, row, soak_schedule[row].name, c, n);
	if (!r.cpus)
		return;
	soak_speed_shares(&r, &soak.probe);
	soak_speed_text(&r, so_far ? "soak: speed so far: " : "soak: speed: ",
			soak.probe.hypervisor, buf, sizeof(buf));
	if (so_far) {
		printk("%s\n", buf);	/* while other CPUs may print */
		return;
	}
	out(buf);
	soak_speed_json(&r, soak.probe.hypervisor, buf, sizeof(buf));
	out(buf);
}

/* Each row of the schedule the CPUs worked, over the whole soak (soak/speed.h). */
static void print_speed(void)
{
	for (unsigned int k = 0; k < soak_schedule_rows && k < SOAK_SPEED_ROWS; k++)
		soak_speed_print(k, false);
}

/*
 * The run's own rules, after the ledger's: every CPU covered its pages, and a soak_fault=
 * knob did what it asked (@knob_ok). A ledger that passes takes the first failing one, so
 * that the summary line, its JSON and the final checkpoint all say FAIL with the reason.
 * Returns the nodes a CPU left uncovered (their KTAP cases fail too).
 */
static u32 run_rules(bool knob_ok, const char **why)
{
	u32 nodes = coverage();

	*why = NULL;
	if (nodes) {
		printk("soak: FAIL: a CPU did not touch all its pages in a whole pass\n");
		*why = "a CPU did not touch all its pages in a whole pass";
	} else if (!knob_ok) {
		*why = "the soak_fault= knob did not do what it asked";
	}
	/*
	 * A soak stopped before its first pass read anything (pass 0 begins by writing) failed
	 * "nothing was soaked" because it did not cover its memory: the coverage says why.
	 */
	if (*why && (verdict.pass || (nodes && verdict.rule >= 0 &&
				     soak_rules[verdict.rule].scope == SOAK_SCOPE_NOTHING_SOAKED)))
		verdict = (struct soak_verdict){ .pass = false, .rule = -1, .bucket = -1,
						 .run_reason = *why };
	else if (*why)
		printk("soak: FAIL also: %s\n", *why);
	return nodes;
}

/*
 * The verdict first, then the final checkpoint, then the lines that say it: whoever stops
 * the machine on seeing the summary line (a lab's job, a person) leaves the black box
 * holding the final record, never the one before.
 */
bool soak_report(bool knob_ok)
{
	static char ktap[4096];
	const char *why;
	u32 nodes;

	fold();
	nodes = run_rules(knob_ok, &why);
	soak_checkpoint_final(&tot, &verdict, first);
	print_events();
	print_cpus();
	print_speed();
	soak_ktap_text(&tot, &verdict, &soak.map, soak.plan.nr_nodes, nodes, why, ktap,
		       sizeof(ktap));
	console_write(ktap, strlen(ktap));
	soak_summary_text(&tot, &verdict, &soak.map, line, sizeof(line));
	out(line);
	soak_summary_json(&tot, &verdict, &soak.map, line, sizeof(line));
	out(line);
	printk("# ck-lava <soak %s>\n", verdict.pass ? "pass" : "fail");
	return verdict.pass;
}
