/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * soak.h - the soak in the image: after the suites, all the free memory the boot allocator
 * still holds (bootmem_take_all, SOAK_RESERVE kept back) is written, copied and verified on
 * every online CPU until soak= is done, and the ledger is judged and reported (KTAP suite
 * "soak" with a case per node, the ledger table, the "# copykernel-soak:" summary line, JSON
 * records, LAVA lines).
 *
 * The engine over the pure core (plan.c, step.c, pattern.c, ledger.c, watch.c, report.c) is
 * split by mechanism: run.c (memory, plan, the CPUs, the results), run_work.c (a CPU's
 * pieces: write, copy, compare, verify, retire), run_poll.c (corrected errors polled on
 * every CPU), run_monitor.c (the boot CPU's progress lines and the stuck-CPU watchdog),
 * run_report.c (the results), run_fault.c (the soak_fault= test knobs), run_ckpt.c (the
 * checkpoints handed to the black box). This header is what the run (init/) uses of it:
 * the options, soak_run() (run.c) and the checkpoint sink (run_ckpt.c); the engine's
 * files share run_int.h, which includes this one, and this one includes none of theirs.
 */
#ifndef CK_SOAK_SOAK_H
#define CK_SOAK_SOAK_H

#include "kernel/platform/smbios.h"
#include "soak/knob.h"
#include "soak/limit.h"

/* Kept back from the soak for the run's own needs after it (its results, its exit). */
#define SOAK_RESERVE		(8ULL << 20)
#define SOAK_PROGRESS_DEFAULT_S	10
#define SOAK_WATCHDOG_DEFAULT_S	30
#define SOAK_POLL_DEFAULT_MS	1000
#define SOAK_FADE_DEFAULT_S	240	/* memtest86+'s bit fade idle (its test list: 240 s) */

struct soak_opts {
	struct soak_limit limit;
	struct soak_fault_opt fault;
	u32 chunk_mib;		/* 0: SOAK_CHUNK_DEFAULT */
	u32 progress_s;		/* 0: SOAK_PROGRESS_DEFAULT_S */
	u32 watchdog_s;		/* 0: SOAK_WATCHDOG_DEFAULT_S */
	u32 poll_ms;		/* 0: SOAK_POLL_DEFAULT_MS */
	u32 fade_s;		/* the retention pass's idle; 0: SOAK_FADE_DEFAULT_S */
	bool nt_copy;		/* the CPUs run copy_mc_avx2_nt (AVX2): it joins the rotation */
	bool cmdline_errors;	/* the run's command line had errors: every checkpoint says so */
};

/*
 * Run the soak as @o says (limit off: nothing happens, true); @dimms is the firmware's DIMM
 * map, or NULL without an SMBIOS table. Returns whether the soak passed. Called once, on the
 * boot CPU, with the APs idle; the memory it soaks is never handed back.
 */
bool soak_run(const struct soak_opts *o, const struct smbios_dimms *dimms);

/*
 * Where the soak's checkpoint records (soak/checkpoint.h) go: @write stores one and
 * returns 0, -EAGAIN (too soon: not written), -EBUSY (busy: not written) or another error
 * it has reported itself. NULL (the default): no checkpoint is built. Set before soak_run().
 */
void soak_set_checkpoint_sink(int (*write)(const void *rec, size_t len));

#endif
