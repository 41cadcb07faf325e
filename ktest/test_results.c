// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_results.c - storing the run's summary in UEFI variables, through stand-ins for the
 * firmware's store given to the same writer the run uses (results_write): a store that
 * refuses (a full variable store, error 9) must be reported as NOT-STORED, and a store over
 * an older, longer result must delete the chunks it no longer uses. The run's own store, and
 * what the summary line says of it, are left alone: the run stores after the tests.
 *
 * The suite "blackbox", the soak's black box: the checkpoint writer (soak/blackbox.c) over a
 * stand-in store and a stand-in clock takes a crafted record, refuses it again too soon and
 * refuses a damaged one; with the test knob blackbox_test=unfinished the same record goes
 * through the run's own sink into the firmware, as a soak reset in mid-run would leave it
 * (tests/qemu/blackbox_tests.py resets the run in a later suite, boots again and reads it
 * back).
 */
#include "init/results.h"
#include "kernel/include/errno.h"
#include "kernel/lib/string.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"
#include "soak/blackbox.h"

static char json[RESULTS_MAX_BYTES + 1];

static int refuse(const char *name, const void *data, size_t size)
{
	return 9;	/* EFI_OUT_OF_RESOURCES: the variable store is full */
}

static struct {
	unsigned int writes, deletes;
	bool deleted[RESULTS_MAX_CHUNKS];
} seen;

static int record(const char *name, const void *data, size_t size)
{
	const char *p = name + strlen("CopykernelResult");

	if (strncmp(name, "CopykernelResult", 16) || *p < '0' || *p > '9')
		return 2;
	if (size) {
		seen.writes++;
	} else {
		seen.deletes++;
		if ((unsigned int)(*p - '0') < RESULTS_MAX_CHUNKS)
			seen.deleted[*p - '0'] = true;
	}
	return 0;
}

/* The run's summary through @set_var; what the run would print of it, as diagnostics. */
static void store_through(results_set_var_fn set_var, struct results_outcome *o)
{
	char text[400], *line = text;

	results_write(set_var, json, results_json(0, json, sizeof(json)), 0x7e57, o);
	results_outcome_text(o, text, sizeof(text));
	for (char *p = text; ; p++) {
		if (*p && *p != '\n')
			continue;
		ck_diag("stand-in store: %.*s", (int)(p - line), line);
		if (!*p)
			break;
		line = p + 1;
	}
}

static void store_refused_is_reported(struct ck_test *t)
{
	struct results_outcome o;
	char word[32];

	store_through(refuse, &o);
	report(t, o.state == RESULTS_FAILED && o.err == 9,
	       "a refused store is recorded (state %d, error %d)", o.state, o.err);
	results_outcome_word(&o, word, sizeof(word));
	report(t, !strcmp(word, "NOT-STORED(error-9)"), "the summary line says '%s'", word);
}

static void stale_chunks_deleted(struct ck_test *t)
{
	struct results_outcome o;
	bool all = true;
	char word[32];

	memset(&seen, 0, sizeof(seen));
	store_through(record, &o);
	for (unsigned int i = seen.writes; i < RESULTS_MAX_CHUNKS; i++)
		all &= seen.deleted[i];
	report(t, seen.writes >= 1 && seen.writes == o.chunks &&
	       seen.writes + seen.deletes == RESULTS_MAX_CHUNKS && all,
	       "%u chunks written, the %u after them deleted", seen.writes, seen.deletes);
	results_outcome_word(&o, word, sizeof(word));
	report(t, !strcmp(word, "stored"), "then the summary line says '%s'", word);
}

/*
 * The crafted checkpoint: a soak three hours in, failing on an uncorrected error in one DIMM.
 * tests/qemu/blackbox_tests.py (CRAFTED) states the same values.
 */
