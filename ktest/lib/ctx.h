/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctx.h - what an in-image test case may look at, handed to it as t->ctx by the runner.
 *
 * The run (init/main.c) fills it once before the suites run; cases read it instead of
 * globals or calls into the run, so tests/ depends only on the layers below it.
 */
#ifndef CK_KTEST_LIB_CTX_H
#define CK_KTEST_LIB_CTX_H

#include "copy/dispatch.h"
#include "cores/opts.h"
#include "kernel/include/boot_info.h"

/* inject=: the backend that raises a real #MC in the mce suite. */
enum mce_inject { INJECT_EMULATE, INJECT_SIMULATE, INJECT_QEMU, INJECT_EINJ };
/*
 * mce_case=: what the injected #MC should meet (early: the run asks before MCA is set up;
 * ap_*: an idle AP takes it, broadcast to every CPU, to the AP alone, or as a local one).
 */
enum mce_case { MCE_CASE_RECOVER, MCE_CASE_TWICE, MCE_CASE_PCC, MCE_CASE_IDLE, MCE_CASE_EARLY,
		MCE_CASE_AP_IDLE, MCE_CASE_AP_ALONE, MCE_CASE_AP_LOCAL };

/* sweep=: the sweep suite's folios (ktest/test_sweep.c says what each size runs). */
enum sweep_size { SWEEP_TINY, SWEEP_QUICK, SWEEP_FULL };

struct ck_ctx {
	const struct boot_info *bi;
	struct dispatch_caps caps;		/* what this CPU can run beyond the baseline */
	struct copy_dispatch linux_choice;	/* Linux's rules on this CPU, before overrides */
	enum mce_inject inject;
	enum mce_case mce_case;
	/* blackbox_test=unfinished: the blackbox suite stores a crafted soak checkpoint */
	bool blackbox_write;
	enum sweep_size sweep;
	struct cores_opts cores;		/* cores=: the cores suite's seed, rounds, kernels */
};

#endif
