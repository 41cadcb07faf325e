// SPDX-License-Identifier: GPL-2.0-only
/*
 * host/soak/twin_report.c - what a hosted soak twin run prints (host/soak/twin_report.h): the
 * header, each worker's work, every miscompare in the image's ledger terms, the verdict by
 * the image's rules (soak/ledger.c), the three rates and the result line the comparison
 * reads, and JSON lines through kernel/lib/json.c.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "host/soak/twin_report.h"
#include "kernel/lib/json.h"
#include "soak/report.h"

#define GB	1e9

void twin_report_header(const struct soak_twin_run *r)
{
	const struct soak_twin_worker *w = &r->t[0].w;

	printf("# ck-soak: hosted soak twin: %llu MiB, %u workers, %llu MiB chunks, %u s each from "
	       "its own start, seed 0x%llx; the image's passes: %s (%u elements) first, then",
	       (unsigned long long)(r->bytes >> 20), r->nr,
	       (unsigned long long)(r->chunk_bytes >> 20), r->o->seconds,
	       (unsigned long long)r->o->seed, soak_schedule[0].name, soak_schedule[0].nr_el);
	for (unsigned int i = 1; i < soak_schedule_rows; i++)
		printf(" %s", soak_schedule[i].name);
	printf(" (idle %u s) over and over\n", r->o->fade_s);
	printf("# memory: %s\n", r->backing);
	printf("# copy primitives rotated (soak/pattern.c):");
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		if (w->ops >> op & 1)
			printf(" %s", soak_copy_op_name(op));
	printf("%s; every word read and checked by copy/march.asm's kernel before it is written "
	       "again\n", w->nt_copy ? "" : " (no AVX2: no non-temporal copy)");
	printf("# hosted: a process cannot read machine-check banks: corrected errors are the "
	       "kernel's to report (mcelog, rasdaemon); poison consumed here ends the run with "
	       "SIGBUS\n");
}

static int bits_set(u64 x)
{
	return __builtin_popcountll(x);
}

static void bits_text(u64 x, char *buf, size_t size)
{
	size_t n = 0;

	if (bits_set(x) > 4) {
		snprintf(buf, size, "%d bits", bits_set(x));
		return;
	}
	n += (size_t)snprintf(buf, size, "bit%s", bits_set(x) == 1 ? "" : "s");
	for (int b = 0; b < 64 && n < size; b++)
		if (x >> b & 1)
			n += (size_t)snprintf(buf + n, size - n, " %d", b);
}

static void writer_text(const struct soak_writer *wr, char *buf, size_t size)
{
	if (wr->how == SOAK_HOW_COPY)
		snprintf(buf, size, "%s of the %s pattern", soak_copy_op_name(wr->copy_op),
			 soak_pat_name(wr->pat));
	else
		snprintf(buf, size, "%s (the %s pattern)", soak_how_name(wr->how),
			 soak_pat_name(wr->pat));
}

static void detail_json(FILE *f, const struct soak_twin_detail *d, unsigned int worker, int cpu)
{
	struct json_writer w;
	char line[1024], hex[3][24];

	snprintf(hex[0], sizeof(hex[0]), "0x%llx", (unsigned long long)d->expected);
	snprintf(hex[1], sizeof(hex[1]), "0x%llx", (unsigned long long)d->actual);
	snprintf(hex[2], sizeof(hex[2]), "0x%llx", (unsigned long long)d->virt);
	json_record(&w, line, sizeof(line), "soak-twin-event");
	json_str(&w, "event", soak_ev_name((enum soak_ev_kind)d->kind));
	json_u64(&w, "worker", worker);
	json_s64(&w, "cpu", cpu);
	json_u64(&w, "t_ns", d->t_ns);
	json_u64(&w, "pass", d->pass);
	json_str(&w, "row", soak_pass_row(d->pass, NULL)->name);
	json_u64(&w, "element", d->el);
	json_str(&w, "virtual", hex[2]);
	if (d->phys) {
		snprintf(hex[2], sizeof(hex[2]), "0x%llx", (unsigned long long)d->phys);
		json_str(&w, "physical", hex[2]);
	} else {
		json_null(&w, "physical");
	}
	json_str(&w, "written_by", d->writer.how == SOAK_HOW_COPY ?
		 soak_copy_op_name(d->writer.copy_op) : soak_how_name(d->writer.how));
	json_str(&w, "pattern", soak_pat_name(d->writer.pat));
	if (d->kind == SOAK_EV_MISCOMPARE) {
		json_str(&w, "expected", hex[0]);
		json_str(&w, "actual", hex[1]);
		json_u64(&w, "bits", (u64)bits_set(d->expected ^ d->actual));
		json_str(&w, "reread", soak_reread_name(d->reread_class));
	}
	json_end(&w);
	fprintf(f, "%s\n", line);
}

static void detail_text(const struct soak_twin_detail *d, unsigned int worker, int cpu)
{
	char where[96], who[96], bits[64];

	if (d->phys)
		snprintf(where, sizeof(where), "physical 0x%llx", (unsigned long long)d->phys);
	else
		snprintf(where, sizeof(where), "physical not known (/proc/self/pagemap gives no "
			 "PFN without CAP_SYS_ADMIN)");
	writer_text(&d->writer, who, sizeof(who));
	printf("# ck-soak: %s: worker %u (CPU %d) at %llu.%09llus, pass %u (%s) element %u, word "
	       "at virtual 0x%llx, %s", soak_ev_name((enum soak_ev_kind)d->kind), worker, cpu,
	       (unsigned long long)(d->t_ns / 1000000000ULL),
	       (unsigned long long)(d->t_ns % 1000000000ULL), d->pass,
	       soak_pass_row(d->pass, NULL)->name, d->el, (unsigned long long)d->virt, where);
	if (d->kind != SOAK_EV_MISCOMPARE) {
		printf(": a load faulted (poison), written by %s\n", who);
		return;
	}
	bits_text(d->expected ^ d->actual, bits, sizeof(bits));
	printf(": expected 0x%016llx actual 0x%016llx (%s), written by %s; re-read 0x%016llx: "
	       "%s\n", (unsigned long long)d->expected, (unsigned long long)d->actual, bits, who,
	       (unsigned long long)d->reread, soak_reread_name(d->reread_class));
}

static void worker_text(const struct soak_twin_thread *t)
{
	const struct soak_twin_count *c = &t->w.count;
	double s = c->ns / GB;

	printf("# worker %u on CPU %d%s: %.3f s, %u passes + %u elements, checked %.2f GB "
	       "(%.2f GB/s), copied %.2f GB; copies by primitive:", t->w.index, t->cpu,
	       t->pinned ? "" : " (NOT pinned)", s, t->passes, t->extra_els, c->checked / GB,
	       s > 0 ? c->checked / GB / s : 0, c->copied / GB);
	for (int op = 0; op < NR_SOAK_COPY_OPS; op++)
		if (t->w.ops >> op & 1)
			printf(" %s %llu", soak_copy_op_name(op),
			       (unsigned long long)t->w.op_copies[op]);
	printf("\n");
}

/*
 * Each row of the schedule: the bytes every worker read and checked, and all it moved (read,
 * written, copied twice), over the time it spent in that row, summed over the workers.
 */
