/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * copy_setup.h - choose the copy/clear primitives for this CPU (Linux's rules, then the
 * command line's overrides), print the dispatch table, and give RAM its page frames.
 */
#ifndef CK_INIT_COPY_SETUP_H
#define CK_INIT_COPY_SETUP_H

#include "copy/dispatch.h"
#include "init/cmdline.h"
#include "kernel/include/boot_info.h"

/*
 * Returns the number of overrides refused (the CPU cannot run them); each is also a
 * command-line error (init/cmdline_errors.h).
 */
int copy_setup(const struct ck_config *cfg);
/* What this CPU can run beyond the baseline, with the vector state the kernel enabled. */
void copy_caps(struct dispatch_caps *c);
/* The choice Linux's rules make on this CPU, before overrides. */
void copy_linux_choice(struct copy_dispatch *d);

#endif
