/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * poll.h - corrected errors found on every CPU, as Linux's machine_check_poll() finds them:
 * each CPU reads the machine-check banks it owns, logs what a poller logs (corrected errors,
 * UCNA, AMD deferred errors, AMD threshold-counter overflows), clears what it logs, leaves an
 * uncorrected signalled error for the #MC handler, and queues each finding on its own bounded
 * queue (what does not fit is counted), for the run or the soak to drain on that CPU.
 *
 * A bank two CPUs share is read by one of them: its owner from the ownership map the setup
 * made (mce/smp.c: Intel's CMCI ownership probe, SMCA's equal IPIDs; the lowest-numbered CPU
 * owns an SMCA bank). A bank whose sharing nobody knows (no CMCI, no SMCA, or a bank without
 * CMCI) is polled by every CPU, one CPU at a time under one lock, as Linux polls when CMCI is
 * off (cmci_mc_poll_banks): the first CPU to read a shared one logs and clears it, so it is
 * counted once, under the CPU that happened to poll first.
 *
 * On Intel with MCG_CAP.CMCI_P the CPU also takes the corrected-error interrupt (LVT CMCI)
 * for the banks it owns; a CMCI storm moves a bank to polling once a second and back when it
 * is quiet, at Linux's numbers (mce/cmci.h). The pure core is in mce/poll_core.h, what it
 * finds and counts in mce/poll_state.h.
 */
#ifndef CK_MCE_POLL_H
#define CK_MCE_POLL_H

#include "kernel/include/types.h"
#include "mce/grade.h"
#include "mce/poll_state.h"

/*
 * On this CPU: the first call starts its poller (CMCI claimed and the LVT entry set where
 * the CPU has CMCI, AMD threshold counters set) with @interval_ms as the longest polling
 * interval (Linux's check_interval; 0: the default); a later call changes the interval only.
 * mce_cpus_init starts every online CPU's poller with the default.
 */
void mce_poll_init_cpu(unsigned int interval_ms);
/*
 * Poll this CPU's banks now (those it owns; the shared-unknown ones under the lock) and queue
 * what it finds on this CPU. Interrupts are held off meanwhile.
 */
void mce_poll_cpu(void);
/* Move up to @max of this CPU's queued events to @out, oldest first; returns how many. */
unsigned int mce_poll_take(struct mce_poll_event *out, unsigned int max);
/* This CPU's counts. */
void mce_poll_stats_this(struct mce_poll_stats *out);

/* "corrected", "deferred", "UCNA", "threshold". */
const char *mce_poll_kind_name(unsigned int kind);

/*
 * The run's last look (after the suites): every online CPU polls once, one after the other,
 * and each finding is printed decoded, lines starting with @prefix: CPU (APIC id, node),
 * bank, kind, STATUS bits, OVER, address with its granularity and node, the grading rule.
 * With @wait_s, it first waits up to that many seconds for an NMI on this CPU (the runner's
 * sign that it has made its injections) and says whether one came. Machine-check records
 * not printed yet (one the runner raised meanwhile) are printed before the poll.
 */
void mce_poll_final(const char *prefix, unsigned int wait_s);

#endif
