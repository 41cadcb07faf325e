// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_soak_checkpoint.c - the soak's checkpoint record (soak/checkpoint.c).
 *
 * Oracles: CRC-32's published check value (0xcbf43926 for "123456789", the value zlib and
 * every CRC-32/ISO-HDLC implementation give); the byte offsets of the layout in
 * checkpoint.h, read straight from the encoded bytes; hand-built ledgers whose worst buckets
 * are known.
 *
 * - a full record (eight buckets) is 684 bytes, decodes to what was encoded and re-encodes
 *   to the same bytes; the buckets kept are the worst, worst first;
 * - every single-bit flip and every truncation is refused, another version is named, a
 *   reserved byte or a bad name is refused even with a good CRC;
 * - the next boot's line; when a checkpoint is due (first, new kind, interval);
 * - a mid-run copy of a ledger (soak_ledger_snapshot): every count, the not-stored count and
 *   every bucket of a ledger whose events are known, no entry; it folds as the ledger does;
 * - the event of note: a failing kind before a corrected error, the earliest, the lower CPU
 *   on a tie, never a retired page, carried across several CPUs' entries.
 */
#include "soak/checkpoint.h"
#include "tests/host/host_test.h"
#include "tests/host/smbios_qemu_tables.h"

#define MiB	(1ULL << 20)
#define ST_CE	0x9c0000000000009fULL
#define MISC_64	0x86ULL

static struct soak_plan plan;
static struct smbios_dimms dimms;
static struct soak_where_map map = { &plan, NULL, &dimms, NULL, NULL };
static u8 rec[SOAK_CKPT_MAX + 16];
static u8 rec2[SOAK_CKPT_MAX];

