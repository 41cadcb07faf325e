// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_ledger.c - the soak's error ledger and its reports (soak/ledger.c,
 * report.c; its JSON records through kernel/lib/json.c).
 *
 * The where-map: two nodes of soak ranges inside the 1 GiB that QEMU gave, with the DIMM
 * table QEMU 7.2 and OVMF built from tools/mk-smbios-dimms.py (DIMM_A0 below 512 MiB,
 * DIMM_B0 above), or QEMU's own table (no type 20), or none. Expected attributions follow
 * from those ranges; an address and its granularity from the SDM's MISC layout (bits 5:0 the
 * LSB, bits 8:6 the mode, 2 physical: MISC 0x86 is 64-byte granularity).
 *
 * - corrected errors on two CPUs: each entry once, with its CPU, bank, registers, physical
 *   address, granularity, node, soak range and DIMM; OVER is flagged and said;
 * - no DIMM map: "no DIMM map from firmware", never a guessed DIMM; no address: said why;
 * - miscompares: expected, actual, the differing bits, what wrote the data, and the re-read's
 *   verdict (read error, stored error, unstable);
 * - a full store counts what it cannot keep; buckets past the limit go to "other"; folding
 *   ledgers adds up; every count survives;
 * - the verdict rules: uncorrected, deferred, miscompare, stuck CPU fail; corrected errors
 *   fail only past the threshold in one DIMM (or range); nothing soaked fails;
 * - the summary line exactly, and every JSON record valid JSON (a small parser here).
 */
#include "kernel/include/page_types.h"
#include "soak/report.h"
#include "tests/host/host_test.h"
#include "tests/host/smbios_qemu_tables.h"

#define MiB	(1ULL << 20)
#define ST_CE	0x9c0000000000009fULL	/* VAL EN MISCV ADDRV, memory controller read */
#define ST_OVER	(1ULL << 62)
#define MISC_64	0x86ULL			/* LSB 6, physical */

static struct soak_plan plan;
static struct smbios_dimms dimms, nomap;
static struct soak_where_map map = { &plan, NULL, &dimms, NULL, NULL };
static struct soak_event store[64];
static char line[4096];
static struct soak_totals tt;

static void setup(void)
{
	static const struct soak_range r[] = {
		{ 16 * MiB, 496 * MiB, 0 }, { 512 * MiB, 512 * MiB, 1 },
	};
	static const u8 cpus[] = { 0, 0, 1, 1 };
	struct soak_plan_in in = { r, 2, cpus, 4, 2, NULL, 0 };
	const char *why;
	u64 v;

	if (soak_plan_make(&in, &plan, &why) ||
	    smbios_parse(qemu_1g_two_dimms, sizeof(qemu_1g_two_dimms), &dimms, &why, &v) ||
	    smbios_parse(qemu_1g, sizeof(qemu_1g), &nomap, &why, &v)) {
		printf("# set-up failed: %s\n", why);
		exit(1);
	}
}

/* ---- a small JSON checker: one value, nothing after it ------------------------------- */

static const char *json_value(const char *p);

static const char *json_ws(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if (!*p || (unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
	}
	return p + 1;
}

static const char *json_list(const char *p, char close, bool object)
{
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = json_string(json_ws(p));
			if (!p || *(p = json_ws(p)) != ':')
				return NULL;
			p++;
		}
		p = json_value(p);
		if (!p)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p)
{
	p = json_ws(p);
	if (*p == '{')
		return json_list(p, '}', true);
	if (*p == '[')
		return json_list(p, ']', false);
	if (*p == '"')
		return json_string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		p += *p == '-';
		while (*p >= '0' && *p <= '9')
			p++;
		return p;
	}
	return NULL;
}

static bool is_json(const char *s)
{
	const char *end = json_value(s);

	return end && !*json_ws(end);
}

/* ---- tests ----------------------------------------------------------------------------- */

static void mca(struct soak_ledger *l, u64 t, u16 cpu, enum soak_ev_kind k, u16 bank,
		u64 status, u64 addr, u64 misc)
{
	struct soak_mca m = { bank, status, addr, misc, false, false, false, false, 0, 0, -1 };

	soak_ledger_mca(l, t, cpu, k, &m);
}

