/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline_names.h - the suite and crash names the image registers, as host programs give
 * them to the command-line parser (the image gathers them from its linker sections; the
 * QEMU scenarios check the image's list against the same words).
 */
#ifndef CK_HOST_CMDLINE_NAMES_H
#define CK_HOST_CMDLINE_NAMES_H

#include "init/cmdline.h"

enum host_suite { HS_cmdline, HS_extable, HS_traps, HS_paging, HS_tsc, HS_cpu, HS_mce, HS_copy,
		  HS_pages, NR_HOST_SUITES };
enum host_crash { HC_none, HC_ud, HC_gp, HC_pf, HC_de, HC_bp, HC_df, NR_HOST_CRASHES };

static const char *const host_suite_names[NR_HOST_SUITES] = {
	"cmdline", "extable", "traps", "paging", "tsc", "cpu", "mce", "copy", "pages",
};
static const char *const host_crash_names[NR_HOST_CRASHES] = {
	"none", "ud", "gp", "pf", "de", "bp", "df",
};
static const struct cmdline_names host_names = {
	host_suite_names, NR_HOST_SUITES, host_crash_names, NR_HOST_CRASHES,
};

#endif
