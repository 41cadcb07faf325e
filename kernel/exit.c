// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit.c - leave the machine with a status: QEMU's isa-debug-exit, a firmware reset or
 * shutdown through the runtime services, or a halt loop for a console someone is reading.
 */
#include "kernel/exit.h"
#include "kernel/printk.h"
#include "kernel/results.h"
#include "kernel/tsc.h"
#include "kernel/x86.h"

#define FW_CFG_PORT_SEL		0x510
#define FW_CFG_PORT_DATA	0x511
#define FW_CFG_SIGNATURE	0x0000

static enum exit_method exit_method = EXIT_AUTO;
static void (*exit_fw_reset)(enum fw_reset_kind);
static unsigned int exit_delay;

void exit_set_delay(unsigned int seconds)
{
	exit_delay = seconds;
}

bool qemu_detected(void)
{
	static const char sig[4] = { 'Q', 'E', 'M', 'U' };

	outw(FW_CFG_PORT_SEL, FW_CFG_SIGNATURE);
	for (int i = 0; i < 4; i++)
		if (inb(FW_CFG_PORT_DATA) != (u8)sig[i])
			return false;
	return true;
}

void exit_init(enum exit_method method, void (*fw_reset)(enum fw_reset_kind))
{
	exit_method = method;
	exit_fw_reset = fw_reset;
}

const char *ck_status_name(enum ck_status s)
{
	switch (s) {
	case CK_STATUS_PASS:	return "all tests passed";
	case CK_STATUS_FAIL:	return "some tests failed";
	case CK_STATUS_PANIC:	return "panic";
	case CK_STATUS_CMDLINE:	return "bad command line";
	}
	return "unknown";
}

__noreturn void ck_exit(enum ck_status status)
{
	enum exit_method m = exit_method;

	irq_disable();
	if (m == EXIT_AUTO)
		m = qemu_detected() ? EXIT_QEMU : EXIT_HALT;
	results_store(status);
	printk("copykernel: exit status %d (%s)\n", status, ck_status_name(status));
	if (exit_delay && tsc_info()->hz) {
		u64 end = rdtsc() + tsc_info()->hz * exit_delay;

		printk("copykernel: leaving in %u s (exit_delay)\n", exit_delay);
		while (rdtsc() < end)
			cpu_relax();
	}
	switch (m) {
	case EXIT_QEMU:
		outl(QEMU_DEBUG_EXIT_PORT, status);
		printk("copykernel: isa-debug-exit is not present at port 0x%x, halting\n",
		       QEMU_DEBUG_EXIT_PORT);
		break;
	case EXIT_RESET:
	case EXIT_SHUTDOWN:
		if (exit_fw_reset)
			exit_fw_reset(m == EXIT_RESET ? FW_RESET_COLD : FW_RESET_SHUTDOWN);
		printk("copykernel: firmware %s did not happen, halting\n",
		       m == EXIT_RESET ? "reset" : "shutdown");
		break;
	default:
		printk("copykernel: halted; power-cycle or reset the machine to leave\n");
		break;
	}
	halt_forever();
}
