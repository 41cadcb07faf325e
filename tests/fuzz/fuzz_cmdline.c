// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cmdline.c - libFuzzer target for the command-line parser.
 *
 * Besides "no crash, no sanitizer report", it checks properties: whatever the input, the
 * configuration that comes out, written back with cmdline_describe(), parses again with no
 * error into exactly the same configuration; every error is said with a brief (the word and
 * what was taken) that fits CMDLINE_BRIEF_MAX, and the errors said are the errors counted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "init/cmdline.h"
#include "tests/host/cmdline_names.h"

static int said;

static void sink(void *ctx, const struct cmdline_msg *m)
{
	(void)ctx;
	if (!m->text || !m->text[0])
		abort();	/* every report must say something */
	if (m->error != (m->brief != NULL) ||
	    (m->brief && (!m->brief[0] || strlen(m->brief) >= CMDLINE_BRIEF_MAX)))
		abort();	/* an error in brief too, a note never */
	said += m->error;
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
	said = 0;
	if (cmdline_parse(line, &a, sink, NULL) != said)
		abort();
	cmdline_describe(&a, desc, sizeof(desc));
	cmdline_defaults(&b, &host_names);
	if (cmdline_parse(desc, &b, sink, NULL) != 0)
		abort();
	if (memcmp(&a, &b, sizeof(a)) != 0)
		abort();
	return 0;
}
