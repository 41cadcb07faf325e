/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_int.h - what the soak engine's files (run.c, run_work.c, run_poll.c, run_monitor.c,
 * run_report.c, run_fault.c, run_ckpt.c; the state itself lives in run_state.c, below them
 * all) share: the soak's read-only facts, set up before the workers start and never written
 * while they run, and each CPU's own state (per CPU: only its CPU writes it; the monitor and
 * the checkpoints read).
 */
#ifndef CK_SOAK_RUN_INT_H
#define CK_SOAK_RUN_INT_H

#include "kernel/arch/percpu.h"
#include "kernel/platform/smp.h"
#include "soak/ledger.h"
#include "soak/plan.h"
#include "soak/soak.h"
#include "soak/speed.h"
#include "soak/march.h"
#include "soak/watch.h"

#define SOAK_LEDGER_CAP		16	/* stored events per CPU (the rest are counted) */
#define SOAK_OUT_KEPT		64	/* pages out before the soak began, kept by address */
#define SOAK_SPEED_ROWS		8	/* rows of the schedule counted (soak_schedule_rows) */

/* Shared by every soaking CPU, written only before they start. */
struct soak_shared {
	struct soak_opts opts;
	struct soak_plan plan;
	struct soak_where_map map;
	struct soak_prog prog;		/* the plan, seed and copy primitives, for soak/march.c */
	u64 seed;
	u64 fade_us;			/* the retention pass's idle (soak_fade=) */
	u64 t0_us, deadline_us;		/* deadline 0: the soak runs a number of passes */
	u32 passes;			/* soak=passes:N; 0 for a duration */
	u32 copy_mask;			/* the copy primitives this CPU model runs */
	unsigned int nr_cpus;		/* soaking CPUs: soak index -> CPU number */
	u16 cpu_of[SOAK_MAX_CPUS];
	/* Pages of the plan already out (PG_HWPOISON) when the soak began: the first ones. */
	u64 nr_out_before;
	u64 out_before[SOAK_OUT_KEPT];
	struct soak_probe probe;	/* the all-core probe's limits (run_probe.c) */
};
extern struct soak_shared soak;

/* One CPU's soak: written only by its CPU while it soaks. */
struct soak_cpu {
	volatile u64 beat;		/* bumped after every piece (the watchdog reads it) */
	volatile bool done;		/* its last pass finished (or the time was up) */
	u64 el_done;			/* elements finished, counted from the soak's first */
	unsigned int idx;		/* its soak index */
	u32 passes;			/* whole passes done */
	u64 pass_pages;			/* pages touched in the pass under way */
	u64 first_pages;		/* ... in its first whole pass */
	u64 min_pages, max_pages;	/* over its whole passes */
	u64 pass_t0_ns;			/* when the pass under way began (soak_elapsed_ns) */
	u64 first_ns, min_ns, max_ns;	/* how long its whole passes took */
	u64 done_ns;			/* when its passes ended */
	volatile u64 bytes_verified;
	struct soak_row_count row[SOAK_SPEED_ROWS];	/* each row's whole elements (speed.h) */
	u64 next_poll_us;		/* when its banks are polled next */
	struct soak_ledger ledger;
	struct soak_event ev[SOAK_LEDGER_CAP];
	char line[512];			/* a miscompare's line, printed when it is found */
};
DECLARE_PER_CPU(struct soak_cpu, soak_cpu);

static inline struct soak_cpu *soak_cpu_of(unsigned int idx)
{
	return per_cpu_ptr(&soak_cpu, soak.cpu_of[idx]);
}

/* run_state.c: nanoseconds since the soak began (the TSC clock, smp_now_us). */
u64 soak_elapsed_ns(void);

/* run_work.c: soak index @idx's passes, on its own CPU (the boot CPU: @tick between pieces). */
void soak_work(unsigned int idx, void (*tick)(void));

/*
 * run_probe.c: the all-core probe, on every soaking CPU at once (before their passes start;
 * the boot CPU returns when all are done).
 */
void soak_probe_run(struct soak_probe *p);

/* run_poll.c: this CPU's banks polled now, or when soak_poll= says it is time. */
void soak_poll_now(struct soak_cpu *sc);
void soak_poll_due(struct soak_cpu *sc);

/*
 * run_ckpt.c: every CPU's counts, buckets and event of note folded into @t (@first: NULL when
 * none), safe while they soak (a mid-run fold lags: run_ckpt.c says by what); the boot CPU's
 * checkpoint when soak_ckpt_due() says so (nothing without a sink); the final one.
 */
void soak_fold(struct soak_totals *t, const struct soak_event **first);
void soak_checkpoint_tick(void);
void soak_checkpoint_final(const struct soak_totals *t, const struct soak_verdict *v,
			   const struct soak_event *first);

/*
 * run_report.c: fold, judge and print the results; returns whether the soak passed. @knob_ok:
 * the soak_fault= knob did what it asked (soak_fault_end).
 */
bool soak_report(bool knob_ok);
/*
 * run_report.c: row @row's rates over every live CPU, as a line and a record; @so_far (the
 * boot CPU at the barrier after the row's first pass, every CPU past it): the line alone.
 */
void soak_speed_print(unsigned int row, bool so_far);

/*
 * run_monitor.c: the boot CPU's duties between its pieces, and after them (soak_monitor_finish
 * calls @tick, run.c's: the monitor's tick, then the checkpoint's) until the end.
 */
void soak_monitor_begin(void);
void soak_monitor_tick(void);
void soak_monitor_finish(void (*tick)(void));
/* CPUs the watchdog found stuck (their soak index has the bit set in the array). */
bool soak_is_stuck(unsigned int idx);
unsigned int soak_nr_stuck(void);

/*
 * run_fault.c: the knobs' hooks (each does nothing while its knob is off). A run written:
 * @source, a copy's source before its copy.
 */
void soak_fault_piece_written(unsigned int idx, u64 pa, u64 len, bool source);
void soak_fault_serve(void);
void soak_fault_stuck_check(unsigned int idx);
/* emulate: NULL when this soak can do it, else why not (before the workers start). */
const char *soak_fault_emulate_setup(void);
void soak_fault_copied(unsigned int idx, int ret);
/* mce: whether the copy that returned @ret is to be done again (waiting for the #MC). */
bool soak_fault_copy_again(unsigned int idx, int ret);
/*
 * After every worker has finished: the knob's own report, and its test state undone; false
 * when the knob could not do what it asked (the soak then fails).
 */
bool soak_fault_end(void);

#endif
