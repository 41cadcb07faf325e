// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptrace-regs.c - the index of each general register in struct pt_regs (ptrace.h), compiled
 * only into build/gen/kernel/include/ptrace-regs.h (C) and .inc (NASM) by
 * tools/gen-asm-inc.sh (kernel/include/asm-defs.h says how). extable.h takes its EX_REG_*
 * from there, so they follow the structure instead of being kept beside it.
 */
#include "kernel/include/asm-defs.h"
#include "kernel/include/ptrace.h"

#define REG_INDEX(sym, mem)	DEFINE(sym, __builtin_offsetof(struct pt_regs, mem) / 8)

void ptrace_regs(void);

void ptrace_regs(void)
{
	REG_INDEX(PT_REG_R15, r15);
	REG_INDEX(PT_REG_R14, r14);
	REG_INDEX(PT_REG_R13, r13);
	REG_INDEX(PT_REG_R12, r12);
	REG_INDEX(PT_REG_R11, r11);
	REG_INDEX(PT_REG_R10, r10);
	REG_INDEX(PT_REG_R9, r9);
	REG_INDEX(PT_REG_R8, r8);
	REG_INDEX(PT_REG_RBP, rbp);
	REG_INDEX(PT_REG_RDI, rdi);
	REG_INDEX(PT_REG_RSI, rsi);
	REG_INDEX(PT_REG_RDX, rdx);
	REG_INDEX(PT_REG_RCX, rcx);
	REG_INDEX(PT_REG_RBX, rbx);
	REG_INDEX(PT_REG_RAX, rax);
	DEFINE(PT_REGS_SIZE, sizeof(struct pt_regs));
}