static void test_corrected_errors_attributed(void)
{
	struct soak_ledger l;
	const struct soak_event *e;

	soak_ledger_init(&l, store, 64, &map);
	mca(&l, 1000, 0, SOAK_EV_CORRECTED, 1, ST_CE, 0x2345678, MISC_64);
	mca(&l, 2000, 2, SOAK_EV_CORRECTED, 7, ST_CE | ST_OVER, 0x30001234, MISC_64);
	CHECK(l.nr == 2 && l.count[SOAK_EV_CORRECTED] == 2, "entries %u", l.nr);
	e = &store[0];
	CHECK(e->cpu == 0 && e->bank == 1 && e->status == ST_CE && e->addr == 0x2345678 &&
	      e->misc == MISC_64 && e->t_ns == 1000, "entry 0 registers");
	CHECK((e->flags & SOAK_EVF_PHYS) && e->phys == 0x2345640 && e->lsb == 6, "phys 0x%llx",
	      (unsigned long long)e->phys);
	CHECK(e->node == 0 && (e->flags & SOAK_EVF_SOAKED) && e->range_base == 16 * MiB &&
	      e->where == SMBIOS_ONE_DIMM && e->nr_dimms == 1, "entry 0 place");
	soak_event_text(e, &map, line, sizeof(line));
	/* the MCA error code's words are mce/decode.c's; the rest is the ledger's */
	CHECK(!strncmp(line, "# soak-event: 0.000001000s CPU 0 corrected: bank 1 STATUS "
		       "0x9c0000000000009f [VAL EN MISCV ADDRV] ADDR 0x2345678 MISC 0x86, "
		       "memory controller: read", 129) &&
	      strstr(line, ", physical 0x2345640 (64 bytes), node 0, soak range 0x1000000+"
		     "0x1f000000, DIMM P0_CHANNEL_A/DIMM_A0") &&
	      !strstr(line, "OVER"), "%s", line);
	e = &store[1];
	CHECK(e->cpu == 2 && e->node == 1 && (e->flags & SOAK_EVF_OVER), "entry 1");
	soak_event_text(e, &map, line, sizeof(line));
	CHECK(strstr(line, "CPU 2 corrected: bank 7") && strstr(line, "OVER") &&
	      strstr(line, "node 1, soak range 0x20000000+0x20000000, DIMM P0_CHANNEL_B/DIMM_B0"),
	      "%s", line);
	soak_event_json(e, &map, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"over\":true") &&
	      strstr(line, "\"dimms\":[\"P0_CHANNEL_B/DIMM_B0\"]") &&
	      strstr(line, "\"phys\":\"0x30001200\",\"granularity\":64,\"node\":1"), "%s", line);
	CHECK(l.nr_buckets == 2 && l.bucket[0].type == SOAK_BUCKET_DIMM &&
	      l.bucket[1].count[SOAK_EV_CORRECTED] == 1, "buckets %u", l.nr_buckets);
}

static void test_no_dimm_map_is_said(void)
{
	struct soak_where_map m1 = { &plan, NULL, &nomap, NULL, NULL },
			      m2 = { &plan, NULL, NULL, NULL, NULL };
	struct soak_ledger l;

	soak_ledger_init(&l, store, 64, &m1);
	mca(&l, 5, 1, SOAK_EV_CORRECTED, 2, ST_CE, 0x4000000, MISC_64);
	CHECK(store[0].where == SMBIOS_NO_MAP && store[0].nr_dimms == 0, "a DIMM was guessed");
	soak_event_text(&store[0], &m1, line, sizeof(line));
	CHECK(strstr(line, "node 0, soak range 0x1000000+0x1f000000, no DIMM map from firmware"),
	      "%s", line);
	CHECK(l.bucket[0].type == SOAK_BUCKET_RANGE && l.bucket[0].base == 16 * MiB, "bucket");
	soak_ledger_init(&l, store, 64, &m2);
	mca(&l, 5, 1, SOAK_EV_CORRECTED, 2, ST_CE, 0x4000000, MISC_64);
	soak_event_json(&store[0], &m2, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"dimm_map\":\"no DIMM map from firmware\","
				      "\"dimms\":[]"), "%s", line);
	/* no address: ADDRV clear */
	mca(&l, 6, 1, SOAK_EV_CORRECTED, 3, ST_CE & ~(1ULL << 58), 0, 0);
	soak_event_text(&store[1], &m2, line, sizeof(line));
	CHECK(!(store[1].flags & SOAK_EVF_PHYS) &&
	      strstr(line, "no usable address (ADDRV clear: no address)"), "%s", line);
	CHECK(l.bucket[1].type == SOAK_BUCKET_NO_ADDRESS, "no-address bucket");
	/* outside the soak ranges: the node from nothing known */
	mca(&l, 7, 1, SOAK_EV_CORRECTED, 3, ST_CE, 0x800000, MISC_64);
	soak_event_text(&store[2], &m2, line, sizeof(line));
	CHECK(strstr(line, "unknown node, outside the soak ranges"), "%s", line);
}

