/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exit.h - the way out of the machine: QEMU's isa-debug-exit, a firmware reset or shutdown,
 * or a halt loop, with the status of kernel/include/status.h; and panic().
 *
 * Layers above register exit notifiers (the run stores its results in UEFI variables from
 * one): they are called in registration order, once, on every way out, panic included.
 */
#ifndef CK_EXIT_H
#define CK_EXIT_H

#include "kernel/include/boot_info.h"
#include "kernel/include/status.h"

enum exit_method {
	EXIT_AUTO,		/* qemu when QEMU's fw_cfg answers, else halt */
	EXIT_QEMU,
	EXIT_RESET,
	EXIT_SHUTDOWN,
	EXIT_HALT,
};

#define QEMU_DEBUG_EXIT_PORT	0xf4

struct exit_notifier {
	void (*fn)(enum ck_status status);
	struct exit_notifier *next;
};

void exit_init(enum exit_method method, void (*fw_reset)(enum fw_reset_kind));
/* Wait @seconds before leaving (so a summary screen can be read), timed with the TSC. */
void exit_set_delay(unsigned int seconds, u64 tsc_hz);
void register_exit_notifier(struct exit_notifier *n);
bool qemu_detected(void);
/*
 * The SMP layer's way to stop every other CPU (an NMI each), called once, first thing on
 * the way out. A CPU that takes that NMI parks (exit_stopping() tells its NMI handler).
 */
void exit_set_stop_others(void (*fn)(void));
bool exit_stopping(void);
/*
 * Run the notifiers, say the status and leave. Any CPU may call it; the first one owns the
 * way out, and another CPU that calls it meanwhile parks.
 */
__noreturn void machine_exit(enum ck_status status);
/* The machine cannot go on: leave with the panic status (after the caller's report). */
__noreturn void panic(void);

#endif
