/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline.h - the kernel command line: space-separated key=value words.
 *
 * Plain C shared by the image, the host unit tests and the fuzzer. Every problem is reported
 * through a callback as one readable line naming the valid choices and the default that is
 * used instead; parsing never stops early and never leaves a field unset.
 */
#ifndef CK_CMDLINE_H
#define CK_CMDLINE_H

#include "kernel/types.h"

/* In-image test suites selectable with tests=; tests/suites.c registers one per name. */
#define CK_SUITES(X)		\
	X(cmdline)		\
	X(extable)		\
	X(traps)		\
	X(paging)		\
	X(tsc)			\
	X(cpu)			\
	X(mce)			\
	X(copy)			\
	X(pages)

#define CK_SUITE_ENUM(n) CK_SUITE_##n,
enum ck_suite_id { CK_SUITES(CK_SUITE_ENUM) CK_NR_SUITES };
#undef CK_SUITE_ENUM

extern const char *const ck_suite_names[CK_NR_SUITES];

enum ck_crash {
	CRASH_NONE, CRASH_UD, CRASH_GP, CRASH_PF, CRASH_DE, CRASH_BP, CRASH_DF,
};

enum mce_inject { INJECT_EMULATE, INJECT_SIMULATE, INJECT_QEMU, INJECT_EINJ };
enum mce_case { MCE_CASE_RECOVER, MCE_CASE_TWICE, MCE_CASE_PCC, MCE_CASE_IDLE };
enum bench_sel { BENCH_NONE, BENCH_RFC, BENCH_V3, BENCH_CLEAR, BENCH_PRIMITIVES, BENCH_ALL };

struct ck_config {
	u32 tests;		/* bit per enum ck_suite_id */
	u16 console_port;	/* I/O port of the 16550 */
	u32 console_baud;
	u8 exit;		/* enum exit_method (kernel/exit.h) */
	u8 crash;		/* enum ck_crash */
	u8 ebs_stale;		/* test knob read by boot/: first ExitBootServices key spoiled */
	/* Primitive overrides: 0 = Linux's choice, else 1 + the copy/dispatch.h enum value. */
	u8 copy_page, memcpy, copy_mc, clear_page;
	u8 inject;		/* enum mce_inject: the backend for a real #MC */
	u8 mce_case;		/* enum mce_case: what the injected #MC should meet */
	u8 fb_off;		/* 1: no framebuffer console */
	u16 exit_delay;		/* seconds to wait before leaving (summary stays on screen) */
	u8 bench;		/* enum bench_sel: which preset(s) to run after the tests */
	u8 bench_runs;		/* timed runs per case (0: the default) */
	u8 bench_tiny;		/* test mode: smallest sizes, small eviction buffer */
	u8 bench_cold;		/* 0: eviction buffer, 1: CLFLUSHOPT of the case's buffers */
};

#define CMDLINE_MAX_WORD	256
#define SERIAL_BAUD_DEFAULT	115200

typedef void (*cmdline_report_fn)(void *ctx, const char *msg);

void cmdline_defaults(struct ck_config *cfg);

/*
 * Parse @line into @cfg (which must hold the defaults or earlier values). Returns the number
 * of errors; each error and note is passed to @report (may be NULL).
 */
int cmdline_parse(const char *line, struct ck_config *cfg, cmdline_report_fn report, void *ctx);

/* The effective configuration as a command line, e.g. "tests=all console=ttyS0,115200 ...". */
void cmdline_describe(const struct ck_config *cfg, char *buf, size_t size);

#endif
