// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmdline_errors.c - the run's command-line errors and their briefs (cmdline_errors.h). Only
 * the boot CPU adds to them, before the other CPUs start.
 */
#include "init/cmdline_errors.h"
#include "kernel/lib/format.h"

static char text[CMDLINE_ERRORS_KEPT][CMDLINE_ERROR_LEN];
static const char *kept[CMDLINE_ERRORS_KEPT];
static unsigned int nr_kept, count;

void cmdline_error_add(const char *brief)
{
	count++;
	if (!brief || nr_kept == CMDLINE_ERRORS_KEPT)
		return;
	ck_snprintf(text[nr_kept], sizeof(text[0]), "%s", brief);
	kept[nr_kept] = text[nr_kept];
	nr_kept++;
}

unsigned int cmdline_errors(void)
{
	return count;
}

unsigned int cmdline_errors_kept(const char *const **briefs)
{
	*briefs = kept;
	return nr_kept;
}
