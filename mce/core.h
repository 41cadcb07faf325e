/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core.h - inside mce/: how the setup and the handler write what mce/core.c keeps.
 */
#ifndef CK_MCE_CORE_H
#define CK_MCE_CORE_H

#include "mce/mce.h"

#define MCE_MAX_BANKS	64

/* Install the #MC handler (and the #PF handler of inject=emulate) in the trap table. */
void mce_handler_install(void);
/* Record this CPU's capabilities (mce_init). */
void mce_caps_set(const struct mce_caps *c);
/* The next record of the ring, zeroed but for its sequence number, TSC and where it hit. */
struct mce_record *mce_record_new(u64 rip, u64 frame, enum mce_kind kind);

#endif