/* QEMU's 4 GiB table from the tool: 0-2 GiB interleaved over DIMM_A0 and DIMM_B0. */
static void test_interleaved_is_not_one_dimm(void)
{
	static struct smbios_dimms inter;
	struct soak_where_map m = { &plan, NULL, &inter, NULL, NULL };
	struct soak_ledger l;
	const char *why;
	u64 v;

	CHECK(!smbios_parse(qemu_4g_interleaved, sizeof(qemu_4g_interleaved), &inter, &why, &v),
	      "table");
	soak_ledger_init(&l, store, 64, &m);
	mca(&l, 1, 0, SOAK_EV_CORRECTED, 1, ST_CE, 0x20000000, MISC_64);
	CHECK(store[0].where == SMBIOS_INTERLEAVED && store[0].nr_dimms == 2, "where %u",
	      store[0].where);
	soak_event_text(&store[0], &m, line, sizeof(line));
	CHECK(strstr(line, "node 1, soak range 0x20000000+0x20000000, one of DIMMs DIMM_A0, "
		     "DIMM_B0 (interleaved)"), "%s", line);
	CHECK(l.bucket[0].type == SOAK_BUCKET_RANGE && l.bucket[0].where == SMBIOS_INTERLEAVED,
	      "an interleaved address went to a DIMM's bucket");
	soak_event_json(&store[0], &m, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"dimm_map\":\"interleaved over several DIMMs\","
				      "\"dimms\":[\"DIMM_A0\",\"DIMM_B0\"]"), "%s", line);
}

static void test_miscompare_entries(void)
{
	struct soak_writer w = { SOAK_HOW_COPY, SOAK_PAT_RANDOM, SOAK_COPY_MC_BATCHED };
	struct soak_writer f = { SOAK_HOW_FILL, SOAK_PAT_WALK_ONES, -1 };
	struct soak_ledger l;
	u64 exp = 0x0123456789abcdefULL;

	soak_ledger_init(&l, store, 64, &map);
	soak_ledger_miscompare(&l, 10, 3, 0x30000008, exp, exp ^ (1ULL << 17), &w, true,
			       exp ^ (1ULL << 17));
	soak_ledger_miscompare(&l, 11, 3, 0x30000010, exp, exp ^ 0x81, &f, true, exp);
	soak_ledger_miscompare(&l, 12, 3, 0x30000018, exp, ~exp, &f, true, 0);
	soak_ledger_miscompare(&l, 13, 3, 0x3000001f, exp, 0, &f, false, 0);
	CHECK(store[0].reread == SOAK_REREAD_STORED && store[1].reread == SOAK_REREAD_READ_ERROR &&
	      store[2].reread == SOAK_REREAD_UNSTABLE && store[3].reread == SOAK_REREAD_NONE,
	      "re-read classes %u %u %u %u", store[0].reread, store[1].reread, store[2].reread,
	      store[3].reread);
	CHECK(store[3].phys == 0x30000018 && store[3].lsb == 3, "word address");
	soak_event_text(&store[0], &map, line, sizeof(line));
	CHECK(strstr(line, "CPU 3 miscompare: expected 0x0123456789abcdef actual "
		      "0x0123456789a9cdef, differing bit 17, copied by copy_mc_highpages from "
		      "random data, stored error (the re-read stays wrong), physical 0x30000008 "
		      "(8 bytes), node 1"), "%s", line);
	soak_event_text(&store[1], &map, line, sizeof(line));
	CHECK(strstr(line, "differing bits 0, 7, written by soak_march_mc (walking-ones), read "
		      "error (the re-read is right)"), "%s", line);
	soak_event_text(&store[2], &map, line, sizeof(line));
	CHECK(strstr(line, "differing 64 bits"), "%s", line);
	soak_event_json(&store[0], &map, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"bits\":\"0x20000\",\"data_address\":null,"
				      "\"written_by\":\"copy\",\"pattern\":\"random\","
				      "\"copy\":\"copy_mc_highpages\""), "%s", line);
	CHECK(soak_reread_class(5, 6, 5) == SOAK_REREAD_READ_ERROR &&
	      soak_reread_class(5, 6, 6) == SOAK_REREAD_STORED &&
	      soak_reread_class(5, 6, 7) == SOAK_REREAD_UNSTABLE, "classes");
}

/*
 * Address data (a word's own address, or a copy of one) that reads as another soak address:
 * the line and the record name it, the complement too; not an address, or not address data:
 * nothing named.
 */