static void rows_text(const struct soak_twin_run *r)
{
	for (unsigned int k = 0; k < soak_schedule_rows && k < SOAK_TWIN_ROWS; k++) {
		double checked = 0, traffic = 0, secs = 0;
		u32 passes = 0;

		for (unsigned int i = 0; i < r->nr; i++) {
			const struct soak_twin_row *w = &r->t[i].w.row[k];

			if (!w->ns)
				continue;
			checked += w->read * 1e9 / (double)w->ns;
			traffic += (w->read + w->written + 2 * w->copied) * 1e9 / (double)w->ns;
			secs = MAX(secs, w->ns / GB);
			passes += w->passes;
		}
		if (secs > 0)
			printf("# row %s: %.3f s, %u whole passes over all workers, checked %.3f GB/s, "
			       "traffic %.3f GB/s%s\n", soak_schedule[k].name, secs, passes,
			       checked / GB, traffic / GB,
			       k + 1 == soak_schedule_rows ? " (the idle counts as time)" : "");
		else
			printf("# row %s: not reached in %u s\n", soak_schedule[k].name,
			       r->o->seconds);
	}
}

/* Every worker's ledger folded, the run's facts added, judged by the image's rules. */
static void totals(const struct soak_twin_run *r, struct soak_totals *tt,
		   struct soak_twin_count *c, u64 *faults, u64 *copied)
{
	soak_totals_init(tt);
	tt->seed = r->o->seed;
	tt->cpus = r->nr;
	tt->bytes_per_pass = r->bytes;
	tt->free_bytes = r->bytes;
	tt->passes = ~0u;
	*faults = 0;
	*copied = 0;
	for (unsigned int i = 0; i < r->nr; i++) {
		const struct soak_twin_thread *t = &r->t[i];

		soak_totals_add(tt, &t->w.ledger);
		c[i] = t->w.count;
		tt->elapsed_ns = MAX(tt->elapsed_ns, c[i].ns);
		tt->bytes_verified += c[i].checked;
		*copied += c[i].copied;
		tt->passes = MIN(tt->passes, t->passes);
		*faults += t->w.copy_faults;
	}
}

