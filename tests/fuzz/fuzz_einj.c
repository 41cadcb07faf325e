// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_einj.c - libFuzzer target for the EINJ and trigger-table parsers: firmware tables
 * are input the kernel does not control. Besides "no crash", a table that parses must have
 * consistent fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mce/einj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct einj_table t;
	const char *why = NULL;

	if (einj_parse(data, size, &t, &why) == 0) {
		if (t.n > EINJ_MAX_ENTRIES || why)
			abort();
	} else if (!why) {
		abort();	/* every refusal says why */
	}
	if (einj_parse_trigger(data, size, &t, &why) != 0 && !why)
		abort();
	return 0;
}