static void test_address_data_names_the_other_word(void)
{
	struct soak_writer own = { SOAK_HOW_FILL, SOAK_PAT_ADDRESS, -1 };
	struct soak_writer inv = { SOAK_HOW_COPY, SOAK_PAT_ADDRESS_INV, SOAK_COPY_NT };
	struct soak_writer rnd = { SOAK_HOW_FILL, SOAK_PAT_RANDOM, -1 };
	struct soak_ledger l;
	u64 other;

	soak_ledger_init(&l, store, 64, &map);
	soak_ledger_miscompare(&l, 1, 0, 0x30000008, 0x30000008, 0x20000040, &own, true,
			       0x20000040);
	soak_ledger_miscompare(&l, 2, 0, 0x30000008, ~0x21000008ULL, ~0x20000008ULL, &inv, true,
			       ~0x20000008ULL);
	soak_ledger_miscompare(&l, 3, 0, 0x30000008, 0x30000008, 0x70000000, &own, true, 0);
	soak_ledger_miscompare(&l, 4, 0, 0x30000008, 0x30000008, 0x20000040, &rnd, true, 0);
	soak_event_text(&store[0], &map, line, sizeof(line));
	CHECK(strstr(line, "written by soak_march_mc (address), the data read is the address "
		     "0x20000040 (expected 0x30000008), stored error"), "%s", line);
	soak_event_json(&store[0], &map, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"data_address\":\"0x20000040\""), "%s", line);
	soak_event_text(&store[1], &map, line, sizeof(line));
	CHECK(strstr(line, "copied by copy_mc_nt from address-inverted data, the data read is "
		     "the address 0x20000008 (expected 0x21000008)"), "%s", line);
	CHECK(!soak_data_address(&store[2], &map, &other) &&
	      !soak_data_address(&store[3], &map, &other) &&
	      soak_data_address(&store[1], &map, &other) && other == 0x20000008,
	      "outside the soak ranges, or random data: no address named");
}

static void sym(u64 rip, char *buf, size_t size)
{
	snprintf(buf, size, "soak_verify_mc.group+0x%llx", (unsigned long long)(rip & 0xff));
}

static void test_stuck_retired_poison(void)
{
	struct soak_where_map m = map;
	struct soak_ledger l;

	m.symbol = sym;
	soak_ledger_init(&l, store, 64, &m);
	soak_ledger_stuck(&l, 3000000000ULL, 5, 1, 0x1e00012a);
	soak_ledger_poison(&l, 3000000001ULL, 1, 0x300000c7, 6);
	soak_ledger_retire(&l, 3000000002ULL, 1, 0x300000c7, SOAK_EV_UC_RECOVERED);
	soak_event_text(&store[0], &m, line, sizeof(line));
	CHECK(!strcmp(line, "# soak-event: 3.000000000s CPU 5 stuck_cpu: no heartbeat, RIP "
		      "0x1e00012a soak_verify_mc.group+0x2a"), "%s", line);
	soak_event_json(&store[0], &m, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"rip\":\"0x1e00012a\",\"symbol\":"
				      "\"soak_verify_mc.group+0x2a\",\"phys\":null"), "%s", line);
	soak_event_text(&store[1], &m, line, sizeof(line));
	CHECK(strstr(line, "CPU 1 uncorrected: poison consumed, no bank to tell, physical "
		     "0x300000c0 (64 bytes)"), "%s", line);
	soak_event_text(&store[2], &m, line, sizeof(line));
	CHECK(strstr(line, "page retired after the uncorrected error, physical 0x30000000 "
		     "(4096 bytes)"), "%s", line);
	CHECK(l.bucket[0].type == SOAK_BUCKET_NO_ADDRESS && l.nr_buckets == 2 &&
	      l.bucket[1].count[SOAK_EV_UC_RECOVERED] == 1 &&
	      l.bucket[1].count[SOAK_EV_RETIRED_PAGE] == 1, "buckets");
}

static void test_full_store_counts_everything(void)
{
	static struct soak_event small[4];
	struct soak_ledger l;
	struct soak_totals t;

	soak_ledger_init(&l, small, 4, &map);
	for (int i = 0; i < 10; i++)
		mca(&l, (u64)i, 0, SOAK_EV_CORRECTED, 1, ST_CE, 0x2000000 + 64 * (u64)i, MISC_64);
	CHECK(l.nr == 4 && l.not_stored == 6 && l.count[SOAK_EV_CORRECTED] == 10 &&
	      l.bucket[0].count[SOAK_EV_CORRECTED] == 10, "stored %u not stored %llu", l.nr,
	      (unsigned long long)l.not_stored);
	CHECK(small[3].t_ns == 3, "the first four are the ones kept");
	soak_totals_init(&t);
	t.bytes_verified = 1;
	soak_totals_add(&t, &l);
	soak_summary_text(&t, &(struct soak_verdict){ .pass = true, .rule = -1 }, &map, line,
			  sizeof(line));
	CHECK(strstr(line, " corrected=10 ") && strstr(line, "not_stored=6"), "%s", line);
}

