// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_nodes.c - the soak's verdict per node (soak/ledger.c soak_judge_node) and the
 * KTAP document and LAVA lines that carry it (soak/report.c soak_ktap_text), and each CPU's
 * pass line and record (soak_cpu_text, soak_cpu_json).
 *
 * The where-map: node 0 with one soak range [16 MiB, 512 MiB), node 1 with two, [512 MiB,
 * 768 MiB) and [768 MiB, 1 GiB), an SRAT that gives node 0 [0, 512 MiB) and node 1
 * [512 MiB, 1280 MiB), no DIMM map: a bucket is a node's range (or the node outside its
 * ranges). The expected results come from the rules as ledger.h states them, applied here
 * by hand (the cases: 12 corrected errors in two buckets of 6 on node 1 pass, and a
 * clean node passes while another fails) and by a model written here that counts events by
 * place on its own (the random ledgers), never from the ledger's own sums.
 */
#include "soak/report.h"
#include "tests/host/host_test.h"

#define MiB	(1ULL << 20)
#define ST_CE	0x9c0000000000009fULL	/* VAL EN MISCV ADDRV, memory controller read */
#define ADDRV	(1ULL << 58)
#define MISC_64	0x86ULL

static struct soak_plan plan;
static const struct numa_info srat = {
	.nr_nodes = 2, .nr_ranges = 2, .from_srat = true,
	.range = { { 0, 512 * MiB, 0, false, false }, { 512 * MiB, 1280 * MiB, 1, false, false } },
};
static struct soak_where_map map = { &plan, &srat, NULL, NULL, NULL };
static struct soak_totals tot;
static char text[4096];

static void setup(void)
{
	static const struct soak_range r[] = {
		{ 16 * MiB, 496 * MiB, 0 }, { 512 * MiB, 256 * MiB, 1 }, { 768 * MiB, 256 * MiB, 1 },
	};
	static const u8 cpus[] = { 0, 0, 1, 1 };
	struct soak_plan_in in = { r, 3, cpus, 4, 2, NULL, 0 };
	const char *why;

	if (soak_plan_make(&in, &plan, &why)) {
		printf("# set-up failed: %s\n", why);
		exit(1);
	}
}

static void ce(struct soak_ledger *l, u16 cpu, u16 bank, u64 addr)
{
	struct soak_mca m = { bank, ST_CE, addr, MISC_64, false, false, false, false, 0, 0, -1 };

	soak_ledger_mca(l, 1, cpu, SOAK_EV_CORRECTED, &m);
}

static void fold(struct soak_ledger *a, struct soak_ledger *b, struct soak_verdict *v)
{
	soak_totals_init(&tot);
	tot.bytes_verified = 1 << 20;
	soak_totals_add(&tot, a);
	soak_totals_add(&tot, b);
	soak_judge(&tot, v);
}

static const char *ktap(const struct soak_verdict *v, u32 run_nodes, const char *why)
{
	soak_ktap_text(&tot, v, &map, 2, run_nodes, why, text, sizeof(text));
	return text;
}

#define HEAD	"KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: soak\n    1..2\n"
#define NODE0_OK	"    ok 1 node0\n    # ck-lava <soak.node0 pass>\n"
#define NODE1_OK	"    ok 2 node1\n    # ck-lava <soak.node1 pass>\n"

/* The case: 12 corrected errors on node 1, 6 in each of its ranges. */
static void test_two_buckets_of_six_pass_everywhere(void)
{
	struct soak_ledger a, b;
	struct soak_verdict v, n0, n1;

	soak_ledger_init(&a, NULL, 0, &map);
	soak_ledger_init(&b, NULL, 0, &map);
	for (int i = 0; i < 6; i++) {
		ce(&a, 2, (u16)(2 + i), 600 * MiB + 64 * (u64)i);
		ce(&b, 3, (u16)(2 + i), 900 * MiB + 64 * (u64)i);
	}
	fold(&a, &b, &v);
	soak_judge_node(&tot, 0, &n0);
	soak_judge_node(&tot, 1, &n1);
	CHECK(v.pass && n0.pass && n1.pass, "soak %d node0 %d node1 %d", v.pass, n0.pass,
	      n1.pass);
	CHECK(!strcmp(ktap(&v, 0, NULL), HEAD NODE0_OK NODE1_OK "ok 1 soak\n"), "%s", text);
	soak_summary_text(&tot, &v, &map, text, sizeof(text));
	CHECK(strstr(text, "result=PASS") && strstr(text, " corrected=12 "), "%s", text);
}

