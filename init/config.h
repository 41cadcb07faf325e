/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h - what the command line configures: struct ck_config (one member per key of the
 * option table) and the names tests= and crash= accept.
 *
 * The shared type of the parser (cmdline.c) and the option table (cmdline_opts.c): both
 * include this header and neither includes the other's header for it, so the table is a
 * layer below the parser (the parser reads the table; the table names only fields here).
 */
#ifndef CK_INIT_CONFIG_H
#define CK_INIT_CONFIG_H

#include "bench/image.h"
#include "cores/opts.h"
#include "kernel/include/types.h"
#include "ktest/lib/ctx.h"
#include "soak/knob.h"
#include "soak/limit.h"

/*
 * The names tests= and crash= accept: the suites and crash kinds ktest/ registers, in run
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
	struct cores_opts cores;	/* the cores suite's seed, rounds, families (cores/opts.h) */
};

#endif
