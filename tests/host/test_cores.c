// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cores.c - the cores suite's pure parts on the host: the vote against a brute-force
 * oracle (every digest pattern of up to 7 CPUs over three values, the groups counted pair
 * by pair, nothing sorted), CRC32C against RFC 3720's test vectors (B.4) and the "123456789"
 * check value, every kernel this machine can run against its known answer for several
 * seeds, and each kernel's digest moved by a bit flipped in what it checks or by a copy
 * that stops one byte short.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cores/k_copy.h"
#include "cores/k_int.h"
#include "cores/k_vec.h"
#include "cores/list.h"
#include "cores/opts.h"
#include "cores/record.h"
#include "cores/vote.h"
#include "tests/host/host_test.h"
#include "tests/host/json_check.h"

/* The oracle: the class and the named CPUs of vote.h's rules, by pairwise counting. */
static void oracle(const u64 *d, unsigned int n, u64 known, enum cores_class *cls,
		   bool *named, unsigned int *groups)
{
	unsigned int k = 0, top = 0;

	*groups = 0;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int same = 0, earlier = 0;

		for (unsigned int j = 0; j < n; j++) {
			same += d[j] == d[i];
			earlier += j < i && d[j] == d[i];
		}
		*groups += !earlier;
		k += d[i] == known;
		if (d[i] != known && same > top)
			top = same;
	}
	for (unsigned int i = 0; i < n; i++)
		named[i] = false;
	if (!n)
		*cls = CORES_NONE;
	else if (k == n)
		*cls = CORES_AGREE;
	else if (top == n)
		*cls = CORES_REF_WRONG;
	else if (top > k)
		*cls = CORES_DISPUTED;
	else
		*cls = CORES_MINORITY;
	for (unsigned int i = 0; i < n && *cls == CORES_MINORITY; i++)
		named[i] = d[i] != known;
}

static unsigned int mismatches;

static void vote_against_oracle(const u64 *d, unsigned int n, u64 known)
{
	u64 scratch[64];
	bool named[64], got[64] = { false };
	enum cores_class cls;
	unsigned int groups, nr = 0;
	struct cores_vote v;

	oracle(d, n, known, &cls, named, &groups);
	cores_vote(d, n, known, scratch, &v);
	for (unsigned int i = 0; i < MIN(v.nr_named, (unsigned int)CORES_MAX_NAMED); i++)
		got[v.named[i]] = true;
	for (unsigned int i = 0; i < n; i++)
		nr += named[i];
	bool ok = v.cls == cls && v.n == n && v.nr_groups == groups && v.nr_named == nr;

	for (unsigned int i = 0; i < n && nr <= CORES_MAX_NAMED; i++)
		ok &= got[i] == named[i];
	if (!ok && mismatches++ < 5) {
		printf("# n=%u digests:", n);
		for (unsigned int i = 0; i < n; i++)
			printf(" %llu", (unsigned long long)d[i]);
		printf(" known %llu: vote %s (%u named, %u groups), oracle %s (%u named, %u "
		       "groups)\n", (unsigned long long)known, cores_class_name(v.cls), v.nr_named,
		       v.nr_groups, cores_class_name(cls), nr, groups);
	}
	CHECK(ok || mismatches > 5, "the vote and the oracle differ (above)");
}

static void test_vote_every_pattern(void)
{
	u64 d[8];
	unsigned long patterns = 0;

	mismatches = 0;
	for (unsigned int n = 0; n <= 7; n++) {
		unsigned int total = 1;

		for (unsigned int i = 0; i < n; i++)
			total *= 3;
		for (unsigned int p = 0; p < total; p++, patterns++) {
			unsigned int x = p;

			for (unsigned int i = 0; i < n; i++, x /= 3)
				d[i] = 0x1000 + x % 3;	/* the known answer is 0x1000 */
			vote_against_oracle(d, n, 0x1000);
		}
	}
	CHECK(mismatches == 0, "%u of %lu patterns differ", mismatches, patterns);
}

static void test_vote_random_many(void)
{
	u64 d[64];

	mismatches = 0;
	srand(36);
	for (int round = 0; round < 20000; round++) {
		unsigned int n = 1 + rand() % 64, vals = 1 + rand() % 5;

		for (unsigned int i = 0; i < n; i++)
			d[i] = rand() % vals;
		vote_against_oracle(d, n, rand() % 3);
	}
	CHECK(mismatches == 0, "%u random patterns differ", mismatches);
}

