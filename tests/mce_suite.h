/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mce_suite.h - what the two files of the mce suite (test_mce.c, mce_inject.c) share.
 */
#ifndef CK_TESTS_MCE_SUITE_H
#define CK_TESTS_MCE_SUITE_H

#include "tests/ktap.h"

/* What the bring-up verdict at the end of the suite says about each backend. */
struct mce_verdict {
	bool sim_ok, emulate_ok, qemu_ran, qemu_ok, einj_present;
};
extern struct mce_verdict mce_suite_verdict;

/* Whether @pfn is on the poison list. */
bool on_poison_list(u64 pfn);
/*
 * Skip @t (true) when the copy_mc_to_kernel in use is not machine-check safe (plain memcpy,
 * as Linux picks without ERMS or a quirk): poison met there stops the machine.
 */
bool mce_copy_mc_unsafe(struct ck_test *t);

void qemu_injection(struct ck_test *t);
/* Print the line the runner turns into QEMU's "mce" monitor command. */
void mce_inject_request(u64 status, u64 addr);
void mce_inject_early(void);
void einj_table(struct ck_test *t);
void einj_plumbing(struct ck_test *t);

#endif
