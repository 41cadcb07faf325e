// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_coverage.c - what the soak's passes find: random instances of every fault class
 * the memory-test literature names, injected one at a time into a simulated memory
 * (tests/host/sim_mem.h: the fault rules written from the literature's definitions, the
 * oracle), and the soak's own passes run over it (tests/host/sim_soak.h: the image's plan,
 * schedule and elements, soak/march.c, through the seam). An instance counts for a pass when
 * that pass reports a wrong word at the fault's address with the fault's bit differing (an
 * address fault: both addresses named, by the words found or by their address data).
 *
 * The table it prints (and pins, below; docs/user/soak.md holds the same, checked here) has
 * one column per row of the schedule, run once each in order from pass 0 on one CPU, and one
 * for them all; the first pass must find every stuck-at, transition, address-decoder and
 * unlinked coupling instance. A second table runs two CPUs taking turns piece by piece, for
 * the faults between two CPUs' memories.
 *
 *	build/host/test_soak_coverage			the test
 *	build/host/test_soak_coverage --doc FILE	rewrite FILE's table (make coverage-doc)
 */
#include <stdio.h>

#include "kernel/include/page_types.h"
#include "soak/report.h"
#include "tests/host/host_test.h"
#include "tests/host/sim_soak.h"

#define BASE		0x40000000ULL
#define BYTES		((2ULL << 20) + 3 * 4096)	/* two 1 MiB chunks and a cut one */
#define INSTANCES	100
#define ROWS_MAX	8
/* one sweep over the simulated memory lasts as one over 1 GiB at 10 GB/s would: 0.1 s */
#define NS_PER_OP	(100000000ULL / (BYTES / 8))
#define FADE_NS		(240ULL * 1000000000ULL)
#define DOC_BEGIN	"<!-- coverage table: test_soak_coverage writes it -->"
#define DOC_END		"<!-- coverage table end -->"

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static u64 any_word(void)
{
	return BASE + 8 * (next() % (BYTES / 8));
}

/* Two CPUs: where CPU 0's memory ends and CPU 1's begins (their slices are contiguous). */
static u64 cpu1_start;

/* A word of CPU @cpu's memory, of two. */
static u64 cpu_word(unsigned int cpu)
{
	u64 lo = cpu ? cpu1_start : BASE, hi = cpu ? BASE + BYTES : cpu1_start;

	return lo + 8 * (next() % ((hi - lo) / 8));
}

/* The classes of the table: a fault kind, and how its instances are drawn. */
enum draw { ANY, INTRA, INTER };
static bool across;	/* two addresses of a fault: on two CPUs, one each */
struct class {
	const char *name;
	enum sim_fault_kind kind;
	enum draw draw;
	bool first_all;		/* pass 0 must find every instance */
};

static const struct class classes[] = {
	{ "stuck-at 0 or 1", SIM_SAF, ANY, true },
	{ "transition up or down", SIM_TF, ANY, true },
	{ "address: no cell", SIM_AF_NONE, ANY, true },
	{ "address: two addresses, one cell", SIM_AF_ALIAS, ANY, true },
	{ "address: one address, two cells", SIM_AF_MULTI, ANY, true },
	{ "coupling inversion, in a word", SIM_CFIN, INTRA, true },
	{ "coupling inversion, between words", SIM_CFIN, INTER, true },
	{ "coupling idempotent, in a word", SIM_CFID, INTRA, true },
	{ "coupling idempotent, between words", SIM_CFID, INTER, true },
	{ "coupling state, in a word", SIM_CFST, INTRA, true },
	{ "coupling state, between words", SIM_CFST, INTER, true },
	{ "read destructive", SIM_RDF, ANY, false },
	{ "deceptive read destructive", SIM_DRDF, ANY, false },
	{ "write disturb", SIM_WDF, ANY, false },
	{ "data retention, 1 ms to 1000 s", SIM_DRF, ANY, false },
	{ "neighbourhood pattern, static", SIM_SNPSF, ANY, false },
	{ "neighbourhood pattern, active", SIM_ANPSF, ANY, false },
};
#define NR_CLASSES	ARRAY_SIZE(classes)

static struct sim_fault draw(const struct class *c)
{
	struct sim_fault f = { .kind = c->kind, .v = any_word(), .vbit = next() % 64,
			       .x = next() & 1, .s = next() & 1, .up = next() & 1 };