static void test_vote_cases(void)
{
	u64 s[16];
	struct cores_vote v;
	const u64 two[] = { 7, 9 }, one[] = { 9 }, tie[] = { 7, 7, 9, 9 };
	const u64 three_wrong[] = { 9, 9, 9, 7 }, all_wrong[] = { 9, 9, 9, 9 };
	u64 ten[10];

	cores_vote(two, 2, 7, s, &v);
	CHECK(v.cls == CORES_MINORITY && v.nr_named == 1 && v.named[0] == 1,
	      "two CPUs, the second flipped: it is named (%s)", cores_class_name(v.cls));
	cores_vote(one, 1, 7, s, &v);
	CHECK(v.cls == CORES_REF_WRONG && v.top == 9, "one CPU against the reference: no blame");
	cores_vote(tie, 4, 7, s, &v);
	CHECK(v.cls == CORES_MINORITY && v.nr_named == 2 && v.named[0] == 2 && v.named[1] == 3,
	      "a tie is broken by the known answer");
	cores_vote(three_wrong, 4, 7, s, &v);
	CHECK(v.cls == CORES_DISPUTED && v.nr_top == 3 && v.nr_known == 1, "3 against 1+ref");
	cores_vote(all_wrong, 4, 7, s, &v);
	CHECK(v.cls == CORES_REF_WRONG && v.nr_top == 4, "all agree against the reference");
	cores_vote(NULL, 0, 7, s, &v);
	CHECK(v.cls == CORES_NONE, "no CPU, no verdict");
	for (int i = 0; i < 10; i++)
		ten[i] = i ? 100 + i : 7;
	cores_vote(ten, 10, 7, s, &v);
	CHECK(v.cls == CORES_MINORITY && v.nr_named == 9 && v.named[7] == 8,
	      "nine CPUs each alone: all named, the first %d listed", CORES_MAX_NAMED);
}

static u32 table_crc(const u8 *buf, size_t len)
{
	u32 table[256];

	cores_crc32c_table_init(table);
	return ~cores_crc32c_table(table, 0xffffffffU, buf, len);
}

/* RFC 3720 B.4: CRC32C of 32-byte buffers, and the usual check value of "123456789". */
static void test_crc32c_vectors(void)
{
	u8 b[4][32];
	static const u32 want[4] = { 0x8a9136aa, 0x62a8ab43, 0x46dd794e, 0x113fdb5c };
	const char *names[4] = { "zeros", "ones", "incrementing", "decrementing" };

	for (int i = 0; i < 32; i++) {
		b[0][i] = 0;
		b[1][i] = 0xff;
		b[2][i] = i;
		b[3][i] = 31 - i;
	}
	CHECK(table_crc((const u8 *)"123456789", 9) == 0xe3069283,
	      "table CRC32C of 123456789: 0x%08x", table_crc((const u8 *)"123456789", 9));
	for (int v = 0; v < 4; v++)
		CHECK(table_crc(b[v], 32) == want[v], "table, %s: 0x%08x", names[v],
		      table_crc(b[v], 32));
	if (!cores_cpu_has(X86_FEATURE_XMM4_2)) {
		SKIP("no SSE4.2 here: the instruction's vectors not run");
		return;
	}
	for (int v = 0; v < 4; v++)
		CHECK(cores_crc32c_insn(b[v], 32) == want[v], "crc32q, %s: 0x%08x", names[v],
		      cores_crc32c_insn(b[v], 32));
}

static struct cores_area area(void)
{
	struct cores_area a = { aligned_alloc(4096, CORES_BUF), aligned_alloc(4096, CORES_BUF) };

	for (size_t i = 0; i < CORES_BUF; i++)
		a.src[i] = a.dst[i] = (u8)(i * 37 + 11);	/* stale data: must not matter */
	return a;
}

