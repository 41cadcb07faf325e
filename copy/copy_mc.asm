; SPDX-License-Identifier: GPL-2.0-only
;
; copy_mc.asm - machine-check-safe copies: they return instead of crashing when a load
; consumes poison (a #MC) or when a load or store page-faults.
;
; Both return the number of bytes NOT copied (0 on success) and never retry after a fault:
; poison covers whole cache lines, so retrying a load would only take the #MC again.
;
; copy_mc_fragile, for CPUs whose machine-check recovery is fragile with string operations:
;   1. bytes, until the source is 8-byte aligned,
;   2. 8-byte words,
;   3. the remaining 0..7 bytes.
;   Every load has an EX_TYPE_DEFAULT_MCE_SAFE entry: a #MC or #PF on a load returns the
;   count that was left, which is exact because aligned word loads never straddle a page
;   or a cache line. A store fault (#PF only: stores do not consume poison) on a word does
;   not know how many of its bytes landed, so the fixup copies the rest byte by byte from
;   that word on: the byte store that faults then gives the exact count.
;
; copy_mc_fast_string, for CPUs with ERMS: one "rep movsb" with an MCE-safe entry. On a fault
;   the CPU has left RCX at the iteration it stopped at, and that is the count returned. With
;   fast strings the CPU may stop a little before the faulting byte (it moves cache lines),
;   so the count is an upper bound on what is missing: it is never smaller than the bytes
;   at and after the fault.

default rel
bits 64
%include "kernel/include/extable.inc"

section .text

; size_t copy_mc_fragile(void *dst, const void *src, size_t len)
; In:  rdi = dst, rsi = src, rdx = len
; Out: rax = bytes not copied
; Clobbers: rcx, rdx, rsi, rdi, r8, r9
; Faults: loads at .lead_load, .word_load, .tail_load -> .fault (MCE-safe);
;         stores at .lead_store, .tail_store -> .fault; store at .word_store -> .word_store_fault
global copy_mc_fragile
	align 16		; as the kernel's SYM_FUNC_START: functions start 16-aligned
copy_mc_fragile:
	mov rcx, rdx			; rcx = bytes left, the return value on a fault
	test rcx, rcx
	jz .ok
	mov r9d, esi
	and r9d, 7
	jz .words
	neg r9d
	add r9d, 8			; bytes until the source is aligned
	cmp r9, rcx
	cmova r9, rcx
.lead:
.lead_load:
	mov r8b, [rsi]
.lead_store:
	mov [rdi], r8b
	inc rsi
	inc rdi
	dec rcx
	dec r9d
	jnz .lead
.words:
	mov r9, rcx
	shr r9, 3
	jz .tail
.word:
.word_load:
	mov r8, [rsi]
.word_store:
	mov [rdi], r8
	add rsi, 8
	add rdi, 8
	sub rcx, 8
	dec r9
	jnz .word
.tail:
	test rcx, rcx
	jz .ok
.tail_byte:
.tail_load:
	mov r8b, [rsi]
.tail_store:
	mov [rdi], r8b
	inc rsi
	inc rdi
	dec rcx
	jnz .tail_byte
.ok:
	xor eax, eax
	ret
.fault:
	mov rax, rcx
	ret
.word_store_fault:
	jmp .tail_byte			; rcx > 0: at least this word is left

	EXTABLE .lead_load, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .lead_store, .fault, EX_TYPE_DEFAULT
	EXTABLE .word_load, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .word_store, .word_store_fault, EX_TYPE_DEFAULT
	EXTABLE .tail_load, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .tail_store, .fault, EX_TYPE_DEFAULT

; size_t copy_mc_fast_string(void *dst, const void *src, size_t len)
; In:  rdi = dst, rsi = src, rdx = len
; Out: rax = bytes not copied (RCX where the CPU stopped)
; Clobbers: rcx, rsi, rdi
; Faults: the rep movsb at .copy -> .fault (MCE-safe)
global copy_mc_fast_string
	align 16
copy_mc_fast_string:
	mov rcx, rdx
.copy:
	rep movsb
	xor eax, eax
	ret
.fault:
	mov rax, rcx
	ret

	EXTABLE .copy, .fault, EX_TYPE_DEFAULT_MCE_SAFE

section .note.GNU-stack noalloc noexec nowrite progbits
