// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cp_answer.c - the answers to the batching RFC's two questions (bench/copy_pages.h's
 * rules) from crafted rows of intervals, each expectation worked out by hand from the rules
 * as that header states them; and the answer row's output: a table line and a record that
 * parses as JSON (tests/host/json_check.h) and calls the candidates candidates.
 */
#include "bench/copy_pages_answer.h"
#include "tests/host/host_test.h"
#include "tests/host/json_check.h"

/* A row: ratio, low and high per form (x1000), and the bodies; unset forms not measured. */
struct spec {
	int q[CP_NR_FORMS][3];
	enum cp_body body[CP_NR_FORMS];
};

static struct cp_row row_of(const struct spec *s)
{
	struct cp_row r;

	memset(&r, 0, sizeof(r));
	for (int f = 0; f < CP_NR_FORMS; f++) {
		r.have[f] = s->q[f][0] != 0;
		r.q[f] = (struct ratio){ .ratio_pm = (u32)s->q[f][0], .lo_pm = (u32)s->q[f][1],
					 .hi_pm = (u32)s->q[f][2],
					 .significant = s->q[f][1] > 1000 || s->q[f][2] < 1000 };
		r.body[f] = s->body[f];
	}
	return r;
}

#define ALL_MOVSB { BODY_MOVSB, BODY_MOVSB, BODY_MOVSB, BODY_MOVSB, BODY_MOVSB, BODY_MOVSB }
#define MC	{ 1100, 1050, 1150 }, { 1100, 1050, 1150 }	/* the two mc forms */

static const struct {
	const char *what;
	struct spec s;
	enum cp_q1 q1;
	bool bulk_regresses;
} q1_cases[] = {
	{ "no folio_copy form's interval above 1; bulk below",
	  { { { 940, 900, 980 }, { 1010, 990, 1030 }, { 1000, 980, 1020 }, { 1005, 995, 1015 },
	      MC }, ALL_MOVSB }, CP_Q1_MC_ONLY, true },
	{ "copy_pages above 1 and above bulk and the page path",
	  { { { 1050, 1000, 1100 }, { 1550, 1500, 1600 }, { 1400, 1350, 1450 },
	      { 1250, 1200, 1300 }, MC }, ALL_MOVSB }, CP_Q1_COPY_PAGES, false },
	{ "the FSRM-keyed copy_pages is the better one and wins",
	  { { { 1020, 1000, 1050 }, { 1000, 900, 1100 }, { 1550, 1500, 1600 },
	      { 1150, 1100, 1200 }, MC }, ALL_MOVSB }, CP_Q1_COPY_PAGES, false },
	{ "page path above bulk, copy_pages not above it",
	  { { { 850, 800, 900 }, { 1250, 1200, 1300 }, { 1240, 1190, 1290 },
	      { 1300, 1250, 1350 }, MC }, ALL_MOVSB }, CP_Q1_MEMCPY_PA, true },
	{ "bulk above 1, nothing above bulk",
	  { { { 1550, 1500, 1600 }, { 1500, 1450, 1550 }, { 1480, 1430, 1530 },
	      { 1530, 1480, 1580 }, MC }, ALL_MOVSB }, CP_Q1_BULK, false },
	{ "copy_pages above bulk only, page path between",
	  { { { 1150, 1100, 1200 }, { 1300, 1250, 1350 }, { 1290, 1240, 1340 },
	      { 1200, 1150, 1260 }, MC }, ALL_MOVSB }, CP_Q1_TIE, false },
	{ "copy_pages not measured",
	  { { { 1150, 1100, 1200 }, { 0 }, { 1290, 1240, 1340 }, { 1200, 1150, 1260 }, MC },
	    ALL_MOVSB }, CP_Q1_UNKNOWN, false },
};

static void test_q1(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(q1_cases); i++) {
		struct cp_row r = row_of(&q1_cases[i].s);
		struct cp_answer a;

		cp_answer(&r, &a);
		CHECK(a.q1 == q1_cases[i].q1, "%s: Q1 %s, want %s", q1_cases[i].what,
		      cp_q1_text(a.q1), cp_q1_text(q1_cases[i].q1));
		CHECK(a.bulk_regresses == q1_cases[i].bulk_regresses, "%s: bulk regresses %d",
		      q1_cases[i].what, a.bulk_regresses);
	}
}