static void test_kernels_known_answers(void)
{
	static const u64 seeds[] = { 0, 1, 0x636f726573ULL, ~0ULL, 0x8000000000000000ULL };
	struct cores_area a = area();
	unsigned int ran = 0;

	CHECK(cores_nr_kernels() >= 12, "%u kernels listed", cores_nr_kernels());
	for (unsigned int i = 0; i < cores_nr_kernels(); i++) {
		const struct cores_kernel *k = cores_kernel(i);

		CHECK(cores_kernel_named(k->name, strlen(k->name)) == k, "%s found by name",
		      k->name);
		if (k->cannot && k->cannot(k)) {
			printf("# %s not run here: %s\n", k->name, k->cannot(k));
			continue;
		}
		ran++;
		for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
			u64 got = k->run(k, &a, seeds[s]), want = k->known(k, seeds[s]);

			CHECK(got == want, "%s seed 0x%llx: digest 0x%016llx, known 0x%016llx",
			      k->name, (unsigned long long)seeds[s], (unsigned long long)got,
			      (unsigned long long)want);
			CHECK(k->run(k, &a, seeds[s]) == got, "%s: a second run gives the same",
			      k->name);
		}
		/* A clear leaves zeros whatever the seed wrote before it. */
		CHECK(!strcmp(k->family, "clear") || k->known(k, 1) != k->known(k, 2),
		      "%s: the seed matters", k->name);
		CHECK(!strcmp(k->family, "copy") || !strcmp(k->family, "clear") ||
		      !strcmp(k->family, "integer") ||
		      !strcmp(k->family, "vector") || !strcmp(k->family, "x87"),
		      "%s: family %s is one cores= names", k->name, k->family);
	}
	CHECK(cores_kernel_named("crc32", 5) == NULL, "a prefix is not a name");
	printf("# %u of %u kernels ran here\n", ran, cores_nr_kernels());
	free(a.src);
	free(a.dst);
}

/* A primitive that stops one byte short, and one that says it did not copy one byte. */
static void *short_memcpy(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len - 1);
	return dst;
}

static size_t lying_mc(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
	return 1;
}

static void test_copy_kernel_catches_bad_copy(void)
{
	struct cores_area a = area();
	const struct cores_kernel *erms = cores_kernel_named("memcpy_erms", 11);
	const struct cores_kernel *mc = cores_kernel_named("copy_mc_fragile", 15);
	struct cores_kernel bad;

	CHECK(erms && mc, "the kernels are listed");
	if (!erms || !mc)
		return;
	bad = *erms;
	bad.fn = (const void *)short_memcpy;
	CHECK(bad.run(&bad, &a, 5) != bad.known(&bad, 5), "a copy one byte short is caught");
	bad = *mc;
	bad.fn = (const void *)lying_mc;
	CHECK(bad.run(&bad, &a, 5) != bad.known(&bad, 5), "a count of 1 not copied is caught");
	free(a.src);
	free(a.dst);
}

static void short_clear(void *addr)
{
	memset(addr, 0, 4096 - 8);
}

static void clear_one_page(void *addr, size_t npages)
{
	memset(addr, 0, 4096);
}

/* A clear that leaves one word of each page, or a whole page, is caught. */
static void test_clear_kernel_catches_bad_clear(void)
{
	struct cores_area a = area();
	const struct cores_kernel *pg = cores_kernel_named("clear_page_rep", 14);
	const struct cores_kernel *pgs = cores_kernel_named("clear_pages_erms", 16);
	struct cores_kernel bad;

	CHECK(pg && pgs, "the kernels are listed");
	if (!pg || !pgs)
		return;
	CHECK(pg->run(pg, &a, 5) == pg->known(pg, 5), "clear_page_rep clears");
	bad = *pg;
	bad.fn = (const void *)short_clear;
	CHECK(bad.run(&bad, &a, 5) != bad.known(&bad, 5), "a clear one word short is caught");
	bad = *pgs;
	bad.fn = (const void *)clear_one_page;
	CHECK(bad.run(&bad, &a, 5) != bad.known(&bad, 5), "clear_pages of one page of two is caught");
	free(a.src);
	free(a.dst);
}

