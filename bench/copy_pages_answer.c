// SPDX-License-Identifier: GPL-2.0-only
/*
 * copy_pages_answer.c - the batching RFC's two questions answered from one row of measured
 * intervals (the rules are in bench/copy_pages.h), and the answer table that prints them.
 * Plain C over integers: built into the image and into the host tests.
 */
#include "bench/copy_pages_answer.h"
#include "kernel/lib/format.h"
#include "kernel/lib/json.h"

const char *const cp_body_names[NR_BODIES] = {
	"rep movsb", "rep movsq", "unrolled movq", "memcpy_orig", "copy_mc_fragile", "NT stores",
};

const char *const cp_form_names[CP_NR_FORMS] = {
	"bulk memcpy (RFC)", "candidate copy_pages", "candidate copy_pages (FSRM key)",
	"candidate memcpy page path", "v3 batched copy_mc", "candidate copy_mc_pages",
};

static bool gains(const struct cp_row *r, int f)
{
	return r->have[f] && r->q[f].lo_pm > 1000;
}

static bool beats(const struct cp_row *r, int a, int b)
{
	return r->have[a] && r->have[b] && r->q[a].lo_pm > r->q[b].hi_pm;
}

static enum cp_q1 answer_q1(const struct cp_row *r)
{
	int cp = CP_PAGES;

	for (int f = 0; f < CP_NR_COPY_FORMS; f++)
		if (!r->have[f])
			return CP_Q1_UNKNOWN;
	if (r->q[CP_PAGES_FSRM].ratio_pm > r->q[CP_PAGES].ratio_pm)
		cp = CP_PAGES_FSRM;
	if (!gains(r, CP_BULK) && !gains(r, CP_PAGES) && !gains(r, CP_PAGES_FSRM) &&
	    !gains(r, CP_MEMCPY_PA))
		return CP_Q1_MC_ONLY;
	if (gains(r, cp) && beats(r, cp, CP_BULK) && beats(r, cp, CP_MEMCPY_PA))
		return CP_Q1_COPY_PAGES;
	if (gains(r, CP_MEMCPY_PA) && beats(r, CP_MEMCPY_PA, CP_BULK) &&
	    !beats(r, cp, CP_MEMCPY_PA))
		return CP_Q1_MEMCPY_PA;
	if (gains(r, CP_BULK) && !beats(r, cp, CP_BULK) && !beats(r, CP_MEMCPY_PA, CP_BULK))
		return CP_Q1_BULK;
	return CP_Q1_TIE;
}

/* The highest-ratio folio_copy form, among those running @body (NR_BODIES: any); -1: none. */
static int best_of(const struct cp_row *r, enum cp_body body)
{
	int best = -1;

	for (int f = 0; f < CP_NR_COPY_FORMS; f++)
		if ((body == NR_BODIES || r->body[f] == body) &&
		    (best < 0 || r->q[f].ratio_pm > r->q[best].ratio_pm))
			best = f;
	return best;
}

static enum cp_q2 answer_q2(const struct cp_row *r, struct cp_answer *a)
{
	enum cp_body mc = r->body[CP_MC_V3];
	bool all_same = true;

	a->sym = -1;
	for (int f = 0; f < CP_NR_COPY_FORMS; f++)
		if (!r->have[f])
			return CP_Q2_UNKNOWN;
	if (!r->have[CP_MC_V3])
		return CP_Q2_UNKNOWN;
	for (int f = 0; f < CP_NR_COPY_FORMS; f++)
		all_same &= r->body[f] == mc;
	if (all_same)
		return CP_Q2_MOOT;
	a->sym = best_of(r, mc);
	if (a->sym < 0)
		return CP_Q2_NONE;
	return beats(r, a->best, a->sym) ? CP_Q2_NO : CP_Q2_YES;
}

void cp_answer(const struct cp_row *row, struct cp_answer *a)
{
	*a = (struct cp_answer){ .best = CP_BULK, .sym = -1 };
	if (best_of(row, NR_BODIES) >= 0)
		a->best = (enum cp_form)best_of(row, NR_BODIES);
	a->q1 = answer_q1(row);
	a->q2 = answer_q2(row, a);
	a->bulk_regresses = row->have[CP_BULK] && row->q[CP_BULK].hi_pm < 1000;
	a->mc_pages_beats_v3 = beats(row, CP_MC_PAGES, CP_MC_V3);
}

const char *cp_q1_text(enum cp_q1 q)
{
	switch (q) {
	case CP_Q1_MC_ONLY:	return "just folio_mc_copy(): folio_copy gains nothing";
	case CP_Q1_COPY_PAGES:	return "copy_pages(): beats bulk memcpy and memcpy's page path";
	case CP_Q1_MEMCPY_PA:	return "no helper: memcpy's page path suffices";
	case CP_Q1_BULK:	return "no helper: the RFC's bulk memcpy suffices";
	case CP_Q1_TIE:		return "batch folio_copy: no helper clearly best";
	default:		return "unknown (a form was not measured)";
	}
}