static void test_buckets_overflow_into_other(void)
{
	static struct soak_range r[40];
	static const u8 cpus[] = { 0 };
	static struct soak_plan p;
	struct soak_plan_in in = { r, 40, cpus, 1, 1, NULL, 0 };
	struct soak_where_map m = { &p, NULL, NULL, NULL, NULL };
	struct soak_ledger a, b;
	struct soak_totals t;
	u64 sum = 0;
	const char *why;

	for (int i = 0; i < 40; i++)
		r[i] = (struct soak_range){ (u64)(i + 1) * 4 * MiB, 2 * MiB, 0 };
	CHECK(!soak_plan_make(&in, &p, &why), "plan");
	soak_ledger_init(&a, NULL, 0, &m);
	soak_ledger_init(&b, NULL, 0, &m);
	for (int i = 0; i < 40; i++) {
		mca(&a, 0, 0, SOAK_EV_CORRECTED, 1, ST_CE, r[i].base + 64, MISC_64);
		mca(&b, 0, 1, SOAK_EV_CORRECTED, 1, ST_CE, r[39 - i].base, MISC_64);
	}
	CHECK(a.nr_buckets == SOAK_MAX_BUCKETS &&
	      a.bucket[SOAK_MAX_BUCKETS - 1].type == SOAK_BUCKET_OTHER &&
	      a.bucket[SOAK_MAX_BUCKETS - 1].count[SOAK_EV_CORRECTED] == 40 - 31,
	      "other holds %u", a.bucket[SOAK_MAX_BUCKETS - 1].count[SOAK_EV_CORRECTED]);
	soak_totals_init(&t);
	soak_totals_add(&t, &a);
	soak_totals_add(&t, &b);
	for (unsigned int i = 0; i < t.nr_buckets; i++)
		sum += t.bucket[i].count[SOAK_EV_CORRECTED];
	CHECK(t.count[SOAK_EV_CORRECTED] == 80 && sum == 80 && t.nr_buckets == SOAK_MAX_BUCKETS,
	      "folded %llu in buckets, %u buckets", (unsigned long long)sum, t.nr_buckets);
	soak_bucket_text(&t, SOAK_MAX_BUCKETS - 1, &m, line, sizeof(line));
	CHECK(strstr(line, "# soak-ledger: other places (past 31 buckets): corrected "), "%s",
	      line);
	/* range 9 is in both ledgers' own buckets (range 0 went to b's "other") */
	soak_bucket_text(&t, 9, &m, line, sizeof(line));
	CHECK(!strcmp(line, "# soak-ledger: node 0 range 0x2800000-0x29fffff (no DIMM map from "
		      "firmware): corrected 2, deferred 0, uncorrected 0, miscompares 0, "
		      "stuck CPUs 0, retired pages 0"), "%s", line);
}

static void judge(struct soak_ledger *a, struct soak_ledger *b, u32 threshold, u64 bytes,
		  struct soak_verdict *v, struct soak_totals *t)
{
	soak_totals_init(t);
	t->bytes_verified = bytes;
	t->ce_threshold = threshold;
	soak_totals_add(t, a);
	if (b)
		soak_totals_add(t, b);
	soak_judge(t, v);
	soak_verdict_text(t, v, &map, line, sizeof(line));
}

