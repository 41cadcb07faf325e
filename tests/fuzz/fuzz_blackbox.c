// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_blackbox.c - libFuzzer target for the soak checkpoint variable as the next boot reads
 * it (soak/blackbox.c): whatever bytes the firmware hands back, a variable that decodes
 * re-encodes to exactly the input, holds a run id and a checkpoint count that are not 0
 * (blackbox.h: the count starts at 1), and with either made 0 (the header's CRC made right)
 * is refused; the boot line and the JSON of it are written within their buffers (a JSON
 * record that fits is valid JSON); a refusal says why. Seeds:
 * tests/fuzz/corpus_blackbox. Inputs whose last byte is odd are also decoded with both CRCs
 * (the header's and the soak record's) and the record's length field made right, so the
 * checks behind the CRCs are explored too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "soak/blackbox.h"
#include "tests/host/json_check.h"

static void put32(u8 *p, u32 v)
{
	memcpy(p, &v, 4);
}

/* The decoded variable @data with the 4 bytes at @at (run id or count) made 0: refused. */
static void zeroed_refused(const uint8_t *data, size_t size, size_t at)
{
	static u8 z[BB_MAX];
	const char *why;
	struct bb_var v;

	memcpy(z, data, size);
	put32(z + at, 0);
	put32(z + 40, soak_crc32(z, 40));
	if (!bb_decode(z, size, &v, &why))
		abort();
}

static void one(const uint8_t *data, size_t size)
{
	static struct boot_var bv;
	static u8 again[BB_MAX];
	static char text[1024], json[8192];
	struct json_writer w;
	struct bb_prev p;

	if (size > sizeof(bv.data))
		return;
	bv.state = BOOT_VAR_READ;
	bv.len = (u32)size;
	memcpy(bv.data, data, size);
	bb_prev_from(&p, &bv);
	if (p.state == BB_PREV_DAMAGED && !p.why)
		abort();
	if (p.state == BB_PREV_UNFINISHED || p.state == BB_PREV_FINISHED) {
		if (bb_encode(&p.v.h, p.v.rec, p.v.rec_len, again, sizeof(again)) != size ||
		    memcmp(again, data, size) || !p.v.h.run_id || !p.v.h.seq)
			abort();
		zeroed_refused(data, size, 4);
		zeroed_refused(data, size, 8);
	}
	if (bb_prev_text(&p, text, sizeof(text)) >= sizeof(text))
		abort();
	json_record(&w, json, sizeof(json), "fuzz");
	bb_prev_json(&w, "previous_soak", &p);
	if (json_end(&w) < 0 || !jc_valid(json))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u8 fixed[BB_MAX];
	size_t rl = size - BB_HEADER;

	one(data, size);
	if (size > BB_HEADER + SOAK_CKPT_HEADER && size <= BB_MAX && (data[size - 1] & 1)) {
		memcpy(fixed, data, size);
		put32(fixed + 40, soak_crc32(fixed, 40));
		fixed[BB_HEADER + 6] = (u8)rl;
		fixed[BB_HEADER + 7] = (u8)(rl >> 8);
		put32(fixed + size - 4, soak_crc32(fixed + BB_HEADER, rl - 4));
		one(fixed, size);
	}
	return 0;
}
