// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_blackbox.c - the soak checkpoint variable (soak/blackbox.c).
 *
 * Oracles: the byte layout of blackbox.h, read straight from the encoded bytes; CRC-32's
 * published check value (0xcbf43926 for "123456789", through the soak's soak_crc32, which
 * test_soak_checkpoint.c holds to it); the flash-wear arithmetic of blackbox.h worked by hand
 * (at most 1 + 6 + 1 writes plus one per 599 s); the next boot's line as issue 19 words it,
 * written out here in full; an independent JSON reader (json_check.h).
 *
 * - a variable encodes to the layout, decodes to what was encoded and re-encodes to the same
 *   bytes; every single-bit flip and every truncation is refused, each damage by its reason;
 * - the writer: the first record, a new kind of event, the final record and one ten minutes
 *   later are written; the rest are refused (-EAGAIN) and never reach the store; a damaged
 *   record (-EINVAL) neither; a refusing store (-EIO) leaves the count where it was;
 * - a caller that asks every second for a day gets the bound blackbox.h states;
 * - what the next boot says for each state boot/ can hand over.
 */
#include "kernel/include/errno.h"
#include "soak/blackbox.h"
#include "tests/host/host_test.h"
#include "tests/host/json_check.h"

#define S	1000000000ULL

static u8 rec[SOAK_CKPT_MAX];
static u8 var[BB_MAX + 16];

static u64 le(const u8 *p, int n)
{
	u64 v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* A failing soak three hours in: two buckets, the worst a DIMM. */
static void ckpt_of(struct soak_ckpt *c)
{
	memset(c, 0, sizeof(*c));
	c->flags = SOAK_CKPT_FAILING;
	c->rule = 0;
	c->cpus = 4;
	c->passes = 2;
	c->seed = 0x5eed5eedULL;
	c->elapsed_ns = 10925250000000ULL;		/* 3h02m05.25s */
	c->bytes_verified = 1610612736ULL;
	c->bytes_per_pass = 805306368ULL;
	c->count[SOAK_EV_CORRECTED] = 3;
	c->count[SOAK_EV_UC_RECOVERED] = 1;
	c->count[SOAK_EV_RETIRED_PAGE] = 1;
	c->first.kind = SOAK_EV_UC_RECOVERED;
	c->first.cpu = 2;
	c->first.phys = 0x12345000ULL;
	c->first.t_ns = 9000 * S;
	c->nr_buckets = 2;
	c->bucket[0].type = SOAK_BUCKET_DIMM;
	c->bucket[0].count[SOAK_EV_CORRECTED] = 2;
	c->bucket[0].count[SOAK_EV_UC_RECOVERED] = 1;
	strcpy(c->bucket[0].name, "P0_CH_A/DIMM_A0");
	c->bucket[1].type = SOAK_BUCKET_RANGE;
	c->bucket[1].node = 1;
	c->bucket[1].base = 0x40000000ULL;
	c->bucket[1].size = 0x40000000ULL;
	c->bucket[1].count[SOAK_EV_CORRECTED] = 1;
}

static size_t record(const struct soak_ckpt *c)
{
	return soak_ckpt_encode(c, rec, sizeof(rec));
}

static size_t sample(u32 reported_by)
{
	struct bb_header h = { 0x1a2b3c4d, 19, reported_by, "2026-12-01T10:00:00" };
	struct soak_ckpt c;

	ckpt_of(&c);
	return bb_encode(&h, rec, record(&c), var, sizeof(var));
}

static void test_layout(void)
{
	size_t n = sample(0x99), rl;
	struct soak_ckpt c;

	ckpt_of(&c);
	rl = record(&c);
	CHECK(n == 44 + rl && rl == 104 + 2 * 72 + 4, "%zu bytes, record %zu", n, rl);
	CHECK(!memcmp(var, "CKB1", 4), "magic");
	CHECK(le(var + 4, 4) == 0x1a2b3c4d && le(var + 8, 4) == 19 && le(var + 12, 4) == 0x99,
	      "run id, count, reported by");
	CHECK(!memcmp(var + 16, "2026-12-01T10:00:00\0\0\0\0\0", 24), "start time, NUL padded");
	CHECK(le(var + 40, 4) == soak_crc32(var, 40), "header CRC");
	CHECK(!memcmp(var + 44, rec, rl), "the soak's record whole after the header");
	CHECK(bb_encode(&(struct bb_header){ 1, 1, 0, "" }, rec, rl, var, 44 + rl - 1) == 0,
	      "a buffer one byte short");
}

static void test_round_trip(void)
{
	size_t n = sample(0);
	struct bb_var v;
	const char *why;
	u8 again[BB_MAX];

	CHECK(!bb_decode(var, n, &v, &why), "decodes: %s", why);
	CHECK(v.h.run_id == 0x1a2b3c4d && v.h.seq == 19 && !v.h.reported_by &&
	      !strcmp(v.h.started, "2026-12-01T10:00:00"), "header");
	CHECK(v.c.passes == 2 && v.c.count[SOAK_EV_CORRECTED] == 3 && v.c.nr_buckets == 2 &&
	      !strcmp(v.c.bucket[0].name, "P0_CH_A/DIMM_A0"), "record");
	CHECK(bb_encode(&v.h, v.rec, v.rec_len, again, sizeof(again)) == n &&
	      !memcmp(again, var, n), "re-encodes to the same bytes");
}

static void test_every_flip_and_cut_is_refused(void)
{
	size_t n = sample(0);
	unsigned int took = 0;
	struct bb_var v;
	const char *why;

	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++) {
			var[i] ^= (u8)(1 << b);
			took += !bb_decode(var, n, &v, &why);
			var[i] ^= (u8)(1 << b);
		}
	CHECK(took == 0, "%u of %zu flips decoded", took, n * 8);
	took = 0;
	for (size_t len = 0; len < n; len++)
		took += !bb_decode(var, len, &v, &why);
	CHECK(took == 0, "%u truncations decoded", took);
	CHECK(!bb_decode(var, n, &v, &why), "the original still decodes");
}

