/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline.h - the kernel command line: space-separated key=value words.
 *
 * Plain C shared by the image, the host unit tests and the fuzzer. Every problem is reported
 * through a callback as one readable line naming the valid choices and the default that is
 * used instead; parsing never stops early and never leaves a field unset.
 */
#ifndef CK_INIT_CMDLINE_H
#define CK_INIT_CMDLINE_H

#include "bench/image.h"
#include "kernel/include/types.h"
#include "ktest/lib/ctx.h"
#include "soak/knob.h"
#include "soak/limit.h"

/*
 * The names tests= and crash= accept: the suites and crash kinds tests/ registers, in run
 * order. crashes[0] is "none". The image builds this from the registration sections; host
 * programs pass their own.
 */
struct cmdline_names {
	const char *const *suites;
	unsigned int nr_suites;		/* at most 32: tests= is a bit mask */
	const char *const *crashes;
	unsigned int nr_crashes;
};

struct ck_config {
	const struct cmdline_names *names;
	u32 tests;		/* bit per suite, in the order of names->suites */
	u16 console_port;	/* I/O port of the 16550 */
	u32 console_baud;
	u8 exit;		/* enum exit_method (kernel/arch/exit.h) */
	u8 crash;		/* index into names->crashes; 0: none */
	u8 ebs_stale;		/* test knob read by boot/: first ExitBootServices key spoiled */
	/* Primitive overrides: 0 = Linux's choice, else 1 + the copy/dispatch.h enum value. */
	u8 copy_page, memcpy, copy_mc, clear_page;
	u8 inject;		/* enum mce_inject (ktest/lib/ctx.h): the backend for a real #MC */
	u8 mce_case;		/* enum mce_case (ktest/lib/ctx.h): what the injected #MC meets */
	u8 fb_off;		/* 1: no framebuffer console */
	u16 exit_delay;		/* seconds to wait before leaving (summary stays on screen) */
	u8 bench;		/* enum bench_sel: which preset(s) to run after the tests */
	u8 bench_runs;		/* timed runs per case (0: the default) */
	u8 bench_tiny;		/* test mode: smallest sizes, small eviction buffer */
	u8 bench_cold;		/* 0: eviction buffer, 1: CLFLUSHOPT of the case's buffers */
	u8 bench_migrate_size;	/* enum bench_migrate_size (bench/image.h) */
	u16 smp;		/* CPUs to use, boot CPU included; 0: every enabled one */
	u16 smp_timeout;	/* ms to wait for each AP to check in (0: the default) */
	u16 bench_cpu;		/* 1 + the CPU that runs single-thread benchmarks; 0: the boot CPU */
	struct soak_limit soak;	/* how long the soak runs after the suites (off: none) */
	u16 soak_chunk;		/* MiB (0: the default) */
	u16 soak_progress;	/* s between progress lines (0: the default) */
	u16 soak_watchdog;	/* s a CPU may stay silent (0: the default) */
	u16 soak_poll;		/* ms between a soaking CPU's bank polls (0: the default) */
	u32 soak_fade;		/* s the retention pass idles (0: the default) */
	struct soak_fault_opt soak_fault;	/* test knob (soak/knob.h) */
	u16 mce_poll_wait;	/* s the final corrected-error poll waits for an NMI (test knob) */
	u8 blackbox_test;	/* test knob: the blackbox suite stores a crafted soak checkpoint */
	u8 sweep;		/* enum sweep_size (ktest/lib/ctx.h): the sweep suite's folios */
};

#define CMDLINE_MAX_WORD	256
#define SERIAL_BAUD_DEFAULT	115200

typedef void (*cmdline_report_fn)(void *ctx, const char *msg);

/* Defaults; @names must outlive @cfg. */
void cmdline_defaults(struct ck_config *cfg, const struct cmdline_names *names);

/*
 * Parse @line into @cfg (which must hold the defaults or earlier values). Returns the number
 * of errors; each error and note is passed to @report (may be NULL).
 */
int cmdline_parse(const char *line, struct ck_config *cfg, cmdline_report_fn report, void *ctx);

/* The effective configuration as a command line, e.g. "tests=all console=ttyS0,115200 ...". */
void cmdline_describe(const struct ck_config *cfg, char *buf, size_t size);

#endif