static const struct {
	const char *what;
	struct spec s;
	enum cp_q2 q2;
	int sym;
} q2_cases[] = {
	{ "every body is folio_mc_copy's",
	  { { { 1100, 1050, 1150 }, { 1200, 1150, 1250 }, { 1200, 1150, 1250 },
	      { 1100, 1050, 1150 }, MC }, ALL_MOVSB }, CP_Q2_MOOT, -1 },
	{ "folio_mc_copy is fragile: no folio_copy form runs it",
	  { { { 1100, 1050, 1150 }, { 1200, 1150, 1250 }, { 1200, 1150, 1250 },
	      { 1100, 1050, 1150 }, MC },
	    { BODY_MOVSB, BODY_MOVSB, BODY_MOVSQ, BODY_MOVSB, BODY_FRAGILE, BODY_UNROLLED } },
	  CP_Q2_NONE, -1 },
	{ "copy_pages runs rep movsb as v3 does and ties the best (FSRM key, rep movsq)",
	  { { { 850, 800, 900 }, { 1250, 1200, 1300 }, { 1300, 1250, 1350 },
	      { 1290, 1240, 1340 }, MC },
	    { BODY_ORIG, BODY_MOVSB, BODY_MOVSQ, BODY_MOVSQ, BODY_MOVSB, BODY_MOVSB } },
	  CP_Q2_YES, CP_PAGES },
	{ "v3 ends in memcpy_orig, as bulk memcpy does, and copy_pages beats it",
	  { { { 850, 800, 900 }, { 1250, 1200, 1300 }, { 1250, 1200, 1300 },
	      { 1240, 1190, 1290 }, MC },
	    { BODY_ORIG, BODY_MOVSQ, BODY_MOVSQ, BODY_MOVSQ, BODY_ORIG, BODY_MOVSQ } },
	  CP_Q2_NO, CP_BULK },
	{ "v3 not measured",
	  { { { 850, 800, 900 }, { 1250, 1200, 1300 }, { 1250, 1200, 1300 },
	      { 1240, 1190, 1290 }, { 0 }, { 1100, 1050, 1150 } }, ALL_MOVSB },
	  CP_Q2_UNKNOWN, -1 },
};

static void test_q2(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(q2_cases); i++) {
		struct cp_row r = row_of(&q2_cases[i].s);
		struct cp_answer a;

		cp_answer(&r, &a);
		CHECK(a.q2 == q2_cases[i].q2 && a.sym == q2_cases[i].sym, "%s: Q2 %s (form %d), "
		      "want %s (form %d)", q2_cases[i].what, cp_q2_text(a.q2), a.sym,
		      cp_q2_text(q2_cases[i].q2), q2_cases[i].sym);
	}
}

static void test_mc_pages_beats_v3(void)
{
	struct spec s = { { { 1000, 990, 1010 }, { 1000, 990, 1010 }, { 1000, 990, 1010 },
			    { 1000, 990, 1010 }, { 1050, 1000, 1100 }, { 1250, 1200, 1300 } },
			  ALL_MOVSB };
	struct cp_row r = row_of(&s);
	struct cp_answer a;

	cp_answer(&r, &a);
	CHECK(a.mc_pages_beats_v3, "copy_mc_pages [1.20, 1.30] over v3 [1.00, 1.10]");
	s.q[CP_MC_PAGES][1] = 1090;
	r = row_of(&s);
	cp_answer(&r, &a);
	CHECK(!a.mc_pages_beats_v3, "overlapping intervals: no win");
}

static char lines[8][2048];
static unsigned int nlines;

static void out(const char *l)
{
	if (nlines < ARRAY_SIZE(lines))
		snprintf(lines[nlines], sizeof(lines[0]), "%s", l);
	nlines++;
}

static void test_row_output(void)
{
	struct bench_env env = { .out = out, .machine = "test machine \"quoted\"" };
	struct cp_row r = row_of(&q1_cases[1].s);

	nlines = 0;
	cp_answer_header(&env);
	cp_answer_row(&env, "zen3-rfc", 2 << 20, BENCH_COLD, &r);
	CHECK(nlines == 6, "4 header lines, the row and its record: %u", nlines);
	CHECK(strstr(lines[0], "candidate = the project's, not Linux") != NULL, "header says so");
	CHECK(!strncmp(lines[4], "zen3-rfc   2M    cold  1.05x    1.55x*   1.40x*   1.25x*   |",
		       59), "row: %s", lines[4]);
	CHECK(strstr(lines[4], "copy_pages(): beats bulk memcpy") != NULL, "row's Q1: %s",
	      lines[4]);
	CHECK(jc_valid(lines[5]), "the record parses: %s", lines[5]);
	CHECK(strstr(lines[5], "\"kind\":\"copy_pages_answer\"") &&
	      strstr(lines[5], "\"candidate_copy_pages\":{\"ratio_x1000\":1550") &&
	      strstr(lines[5], "\"resolution\":\"zen3-rfc\""), "record fields: %s", lines[5]);
}

int main(void)
{
	return RUN_TESTS(test_q1, test_q2, test_mc_pages_beats_v3, test_row_output);
}