/* Whatever bit of what a checker reads is flipped, its digest moves. */
static void test_flip_moves_digest(void)
{
	u64 *w = aligned_alloc(64, CORES_BUF), lanes[4], l2[4];
	bool avx2 = !cores_cannot_avx2(), crc = cores_cpu_has(X86_FEATURE_XMM4_2);
	unsigned int stuck = 0;

	for (size_t i = 0; i < CORES_WORDS; i++)
		w[i] = cores_word(99, i);
	for (unsigned int f = 0; f < 200; f++) {
		size_t word = (f * 613) % CORES_WORDS;
		u64 bit = 1ULL << (f % 64), d0, m0, c0 = 0;

		d0 = cores_copy_digest((u8 *)w, CORES_BUF);
		m0 = cores_muldiv_chain(w, CORES_WORDS, 3);
		if (crc)
			c0 = cores_crc32c_insn((u8 *)w, CORES_BUF);
		for (int l = 0; l < 4; l++)
			lanes[l] = l2[l] = l;
		cores_vec_sse2(w, CORES_WORDS / 2, lanes);
		if (avx2)
			cores_vec_avx2(w, CORES_WORDS / 4, l2);
		w[word] ^= bit;
		stuck += cores_copy_digest((u8 *)w, CORES_BUF) == d0;
		stuck += cores_muldiv_chain(w, CORES_WORDS, 3) == m0;
		stuck += crc && cores_crc32c_insn((u8 *)w, CORES_BUF) == c0;
		u64 s0 = lanes[0] ^ lanes[1], a0 = l2[0] ^ l2[1] ^ l2[2] ^ l2[3];

		for (int l = 0; l < 4; l++)
			lanes[l] = l2[l] = l;
		cores_vec_sse2(w, CORES_WORDS / 2, lanes);
		stuck += (lanes[0] ^ lanes[1]) == s0;
		if (avx2) {
			cores_vec_avx2(w, CORES_WORDS / 4, l2);
			stuck += (l2[0] ^ l2[1] ^ l2[2] ^ l2[3]) == a0;
		}
		w[word] ^= bit;
	}
	CHECK(stuck == 0, "%u flips left a digest unchanged", stuck);
	free(w);
}

static const char *parse(const char *s, struct cores_opts *o)
{
	*o = (struct cores_opts){ .rounds = 77 };	/* untouched on error */
	return cores_parse_opts(s, strlen(s), o);
}

static void test_opts_parse(void)
{
	static const char *const bad[] = {
		"", "seed:", "seed:0x", "seed:12a", "seed:0x10000000000000000",
		"seed:18446744073709551616", "rounds:0", "rounds:1001", "rounds:x", "kernels:",
		"kernels:copy+", "kernels:+copy", "kernels:float", "kernels:copy++vector",
		"seed:1,", ",seed:1", "seed:1,,rounds:2", "time:", "time:0", "time:0s", "time:5d",
		"time:1h30m", "time:s", "time:604801", "time:169h", "time:10081m", "time:-5",
		"time:0x10", "time:5 ", "time:1234567890", "times:5", "default,seed:1", "Default",
	};
	struct cores_opts o;
	char buf[128];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *why = parse(bad[i], &o);

		CHECK(why && o.rounds == 77, "'%s' refused (%s), nothing written", bad[i],
		      why ? why : "accepted");
	}
	CHECK(!parse("default", &o) && !o.seed_set && !o.rounds && !o.families, "default");
	CHECK(cores_opts_seed(&o) == 0x636f726573ULL && cores_opts_rounds(&o) == 1 &&
	      cores_opts_family(&o, "copy") && cores_opts_family(&o, "vector"),
	      "the default: seed 'cores', one round, every family");
	cores_opts_text(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "default"), "default's text: %s", buf);
	CHECK(!parse("seed:0", &o) && o.seed_set && cores_opts_seed(&o) == 0, "seed 0 is a seed");
	CHECK(!parse("seed:18446744073709551615", &o) && o.seed == ~0ULL, "the largest decimal");
	CHECK(!parse("seed:0xFFffFFffFFffFFff", &o) && o.seed == ~0ULL, "the largest hex");
	CHECK(!parse("rounds:1000,kernels:vector+copy,seed:0x2a", &o) && o.rounds == 1000 &&
	      o.seed == 42 && cores_opts_family(&o, "copy") && !cores_opts_family(&o, "integer")
	      && cores_opts_family(&o, "vector") && !cores_opts_family(&o, "x87") &&
	      !cores_opts_family(&o, "float"),
	      "three items in any order");
	cores_opts_text(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "seed:0x2a,rounds:1000,kernels:copy+vector"), "text: %s", buf);
	CHECK(!parse(buf, &o) && o.rounds == 1000 && o.seed == 42 && o.families == 5,
	      "its text parses back to the same");
	CHECK(!parse("kernels:clear", &o) && cores_opts_family(&o, "clear") &&
	      !cores_opts_family(&o, "copy"), "the clear family alone");
	CHECK(!parse("kernels:x87+copy+integer+vector", &o) && o.families &&
	      !cores_opts_family(&o, "clear"), "four families of five are not the default");
	CHECK(!parse("kernels:x87+copy+clear+integer+vector", &o) && !o.families &&
	      cores_opts_text(&o, buf, sizeof(buf)) && !strcmp(buf, "default"),
	      "every family is the default (%s)", buf);
	CHECK(!parse("seed:0xffffffffffffffff,rounds:1000,kernels:copy+integer+vector+clear,"
		     "time:604799", &o) && cores_opts_text(&o, buf, sizeof(buf)) < 96,
	      "the longest text fits the 96 bytes the parser compares (%s)", buf);
}

