// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_soak_ckpt.c - libFuzzer target for the soak checkpoint decoder
 * (soak/checkpoint.c). A record that decodes re-encodes to exactly the input bytes,
 * its counts of buckets, names and miscompares are within bounds, and it can be described
 * (versions 1 to 3); a refusal
 * says why. Seeds: tests/fuzz/corpus_soak_ckpt. Inputs longer than SOAK_CKPT_HEADER whose
 * last byte is odd are also decoded with their length field and CRC made right, so the field
 * checks behind the CRC are explored too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "soak/checkpoint.h"

static void one(const uint8_t *data, size_t size)
{
	static u8 again[SOAK_CKPT_MAX];
	static char text[4096];
	struct soak_ckpt c;
	const char *why = NULL;

	if (soak_ckpt_decode(data, size, &c, &why)) {
		if (!why)
			abort();
		return;
	}
	if (c.nr_buckets > SOAK_CKPT_BUCKETS || c.nr_misc > SOAK_CKPT_MISC ||
	    size > SOAK_CKPT_MAX)
		abort();
	for (unsigned int i = 0; i < c.nr_buckets; i++)
		if (strlen(c.bucket[i].name) > SOAK_CKPT_NAME)
			abort();
	if (soak_ckpt_encode(&c, again, sizeof(again)) != size || memcmp(again, data, size))
		abort();
	soak_ckpt_text(&c, text, sizeof(text));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u8 fixed[SOAK_CKPT_MAX];

	one(data, size);
	if (size > SOAK_CKPT_HEADER && size <= SOAK_CKPT_MAX && (data[size - 1] & 1)) {
		u32 crc;

		memcpy(fixed, data, size);
		fixed[6] = (u8)size;
		fixed[7] = (u8)(size >> 8);
		crc = soak_crc32(fixed, size - 4);
		memcpy(fixed + size - 4, &crc, 4);
		one(fixed, size);
	}
	return 0;
}
