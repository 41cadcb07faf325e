/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host/soak/twin_run.h - one run of the hosted soak twin (host/soak/twin_run.c): the memory,
 * the workers pinned one per CPU; what the run prints is host/soak/twin_report.h.
 */
#ifndef CK_HOST_SOAK_TWIN_RUN_H
#define CK_HOST_SOAK_TWIN_RUN_H

#include "host/lib/machine.h"
#include "host/soak/twin.h"

/* Run the twin as @o says on @host's dispatch; the exit status (0 PASS, 1 FAIL, 2 setup). */
int twin_run(const struct ck_soak_opts *o, const struct ck_host *host, u64 (*now)(void));

#endif
