/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline.h - the kernel command line: space-separated key=value words.
 *
 * Plain C shared by the image, the host unit tests and the fuzzer. Every problem is reported
 * through a callback as one readable line naming the valid choices and the default that is
 * used instead; parsing never stops early and never leaves a field unset.
 */
#ifndef CK_INIT_CMDLINE_H
#define CK_INIT_CMDLINE_H

#include "init/config.h"

#define CMDLINE_MAX_WORD	256
#define SERIAL_BAUD_DEFAULT	115200

typedef void (*cmdline_report_fn)(void *ctx, const char *msg);

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
