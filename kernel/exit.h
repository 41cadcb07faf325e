/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exit.h - how a run ends: the outcome status and the way out of the machine.
 *
 * Under QEMU with -device isa-debug-exit,iobase=0xf4, writing v makes QEMU exit with status
 * (v << 1) | 1, so the host sees:
 *   1  all tests passed            (CK_STATUS_PASS)
 *   3  some test failed            (CK_STATUS_FAIL)
 *   5  panic: unexpected exception or fatal error (CK_STATUS_PANIC)
 *   7  bad command line, tests ran with defaults and passed (CK_STATUS_CMDLINE)
 * tools/ck-run.py maps them to 0, 1, 2, 3.
 */
#ifndef CK_EXIT_H
#define CK_EXIT_H

#include "kernel/boot_info.h"

enum ck_status {
	CK_STATUS_PASS = 0,
	CK_STATUS_FAIL = 1,
	CK_STATUS_PANIC = 2,
	CK_STATUS_CMDLINE = 3,
};

enum exit_method {
	EXIT_AUTO,		/* qemu when QEMU's fw_cfg answers, else halt */
	EXIT_QEMU,
	EXIT_RESET,
	EXIT_SHUTDOWN,
	EXIT_HALT,
};

#define QEMU_DEBUG_EXIT_PORT	0xf4

void exit_init(enum exit_method method, void (*fw_reset)(enum fw_reset_kind));
/* Wait this many seconds (TSC) before leaving, so a summary screen can be read. */
void exit_set_delay(unsigned int seconds);
bool qemu_detected(void);
const char *ck_status_name(enum ck_status s);
__noreturn void ck_exit(enum ck_status status);

#endif
