/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ptrace.h - the register frame every exception leaves on the stack (struct pt_regs), the
 * one description of its layout: kernel/arch/entry.asm pushes in this order, and the
 * exception table's register indices (EX_REG_*, extable.h) are generated from it by
 * kernel/include/ptrace-regs.c, as Linux's asm-offsets derives its frame offsets.
 */
#ifndef CK_PTRACE_H
#define CK_PTRACE_H

#include "kernel/include/types.h"

struct pt_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;	/* pushed by exc_common, last first */
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error_code;				/* pushed by the vector's stub */
	u64 rip, cs, rflags, rsp, ss;			/* pushed by the CPU */
};

#define PT_REGS_NR_GPRS	15	/* r15 .. rax, one u64 each from the frame's start */

#endif