/* time:T, read by hand: seconds, and the unit's factor, and a week at most. */
static void test_opts_time(void)
{
	static const struct { const char *in; u32 seconds; const char *text; } good[] = {
		{ "time:20", 20, "time:20s" }, { "time:20s", 20, "time:20s" },
		{ "time:90s", 90, "time:90s" }, { "time:120", 120, "time:2m" },
		{ "time:10m", 600, "time:10m" }, { "time:2h", 7200, "time:2h" },
		{ "time:7200s", 7200, "time:2h" }, { "time:1s", 1, "time:1s" },
		{ "time:168h", 604800, "time:168h" }, { "time:604800", 604800, "time:168h" },
		{ "time:10080m", 604800, "time:168h" }, { "time:0007", 7, "time:7s" },
	};
	struct cores_opts o;
	char buf[96];

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		const char *why = parse(good[i].in, &o);

		cores_opts_text(&o, buf, sizeof(buf));
		CHECK(!why && o.seconds == good[i].seconds && !strcmp(buf, good[i].text) &&
		      o.rounds == 0 && !o.seed_set, "%s: %u s, text %s (%s)", good[i].in,
		      o.seconds, buf, why ? why : "ok");
	}
	CHECK(!parse("seed:0x2a,time:10m,rounds:3", &o) && o.seconds == 600 && o.rounds == 3 &&
	      o.seed == 42, "time: among the others");
	cores_opts_text(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "seed:0x2a,rounds:3,time:10m") && !parse(buf, &o) &&
	      o.seconds == 600, "written and read back: %s", buf);
	CHECK(strstr(parse("time:5d", &o), "1s to 168h") != NULL, "the reason says the range");
}

/*
 * The soak's seeds: pass 1 is the base seed; the others are splitmix64 (Vigna's constants,
 * written out here from its published definition: state += 0x9e37..., then two xor-shift
 * multiplies) of the base plus pass times the step, all distinct.
 */