static void test_each_damage_is_named(void)
{
	size_t n = sample(0);
	struct bb_var v;
	const char *why;

	var[0] = 'X';
	CHECK(bb_decode(var, n, &v, &why) && strstr(why, "no CKB1 magic"), "%s", why);
	var[0] = 'C';
	CHECK(bb_decode(var, 40, &v, &why) && strstr(why, "44-byte header"), "%s", why);
	var[5] ^= 1;
	CHECK(bb_decode(var, n, &v, &why) && strstr(why, "header CRC"), "%s", why);
	var[5] ^= 1;
	var[44 + 20] ^= 1;	/* inside the soak's record: its own CRC says so */
	CHECK(bb_decode(var, n, &v, &why) && strstr(why, "soak checkpoint: bad CRC"), "%s", why);
	var[44 + 20] ^= 1;
	/* a good CRC over a bad field: a control character in the start time */
	var[20] = 0x07;
	memcpy(var + 40, (u8[4]){ 0 }, 4);
	{
		u32 crc = soak_crc32(var, 40);

		for (int i = 0; i < 4; i++)
			var[40 + i] = (u8)(crc >> (8 * i));
	}
	CHECK(bb_decode(var, n, &v, &why) && strstr(why, "start time"), "%s", why);
	n = bb_encode(&(struct bb_header){ 0, 1, 0, "" }, rec, n - 44, var, sizeof(var));
	CHECK(bb_decode(var, n, &v, &why) && strstr(why, "run id or checkpoint count 0"), "%s",
	      why);
	/* a checkpoint the run wrote is its first or later: a count of 0 was never written */
	n = bb_encode(&(struct bb_header){ 0x1a2b3c4d, 0, 0, "" }, rec, n - 44, var, sizeof(var));
	CHECK(bb_decode(var, n, &v, &why) && strstr(why, "run id or checkpoint count 0"),
	      "count 0: %s", why ? why : "accepted");
	n = bb_encode(&(struct bb_header){ 0x1a2b3c4d, 1, 0, "" }, rec, n - 44, var, sizeof(var));
	CHECK(!bb_decode(var, n, &v, &why) && v.h.seq == 1, "count 1 is read: %s",
	      why ? why : "-");
}

static struct {
	unsigned int writes;
	int refuse;
	char name[32];
	u8 data[BB_MAX];
	size_t len;
} store;
static u64 now;

static int stand_in(const char *name, const void *data, size_t size)
{
	store.writes++;
	snprintf(store.name, sizeof(store.name), "%s", name);
	if (store.refuse)
		return store.refuse;
	memcpy(store.data, data, size);
	store.len = size;
	return 0;
}

static u64 clock_now(void)
{
	return now;
}