/* One more in node 1's first range: 7 there... and 11 in one bucket fails node 1 alone. */
static void test_a_failing_node_leaves_the_clean_one_passing(void)
{
	struct soak_ledger a, b;
	struct soak_verdict v, n0, n1;

	soak_ledger_init(&a, NULL, 0, &map);
	soak_ledger_init(&b, NULL, 0, &map);
	for (int i = 0; i < 11; i++)
		ce(i & 1 ? &a : &b, 2, 4, 600 * MiB + 64 * (u64)i);
	ce(&a, 0, 2, 100 * MiB);		/* node 0: one corrected error, no failure */
	fold(&a, &b, &v);
	soak_judge_node(&tot, 0, &n0);
	soak_judge_node(&tot, 1, &n1);
	CHECK(!v.pass && n0.pass && !n1.pass && n1.count == 11 && n1.limit == 10,
	      "soak %d node0 %d node1 %d (%llu)", v.pass, n0.pass, n1.pass,
	      (unsigned long long)n1.count);
	CHECK(!strcmp(ktap(&v, 0, NULL), HEAD NODE0_OK
		      "    # node1: corrected errors above the threshold in one DIMM or node "
		      "range: 11 > 10 in node 1 range 0x20000000-0x2fffffff (no DIMM map from "
		      "firmware)\n    not ok 2 node1\n    # ck-lava <soak.node1 fail>\n"
		      "not ok 1 soak\n"), "%s", text);
}

/* Each node's own events: a stuck CPU fails its node, a miscompare the node of its address. */
static void test_events_fail_their_own_node(void)
{
	struct soak_ledger a, b;
	struct soak_verdict v, n0, n1;

	soak_ledger_init(&a, NULL, 0, &map);
	soak_ledger_init(&b, NULL, 0, &map);
	soak_ledger_stuck(&a, 5, 1, 0, 0x1000);
	fold(&a, &b, &v);
	soak_judge_node(&tot, 0, &n0);
	soak_judge_node(&tot, 1, &n1);
	CHECK(!v.pass && !n0.pass && n1.pass, "stuck CPU 1 of node 0");
	soak_ledger_miscompare(&b, 6, 3, 0x2100000, 1, 3, &(struct soak_writer){ 0, 0, -1 },
			       false, 0);
	fold(&a, &b, &v);
	soak_judge_node(&tot, 1, &n1);
	CHECK(n1.pass, "a miscompare at 0x2100000 (node 0) found by CPU 3 (node 1) failed node 1");
	CHECK(strstr(ktap(&v, 0, NULL), "    # node0: miscompare (1)\n    not ok 1 node0\n") &&
	      strstr(text, NODE1_OK "not ok 1 soak\n"), "%s", text);
}

/* Each node's diagnostic names that node's earliest event; the summary the soak's. */
static void test_a_node_names_its_own_first_event(void)
{
	static struct soak_event ea[4], eb[4];
	struct soak_ledger a, b;
	struct soak_verdict v, n0;

	soak_ledger_init(&a, ea, 4, &map);
	soak_ledger_init(&b, eb, 4, &map);
	soak_ledger_poison(&a, 900, 0, 0x2000040, 6);
	soak_ledger_poison(&b, 500, 2, 0x30000000, 6);
	fold(&a, &b, &v);
	soak_judge_node(&tot, 0, &n0);
	soak_verdict_text(&tot, &v, &map, text, sizeof(text));
	CHECK(!strcmp(text, "uncorrected error (recovered) (2), the first at 0x30000000 on CPU 2"),
	      "%s", text);
	soak_verdict_text(&tot, &n0, &map, text, sizeof(text));
	CHECK(!strcmp(text, "uncorrected error (recovered) (1), the first at 0x2000040 on CPU 0"),
	      "%s", text);
	CHECK(strstr(ktap(&v, 0, NULL), "    # node0: uncorrected error (recovered) (1), the first "
		     "at 0x2000040 on CPU 0\n    not ok 1 node0\n") &&
	      strstr(text, "    # node1: uncorrected error (recovered) (1), the first at 0x30000000 "
		     "on CPU 2\n    not ok 2 node1\n"), "%s", text);
}

