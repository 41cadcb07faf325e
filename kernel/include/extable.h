/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * extable.h - exception fixup table: "if instruction X faults, continue at Y".
 *
 * An entry holds three 32-bit words: the faulting instruction and its fixup, each as an
 * offset from the word's own address (so the table needs no relocations), and a data word:
 *   bits 0-7   type (EX_TYPE_*)
 *   bits 8-11  register index in struct pt_regs that receives the trap number (FAULT types)
 *
 * The table is sorted at boot (ex_sort) and binary-searched (ex_search). On a #PF, #GP, #UD,
 * #DE ... any entry applies; on a machine check only the *_MCE_SAFE types do, because only
 * code written to consume poison may continue after one.
 *
 * Add entries from NASM with EXTABLE (kernel/include/extable.inc) and from C inline asm with
 * _ASM_EXTABLE_TYPE below. The sort/search code is plain C, unit-tested on the host.
 */
#ifndef CK_EXTABLE_H
#define CK_EXTABLE_H

#define EX_TYPE_NONE			0
#define EX_TYPE_DEFAULT			1	/* resume at fixup */
#define EX_TYPE_FAULT			2	/* resume at fixup, trap number in a register */
#define EX_TYPE_DEFAULT_MCE_SAFE	3
#define EX_TYPE_FAULT_MCE_SAFE		4
#define EX_TYPE_MAX			4

/*
 * Register indices in struct pt_regs (kernel/include/ptrace.h), generated from the structure
 * (kernel/include/ptrace-regs.c -> build/gen/kernel/include/ptrace-regs.h): plain numbers,
 * so C inline asm can put them into its table entries as text.
 */
#include "kernel/include/ptrace-regs.h"
#define EX_REG_RDI	PT_REG_RDI
#define EX_REG_RSI	PT_REG_RSI
#define EX_REG_RDX	PT_REG_RDX
#define EX_REG_RCX	PT_REG_RCX
#define EX_REG_RBX	PT_REG_RBX
#define EX_REG_RAX	PT_REG_RAX

#define EX_DATA_REG(r)	((r) << 8)
#define EX_DATA_TYPE_MASK	0xff
#define EX_DATA_REG_SHIFT	8
#define EX_DATA_REG_MASK	0xf

#define __ck_stringify_1(x)	#x
#define __ck_stringify(x)	__ck_stringify_1(x)

/* C inline asm: the instruction at label @from may fault; continue at label @to. */
#define _ASM_EXTABLE_TYPE(from, to, data)				\
	" .pushsection ck_extable, \"aw\"\n"				\
	" .balign 4\n"							\
	" .long (" #from ") - .\n"					\
	" .long (" #to ") - .\n"					\
	" .long " __ck_stringify(data) "\n"				\
	" .popsection\n"

#define _ASM_EXTABLE(from, to)	_ASM_EXTABLE_TYPE(from, to, EX_TYPE_DEFAULT)

#ifndef __ASSEMBLER__
#include "kernel/include/types.h"

struct exception_table_entry {
	s32 insn;
	s32 fixup;
	s32 data;
};

static inline uintptr_t ex_insn_addr(const struct exception_table_entry *e)
{
	return (uintptr_t)&e->insn + (intptr_t)e->insn;
}

static inline uintptr_t ex_fixup_addr(const struct exception_table_entry *e)
{
	return (uintptr_t)&e->fixup + (intptr_t)e->fixup;
}

static inline unsigned int ex_type(const struct exception_table_entry *e)
{
	return (unsigned int)e->data & EX_DATA_TYPE_MASK;
}

static inline unsigned int ex_reg(const struct exception_table_entry *e)
{
	return ((unsigned int)e->data >> EX_DATA_REG_SHIFT) & EX_DATA_REG_MASK;
}

static inline bool ex_type_mce_safe(unsigned int type)
{
	return type == EX_TYPE_DEFAULT_MCE_SAFE || type == EX_TYPE_FAULT_MCE_SAFE;
}

static inline bool ex_type_sets_trapnr(unsigned int type)
{
	return type == EX_TYPE_FAULT || type == EX_TYPE_FAULT_MCE_SAFE;
}

/* Sort [start, end) by instruction address, keeping every entry's targets intact. */
void ex_sort(struct exception_table_entry *start, struct exception_table_entry *end);

/* Entry for instruction address @addr, or NULL. The table must be sorted. */
const struct exception_table_entry *ex_search(const struct exception_table_entry *start,
					      const struct exception_table_entry *end,
					      uintptr_t addr);

/*
 * Check a sorted table: ascending, no two entries for one instruction, known types.
 * Returns the index of the first bad entry, or -1 when the table is sound.
 */
long ex_validate(const struct exception_table_entry *start,
		 const struct exception_table_entry *end);

#endif /* __ASSEMBLER__ */
#endif
