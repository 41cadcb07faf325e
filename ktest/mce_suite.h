/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mce_suite.h - what the files of the mce suite share: the suite and its set-up cases
 * (test_mce.c), the handler over simulated registers (test_mce_rules.c), emulated poison
 * (test_mce_emulate.c), the corrected-error poller (test_mce_poll.c), and real machine checks
 * from QEMU's monitor or ACPI EINJ (mce_inject.c).
 */
#ifndef CK_KTEST_MCE_SUITE_H
#define CK_KTEST_MCE_SUITE_H

#include "ktest/lib/ktap.h"

/* What the bring-up verdict at the end of the suite says about each backend. */
struct mce_verdict {
	bool sim_ok, emulate_ok, qemu_ran, qemu_ok, einj_present;
};
extern struct mce_verdict mce_suite_verdict;

/* Whether @pfn is on the poison list. */
bool on_poison_list(u64 pfn);
/*
 * The physical address of page @i (0 .. MCE_SIM_PAGES - 1) that the simulated banks name:
 * pages the suite takes from the boot allocator once, so the poison the handler queues for
 * a simulated error lands on memory the run keeps, never on free memory (which a soak after
 * the suites would plan, find poisoned and never touch).
 */
#define MCE_SIM_PAGES	16
u64 mce_sim_page(unsigned int i);
/*
 * Skip @t (true) when this CPU cannot recover from poison in the kernel (no SER_P/SUCCOR),
 * or when the copy_mc_to_kernel in use is not machine-check safe (plain memcpy): poison met
 * there stops the machine, as in Linux.
 */
bool mce_cannot_recover(struct ck_test *t);
bool mce_copy_mc_unsafe(struct ck_test *t);

/* test_mce_rules.c: the handler over simulated MSRs and "int $18". */
void software_int18(struct ck_test *t);
void grading_rules_intel(struct ck_test *t);
void grading_rules_amd(struct ck_test *t);
void plain_entry_not_used_for_mc(struct ck_test *t);
void nested_mc_recognised(struct ck_test *t);
void every_bank_graded(struct ck_test *t);

/* test_mce_emulate.c: inject=emulate's poisoned pages. */
void emulated_poison_sweep(struct ck_test *t);
void hwpoison_refuses_copy(struct ck_test *t);
void two_recoveries_in_a_row(struct ck_test *t);
void recoveries_on_several_cpus_at_once(struct ck_test *t);

/* test_mce_poll.c: the corrected-error poller over each CPU's simulated registers. */
void poller_over_simulated_banks(struct ck_test *t);

/* mce_inject.c: a real #MC. */
void qemu_injection(struct ck_test *t);
void einj_table(struct ck_test *t);
void einj_plumbing(struct ck_test *t);

#endif