/* A failure no node holds: corrected errors without an address, a coverage rule. */
static void test_a_failure_of_no_node(void)
{
	struct soak_ledger a, b;
	struct soak_verdict v, n0, n1;
	struct soak_mca m = { 3, ST_CE & ~ADDRV, 0, 0, false, false, false, false, 0, 0, -1 };

	soak_ledger_init(&a, NULL, 0, &map);
	soak_ledger_init(&b, NULL, 0, &map);
	for (int i = 0; i < 11; i++)
		soak_ledger_mca(i & 1 ? &a : &b, 1, 0, SOAK_EV_CORRECTED, &m);
	fold(&a, &b, &v);
	soak_judge_node(&tot, 0, &n0);
	soak_judge_node(&tot, 1, &n1);
	CHECK(!v.pass && n0.pass && n1.pass, "11 corrected without an address");
	CHECK(!strcmp(ktap(&v, 0, NULL), HEAD NODE0_OK NODE1_OK
		      "    # the soak fails on no one node: corrected errors above the threshold "
		      "in one DIMM or node range: 11 > 10 in no address\nnot ok 1 soak\n"),
	      "%s", text);
	soak_ledger_init(&a, NULL, 0, &map);
	soak_ledger_init(&b, NULL, 0, &map);
	fold(&a, &b, &v);
	v = (struct soak_verdict){ .rule = -1, .bucket = -1,
				   .run_reason = "a CPU did not touch all its pages in a whole pass" };
	CHECK(!strcmp(ktap(&v, 2, v.run_reason), HEAD NODE0_OK
		      "    # node1: a CPU did not touch all its pages in a whole pass\n"
		      "    not ok 2 node1\n    # ck-lava <soak.node1 fail>\nnot ok 1 soak\n"),
	      "%s", text);
}

/* ---- random ledgers against a model that counts by place ------------------------------ */

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * Places: 0-2 the soak ranges, 3 node 0 outside them, 4 node 1 outside them, 5 no address
 * (drawn four times as often, so that failures of no node are common).
 */
static const u64 place_addr[] = { 100 * MiB, 600 * MiB, 900 * MiB, 0x100000, 1100 * MiB, 0 };
static const int place_node[] = { 0, 1, 1, 0, 1, -1 };

struct model {
	u64 ce[6];		/* corrected errors by place */
	bool bad[3];		/* a failing kind on node 0, node 1, or no node (index 2) */
};

static void random_event(struct soak_ledger *l, struct model *md, u16 cpu)
{
	unsigned int draw = (unsigned int)(next() % 9), kind = (unsigned int)(next() % 20);
	unsigned int place = draw < 5 ? draw : 5;
	int node = place_node[place];
	struct soak_mca m = { 1, ST_CE, place_addr[place], MISC_64, false, false, false, false,
			      0, 0, -1 };

	if (place == 5)
		m.status &= ~ADDRV;
	if (kind < 17) {
		soak_ledger_mca(l, 1, cpu, SOAK_EV_CORRECTED, &m);
		md->ce[place]++;
	} else if (kind == 17) {
		m.status |= 1ULL << 61;		/* UC */
		soak_ledger_mca(l, 1, cpu, SOAK_EV_DEFERRED, &m);
		md->bad[node < 0 ? 2 : node] = true;
	} else if (kind == 18) {
		u8 n = (u8)(next() % 2);

		soak_ledger_stuck(l, 1, cpu, n, 0x1000);
		md->bad[n] = true;
	} else if (place != 5) {
		soak_ledger_retire(l, 1, cpu, place_addr[place], SOAK_EV_MISCOMPARE);
	}
}