const char *cp_q2_text(enum cp_q2 q)
{
	switch (q) {
	case CP_Q2_MOOT:	return "moot: same body already";
	case CP_Q2_NONE:	return "no folio_copy form runs folio_mc_copy's body";
	case CP_Q2_YES:		return "yes: folio_mc_copy's body ties or wins";
	case CP_Q2_NO:		return "no: another body is faster";
	default:		return "unknown (a form was not measured)";
	}
}

/* "1.02x*" (interval above 1), "0.89x-" (below 1), "1.00x" (neither), "  -  " (none). */
static void cell(const struct cp_row *r, int f, char *buf, size_t size)
{
	const struct ratio *q = &r->q[f];
	unsigned int pm = q->ratio_pm + 5;	/* rounded to two decimals */

	if (!r->have[f]) {
		ck_snprintf(buf, size, "  n/a");
		return;
	}
	ck_snprintf(buf, size, "%u.%02ux%s", pm / 1000, (pm % 1000) / 10,
		    q->lo_pm > 1000 ? "*" : q->hi_pm < 1000 ? "-" : "");
}

void cp_answer_header(const struct bench_env *env)
{
	bench_outf(env, "copy_pages: the RFC's two questions, row by row (each ratio: the form "
		   "against its API's per-page loop; * its interval lies above 1, - below 1; "
		   "candidate = the project's, not Linux)");
	bench_outf(env, "Q1: \"Should we introduce copy_pages() infrastructure for folio copy "
		   "optimisation, or just patch folio_mc_copy()?\"");
	bench_outf(env, "Q2: \"Should folio_copy() and folio_mc_copy() use symmetric primitive "
		   "selection?\"");
	bench_outf(env, "%-10s %-5s %-5s %-8s %-8s %-8s %-8s | %-8s %-8s | %-56s | %s",
		   "resolution", "folio", "mode", "bulk", "cand:cp", "cand:cpF", "cand:pa", "v3",
		   "cand:mcp", "Q1", "Q2");
}

static void answer_record(const struct bench_env *env, const char *resolution, u64 bytes,
			  enum bench_mode m, const struct cp_row *row, const struct cp_answer *a)
{
	static const char *const keys[CP_NR_FORMS] = {
		"bulk", "candidate_copy_pages", "candidate_copy_pages_fsrm",
		"candidate_memcpy_pa", "v3", "candidate_copy_mc_pages",
	};
	struct json_writer w;
	char line[1536];

	json_record(&w, line, sizeof(line), "copy_pages_answer");
	json_str(&w, "machine", env->machine ? env->machine : "");
	json_str(&w, "resolution", resolution);
	json_u64(&w, "size", bytes);
	json_str(&w, "mode", bench_mode_name(m));
	for (int f = 0; f < CP_NR_FORMS; f++) {
		json_obj_begin(&w, keys[f]);
		if (row->have[f]) {
			json_u64(&w, "ratio_x1000", row->q[f].ratio_pm);
			json_u64(&w, "ci_lo_x1000", row->q[f].lo_pm);
			json_u64(&w, "ci_hi_x1000", row->q[f].hi_pm);
			json_str(&w, "body", cp_body_names[row->body[f]]);
		} else {
			json_null(&w, "ratio_x1000");
		}
		json_obj_end(&w);
	}
	json_str(&w, "q1", cp_q1_text(a->q1));
	json_str(&w, "q2", cp_q2_text(a->q2));
	json_bool(&w, "bulk_regresses", a->bulk_regresses);
	json_bool(&w, "candidate_copy_mc_pages_beats_v3", a->mc_pages_beats_v3);
	json_end(&w);
	env->out(line);
}

void cp_answer_row(const struct bench_env *env, const char *resolution, u64 bytes,
		   enum bench_mode m, const struct cp_row *row)
{
	char c[CP_NR_FORMS][16], sz[16], q2[192];
	struct cp_answer a;

	cp_answer(row, &a);
	for (int f = 0; f < CP_NR_FORMS; f++)
		cell(row, f, c[f], sizeof(c[f]));
	bench_fmt_size(bytes, sz, sizeof(sz));
	if (a.q2 == CP_Q2_YES || a.q2 == CP_Q2_NO)
		ck_snprintf(q2, sizeof(q2), "%s (%s: %s; best %s)", cp_q2_text(a.q2),
			    cp_form_names[a.sym], cp_body_names[row->body[CP_MC_V3]],
			    cp_form_names[a.best]);
	else
		ck_snprintf(q2, sizeof(q2), "%s", cp_q2_text(a.q2));
	bench_outf(env, "%-10s %-5s %-5s %-8s %-8s %-8s %-8s | %-8s %-8s | %-56s | %s%s%s",
		   resolution, sz, m == BENCH_COLD ? "cold" : "hot", c[CP_BULK], c[CP_PAGES],
		   c[CP_PAGES_FSRM], c[CP_MEMCPY_PA], c[CP_MC_V3], c[CP_MC_PAGES],
		   cp_q1_text(a.q1), q2, a.bulk_regresses ? "; bulk memcpy regresses" : "",
		   a.mc_pages_beats_v3 ? "; copy_mc_pages beats v3" : "");
	answer_record(env, resolution, bytes, m, row, &a);
}