static void fresh(struct bb_writer *w)
{
	memset(&store, 0, sizeof(store));
	now = 100 * S;
	bb_writer_init(w, stand_in, clock_now, 0xabcdef01, "2026-12-01T10:00:00");
}

static void test_writer_pacing(void)
{
	struct bb_writer w;
	struct soak_ckpt c;
	size_t n;

	fresh(&w);
	memset(&c, 0, sizeof(c));
	c.rule = c.first.kind = SOAK_CKPT_NONE;
	n = record(&c);
	CHECK(bb_write(&w, rec, n) == 0 && store.writes == 1 && !strcmp(store.name,
	      "CopykernelSoak"), "the first one is written");
	now += 598 * S;
	CHECK(bb_write(&w, rec, n) == -EAGAIN && store.writes == 1, "598 s later: too soon");
	c.count[SOAK_EV_CORRECTED] = 1;
	n = record(&c);
	CHECK(bb_write(&w, rec, n) == 0 && store.writes == 2, "a first corrected error: written");
	c.count[SOAK_EV_CORRECTED] = 5;
	n = record(&c);
	now += 1 * S;
	CHECK(bb_write(&w, rec, n) == -EAGAIN && store.writes == 2, "more of the same kind");
	now += 598 * S;
	CHECK(bb_write(&w, rec, n) == 0 && store.writes == 3, "599 s after the last: written");
	rec[7] ^= 1;
	now += 600 * S;
	CHECK(bb_write(&w, rec, n) == -EINVAL && store.writes == 3 && w.refused_bad == 1,
	      "a damaged record never reaches the store");
	rec[7] ^= 1;
	c.flags = SOAK_CKPT_FINAL;
	n = record(&c);
	now -= 600 * S;
	CHECK(bb_write(&w, rec, n) == 0 && store.writes == 4 && w.final, "the final one: written");
	CHECK(w.h.seq == 4 && w.refused_rate == 2, "4 written, %u refused", w.refused_rate);
	CHECK(le(store.data + 8, 4) == 4 && le(store.data + 4, 4) == 0xabcdef01,
	      "the variable says checkpoint 4 of run abcdef01");
}

static void test_refusing_store(void)
{
	struct bb_writer w;
	struct soak_ckpt c;
	size_t n;

	fresh(&w);
	memset(&c, 0, sizeof(c));
	c.rule = c.first.kind = SOAK_CKPT_NONE;
	n = record(&c);
	store.refuse = 9;
	CHECK(bb_write(&w, rec, n) == -EIO && w.failed == 1 && w.last_err == 9 && !w.h.seq,
	      "refused: -EIO, error 9, nothing counted as written");
	store.refuse = 0;
	CHECK(bb_write(&w, rec, n) == 0 && w.h.seq == 1, "the next try is still the first");
	bb_writer_init(&w, NULL, clock_now, 1, NULL);
	CHECK(bb_write(&w, rec, n) == -EIO && w.failed == 1, "no store at all: -EIO");
}

/*
 * A caller that asks every second for 24 hours, a new kind of event appearing now and then:
 * at most 1 + 6 + 1 + floor(86400 / 599) = 152 writes, at most 1 + 6 + 1 + 7 = 15 in the first
 * hour, and at most 7 in every later hour that brings no new kind.
 */
static void test_a_day_of_asking(void)
{
	static const u64 new_kind_at[NR_SOAK_EV] = { 10, 11, 1800, 3000, 3599, 50000 };
	struct bb_writer w;
	struct soak_ckpt c;
	unsigned int hour[25] = { 0 }, worst_later = 0;
	size_t n;

	fresh(&w);
	memset(&c, 0, sizeof(c));
	c.rule = c.first.kind = SOAK_CKPT_NONE;
	for (u64 t = 0; t <= 86400; t++) {
		now = t * S;
		for (int k = 0; k < NR_SOAK_EV; k++)
			if (t == new_kind_at[k])
				c.count[k] = 1;
		c.flags = t == 86400 ? SOAK_CKPT_FINAL : 0;
		c.elapsed_ns = now;
		n = record(&c);
		if (!bb_write(&w, rec, n))
			hour[t / 3600]++;
	}
	for (int h = 1; h < 24; h++)
		if (h != 13)	/* the hour of the sixth kind (50000 s) */
			worst_later = MAX(worst_later, hour[h]);
	CHECK(w.h.seq <= 152, "%u writes in a day", w.h.seq);
	CHECK(hour[0] <= 15, "%u in the first hour", hour[0]);
	CHECK(worst_later <= 7, "%u in a later hour", worst_later);
	CHECK(w.h.seq >= 140, "%u: the pacing still writes one per 10 minutes", w.h.seq);
}