static void test_verdict_rules(void)
{
	struct soak_ledger a, b;
	struct soak_verdict v;
	struct soak_totals t;

	soak_ledger_init(&a, NULL, 0, &map);
	soak_ledger_init(&b, NULL, 0, &map);
	judge(&a, NULL, 0, 0, &v, &t);
	CHECK(!v.pass && !strcmp(line, "nothing was soaked"), "empty soak: %s", line);
	judge(&a, NULL, 0, 4096, &v, &t);
	CHECK(v.pass && !strcmp(line, "PASS"), "clean soak: %s", line);
	/* (no storage: every event counts as not stored) 10 corrected on DIMM A0 (CPU 0) and
	 * 8 on B0 (CPU 1): 18 in all, at most 10 a DIMM */
	for (int i = 0; i < 10; i++)
		mca(&a, 0, 0, SOAK_EV_CORRECTED, 1, ST_CE, 0x2000000, MISC_64);
	for (int i = 0; i < 8; i++)
		mca(&b, 0, 1, SOAK_EV_CORRECTED, 1, ST_CE, 0x30000000, MISC_64);
	judge(&a, &b, 0, 4096, &v, &t);
	CHECK(v.pass, "18 corrected over two DIMMs failed: %s", line);
	mca(&b, 0, 2, SOAK_EV_CORRECTED, 1, ST_CE, 0x2000040, MISC_64);	/* A0's 11th */
	judge(&a, &b, 0, 4096, &v, &t);
	CHECK(!v.pass && v.count == 11 && v.limit == 10 &&
	      !strcmp(line, "corrected errors above the threshold in one DIMM or node range: "
		      "11 > 10 in DIMM P0_CHANNEL_A/DIMM_A0 (node 0)"), "%s", line);
	judge(&a, &b, 11, 4096, &v, &t);
	CHECK(v.pass, "threshold 11 still failed: %s", line);
	soak_ledger_stuck(&b, 0, 3, 1, 0x1000);
	judge(&a, &b, 11, 4096, &v, &t);
	CHECK(!v.pass && !strcmp(line, "stuck CPU (1)"), "%s", line);
	soak_ledger_miscompare(&a, 0, 0, 0x2000000, 1, 3, &(struct soak_writer){ 0, 0, -1 },
			       false, 0);
	judge(&a, &b, 11, 4096, &v, &t);
	CHECK(!v.pass && !strcmp(line, "miscompare (1)"), "%s", line);
	mca(&a, 0, 0, SOAK_EV_DEFERRED, 4, ST_CE, 0x2000000, MISC_64);
	judge(&a, &b, 11, 4096, &v, &t);
	CHECK(!v.pass && !strcmp(line, "deferred error (uncorrected, not consumed) (1)"), "%s",
	      line);
	soak_ledger_poison(&b, 0, 1, 0x30000000, 6);
	judge(&a, &b, 11, 4096, &v, &t);
	CHECK(!v.pass && v.rule == 0 && !strcmp(line, "uncorrected error (recovered) (1)"), "%s",
	      line);
	t.elapsed_ns = 12345678901ULL;
	t.passes = 3;
	soak_summary_text(&t, &v, &map, line, sizeof(line));
	CHECK(!strcmp(line, "# copykernel-soak: result=FAIL duration=12.345s passes=3 bytes=4096 "
		      "corrected=19 deferred=1 uncorrected=1 miscompares=1 stuck_cpus=1 "
		      "retired_pages=0 not_stored=23 reason=\"uncorrected error (recovered) (1)\""),
	      "%s", line);
	soak_summary_json(&t, &v, &map, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"result\":\"FAIL\"") &&
	      strstr(line, "\"counts\":{\"corrected\":19,\"deferred\":1,\"uncorrected\":1,"
		     "\"miscompares\":1,\"stuck_cpus\":1,\"retired_pages\":0}") &&
	      strstr(line, "{\"type\":\"dimm\",\"where\":\"DIMM P0_CHANNEL_A/DIMM_A0 (node 0)\","
		     "\"dimm\":\"P0_CHANNEL_A/DIMM_A0\",\"node\":0,\"corrected\":11"), "%s", line);
}

/*
 * A DIMM name with a quote and a backslash (firmware strings are anybody's): the event's
 * record stays JSON; and a buffer too small for the record holds the writer's json-error
 * record instead of a cut one, while the return value still says what the record needs.
 */
/* The verdict names the earliest stored event of its rule's kind, whichever CPU had it. */
static void test_verdict_names_the_first_address(void)
{
	static struct soak_event ea[4], eb[4];
	struct soak_ledger a, b;
	struct soak_verdict v;
	struct soak_totals t;

	soak_ledger_init(&a, ea, 4, &map);
	soak_ledger_init(&b, eb, 4, &map);
	soak_ledger_poison(&a, 900, 0, 0x2000040, 6);
	soak_ledger_poison(&b, 500, 1, 0x30000000, 6);
	soak_ledger_poison(&b, 700, 1, 0x30001000, 6);
	soak_ledger_stuck(&a, 100, 0, 0, 0x1000);		/* earlier, but another kind, no address */
	judge(&a, &b, 0, 4096, &v, &t);
	CHECK(!v.pass && !strcmp(line, "uncorrected error (recovered) (3), the first at "
				 "0x30000000 on CPU 1"), "%s", line);
	soak_ledger_init(&a, ea, 4, &map);
	soak_ledger_init(&b, eb, 4, &map);
	soak_ledger_miscompare(&a, 60, 0, 0x2000008, 1, 3, &(struct soak_writer){ 0, 0, -1 },
			       false, 0);
	soak_ledger_miscompare(&b, 50, 1, 0x30002008, 1, 3, &(struct soak_writer){ 0, 0, -1 },
			       false, 0);
	judge(&a, &b, 0, 4096, &v, &t);
	CHECK(!v.pass && !strcmp(line, "miscompare (2), the first at 0x30002008 on CPU 1"), "%s",
	      line);
}

