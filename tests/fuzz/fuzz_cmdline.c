// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cmdline.c - libFuzzer target for the command-line parser.
 *
 * Besides "no crash, no sanitizer report", it checks a property: whatever the input, the
 * configuration that comes out, written back with cmdline_describe(), parses again with no
 * error into exactly the same configuration.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "init/cmdline.h"
#include "tests/host/cmdline_names.h"

static void sink(void *ctx, const char *msg)
{
	(void)ctx;
	if (!msg || !msg[0])
		abort();	/* every report must say something */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ck_config a, b;
	char line[2048], desc[512];

	if (size >= sizeof(line))
		size = sizeof(line) - 1;
	memcpy(line, data, size);
	line[size] = '\0';
	cmdline_defaults(&a, &host_names);
	cmdline_parse(line, &a, sink, NULL);
	cmdline_describe(&a, desc, sizeof(desc));
	cmdline_defaults(&b, &host_names);
	if (cmdline_parse(desc, &b, sink, NULL) != 0)
		abort();
	if (memcmp(&a, &b, sizeof(a)) != 0)
		abort();
	return 0;
}