	f.a = f.v;
	f.abit = f.vbit;
	switch (c->kind) {
	case SIM_CFIN:
	case SIM_CFID:
	case SIM_CFST:
		if (c->draw == INTRA) {
			while (f.abit == f.vbit)
				f.abit = next() % 64;
		} else {
			while (f.a == f.v)
				f.a = any_word();
			f.abit = next() % 64;
		}
		break;
	case SIM_AF_ALIAS:
	case SIM_AF_MULTI:
		while (f.a == f.v)
			f.a = any_word();
		break;
	case SIM_DRF:
		/* log-uniform from 1 ms to 1000 s */
		f.t_ns = 1000000ULL;
		for (unsigned int k = next() % 6; k; k--)
			f.t_ns *= 10;
		f.t_ns += next() % (f.t_ns * 9);
		break;
	case SIM_SNPSF:
	case SIM_ANPSF:
		while (f.v < BASE + 8 || f.v + 8 >= BASE + BYTES)
			f.v = any_word();
		f.a = f.v;
		f.vbit = 1 + next() % 62;
		f.pattern = next() % 16;
		f.which = next() % 4;
		break;
	default:
		break;
	}
	if (across && f.a != f.v) {
		unsigned int first = next() & 1;

		f.a = cpu_word(first);
		f.v = cpu_word(!first);
	}
	return f;
}

/* The addresses a wrong word names: its own, and the soak address its address data is. */
static unsigned int named(const struct soak_found *f, u64 *addr)
{
	u64 inv = f->w.pat & 1 ? ~0ULL : 0, v = f->actual ^ inv;
	unsigned int n = 0;

	addr[n++] = f->poison ? f->pa & ~63ULL : f->pa;
	if ((f->w.pat & ~1u) == SOAK_PAT_ADDRESS && !(v & 7) && v >= BASE && v < BASE + BYTES)
		addr[n++] = v;
	return n;
}

/* Did the finds @f[0..n) report @flt exactly? */
static bool found_it(const struct sim_fault *flt, const struct soak_found *f, unsigned int n)
{
	bool a = false, v = false;

	for (unsigned int i = 0; i < n; i++) {
		u64 addr[2];
		unsigned int k = named(&f[i], addr);

		if (f[i].poison)
			continue;
		for (unsigned int j = 0; j < k; j++) {
			a |= addr[j] == flt->a;
			v |= addr[j] == flt->v;
		}
		if (flt->kind == SIM_AF_NONE && f[i].pa == flt->a)
			return true;
		if (flt->kind != SIM_AF_ALIAS && flt->kind != SIM_AF_MULTI &&
		    flt->kind != SIM_AF_NONE && f[i].pa == flt->v &&
		    ((f[i].expected ^ f[i].actual) >> flt->vbit & 1))
			return true;
	}
	return (flt->kind == SIM_AF_ALIAS || flt->kind == SIM_AF_MULTI) && a && v;
}

static unsigned int nr_rows;
static unsigned int hits[2][NR_CLASSES][ROWS_MAX + 1];	/* [cpus][class][row; all] */

static void run_class(unsigned int t, unsigned int cpus, const struct class *c)
{
	static struct sim_soak s;
	unsigned int ci = (unsigned int)(c - classes);

	for (unsigned int i = 0; i < INSTANCES; i++) {
		struct sim_fault f = draw(c);
		bool any = false;

		sim_soak_init(&s, BASE, BYTES, cpus, 1ULL << 20, false);
		s.mem.ns_per_op = NS_PER_OP;
		s.fade_ns = FADE_NS;
		sim_set_fault(&s.mem, &f);
		for (u32 pass = 0; pass < nr_rows; pass++) {
			bool hit;

			s.nr_found = 0;
			sim_soak_passes(&s, pass, pass + 1);
			hit = found_it(&f, s.found, s.nr_found);
			hits[t][ci][pass] += hit;
			any |= hit;
		}
		hits[t][ci][ROWS_MAX] += any;
		sim_soak_free(&s);
	}
}

