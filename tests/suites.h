/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suites.h - the in-image test suites, one per name in CK_SUITES (kernel/cmdline.h), and
 * the state they may look at.
 */
#ifndef CK_SUITES_H
#define CK_SUITES_H

#include "kernel/boot_info.h"
#include "kernel/ktap.h"
#include "kernel/cmdline.h"

#define CK_SUITE_DECL(n) extern const struct ck_suite suite_##n;
CK_SUITES(CK_SUITE_DECL)
#undef CK_SUITE_DECL

extern const struct ck_suite *const ck_suites[CK_NR_SUITES];

/* What the tests may inspect: set by kernel_main before the run. */
extern const struct boot_info *test_boot_info;
extern const struct ck_config *test_config;

#endif
