/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline_errors.h - the run's command-line errors, as its verdict names them.
 *
 * Every error found on the way to the configuration (boot/'s notes on the text, the parser's
 * words, the overrides copy setup refuses) is counted here, in the order found, with its
 * brief: the word and what was taken instead. The count is the summary line's
 * cmdline_errors=; the briefs are what the KTAP output's failing command_line test, the JSON
 * summary's "cmdline_problems" and the summary screen name. With any, and no failure, the
 * run's verdict is ERROR (reason=cmdline; kernel/include/status.h).
 */
#ifndef CK_INIT_CMDLINE_ERRORS_H
#define CK_INIT_CMDLINE_ERRORS_H

#include "kernel/include/types.h"

#define CMDLINE_ERRORS_KEPT	48	/* briefs kept (every key's, and more); the rest counted */
#define CMDLINE_ERROR_LEN	200	/* a brief, NUL included (a boot/ note's length) */

/* One more error; @brief (NULL: counted without words) is copied, cut to fit. */
void cmdline_error_add(const char *brief);
/* Errors counted. */
unsigned int cmdline_errors(void);
/* The briefs kept (at most CMDLINE_ERRORS_KEPT), in the order found. */
unsigned int cmdline_errors_kept(const char *const **briefs);

#endif