/* The table as docs/user/soak.md shows it: percentages of the instances. */
static size_t table_text(unsigned int t, char *buf, size_t size)
{
	size_t n = 0;

#define OUT(...) (n += (size_t)snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__))
	OUT("| fault (%u random instances each) |", INSTANCES);
	for (unsigned int r = 0; r < nr_rows; r++)
		OUT(" pass %u %s |", r, soak_schedule[r].name);
	OUT(" all |\n|---|");
	for (unsigned int r = 0; r <= nr_rows; r++)
		OUT("---:|");
	OUT("\n");
	for (unsigned int c = 0; c < NR_CLASSES; c++) {
		if (t && classes[c].draw != INTER && classes[c].kind != SIM_AF_ALIAS &&
		    classes[c].kind != SIM_AF_MULTI)
			continue;
		OUT("| %s |", classes[c].name);
		for (unsigned int r = 0; r < nr_rows; r++)
			OUT(" %u%% |", hits[t][c][r] * 100 / INSTANCES);
		OUT(" %u%% |\n", hits[t][c][ROWS_MAX] * 100 / INSTANCES);
	}
	return n;
#undef OUT
}

/*
 * The pinned figures, one CPU: instances found (of INSTANCES) by pass 0 march, 1 random,
 * 2 walking, 3 zeros, 4 fade, and all. A change to the schedule or the passes changes them.
 */
static const unsigned int pinned[NR_CLASSES][6] = {
	{ 100, 100, 100, 100, 100, 100 },	/* stuck-at */
	{ 100, 100, 100, 100, 100, 100 },	/* transition */
	{ 100, 100, 100, 100, 100, 100 },	/* address: no cell */
	{ 100, 100, 100, 98, 0, 100 },		/* address: two addresses, one cell */
	{ 100, 100, 82, 72, 0, 100 },		/* address: one address, two cells */
	{ 100, 87, 100, 100, 100, 100 },	/* coupling inversion, in a word */
	{ 100, 81, 87, 90, 100, 100 },		/* ... between words */
	{ 100, 49, 63, 49, 49, 100 },		/* coupling idempotent, in a word */
	{ 100, 45, 39, 43, 65, 100 },		/* ... between words */
	{ 100, 65, 63, 55, 55, 100 },		/* coupling state, in a word */
	{ 100, 79, 82, 74, 100, 100 },		/* ... between words */
	{ 100, 100, 100, 100, 100, 100 },	/* read destructive */
	{ 100, 51, 77, 76, 50, 100 },		/* deceptive read destructive */
	{ 100, 36, 26, 1, 0, 100 },		/* write disturb */
	{ 39, 37, 35, 37, 85, 85 },		/* data retention */
	{ 57, 26, 22, 15, 17, 67 },		/* neighbourhood, static */
	{ 51, 15, 20, 17, 19, 57 },		/* neighbourhood, active */
};

/* The same, two CPUs, a fault's two addresses one on each: pass 0, and all. */
static const struct { enum sim_fault_kind kind; unsigned int first, all; } pinned2[] = {
	{ SIM_AF_ALIAS, 100, 100 }, { SIM_AF_MULTI, 100, 100 }, { SIM_CFIN, 100, 100 },
	{ SIM_CFID, 99, 99 }, { SIM_CFST, 100, 100 },
};

static void print_table(unsigned int t)
{
	static char text[8192];

	table_text(t, text, sizeof(text));
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		printf("# %s\n", line);
}

static void test_one_cpu(void)
{
	nr_rows = soak_schedule_rows;
	for (unsigned int c = 0; c < NR_CLASSES; c++)
		run_class(0, 1, &classes[c]);
	print_table(0);
	for (unsigned int c = 0; c < NR_CLASSES; c++) {
		if (classes[c].first_all)
			CHECK(hits[0][c][0] == INSTANCES, "%s: pass 0 found %u of %u",
			      classes[c].name, hits[0][c][0], INSTANCES);
		for (unsigned int r = 0; r < 5; r++)
			CHECK(nr_rows == 5 && hits[0][c][r] == pinned[c][r], "%s, pass %u: %u found, "
			      "pinned %u", classes[c].name, r, hits[0][c][r], pinned[c][r]);
		CHECK(hits[0][c][ROWS_MAX] == pinned[c][5], "%s, all: %u found, pinned %u",
		      classes[c].name, hits[0][c][ROWS_MAX], pinned[c][5]);
	}
	printf("# pinned, for this table:\n");
	for (unsigned int c = 0; c < NR_CLASSES; c++)
		printf("#\t{ %u, %u, %u, %u, %u, %u },\n", hits[0][c][0], hits[0][c][1],
		       hits[0][c][2], hits[0][c][3], hits[0][c][4], hits[0][c][ROWS_MAX]);
}