static u64 le(const u8 *p, int n)
{
	u64 v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void test_crc32_check_value(void)
{
	CHECK(soak_crc32("123456789", 9) == 0xcbf43926u, "0x%08x",
	      soak_crc32("123456789", 9));
	CHECK(soak_crc32("", 0) == 0, "empty");
}

/*
 * Ten buckets: eight soak ranges of 2 MiB with 1..8 corrected errors, the two DIMMs of the
 * QEMU table, one with an uncorrected error.
 */
static void build(struct soak_totals *t, struct soak_event *first)
{
	static struct soak_range r[8];
	static const u8 cpus[] = { 0, 0 };
	struct soak_plan_in in = { r, 8, cpus, 2, 1, NULL, 0 };
	struct soak_where_map nodimm = { &plan, NULL, NULL, NULL, NULL };
	static struct soak_event ev[4];
	struct soak_ledger a, b;
	struct soak_mca m = { 1, ST_CE, 0, MISC_64, false, false, false, false, 0, 0, -1 };
	const char *why;
	u64 v;

	for (int i = 0; i < 8; i++)
		r[i] = (struct soak_range){ (u64)(i + 1) * 4 * MiB, 2 * MiB, 0 };
	soak_plan_make(&in, &plan, &why);
	smbios_parse(qemu_1g_two_dimms, sizeof(qemu_1g_two_dimms), &dimms, &why, &v);
	soak_ledger_init(&a, ev, 4, &nodimm);
	soak_ledger_init(&b, NULL, 0, &map);
	for (int i = 0; i < 8; i++)
		for (int k = 0; k <= i; k++) {
			m.addr = r[i].base + 64 * (u64)k;
			soak_ledger_mca(&a, 100, 0, SOAK_EV_CORRECTED, &m);
		}
	m.addr = 0x30000000;
	soak_ledger_mca(&b, 200, 1, SOAK_EV_CORRECTED, &m);
	soak_ledger_poison(&b, 300, 1, 0x2000000, 6);
	*first = ev[0];
	soak_totals_init(t);
	soak_totals_add(t, &a);
	soak_totals_add(t, &b);
	t->seed = 0x1122334455667788ULL;
	t->elapsed_ns = 3723500000000ULL;
	t->bytes_verified = 5 * MiB;
	t->bytes_per_pass = 1 * MiB;
	t->passes = 12;
	t->cpus = 4;
}

static void test_round_trip_and_layout(void)
{
	struct soak_totals t;
	struct soak_verdict v;
	struct soak_event first;
	struct soak_ckpt c, d;
	u8 again[SOAK_CKPT_MAX];
	const char *why;
	size_t len;

	build(&t, &first);
	soak_judge(&t, &v);
	soak_ckpt_from(&c, &t, &v, &first, &map, false);
	/* five miscompares, out of time order: the four earliest are kept, earliest first */
	for (int i = 0; i < 5; i++) {
		static const u64 at[5] = { 500, 100, 300, 100, 200 };
		struct soak_event e = { .t_ns = at[i], .cpu = (u16)(i == 3 ? 0 : 2),
					.kind = SOAK_EV_MISCOMPARE, .phys = 0x1000 * (u64)(i + 1),
					.expected = 7, .actual = 5, .pat = SOAK_PAT_CHECK4_INV };

		soak_ckpt_add_miscompare(&c, &e);
	}
	len = soak_ckpt_encode(&c, rec, sizeof(rec));
	CHECK(len == 684 + 4 * 40 && len == SOAK_CKPT_MAX, "length %zu", len);
	CHECK(rec[81] == 4 && le(rec + 680, 8) == 0x4000 && le(rec + 680 + 40, 8) == 0x2000 &&
	      le(rec + 680 + 80, 8) == 0x5000 && le(rec + 680 + 120, 8) == 0x3000 &&
	      le(rec + 680 + 8, 8) == 7 && le(rec + 680 + 16, 8) == 5 &&
	      le(rec + 680 + 24, 8) == 100 && le(rec + 680 + 32, 2) == 0 &&
	      rec[680 + 34] == SOAK_PAT_CHECK4_INV, "the first miscompares: at 100 (CPU 0, then "
	      "2), 200, 300; not 500");
	CHECK(!memcmp(rec, "CKSK", 4) && rec[4] == 3 && le(rec + 6, 2) == len &&
	      rec[5] == (SOAK_CKPT_FAILING | SOAK_CKPT_NOT_STORED) &&
	      le(rec + 8, 8) == 0x1122334455667788ULL &&
	      le(rec + 16, 8) == 3723500000000ULL && le(rec + 24, 8) == 5 * MiB &&
	      le(rec + 40, 4) == 12 && le(rec + 44, 2) == 4 && rec[46] == 8 && rec[47] == 0,
	      "header bytes");
	CHECK(le(rec + 48, 4) == 37 && le(rec + 48 + 4 * SOAK_EV_UC_RECOVERED, 4) == 1,
	      "counts: corrected %llu", (unsigned long long)le(rec + 48, 4));
	CHECK(rec[80] == SOAK_EV_CORRECTED && le(rec + 88, 8) == 4 * MiB && le(rec + 96, 8) == 100,
	      "first event");
	CHECK(le(rec + len - 4, 4) == soak_crc32(rec, len - 4), "CRC at the end");
	/* worst first: DIMM A0 (uncorrected), then the ranges with 8, 7, ... corrected */
	CHECK(rec[104] == SOAK_BUCKET_DIMM && !memcmp(rec + 104 + 48, "P0_CHANNEL_A/DIMM_A0", 21),
	      "bucket 0 type %u name %.24s", rec[104], (const char *)rec + 104 + 48);
	CHECK(rec[104 + 72] == SOAK_BUCKET_RANGE && le(rec + 104 + 72 + 8, 8) == 32 * MiB &&
	      le(rec + 104 + 72 + 24, 4) == 8, "bucket 1: the range with 8");
	CHECK(le(rec + 104 + 7 * 72 + 24, 4) == 2, "bucket 7 has 2: the ranges with 1 and the DIMM "
	      "B0 with 1 are left out");
	CHECK(soak_ckpt_decode(rec, len, &d, &why) == 0, "decode: %s", why);
	CHECK(soak_ckpt_encode(&d, again, sizeof(again)) == len && !memcmp(again, rec, len),
	      "re-encoding differs");
	CHECK(d.passes == 12 && d.count[SOAK_EV_CORRECTED] == 37 && d.nr_buckets == 8 &&
	      !strcmp(d.bucket[0].name, "P0_CHANNEL_A/DIMM_A0") && d.first.cpu == 0 &&
	      d.nr_misc == 4 && d.misc[3].phys == 0x3000 && d.misc[0].cpu == 0,
	      "decoded fields");
	CHECK(soak_ckpt_encode(&c, again, len - 1) == 0, "a short buffer was written");
	/* a version 1 record (no miscompares) still decodes, and re-encodes as it was */
	c.nr_misc = 0;
	c.version = 1;
	len = soak_ckpt_encode(&c, again, sizeof(again));
	CHECK(len == 684 && again[4] == 1 && soak_ckpt_decode(again, len, &d, &why) == 0 &&
	      d.version == 1 && soak_ckpt_encode(&d, rec2, sizeof(rec2)) == len &&
	      !memcmp(rec2, again, len), "version 1: %zu bytes, %s", len, why ? why : "");
	c.nr_misc = 1;
	CHECK(soak_ckpt_encode(&c, again, sizeof(again)) == 0, "version 1 with a miscompare");
}

static void test_damage_is_refused(void)
{
	struct soak_ckpt c;
	const char *why;
	size_t len = le(rec + 6, 2);
	unsigned long accepted = 0;

	for (size_t i = 0; i < len; i++)
		for (int b = 0; b < 8; b++) {
			rec[i] ^= (u8)(1 << b);
			accepted += soak_ckpt_decode(rec, len, &c, &why) == 0;
			rec[i] ^= (u8)(1 << b);
		}
	for (size_t n = 0; n < len; n++)
		accepted += soak_ckpt_decode(rec, n, &c, &why) == 0;
	CHECK(accepted == 0, "%lu damaged records accepted", accepted);
	rec[4] = 4;
	CHECK(soak_ckpt_decode(rec, len, &c, &why) == -1 && strstr(why, "another version"),
	      "version: %s", why);
	rec[4] = 1;		/* version 1 with four miscompares: its length is wrong */
	memcpy(rec + len - 4, &(u32){ soak_crc32(rec, len - 4) }, 4);
	CHECK(soak_ckpt_decode(rec, len, &c, &why) == -1 && strstr(why, "length"),
	      "version 1 with miscompares: %s", why);
	rec[4] = 3;
	rec[77] = 1;				/* reserved, with a good CRC */
	memcpy(rec + len - 4, &(u32){ soak_crc32(rec, len - 4) }, 4);
	CHECK(soak_ckpt_decode(rec, len, &c, &why) == -1 && strstr(why, "out of range"),
	      "reserved byte: %s", why);
	rec[77] = 0;
	rec[104 + 48 + 3] = 0x07;		/* a control character in a name */
	memcpy(rec + len - 4, &(u32){ soak_crc32(rec, len - 4) }, 4);
	CHECK(soak_ckpt_decode(rec, len, &c, &why) == -1 && strstr(why, "bucket"),
	      "name: %s", why);
	CHECK(soak_ckpt_decode((const u8 *)"CKSQ", 4, &c, &why) == -1 && strstr(why, "magic"),
	      "magic: %s", why);
}

static void test_next_boot_line(void)
{
	struct soak_totals t;
	struct soak_verdict v;
	struct soak_event first;
	struct soak_ckpt c;
	char line[1024];

	build(&t, &first);
	soak_judge(&t, &v);
	soak_ckpt_from(&c, &t, &v, &first, &map, false);
	c.nr_buckets = 2;
	soak_ckpt_text(&c, line, sizeof(line));
	CHECK(!strcmp(line, "previous soak ended without a summary; its last checkpoint 3723.500s "
		      "into it: 12 passes on "
		      "4 CPUs, 5242880 bytes verified, corrected 37, deferred 0, uncorrected 1, "
		      "miscompares 0, stuck CPUs 0, retired pages 0 (34 ledger entries not "
		      "stored); failing: uncorrected error (recovered); first: corrected on CPU 0 "
		      "at 0x400000 after 0s; worst: DIMM P0_CHANNEL_A/DIMM_A0 (0 corrected, 1 "
		      "uncorrected), node 0 range 0x2000000-0x21fffff (8 corrected, 0 "
		      "uncorrected)"), "%s", line);
	soak_ckpt_from(&c, &t, &(struct soak_verdict){ .pass = true, .rule = -1 }, NULL, &map,
		       true);
	c.nr_buckets = 0;
	soak_ckpt_text(&c, line, sizeof(line));
	CHECK(strstr(line, "previous soak ended with its summary after") &&
	      !strstr(line, "failing") && !strstr(line, "first:"), "%s", line);
}

static void test_when_due(void)
{
	u64 min = 60ULL * 1000000000ULL;
	u32 ce = 1u << SOAK_EV_CORRECTED, mis = 1u << SOAK_EV_MISCOMPARE;

	CHECK(soak_ckpt_due(0, ~0ULL, 0, 0, 0), "the first is due");
	CHECK(!soak_ckpt_due(5 * min, 1 * min, ce, ce, 0), "4 minutes after the last");
	CHECK(soak_ckpt_due(11 * min, 1 * min, ce, ce, 0), "10 minutes after the last");
	CHECK(soak_ckpt_due(2 * min, 1 * min, ce | mis, ce, 0), "a new kind is due at once");
	CHECK(!soak_ckpt_due(2 * min, 1 * min, ce, ce | mis, 0), "an old kind is not");
	CHECK(soak_ckpt_due(2 * min, 1 * min, 0, 0, min), "a shorter interval");
	CHECK(SOAK_CKPT_INTERVAL_NS == 10 * min, "the stated interval");
}

/* Three corrected errors in two soak ranges, a miscompare, a retired page; two stored. */
static void test_snapshot_of_a_ledger(void)
{
	static struct soak_range r[2] = { { 4 * MiB, 2 * MiB, 0 }, { 8 * MiB, 2 * MiB, 0 } };
	static const u8 cpus[] = { 0 };
	struct soak_plan_in in = { r, 2, cpus, 1, 1, NULL, 0 };
	struct soak_where_map nodimm = { &plan, NULL, NULL, NULL, NULL };
	struct soak_mca m = { 1, ST_CE, 4 * MiB + 64, MISC_64, false, false, false, false,
			      0, 0, -1 };
	struct soak_writer w = { SOAK_HOW_COPY, SOAK_PAT_RANDOM, 0 };
	static struct soak_ledger l, snap;
	static struct soak_totals a, b;
	struct soak_event ev[2];
	const char *why;

	CHECK(!soak_plan_make(&in, &plan, &why), "plan");
	soak_ledger_init(&l, ev, 2, &nodimm);
	soak_ledger_mca(&l, 10, 3, SOAK_EV_CORRECTED, &m);
	soak_ledger_mca(&l, 20, 3, SOAK_EV_CORRECTED, &m);
	m.addr = 8 * MiB + 128;
	soak_ledger_mca(&l, 30, 3, SOAK_EV_CORRECTED, &m);
	soak_ledger_miscompare(&l, 40, 3, 8 * MiB + 4096, 1, 3, &w, false, 0);
	soak_ledger_retire(&l, 50, 3, 8 * MiB + 4096, SOAK_EV_MISCOMPARE);
	memset(&snap, 0xa5, sizeof(snap));
	soak_ledger_snapshot(&snap, &l);
	CHECK(soak_ledger_stored(&l) == 2, "stored %u", soak_ledger_stored(&l));
	CHECK(snap.count[SOAK_EV_CORRECTED] == 3 && snap.count[SOAK_EV_MISCOMPARE] == 1 &&
	      snap.count[SOAK_EV_RETIRED_PAGE] == 1 && snap.count[SOAK_EV_UC_RECOVERED] == 0 &&
	      snap.not_stored == 3, "counts %llu %llu, not stored %llu",
	      (unsigned long long)snap.count[SOAK_EV_CORRECTED],
	      (unsigned long long)snap.count[SOAK_EV_MISCOMPARE],
	      (unsigned long long)snap.not_stored);
	CHECK(snap.nr == 2 && snap.cap == 0 && snap.ev == l.ev && snap.map == &nodimm,
	      "the stored entries shared read-only: nr %u cap %u", snap.nr, snap.cap);
	CHECK(snap.nr_buckets == 2 && snap.bucket[0].type == SOAK_BUCKET_RANGE &&
	      snap.bucket[0].base == 4 * MiB && snap.bucket[0].size == 2 * MiB &&
	      snap.bucket[0].count[SOAK_EV_CORRECTED] == 2 && snap.bucket[1].base == 8 * MiB &&
	      snap.bucket[1].count[SOAK_EV_CORRECTED] == 1 &&
	      snap.bucket[1].count[SOAK_EV_MISCOMPARE] == 1 &&
	      snap.bucket[1].count[SOAK_EV_RETIRED_PAGE] == 1, "buckets: %u", snap.nr_buckets);
	soak_totals_init(&a);
	soak_totals_init(&b);
	soak_totals_add(&a, &l);
	soak_totals_add(&b, &snap);
	CHECK(!memcmp(&a, &b, sizeof(a)), "the copy folds unlike the ledger");
}

static void test_event_of_note(void)
{
	struct soak_event e[5] = {
		{ .t_ns = 1, .cpu = 0, .kind = SOAK_EV_RETIRED_PAGE },
		{ .t_ns = 2, .cpu = 0, .kind = SOAK_EV_CORRECTED },
		{ .t_ns = 5, .cpu = 1, .kind = SOAK_EV_MISCOMPARE },
		{ .t_ns = 5, .cpu = 0, .kind = SOAK_EV_UC_RECOVERED },
		{ .t_ns = 9, .cpu = 2, .kind = SOAK_EV_DEFERRED },
	};
	struct soak_event later = { .t_ns = 3, .cpu = 7, .kind = SOAK_EV_STUCK_CPU };
	const struct soak_event *n = soak_ckpt_note(NULL, e, 5);

	CHECK(n == &e[3], "note: entry %d", n ? (int)(n - e) : -1);
	CHECK(soak_ckpt_note(NULL, e, 1) == NULL, "a retired page is of note");
	CHECK(soak_ckpt_note(NULL, e, 2) == &e[1], "the corrected error is not of note");
	CHECK(soak_ckpt_note(&e[1], e, 1) == &e[1], "the best so far was lost");
	CHECK(soak_ckpt_note(n, &later, 1) == &later, "another CPU's earlier stuck CPU");
	CHECK(soak_ckpt_note(&later, e, 5) == &later, "a later failing event won");
	CHECK(soak_ckpt_note(NULL, NULL, 0) == NULL, "nothing");
}

int main(void)
{
	return RUN_TESTS(test_crc32_check_value, test_round_trip_and_layout,
			 test_damage_is_refused, test_next_boot_line, test_when_due,
			 test_snapshot_of_a_ledger, test_event_of_note);
}