static void test_random_ledgers_agree_with_a_model(void)
{
	static struct soak_event ea[4], eb[4];
	unsigned int trials = 3000, fails[3] = { 0 };

	for (unsigned int t = 0; t < trials; t++) {
		struct soak_ledger a, b;
		struct soak_verdict v, nv[2];
		struct model md;
		unsigned int n = (unsigned int)(next() % 24);
		u32 threshold = (u32)(next() % 4) + 1;
		bool model_node[2], model_soak;

		memset(&md, 0, sizeof(md));

		/* small stores: most entries go unstored, the verdicts must not care */
		soak_ledger_init(&a, ea, 4, &map);
		soak_ledger_init(&b, eb, 4, &map);
		for (unsigned int i = 0; i < n; i++)
			random_event(next() & 1 ? &a : &b, &md, (u16)(next() % 4));
		soak_totals_init(&tot);
		tot.bytes_verified = 4096;
		tot.ce_threshold = threshold;
		soak_totals_add(&tot, &a);
		soak_totals_add(&tot, &b);
		soak_judge(&tot, &v);
		model_soak = !md.bad[0] && !md.bad[1] && !md.bad[2];
		for (int p = 0; p < 6; p++)
			model_soak &= md.ce[p] <= threshold;
		for (unsigned int node = 0; node < 2; node++) {
			model_node[node] = !md.bad[node];
			for (int p = 0; p < 5; p++)
				if (place_node[p] == (int)node)
					model_node[node] &= md.ce[p] <= threshold;
			soak_judge_node(&tot, node, &nv[node]);
			CHECK(nv[node].pass == model_node[node], "trial %u node %u: %d, the model %d",
			      t, node, nv[node].pass, model_node[node]);
			CHECK(v.pass || !nv[node].pass || model_node[node],
			      "trial %u: node %u passes what fails", t, node);
			CHECK(nv[node].pass || !v.pass, "trial %u: node %u fails a passing soak", t,
			      node);
			fails[node] += !nv[node].pass;
		}
		CHECK(v.pass == model_soak, "trial %u: soak %d, the model %d", t, v.pass,
		      model_soak);
		fails[2] += !v.pass && nv[0].pass && nv[1].pass;
	}
	CHECK(fails[0] > 100 && fails[1] > 100 && fails[2] > 100,
	      "the trials reach every case: node 0 failed %u, node 1 %u, no node %u", fails[0],
	      fails[1], fails[2]);
}

/* ---- each CPU's passes --------------------------------------------------------------- */

static bool json_balanced(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		depth += *s == '{';
		depth -= *s == '}';
		if (depth < 0)
			return false;
	}
	return depth == 0;
}

static void test_cpu_lines(void)
{
	struct soak_cpu_figures f = { .cpu = 1, .node = 0, .passes = 2, .pages = 63533,
				      .first_ns = 12345000000ULL, .min_ns = 12001000000ULL,
				      .max_ns = 12345000000ULL, .done_ns = 24400000000ULL };

	soak_cpu_text(&f, text, sizeof(text));
	CHECK(!strcmp(text, "soak: CPU 1 (node 0): 2 whole passes over 63533 pages (248.1 MiB), "
		      "the first in 12.345s (fastest 12.001s, slowest 12.345s); done 24.400s into "
		      "the soak"), "%s", text);
	soak_cpu_json(&f, text, sizeof(text));
	CHECK(json_balanced(text) && strstr(text, "\"kind\":\"soak_cpu\",\"cpu\":1,\"node\":0,"
		     "\"stuck\":false,\"passes\":2,\"pages\":63533,\"first_pass_ns\":12345000000,"
		     "\"min_pass_ns\":12001000000,\"max_pass_ns\":12345000000,"
		     "\"done_ns\":24400000000}"), "%s", text);
	f.passes = 0;
	f.pages = 1;
	soak_cpu_text(&f, text, sizeof(text));
	CHECK(!strcmp(text, "soak: CPU 1 (node 0): 0 whole passes over 1 pages (0.0 MiB); done "
		      "24.400s into the soak"), "%s", text);
	soak_cpu_json(&f, text, sizeof(text));
	CHECK(strstr(text, "\"first_pass_ns\":null,\"min_pass_ns\":null,\"max_pass_ns\":null"),
	      "%s", text);
	f.stuck = true;
	soak_cpu_text(&f, text, sizeof(text));
	CHECK(!strcmp(text, "soak: CPU 1 (node 0): stuck (the watchdog's), 0 whole passes "
		      "before"), "%s", text);
	soak_cpu_json(&f, text, sizeof(text));
	CHECK(strstr(text, "\"stuck\":true") && strstr(text, "\"done_ns\":null"), "%s", text);
}

int main(void)
{
	setup();
	return RUN_TESTS(test_two_buckets_of_six_pass_everywhere,
			 test_a_failing_node_leaves_the_clean_one_passing,
			 test_events_fail_their_own_node, test_a_node_names_its_own_first_event,
			 test_a_failure_of_no_node,
			 test_random_ledgers_agree_with_a_model, test_cpu_lines);
}