/*
 * Two CPUs taking turns piece by piece, each fault's two addresses on the two CPUs: March's
 * order holds inside one CPU's memory only, so this is the figure for a fault between two
 * CPUs' memories.
 */
static void test_two_cpus(void)
{
	static struct sim_soak s;
	struct soak_slice sl;

	sim_soak_init(&s, BASE, BYTES, 2, 1ULL << 20, false);
	CHECK(soak_plan_slice(&s.plan, 1, 0, &sl), "CPU 1 has memory");
	cpu1_start = sl.base;
	sim_soak_free(&s);
	across = true;
	for (unsigned int c = 0; c < NR_CLASSES; c++)
		if (classes[c].draw == INTER || classes[c].kind == SIM_AF_ALIAS ||
		    classes[c].kind == SIM_AF_MULTI)
			run_class(1, 2, &classes[c]);
	across = false;
	print_table(1);
	for (unsigned int c = 0; c < NR_CLASSES; c++)
		for (unsigned int k = 0; k < ARRAY_SIZE(pinned2); k++)
			if (pinned2[k].kind == classes[c].kind && (classes[c].draw == INTER ||
								    classes[c].draw == ANY))
				CHECK(hits[1][c][0] == pinned2[k].first &&
				      hits[1][c][ROWS_MAX] == pinned2[k].all, "%s, two CPUs: pass 0 "
				      "%u, all %u; pinned %u, %u", classes[c].name, hits[1][c][0],
				      hits[1][c][ROWS_MAX], pinned2[k].first, pinned2[k].all);
}

/* Both tables, as docs/user/soak.md holds them between its two markers. */
static size_t doc_text(char *buf, size_t size)
{
	size_t n = table_text(0, buf, size);

	n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "\nTwo CPUs taking turns piece "
			      "by piece, each fault's two addresses one on each CPU:\n\n");
	return n + table_text(1, buf + MIN(n, size), n < size ? size - n : 0);
}

/* @path's text, or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char text[1 << 17];
	size_t n;

	if (!f)
		return NULL;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	return text;
}

static const char *doc_path = "docs/user/soak.md";

static void test_the_docs_hold_this_table(void)
{
	static char want[16384];
	char *doc = slurp(doc_path), *a, *b;

	doc_text(want, sizeof(want));
	a = doc ? strstr(doc, DOC_BEGIN) : NULL;
	b = a ? strstr(a, DOC_END) : NULL;
	CHECK(a && b, "%s has no coverage table between its markers", doc_path);
	if (!a || !b)
		return;
	a += strlen(DOC_BEGIN) + 1;
	CHECK((size_t)(b - a) == strlen(want) && !strncmp(a, want, strlen(want)), "%s's coverage "
	      "table is not this run's (make coverage-doc writes it)", doc_path);
}

/* --doc FILE: the tables into FILE between its markers. */
static int write_doc(const char *path)
{
	static char want[16384];
	char *doc = slurp(path), *a, *b;
	FILE *f;

	nr_rows = soak_schedule_rows;
	for (unsigned int c = 0; c < NR_CLASSES; c++)
		run_class(0, 1, &classes[c]);
	test_two_cpus();
	doc_text(want, sizeof(want));
	a = doc ? strstr(doc, DOC_BEGIN) : NULL;
	b = a ? strstr(a, DOC_END) : NULL;
	if (!a || !b) {
		fprintf(stderr, "%s: no markers %s ... %s\n", path, DOC_BEGIN, DOC_END);
		return 2;
	}
	a += strlen(DOC_BEGIN) + 1;
	f = fopen(path, "w");
	if (!f)
		return 2;
	fprintf(f, "%.*s%s%s", (int)(a - doc), doc, want, b);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--doc"))
		return write_doc(argv[2]);
	return RUN_TESTS(test_one_cpu, test_two_cpus, test_the_docs_hold_this_table);
}