/*
 * A failure the run found outside the ledger (rule -1 with a run reason: coverage, a knob
 * not done) is FAIL with that reason in the summary line and its JSON, never "PASS".
 */
static void test_run_reason_fails_the_summary(void)
{
	struct soak_verdict v = { .pass = false, .rule = -1, .bucket = -1,
				  .run_reason = "the soak_fault= knob did not do what it asked" };
	struct soak_totals t;

	soak_totals_init(&t);
	t.bytes_verified = 4096;
	t.passes = 1;
	soak_summary_text(&t, &v, &map, line, sizeof(line));
	CHECK(strstr(line, "# copykernel-soak: result=FAIL ") == line &&
	      strstr(line, " reason=\"the soak_fault= knob did not do what it asked\""), "%s",
	      line);
	soak_summary_json(&t, &v, &map, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"result\":\"FAIL\"") &&
	      strstr(line, "\"reason\":\"the soak_fault= knob did not do what it asked\""),
	      "%s", line);
	v.run_reason = NULL;
	soak_verdict_text(&t, &v, &map, line, sizeof(line));
	CHECK(strcmp(line, "PASS") != 0, "a failing verdict without a rule reads %s", line);
}

static void test_json_escapes_names(void)
{
	static struct smbios_dimms odd;
	struct soak_where_map m = { .plan = &plan, .dimms = &odd };
	struct soak_event ev[1];
	struct soak_ledger l;
	char buf[128];
	size_t need;

	odd = *map.dimms;
	strcpy(odd.devices[0].locator, "DIMM \"A\\0\"");
	soak_ledger_init(&l, ev, 1, &m);
	soak_ledger_poison(&l, 5, 1, 0x100000, 6);
	soak_event_json(&ev[0], &m, line, sizeof(line));
	CHECK(is_json(line) && strstr(line, "\"dimms\":[\"P0_CHANNEL_A/DIMM \\\"A\\\\0\\\"\"]"),
	      "%s", line);
	need = soak_event_json(&ev[0], &m, buf, sizeof(buf));
	CHECK(need == strlen(line) && is_json(buf) && strstr(buf, "\"kind\":\"json-error\"") &&
	      strstr(buf, "\"error\":\"overflow\""), "need %zu (%zu): %s", need, strlen(line),
	      buf);
	CHECK(!is_json("{\"a\":1,}") && !is_json("{\"a\" 1}") && is_json("[1,{\"b\":[]}]"),
	      "the checker itself");
}

/*
 * An address exactly at a soak range's end is past it: 1 GiB, where range 1 (node 1) ends
 * and nothing follows, is outside the soak ranges; its last line is inside.
 */
static void test_a_range_end_is_outside_it(void)
{
	struct soak_ledger l;

	soak_ledger_init(&l, store, 64, &map);
	mca(&l, 1, 0, SOAK_EV_CORRECTED, 1, ST_CE, 1024 * MiB, MISC_64);
	mca(&l, 2, 0, SOAK_EV_CORRECTED, 2, ST_CE, 1024 * MiB - 64, MISC_64);
	mca(&l, 3, 0, SOAK_EV_CORRECTED, 3, ST_CE, 16 * MiB - 64, MISC_64);
	CHECK(!(store[0].flags & SOAK_EVF_SOAKED) && store[0].range_size == 0,
	      "0x40000000 put in the range 0x%llx+0x%llx", (unsigned long long)store[0].range_base,
	      (unsigned long long)store[0].range_size);
	CHECK((store[1].flags & SOAK_EVF_SOAKED) && store[1].range_base == 512 * MiB &&
	      store[1].node == 1, "the last line of range 1 is not in it");
	CHECK(!(store[2].flags & SOAK_EVF_SOAKED), "below range 0 put in it");
	soak_event_text(&store[0], &map, line, sizeof(line));
	CHECK(strstr(line, "physical 0x40000000 (64 bytes), unknown node, outside the soak "
		     "ranges"), "%s", line);
}

