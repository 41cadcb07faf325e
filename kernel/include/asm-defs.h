/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * asm-defs.h - how C hands constants and structure offsets to NASM, as Linux's kbuild.h does.
 *
 * A generator file (such as kernel/include/asm-consts.c) is compiled to
 * assembly only; each DEFINE() leaves a "->NAME VALUE" marker that tools/gen-asm-inc.sh turns
 * into "%define NAME VALUE" in build/gen/<the generator's path with .inc>. NASM sources
 * %include that file by the generator's path (the build adds -I build/gen/), so every value
 * has one source, the C header, and the compiler evaluates it (sizeof, offsetof, shifts).
 */
#ifndef CK_ASM_DEFS_H
#define CK_ASM_DEFS_H

#define DEFINE(sym, val)	__asm__ volatile("\n.ascii \"->" #sym " %0\"" : : "i"((long)(val)))
#define OFFSET(sym, str, mem)	DEFINE(sym, __builtin_offsetof(struct str, mem))
#define BLANK()			__asm__ volatile("\n.ascii \"->\"")

#endif
