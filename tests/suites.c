// SPDX-License-Identifier: GPL-2.0-only
/*
 * suites.c - the table of in-image suites, in CK_SUITES order. A name in CK_SUITES without a
 * suite_<name> definition fails the link, so the command line and the table cannot drift.
 */
#include "tests/suites.h"

#define CK_SUITE_PTR(n) &suite_##n,
const struct ck_suite *const ck_suites[CK_NR_SUITES] = { CK_SUITES(CK_SUITE_PTR) };
#undef CK_SUITE_PTR

const struct boot_info *test_boot_info;
const struct ck_config *test_config;