static struct boot_var bv;

static void test_next_boot_says(void)
{
	struct bb_prev p;
	char text[600];
	size_t n = sample(0);

	bv.state = BOOT_VAR_READ;
	bv.len = (u32)n;
	memcpy(bv.data, var, n);
	bb_prev_from(&p, &bv);
	bb_prev_text(&p, text, sizeof(text));
	CHECK(p.state == BB_PREV_UNFINISHED, "state %d", p.state);
	CHECK(!strcmp(text, "previous run 1a2b3c4d ended without a summary after 3h02m05s; its "
		      "last checkpoint (19 written): passes 2, bytes 1610612736, CE 3, UE 1, "
		      "deferred 0, miscompares 0, stuck CPUs 0, retired pages 1, failing so far; "
		      "worst: DIMM P0_CH_A/DIMM_A0 (CE 2, UE 1, deferred 0, miscompares 0)"),
	      "%s", text);
	n = sample(0x55667788);
	memcpy(bv.data, var, n);
	bb_prev_from(&p, &bv);
	bb_prev_text(&p, text, sizeof(text));
	CHECK(strstr(text, "previous run 1a2b3c4d (already reported by run 55667788) ended "
		     "without a summary after") == text, "%s", text);
	bv.data[50] ^= 1;
	bb_prev_from(&p, &bv);
	bb_prev_text(&p, text, sizeof(text));
	CHECK(p.state == BB_PREV_DAMAGED && strstr(text, "CopykernelSoak is damaged"), "%s",
	      text);
	bv = (struct boot_var){ .state = BOOT_VAR_ABSENT };
	bb_prev_from(&p, &bv);
	bb_prev_text(&p, text, sizeof(text));
	CHECK(p.state == BB_PREV_NONE && !strcmp(text, "no soak checkpoint from an earlier run"),
	      "%s", text);
	bv = (struct boot_var){ .state = BOOT_VAR_TOO_BIG, .len = 5000 };
	bb_prev_from(&p, &bv);
	bb_prev_text(&p, text, sizeof(text));
	CHECK(p.state == BB_PREV_UNREAD && strstr(text, "5000"), "%s", text);
	bv = (struct boot_var){ .state = BOOT_VAR_ERROR, .err = 3 };
	bb_prev_from(&p, &bv);
	bb_prev_text(&p, text, sizeof(text));
	CHECK(p.state == BB_PREV_UNREAD && strstr(text, "GetVariable failed (error) 3"), "%s",
	      text);
}

static void test_final_and_worst_words(void)
{
	struct bb_header h = { 7, 3, 0, "" };
	struct soak_ckpt c;
	struct bb_prev p;
	char text[600];

	ckpt_of(&c);
	c.flags = SOAK_CKPT_FINAL;
	c.elapsed_ns = 125 * S;
	c.bucket[0] = c.bucket[1];
	c.nr_buckets = 1;
	bv.state = BOOT_VAR_READ;
	bv.len = (u32)bb_encode(&h, rec, record(&c), bv.data, sizeof(bv.data));
	bb_prev_from(&p, &bv);
	bb_prev_text(&p, text, sizeof(text));
	CHECK(p.state == BB_PREV_FINISHED && strstr(text, "previous run 00000007 ended with its "
	      "soak summary after 2m05s") && strstr(text, "passing so far; worst: node 1 range "
	      "0x40000000-0x7fffffff (CE 1, UE 0, deferred 0, miscompares 0)"), "%s", text);
	c.nr_buckets = 0;
	bv.len = (u32)bb_encode(&h, rec, record(&c), bv.data, sizeof(bv.data));
	bb_prev_from(&p, &bv);
	bb_prev_text(&p, text, sizeof(text));
	CHECK(strstr(text, "; worst: none (no error so far)"), "%s", text);
}

