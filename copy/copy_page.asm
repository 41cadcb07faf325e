; SPDX-License-Identifier: GPL-2.0-only
;
; copy_page.asm - copy one 4 KiB page: the two bodies Linux chooses between for copy_page().
;
; copy_page_rep is the REP_GOOD body: 512 iterations of "rep movsq". The microcode moves
; whole lines when source and destination are aligned, which pages always are.
;
; copy_page_unrolled is the body for CPUs without REP_GOOD: each iteration moves one 64-byte
; line with eight 8-byte loads followed by eight 8-byte stores, and prefetches five lines
; ahead. The last five lines are copied by a second loop without prefetch, so the routine
; never touches (not even by prefetch) memory past the end of the source page.
;
; Neither routine is machine-check safe: a fault inside them has no exception-table entry.

default rel
bits 64
section .text

%include "kernel/include/asm-consts.inc"
%define PF_LINES	5		; how far ahead the unrolled loop prefetches

; void copy_page_rep(void *dst, const void *src)
; In:  rdi = dst (page aligned), rsi = src (page aligned)
; Out: nothing
; Clobbers: rcx, rsi, rdi
global copy_page_rep
	align 16		; as the kernel's SYM_FUNC_START: functions start 16-aligned
copy_page_rep:
	mov ecx, PAGE_SIZE / 8
	rep movsq
	ret

; One line: 8 loads, then 8 stores, then advance both pointers (inline, as in Linux).
%macro MOVE_LINE 0
	mov rax, [rsi]
	mov rbx, [rsi + 8]
	mov rdx, [rsi + 16]
	mov r8, [rsi + 24]
	mov r9, [rsi + 32]
	mov r10, [rsi + 40]
	mov r11, [rsi + 48]
	mov r12, [rsi + 56]
	mov [rdi], rax
	mov [rdi + 8], rbx
	mov [rdi + 16], rdx
	mov [rdi + 24], r8
	mov [rdi + 32], r9
	mov [rdi + 40], r10
	mov [rdi + 48], r11
	mov [rdi + 56], r12
	lea rsi, [rsi + CACHE_LINE_SIZE]
	lea rdi, [rdi + CACHE_LINE_SIZE]
%endmacro

; void copy_page_unrolled(void *dst, const void *src)
; In:  rdi = dst, rsi = src (each at least 8-byte aligned; pages in practice)
; Out: nothing
; Clobbers: rax, rcx, rdx, r8-r11, rsi, rdi (rbx and r12 are saved and restored)
global copy_page_unrolled
	align 16
copy_page_unrolled:
	push rbx
	push r12
	mov ecx, PAGE_SIZE / CACHE_LINE_SIZE - PF_LINES
.line_prefetch:
	prefetcht0 [rsi + CACHE_LINE_SIZE * PF_LINES]
	MOVE_LINE
	dec ecx
	jnz .line_prefetch
	mov ecx, PF_LINES
.line_last:
	MOVE_LINE
	dec ecx
	jnz .line_last
	pop r12
	pop rbx
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