static size_t crafted(u8 *buf, size_t size)
{
	struct soak_ckpt c = {
		.flags = SOAK_CKPT_FAILING, .rule = 0, .cpus = 4, .passes = 2,
		.seed = 0x5eed5eedULL, .elapsed_ns = 10925250000000ULL,
		.bytes_verified = 1610612736ULL, .bytes_per_pass = 805306368ULL,
		.count = { 3, 0, 1, 0, 0, 1 },
		.first = { SOAK_EV_UC_RECOVERED, 2, 0x12345000ULL, 9000000000000ULL },
		.nr_buckets = 2,
		.bucket = {
			{ SOAK_BUCKET_DIMM, 0, 0, 0, 0, { 2, 0, 1, 0, 0, 1 }, "P0_CH_A/DIMM_A0" },
			{ SOAK_BUCKET_RANGE, 1, 0, 0x40000000ULL, 0x40000000ULL,
			  { 1, 0, 0, 0, 0, 0 }, "" },
		},
	};

	return soak_ckpt_encode(&c, buf, size);
}

static struct {
	u8 data[BB_MAX];
	size_t len;
	unsigned int writes;
	bool wrong_name;
} kept;
static u64 clock_ns;

static int keep(const char *name, const void *data, size_t size)
{
	kept.wrong_name |= strcmp(name, BOOT_CKPT_VAR) != 0;
	kept.writes++;
	kept.len = MIN(size, sizeof(kept.data));
	memcpy(kept.data, data, kept.len);
	return 0;
}

static u64 stand_in_clock(void)
{
	return clock_ns;
}

static void checkpoint_through_stand_in(struct ck_test *t)
{
	static u8 rec[SOAK_CKPT_MAX];
	size_t len = crafted(rec, sizeof(rec));
	struct bb_writer w;
	struct bb_var v;
	const char *why;
	int ret;

	memset(&kept, 0, sizeof(kept));
	clock_ns = 5000000000ULL;
	bb_writer_init(&w, keep, stand_in_clock, 0x7e57, "2026-12-01T10:00:00");
	ret = bb_write(&w, rec, len);
	report(t, ret == 0 && kept.writes == 1 && !kept.wrong_name, "first write: %d, %u writes",
	       ret, kept.writes);
	report(t, !bb_decode(kept.data, kept.len, &v, &why) && v.h.run_id == 0x7e57 &&
	       v.h.seq == 1 && v.rec_len == len && !memcmp(v.rec, rec, len),
	       "the store holds run 7e57's checkpoint 1 and the record whole (%s)",
	       why ? why : "decodes");
	clock_ns += 1000000000ULL;
	ret = bb_write(&w, rec, len);
	report(t, ret == -EAGAIN && kept.writes == 1, "the same record a second later: %d", ret);
	rec[len / 2] ^= 0x10;
	clock_ns += SOAK_CKPT_INTERVAL_NS;
	ret = bb_write(&w, rec, len);
	report(t, ret == -EINVAL && kept.writes == 1, "a damaged record: %d", ret);
	rec[len / 2] ^= 0x10;
	ret = bb_write(&w, rec, len);
	report(t, ret == 0 && kept.writes == 2 && w.h.seq == 2,
	       "ten minutes on: %d, checkpoint %u", ret, w.h.seq);
}

static void crafted_checkpoint_to_firmware(struct ck_test *t)
{
	static u8 rec[SOAK_CKPT_MAX];
	size_t len = crafted(rec, sizeof(rec));
	int ret;

	if (!t->ctx->blackbox_write) {
		ck_skip(t, "only with the test knob blackbox_test=unfinished (it leaves a soak "
			"checkpoint for the next boot to report)");
		return;
	}
	ret = results_checkpoint_write(rec, len);
	report(t, ret == 0, "results_checkpoint_write: %d", ret);
}

CK_SUITE(results, 95,
	 CK_CASE(store_refused_is_reported),
	 CK_CASE(stale_chunks_deleted));

/* Early in the run, so that a reset during the suites after it lands before the summary. */
CK_SUITE(blackbox, 15,
	 CK_CASE(checkpoint_through_stand_in),
	 CK_CASE(crafted_checkpoint_to_firmware));