static void summary_json(FILE *f, const struct soak_twin_run *r, const struct soak_totals *tt,
			 const struct soak_verdict *v, const double *rate, const char *reason)
{
	struct json_writer w;
	char line[2048], seed[24];

	snprintf(seed, sizeof(seed), "0x%llx", (unsigned long long)tt->seed);
	json_record(&w, line, sizeof(line), "soak-twin");
	json_str(&w, "machine", r->host->machine);
	json_str(&w, "microcode", r->host->microcode[0] ? r->host->microcode : NULL);
	json_str(&w, "result", v->pass ? "PASS" : "FAIL");
	json_str(&w, "reason", v->pass ? NULL : reason);
	json_u64(&w, "bytes", r->bytes);
	json_u64(&w, "workers", r->nr);
	json_u64(&w, "chunk_bytes", r->chunk_bytes);
	json_str(&w, "memory", r->backing);
	json_u64(&w, "seconds", r->o->seconds);
	json_u64(&w, "elapsed_ns", tt->elapsed_ns);
	json_u64(&w, "passes", tt->passes);
	json_str(&w, "seed", seed);
	for (int k = 0; k < NR_SOAK_RATES; k++) {
		char key[24];

		snprintf(key, sizeof(key), "%s_gbps", soak_rate_names[k]);
		json_double(&w, key, rate[k] / GB, 3);
	}
	json_u64(&w, "miscompares", tt->count[SOAK_EV_MISCOMPARE]);
	json_u64(&w, "uncorrected", tt->count[SOAK_EV_UC_RECOVERED]);
	json_u64(&w, "not_stored", tt->not_stored);
	json_end(&w);
	fprintf(f, "%s\n", line);
}

int twin_report(const struct soak_twin_run *r)
{
	static struct soak_twin_count c[CPU_SETSIZE];
	struct soak_totals tt;
	struct soak_verdict v;
	double rate[NR_SOAK_RATES];
	char reason[256], line[512];
	struct twin_result res;
	u64 faults, copied, dropped = 0;

	totals(r, &tt, c, &faults, &copied);
	soak_judge(&tt, &v);
	soak_verdict_text(&tt, &v, NULL, reason, sizeof(reason));
	for (int k = 0; k < NR_SOAK_RATES; k++)
		rate[k] = soak_twin_rate(c, r->nr, (enum soak_rate)k);
	for (unsigned int i = 0; i < r->nr; i++) {
		const struct soak_twin_thread *t = &r->t[i];

		if (!r->o->quiet)
			worker_text(t);

		for (unsigned int j = 0; j < t->w.nr_detail; j++) {
			detail_text(&t->w.detail[j], i, t->cpu);
			if (r->json)
				detail_json(r->json, &t->w.detail[j], i, t->cpu);
		}
		dropped += t->w.details_dropped;
	}
	if (!r->o->quiet)
		rows_text(r);
	if (dropped)
		printf("# ck-soak: %llu more events counted, not listed\n",
		       (unsigned long long)dropped);
	printf("# addresses: %s\n", r->phys_known ? "physical ones from /proc/self/pagemap" :
	       "virtual only (/proc/self/pagemap gives no PFN without CAP_SYS_ADMIN)");
	if (r->thp_known && r->o->backing != SOAK_BACK_4K && !strstr(r->backing, "hugetlb"))
		printf("# memory after the run: THP backed %llu of %llu MiB with 2 MiB pages\n",
		       (unsigned long long)(r->thp_bytes >> 20),
		       (unsigned long long)(r->bytes >> 20));
	printf("# ck-soak: result=%s duration=%.3fs workers=%u passes=%u copied=%llu checked=%llu "
	       "miscompares=%llu uncorrected=%llu copy_faults=%llu not_stored=%llu%s%s%s\n",
	       v.pass ? "PASS" : "FAIL", tt.elapsed_ns / GB, r->nr, tt.passes,
	       (unsigned long long)copied,
	       (unsigned long long)tt.bytes_verified,
	       (unsigned long long)tt.count[SOAK_EV_MISCOMPARE],
	       (unsigned long long)tt.count[SOAK_EV_UC_RECOVERED], (unsigned long long)faults,
	       (unsigned long long)tt.not_stored, v.pass ? "" : " reason=\"",
	       v.pass ? "" : reason, v.pass ? "" : "\"");
	printf("# rates (each worker's bytes over its own time, summed; GB = 10^9 bytes): checked "
	       "%.3f GB/s, copied %.3f GB/s, traffic %.3f GB/s\n",
	       rate[SOAK_RATE_CHECKED] / GB, rate[SOAK_RATE_COPIED] / GB,
	       rate[SOAK_RATE_TRAFFIC] / GB);
	res = (struct twin_result){ .threads = r->nr, .elapsed_ns = tt.elapsed_ns,
				    .miscompares = tt.count[SOAK_EV_MISCOMPARE],
				    .poisoned = tt.count[SOAK_EV_UC_RECOVERED], .pass = v.pass };
	memcpy(res.rate, rate, sizeof(res.rate));
	twin_format_result(line, sizeof(line), &res);
	printf("%s\n", line);
	if (r->json) {
		summary_json(r->json, r, &tt, &v, rate, reason);
		fclose(r->json);
	}
	return v.pass ? 0 : 1;
}
