/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline.h - the kernel command line: space-separated key=value words.
 *
 * Plain C shared by the image, the host unit tests and the fuzzer. Every problem is reported
 * through a callback as one readable line naming the valid choices and what is used instead
 * (the row's default; for tests=, only the suites it names that exist), and as a brief form
 * that names the word and what was taken, for the run's verdict; parsing never stops early
 * and never leaves a field unset.
 */
#ifndef CK_INIT_CMDLINE_H
#define CK_INIT_CMDLINE_H

#include "init/config.h"

#define CMDLINE_MAX_WORD	256
#define SERIAL_BAUD_DEFAULT	115200

#define CMDLINE_BRIEF_MAX	160	/* a brief, NUL included */

/* One message of a parse. */
struct cmdline_msg {
	bool error;		/* counted in cmdline_parse()'s errors; else a note */
	const char *text;	/* the line the console prints */
	/*
	 * Errors: the word as given and what was taken instead, e.g. "'soak=15q': bad value
	 * (...); using the default 'off'" (at most CMDLINE_BRIEF_MAX - 1 characters). Notes:
	 * NULL.
	 */
	const char *brief;
};

typedef void (*cmdline_report_fn)(void *ctx, const struct cmdline_msg *m);

/* Defaults; @names must outlive @cfg. */
void cmdline_defaults(struct ck_config *cfg, const struct cmdline_names *names);

/*
 * Parse @line into @cfg (which must hold the defaults or earlier values). Returns the number
 * of errors; each error and note is passed to @report (may be NULL).
 */
int cmdline_parse(const char *line, struct ck_config *cfg, cmdline_report_fn report, void *ctx);

/* The effective configuration as a command line, e.g. "tests=all console=ttyS0,115200 ...". */
void cmdline_describe(const struct ck_config *cfg, char *buf, size_t size);

#endif
