// SPDX-License-Identifier: GPL-2.0-only
/*
 * crash.c - raise an exception nobody expects, on purpose (crash= on the command line), so
 * the QEMU tests can check the unexpected-exception report and the panic exit status.
 * "df" overflows onto a not-present stack page: delivering the #UD then faults, delivering
 * that #PF faults again, and the CPU raises #DF, which arrives on its own IST stack.
 */
#include "kernel/cmdline.h"
#include "kernel/paging.h"
#include "kernel/pmem.h"
#include "kernel/printk.h"
#include "tests/crash.h"

void crash_now(enum ck_crash how)
{
	u64 page;

	printk("crash: raising an unexpected exception on purpose (crash=%d)\n", how);
	switch (how) {
	case CRASH_UD:
		__asm__ volatile("ud2");
		break;
	case CRASH_GP:
		/* A non-canonical address: #GP on hardware and emulators alike. */
		(void)*(volatile u64 *)(uintptr_t)0x8000000000000000ULL;
		break;
	case CRASH_PF:
		page = pmem_alloc(SZ_4K, SZ_4K);
		pg_set_attr(page, page + SZ_4K, PG_CACHE(PG_CACHE_WB));
		printk("crash: reading not-present page 0x%llx\n", (unsigned long long)page);
		(void)*(volatile u64 *)(uintptr_t)(page + 0x10);
		break;
	case CRASH_DE:
		__asm__ volatile("xor %%ecx, %%ecx; div %%ecx" : : : "rax", "rcx", "rdx");
		break;
	case CRASH_BP:
		__asm__ volatile("int3");
		break;
	case CRASH_DF:
		page = pmem_alloc(SZ_4K, SZ_4K);
		pg_set_attr(page, page + SZ_4K, PG_CACHE(PG_CACHE_WB));
		__asm__ volatile("mov %0, %%rsp; ud2" : : "r"(page + SZ_4K) : "memory");
		break;
	default:
		return;
	}
	printk("crash: the exception did not happen\n");
}
