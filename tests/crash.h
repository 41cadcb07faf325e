/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crash.h - deliberate unexpected exceptions for testing the panic path.
 */
#ifndef CK_CRASH_H
#define CK_CRASH_H

#include "kernel/cmdline.h"

void crash_now(enum ck_crash how);

#endif