static void test_durations(void)
{
	static const struct { u64 ns; const char *want; } t[] = {
		{ 0, "0.000s" }, { 59999999999ULL, "59.999s" }, { 60 * S, "1m00s" },
		{ 3599 * S + 999999999ULL, "59m59s" }, { 3600 * S, "1h00m00s" },
		{ 168 * 3600 * S + 61 * S, "168h01m01s" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		bb_duration(t[i].ns, buf, sizeof(buf));
		CHECK(!strcmp(buf, t[i].want), "%llu ns: %s, want %s", (unsigned long long)t[i].ns,
		      buf, t[i].want);
	}
}

static void test_json(void)
{
	static char out[4096];
	struct json_writer j;
	struct bb_writer w;
	struct bb_prev p;
	size_t n = sample(0);
	long len;

	bv.state = BOOT_VAR_READ;
	bv.len = (u32)n;
	memcpy(bv.data, var, n);
	bb_prev_from(&p, &bv);
	fresh(&w);
	json_record(&j, out, sizeof(out), "t");
	bb_prev_json(&j, "previous_soak", &p);
	bb_writer_json(&j, "soak_checkpoints", &w);
	len = json_end(&j);
	CHECK(len > 0 && jc_valid(out), "valid JSON: %s", out);
	CHECK(strstr(out, "\"previous_soak\":{\"state\":\"unfinished\",\"run_id\":\"1a2b3c4d\","
		      "\"reported_by\":null,\"started\":\"2026-12-01T10:00:00\",\"checkpoints\":19,"
		      "\"final\":false,\"failing\":true,\"rule\":0,\"elapsed_ns\":10925250000000,")
	      != NULL, "%s", out);
	CHECK(strstr(out, "\"counts\":{\"corrected\":3,\"deferred\":0,\"uncorrected\":1,"
		      "\"miscompares\":0,\"stuck_cpus\":0,\"retired_pages\":1}") != NULL, "%s", out);
	CHECK(strstr(out, "\"first\":{\"event\":\"uncorrected\",\"cpu\":2,\"phys\":"
		      "\"0x12345000\",\"t_ns\":9000000000000}") != NULL, "%s", out);
	CHECK(strstr(out, "{\"type\":\"dimm\",\"node\":0,\"dimm\":\"P0_CH_A/DIMM_A0\"") != NULL,
	      "%s", out);
	CHECK(strstr(out, "\"soak_checkpoints\":{\"written\":0,\"final\":false") != NULL, "%s",
	      out);
}

/*
 * Every kind of stored bucket in the words tools/cklib/blackbox.py (worst()) gives it, the
 * same in the black box's line (its worst bucket) and in the checkpoint's own line.
 */
static void test_bucket_words(void)
{
	static const struct {
		struct soak_ckpt_bucket b;
		const char *words;
	} cases[] = {
		{ { .type = SOAK_BUCKET_DIMM, .name = "P0_CH_A/DIMM_A0" }, "DIMM P0_CH_A/DIMM_A0" },
		{ { .type = SOAK_BUCKET_DIMM }, "DIMM ?" },
		{ { .type = SOAK_BUCKET_RANGE, .node = 1, .base = 0x40000000, .size = 0x200000 },
		  "node 1 range 0x40000000-0x401fffff" },
		{ { .type = SOAK_BUCKET_RANGE, .node = 2 }, "node 2 outside the soak ranges" },
		{ { .type = SOAK_BUCKET_NO_ADDRESS }, "no address" },
		{ { .type = SOAK_BUCKET_OTHER }, "other places" },
	};
	struct bb_prev p = { .state = BB_PREV_UNFINISHED, .v.h.run_id = 1, .v.h.seq = 1 };
	char text[600], want[120];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		p.v.c.nr_buckets = 1;
		p.v.c.bucket[0] = cases[i].b;
		bb_prev_text(&p, text, sizeof(text));
		snprintf(want, sizeof(want), "; worst: %s (CE 0,", cases[i].words);
		CHECK(strstr(text, want), "black box, want '%s': %s", cases[i].words, text);
		soak_ckpt_text(&p.v.c, text, sizeof(text));
		snprintf(want, sizeof(want), "; worst: %s (0 corrected,", cases[i].words);
		CHECK(strstr(text, want), "checkpoint, want '%s': %s", cases[i].words, text);
	}
}

int main(void)
{
	return RUN_TESTS(test_layout, test_round_trip, test_every_flip_and_cut_is_refused,
			 test_each_damage_is_named, test_writer_pacing, test_refusing_store,
			 test_a_day_of_asking, test_next_boot_says, test_final_and_worst_words,
			 test_durations, test_json, test_bucket_words);
}
