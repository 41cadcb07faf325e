/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary.h - the end-of-run summary: a quick timing of each primitive (JSON lines on the
 * console) and, with a framebuffer, the summary screen.
 */
#ifndef CK_INIT_SUMMARY_H
#define CK_INIT_SUMMARY_H

#include "kernel/include/status.h"
#include "ktest/lib/ktap.h"

void summary_show(enum ck_status status, const struct ktap_totals *tot);

#endif
