// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit.c - leave the machine with a status: QEMU's isa-debug-exit, a firmware reset or
 * shutdown through the runtime services, or a halt loop for a console someone is reading.
 */
#include "kernel/arch/exit.h"
#include "kernel/arch/percpu.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"

#define FW_CFG_PORT_SEL		0x510
#define FW_CFG_PORT_DATA	0x511
#define FW_CFG_SIGNATURE	0x0000

static enum exit_method exit_method = EXIT_AUTO;
static void (*exit_fw_reset)(enum fw_reset_kind);
static unsigned int exit_delay;
static u64 exit_tsc_hz;
static struct exit_notifier *notifiers;
static bool exiting;
static int exit_owner = -1;		/* the CPU on its way out */
static void (*stop_others)(void);

void exit_set_delay(unsigned int seconds, u64 tsc_hz)
{
	exit_delay = seconds;
	exit_tsc_hz = tsc_hz;
}

void register_exit_notifier(struct exit_notifier *n)
{
	struct exit_notifier **p = &notifiers;

	while (*p)
		p = &(*p)->next;
	n->next = NULL;
	*p = n;
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

__noreturn void panic(void)
{
	machine_exit(CK_STATUS_PANIC);
}

void exit_set_stop_others(void (*fn)(void))
{
	stop_others = fn;
}

bool exit_stopping(void)
{
	int owner = __atomic_load_n(&exit_owner, __ATOMIC_ACQUIRE);

	return owner >= 0 && owner != (int)this_cpu()->cpu;
}

__noreturn void machine_exit(enum ck_status status)
{
	enum exit_method m = exit_method;
	int me = (int)this_cpu()->cpu, owner = -1;

	irq_disable();
	if (!__atomic_compare_exchange_n(&exit_owner, &owner, me, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE) && owner != me) {
		/* Another CPU is already on its way out and reports: stay quiet. */
		__atomic_store_n(&this_cpu()->state, CPU_STOPPED, __ATOMIC_RELEASE);
		halt_forever();
	}
	if (m == EXIT_AUTO)
		m = qemu_detected() ? EXIT_QEMU : EXIT_HALT;
	/* A notifier that faults brings the panic path back here: run them once. */
	if (!exiting) {
		exiting = true;
		if (stop_others)
			stop_others();
		for (struct exit_notifier *n = notifiers; n; n = n->next)
			n->fn(status);
	}
	printk("copykernel: exit status %d (%s)\n", status, ck_status_name(status));
	if (exit_delay && exit_tsc_hz) {
		u64 end = rdtsc() + exit_tsc_hz * exit_delay;

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
