// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cmdline.c - the parser as built into the image (freestanding printf and all) agrees
 * with its host-tested behaviour, and the command line boot/ delivered was taken apart.
 * The parser is the run's, so its suite lives beside it and registers like any other.
 */
#include "init/cmdline.h"
#include "init/names.h"
#include "kernel/lib/string.h"
#include "ktest/lib/ctx.h"
#include "ktest/lib/ktap.h"

static unsigned int nmsg;
static char last[512];

static void sink(void *ctx, const struct cmdline_msg *m)
{
	nmsg++;
	memcpy(last, m->text, MIN(strlen(m->text) + 1, sizeof(last)));
	last[sizeof(last) - 1] = '\0';
}

static bool contains(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncmp(s, needle, n))
			return true;
	return false;
}

static void parses_in_image(struct ck_test *t)
{
	struct ck_config c;
	char d[256];

	cmdline_defaults(&c, ck_cmdline_names());
	nmsg = 0;
	report(t, cmdline_parse("tests=paging,tsc console=ttyS1,57600 exit=halt", &c, sink, NULL)
	       == 0 && nmsg == 0, "a good line parses cleanly");
	cmdline_describe(&c, d, sizeof(d));
	report(t, !strcmp(d, "tests=paging,tsc console=ttyS1,57600 exit=halt crash=none"),
	       "describe: %s", d);
	cmdline_defaults(&c, ck_cmdline_names());
	report(t, cmdline_parse("exit=sideways", &c, sink, NULL) == 1 && c.exit == 0,
	       "a bad value falls back to the default");
	report(t, contains(last, "valid: auto, qemu, reset, shutdown, halt") &&
	       contains(last, "default 'auto'"), "the message names choices and default: %s",
	       last);
}

static void boot_cmdline_delivered(struct ck_test *t)
{
	const struct boot_info *bi = t->ctx->bi;

	ck_diag("from %s: '%s'", bi->cmdline_source, bi->cmdline);
	report(t, strlen(bi->cmdline) < BOOT_CMDLINE_MAX, "NUL-terminated within its buffer");
	if (!strcmp(bi->cmdline_source, "none"))
		report(t, bi->cmdline[0] == '\0', "no source, no text");
	for (const char *p = bi->cmdline; *p; p++)
		if (*p < 0x20 || *p > 0x7e) {
			report(t, false, "non-printable byte 0x%x in the command line", (u8)*p);
			break;
		}
}

CK_SUITE(cmdline, 10,
	 CK_CASE(parses_in_image),
	 CK_CASE(boot_cmdline_delivered));