static u64 splitmix_ref(u64 state)
{
	u64 z = state;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void test_pass_seed(void)
{
	static u64 seen[1000];
	unsigned int dup = 0, wrong = 0;

	CHECK(cores_pass_seed(0x636f726573ULL, 1) == 0x636f726573ULL, "pass 1: the base seed");
	CHECK(cores_pass_seed(0, 1) == 0, "pass 1 of seed 0: 0");
	/* splitmix64 from state 0: its first output is 0xe220a8397b1dcdaf (Vigna's C code). */
	CHECK(cores_pass_seed(0, 2) == splitmix_ref(2 * 0x9e3779b97f4a7c15ULL) &&
	      splitmix_ref(0x9e3779b97f4a7c15ULL) == 0xe220a8397b1dcdafULL,
	      "pass 2 of seed 0: 0x%llx", (unsigned long long)cores_pass_seed(0, 2));
	for (unsigned int p = 1; p <= ARRAY_SIZE(seen); p++) {
		seen[p - 1] = cores_pass_seed(0x2a, p);
		wrong += p > 1 && seen[p - 1] != splitmix_ref(0x2a + p * 0x9e3779b97f4a7c15ULL);
		for (unsigned int q = 0; q + 1 < p; q++) {
			u64 a = seen[q], b = seen[p - 1];

			dup += (a > b ? a - b : b - a) < 1000;
		}
	}
	CHECK(!wrong && !dup, "1000 passes: %u not splitmix64, %u seeds within 1000 of "
	      "another (their rounds would overlap)", wrong, dup);
}

/*
 * The replay's classes, by hand from issue 36's item 3 ("one CPU, SMT pair, package, or not
 * reproduced"): who got it wrong again besides the named CPU decides how far the fault
 * reaches. Columns: wrong runs on the named CPU, its sibling, a second core of its package,
 * the furthest CPU, and whether the furthest sits in another package.
 */
static void test_replay_classes(void)
{
	static const struct {
		unsigned int named, sib, near, far;
		bool far_pkg;
		const char *cls;
	} rows[] = {
		{ 0, 0, 0, 0, true, "not_reproduced" },
		{ 0, 5, 5, 5, true, "not_reproduced" },	/* the named CPU right: no blame */
		{ 3, 0, 0, 0, true, "one_cpu" },
		{ 3, 0, 0, 0, false, "one_cpu" },
		{ 3, 2, 0, 0, true, "smt_pair" },
		{ 3, 2, 0, 0, false, "smt_pair" },
		{ 3, 0, 1, 0, true, "package" },
		{ 3, 2, 1, 0, true, "package" },	/* the sibling is in the package too */
		{ 3, 0, 1, 0, false, "not_one_cpu" },	/* one package: it is the machine */
		{ 3, 0, 0, 4, true, "not_one_cpu" },	/* another package wrong too */
		{ 3, 0, 0, 4, false, "not_one_cpu" },
		{ 3, 2, 1, 4, true, "not_one_cpu" },
		{ 10, 0, 0, 1, true, "not_one_cpu" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *got = cores_replay_class(rows[i].named, rows[i].sib, rows[i].near,
						     rows[i].far, rows[i].far_pkg);

		CHECK(!strcmp(got, rows[i].cls), "row %zu: %s, want %s", i, got, rows[i].cls);
	}
}

static void test_record(void)
{
	const u64 d[4] = { 7, 7, 0xdead, 7 };
	struct cores_named_cpu named[1] = { { 2, 4, 0xdead } };
	struct cores_vote v;
	u64 s[4];
	char buf[1024];
	struct cores_result r = { .kernel = "crc32c", .family = "integer", .seed = 0x2a,
				  .rounds = 3, .known = 7, .vote = &v, .named = named,
				  .slowest_us = 12 };

	cores_vote(d, 4, 7, s, &v);
	cores_record_json(&r, buf, sizeof(buf));
	CHECK(jc_valid(buf), "valid JSON: %s", buf);
	CHECK(!strcmp(buf, "{\"schema\":1,\"kind\":\"cores\",\"kernel\":\"crc32c\","
		      "\"family\":\"integer\",\"seed\":\"0x2a\",\"rounds\":3,\"cpus\":4,"
		      "\"skipped\":0,\"verdict\":\"minority\",\"known\":\"0x7\","
		      "\"known_cpus\":3,\"groups\":2,\"top\":\"0xdead\",\"top_cpus\":1,"
		      "\"slowest_us\":12,\"named_total\":1,\"named\":[{\"cpu\":2,\"apic\":4,"
		      "\"digest\":\"0xdead\"}]}"), "the minority's record: %s", buf);
	struct cores_replay rp = { .cpu = 2, .other_cpu = 3, .runs = 10, .wrong = 4,
				   .first_wrong_us = 99 };

	r.replay = &rp;
	cores_record_json(&r, buf, sizeof(buf));
	CHECK(jc_valid(buf) && strstr(buf, "\"named\":[{\"cpu\":2,\"apic\":4,\"digest\":"
				       "\"0xdead\"}],\"replay\":{\"cpu\":2,\"runs\":10,"
				       "\"wrong\":4,\"first_wrong_us\":99,\"other_cpu\":3,"
				       "\"other_wrong\":0,\"class\":\"one_cpu\"}}"),
	      "the replay's record: %s", buf);
	rp = (struct cores_replay){ .cpu = 2, .other_cpu = 7, .runs = 10, .wrong = 10,
				    .first_wrong_us = 5, .other_rel = "other_package",
				    .other_package = true, .have_near = true, .near_cpu = 1,
				    .near_wrong = 3, .near_rel = "same_complex" };
	cores_record_json(&r, buf, sizeof(buf));
	CHECK(jc_valid(buf) && strstr(buf, "\"other_cpu\":7,\"other_wrong\":0,\"other_rel\":"
				       "\"other_package\",\"near_cpu\":1,\"near_wrong\":3,"
				       "\"near_rel\":\"same_complex\",\"class\":\"package\"}"),
	      "a second core of the package wrong too: %s", buf);
	CHECK(cores_pair_judge(true, false, false) == CORES_PAIR_OK &&
	      cores_pair_judge(true, true, false) == CORES_PAIR_OK &&
	      cores_pair_judge(false, false, true) == CORES_PAIR_UNDECIDED &&
	      cores_pair_judge(false, true, true) == CORES_PAIR_CHECKER &&
	      cores_pair_judge(false, true, false) == CORES_PAIR_WRITER,
	      "the pairs' judgement: a third CPU that finds the copy right clears the writer");
	CHECK(!strcmp(cores_pair_name(CORES_PAIR_WRITER), "writer") &&
	      !strcmp(cores_pair_name(CORES_PAIR_CHECKER), "checker"), "the pairs' words");
	r.replay = NULL;
	cores_vote(d, 0, 7, s, &v);
	r.skipped = 2;
	r.why_not = "no AVX2 (CPUID)";
	cores_record_json(&r, buf, sizeof(buf));
	CHECK(jc_valid(buf) && strstr(buf, "\"cpus\":0,\"skipped\":2,\"why_skipped\":\"no AVX2 "
				       "(CPUID)\",\"verdict\":\"none\",\"named_total\":0,"
				       "\"named\":[]}") && !strstr(buf, "known"),
	      "a kernel no CPU ran: %s", buf);
	r.pass = 5;
	cores_record_json(&r, buf, sizeof(buf));
	CHECK(jc_valid(buf) && strstr(buf, "\"rounds\":3,\"pass\":5,\"cpus\":0,"),
	      "a soak pass's record says its pass: %s", buf);
}

/* The soak's total and a CPU's place, written out by hand from the schema's words. */
static void test_soak_records(void)
{
	/* APIC id 13 = package 1 (bits 3+), core 2 (bits 1-2), thread 1 (bit 0). */
	struct cores_topo t = { .apic = 13, .core = 6, .complex = 1, .package = 1,
				.smt_shift = 1, .llc_shift = 3, .pkg_shift = 3 };
	struct cores_soak_cpu named[CORES_SOAK_NAMED] = { { 2, 4, 3 } };
	struct cores_soak sk = { .seed = 0x2a, .seconds = 600, .elapsed_ms = 600123,
				 .passes = 9000, .named = named };
	char buf[512];

	cores_cpu_json(7, &t, buf, sizeof(buf));
	CHECK(!strcmp(buf, "{\"schema\":1,\"kind\":\"cores_cpu\",\"cpu\":7,\"apic\":13,"
		      "\"package\":1,\"complex\":1,\"core\":6,\"thread\":1}"), "a CPU: %s", buf);
	t.smt_shift = 0;
	CHECK(cores_topo_thread(&t) == 0, "no SMT: thread 0");
	t.smt_shift = 2;
	CHECK(cores_topo_thread(&t) == 1 && (t.apic = 15, cores_topo_thread(&t) == 3),
	      "four threads a core: the low two bits");
	cores_soak_json(&sk, buf, sizeof(buf));
	CHECK(!strcmp(buf, "{\"schema\":1,\"kind\":\"cores_soak\",\"result\":\"PASS\","
		      "\"seed\":\"0x2a\",\"seconds\":600,\"elapsed_ms\":600123,\"passes\":9000,"
		      "\"failing_passes\":0,\"soak_failing_passes\":0,\"named_total\":0,"
		      "\"named\":[]}"), "a clean soak: %s", buf);
	sk.failing = 3;
	sk.soak_failing = 2;
	sk.first_failing = 1;
	sk.first_failing_seed = 0x2a;
	sk.nr_named = 9;
	cores_soak_json(&sk, buf, sizeof(buf));
	CHECK(jc_valid(buf) && strstr(buf, "\"result\":\"FAIL\",") &&
	      strstr(buf, "\"failing_passes\":3,\"soak_failing_passes\":2,"
		     "\"first_failing_pass\":1,\"first_failing_seed\":\"0x2a\",\"named_total\":9,"
		     "\"named\":[{\"cpu\":2,\"apic\":4,\"passes\":3}"), "a failing soak: %s", buf);
}

int main(void)
{
	return RUN_TESTS(test_vote_every_pattern, test_vote_random_many, test_vote_cases,
			 test_crc32c_vectors, test_kernels_known_answers,
			 test_copy_kernel_catches_bad_copy, test_clear_kernel_catches_bad_clear,
			 test_flip_moves_digest,
			 test_opts_parse, test_opts_time, test_pass_seed, test_replay_classes,
			 test_record,
			 test_soak_records);
}
