/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - memory accesses that may fault, through the exception table. Each returns 0 on
 * success or the trap number (14 for #PF, 13 for #GP, ...) when the access faulted.
 */
#ifndef CK_PROBE_H
#define CK_PROBE_H

#include "kernel/include/extable.h"
#include "kernel/include/types.h"

static inline u64 probe_read64(u64 addr, u64 *val)
{
	u64 v = 0, trap = 0;

	__asm__ volatile("1: movq (%[a]), %[v]\n"
			 "2:\n"
			 _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : [v] "+r"(v), "+S"(trap)
			 : [a] "r"(addr)
			 : "memory");
	*val = v;
	return trap;
}

static inline u64 probe_write64(u64 addr, u64 val)
{
	u64 trap = 0;

	__asm__ volatile("1: movq %[v], (%[a])\n"
			 "2:\n"
			 _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+S"(trap)
			 : [a] "r"(addr), [v] "r"(val)
			 : "memory");
	return trap;
}

/* Call the code at @addr (which must be a "ret"); returns the trap number if it faults. */
static inline u64 probe_exec(u64 addr)
{
	u64 trap = 0;

	__asm__ volatile("1: call *%[a]\n"
			 "2:\n"
			 _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT | EX_DATA_REG(EX_REG_RSI))
			 : "+S"(trap)
			 : [a] "r"(addr)
			 : "rax", "rcx", "rdx", "rdi", "r8", "r9", "r10", "r11", "memory");
	return trap;
}

#endif
