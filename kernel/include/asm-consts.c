// SPDX-License-Identifier: GPL-2.0-only
/*
 * asm-consts.c - the constants of kernel/include that NASM code uses, compiled only into
 * build/gen/kernel/include/asm-consts.inc (kernel/include/asm-defs.h says how). Any layer's
 * asm may include it: it holds nothing above kernel/include.
 */
#include "kernel/include/asm-defs.h"
#include "kernel/include/cache.h"
#include "kernel/include/cpufeature.h"
#include "kernel/include/extable.h"
#include "kernel/include/page_types.h"
#include "kernel/include/segment.h"
#include "kernel/include/x86.h"

void asm_consts(void);

void asm_consts(void)
{
	DEFINE(PAGE_SHIFT, PAGE_SHIFT);
	DEFINE(PAGE_SIZE, PAGE_SIZE);
	DEFINE(CACHE_LINE_SHIFT, CACHE_LINE_SHIFT);
	DEFINE(CACHE_LINE_SIZE, CACHE_LINE_SIZE);
	DEFINE(KERNEL_STACK_SIZE, KERNEL_STACK_SIZE);
	BLANK();
	DEFINE(EX_TYPE_DEFAULT, EX_TYPE_DEFAULT);
	DEFINE(EX_TYPE_FAULT, EX_TYPE_FAULT);
	DEFINE(EX_TYPE_DEFAULT_MCE_SAFE, EX_TYPE_DEFAULT_MCE_SAFE);
	DEFINE(EX_TYPE_FAULT_MCE_SAFE, EX_TYPE_FAULT_MCE_SAFE);
	DEFINE(EX_DATA_REG_SHIFT, EX_DATA_REG_SHIFT);
	DEFINE(EX_REG_RDI, EX_REG_RDI);
	DEFINE(EX_REG_RSI, EX_REG_RSI);
	DEFINE(EX_REG_RDX, EX_REG_RDX);
	DEFINE(EX_REG_RCX, EX_REG_RCX);
	DEFINE(EX_REG_RBX, EX_REG_RBX);
	DEFINE(EX_REG_RAX, EX_REG_RAX);
	BLANK();
	/* What the AP trampoline sets up before C runs. */
	DEFINE(CR0_PE, CR0_PE);
	DEFINE(CR4_PAE, CR4_PAE);
	DEFINE(MSR_EFER, MSR_EFER);
	DEFINE(CPUID_LEAF_SIGNATURE, CPUID_LEAF_SIGNATURE);
	DEFINE(CPUID_LEAF_EXT_TOPOLOGY, CPUID_LEAF_EXT_TOPOLOGY);
	DEFINE(DESC_CODE32, DESC_CODE32);
	DEFINE(DESC_CODE64, DESC_CODE64);
	DEFINE(DESC_DATA, DESC_DATA);
}
