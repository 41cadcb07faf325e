// SPDX-License-Identifier: GPL-2.0-only
/*
 * qemu_mce.c - the request line for a machine check from QEMU's monitor, and mce_case=early.
 */
#include "kernel/console/fbcon.h"
#include "kernel/console/printk.h"
#include "kernel/include/x86.h"
#include "ktest/lib/qemu_mce.h"

/*
 * Ask the runner for a #MC. The #MC may arrive as soon as the line is out on serial, so
 * the framebuffer mirror is paused first: drawing the line would otherwise still be running
 * (and take the #MC) when the caller should already be in its copy loop.
 */
void mce_inject_request(u64 status, u64 addr)
{
	fbcon_pause(true);
	printk("    # mce-inject: request bank=1 status=0x%llx mcg=0x%llx addr=0x%llx misc=0x86\n",
	       (unsigned long long)status, (unsigned long long)QEMU_MCG, (unsigned long long)addr);
}

/*
 * mce_case=early: ask for a #MC right after the command line is read, before MCA and the
 * clock are set up, and wait for it (about 30 s at 1 GHz of TSC; the runner answers within
 * a second). The handler must read, decode and report the banks, then stop the machine.
 */
void mce_inject_early(void)
{
	static volatile u64 sink;
	u64 start = rdtsc();

	mce_inject_request(QEMU_SRAR_STATUS, (u64)(uintptr_t)&sink);
	while (rdtsc() - start < 30000000000ULL)
		sink += 1;
	fbcon_pause(false);
	printk("mce: mce_case=early: no machine check arrived\n");
}