/* Two nodes as an SRAT gives them: node 0 [0, 512 MiB), node 1 [512 MiB, 1280 MiB). */
static const struct numa_info two_nodes = {
	.nr_nodes = 2, .nr_ranges = 2, .from_srat = true,
	.range = { { 0, 512 * MiB, 0, false, false }, { 512 * MiB, 1280 * MiB, 1, false, false } },
};

/*
 * Addresses outside the soak ranges on two nodes (below range 0, above range 1): each its
 * own bucket, labelled with its own node; the same place twice shares one.
 */
static void test_outside_buckets_keep_their_node(void)
{
	struct soak_where_map m = { &plan, &two_nodes, NULL, NULL, NULL };
	struct soak_ledger l;
	char a[256], b[256];

	soak_ledger_init(&l, store, 64, &m);
	mca(&l, 1, 0, SOAK_EV_CORRECTED, 1, ST_CE, 0x100040, MISC_64);
	mca(&l, 2, 2, SOAK_EV_CORRECTED, 1, ST_CE, 1100 * MiB, MISC_64);
	mca(&l, 3, 1, SOAK_EV_CORRECTED, 2, ST_CE, 0x200080, MISC_64);
	CHECK(store[0].node == 0 && store[1].node == 1 && store[2].node == 0,
	      "nodes %u %u %u", store[0].node, store[1].node, store[2].node);
	CHECK(l.nr_buckets == 2, "%u buckets, want one per node", l.nr_buckets);
	soak_totals_init(&tt);
	soak_totals_add(&tt, &l);
	soak_bucket_text(&tt, 0, &m, a, sizeof(a));
	soak_bucket_text(&tt, 1, &m, b, sizeof(b));
	CHECK(!strcmp(a, "# soak-ledger: node 0 outside the soak ranges (no DIMM map from "
		      "firmware): corrected 2, deferred 0, uncorrected 0, miscompares 0, stuck "
		      "CPUs 0, retired pages 0"), "%s", a);
	CHECK(tt.nr_buckets == 2 &&
	      !strcmp(b, "# soak-ledger: node 1 outside the soak ranges (no DIMM map from "
		      "firmware): corrected 1, deferred 0, uncorrected 0, miscompares 0, stuck "
		      "CPUs 0, retired pages 0"), "%s", b);
	CHECK(tt.node_count[0][SOAK_EV_CORRECTED] == 2 && tt.node_count[1][SOAK_EV_CORRECTED] == 1,
	      "per node: %llu %llu", (unsigned long long)tt.node_count[0][SOAK_EV_CORRECTED],
	      (unsigned long long)tt.node_count[1][SOAK_EV_CORRECTED]);
}

/* Without an SRAT one node holds everything: outside the soak ranges is node 0, not unknown. */
static void test_no_srat_is_one_node(void)
{
	static const struct numa_info one = { .nr_nodes = 1 };
	static const struct numa_info srat_gap = { .nr_nodes = 1, .from_srat = true };
	struct soak_where_map m = { &plan, &one, NULL, NULL, NULL };
	struct soak_ledger l;

	soak_ledger_init(&l, store, 64, &m);
	mca(&l, 1, 0, SOAK_EV_CORRECTED, 1, ST_CE, 0x800040, MISC_64);
	soak_event_text(&store[0], &m, line, sizeof(line));
	CHECK(store[0].node == 0 && strstr(line, "node 0, outside the soak ranges"), "%s", line);
	m.numa = &srat_gap;
	soak_ledger_init(&l, store, 64, &m);
	mca(&l, 1, 0, SOAK_EV_CORRECTED, 1, ST_CE, 0x800040, MISC_64);
	soak_event_text(&store[0], &m, line, sizeof(line));
	CHECK(store[0].node == SOAK_NO_NODE && strstr(line, "unknown node"),
	      "an SRAT that holds no such address: %s", line);
}

int main(void)
{
	setup();
	return RUN_TESTS(test_corrected_errors_attributed, test_no_dimm_map_is_said,
			 test_interleaved_is_not_one_dimm, test_miscompare_entries,
			 test_address_data_names_the_other_word, test_stuck_retired_poison,
			 test_full_store_counts_everything, test_buckets_overflow_into_other,
			 test_verdict_rules, test_verdict_names_the_first_address,
			 test_run_reason_fails_the_summary,
			 test_json_escapes_names, test_a_range_end_is_outside_it,
			 test_outside_buckets_keep_their_node, test_no_srat_is_one_node);
}
