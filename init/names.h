/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * names.h - the command line's view of the registered suites and crash kinds.
 */
#ifndef CK_INIT_NAMES_H
#define CK_INIT_NAMES_H

#include "init/cmdline.h"

/* Suites in run order, crash kinds with "none" first; built on the first call. */
const struct cmdline_names *ck_cmdline_names(void);

#endif
