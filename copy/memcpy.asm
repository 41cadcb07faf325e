; SPDX-License-Identifier: GPL-2.0-only
;
; memcpy.asm - the two bodies of Linux's memcpy() on x86-64.
;
; memcpy_erms is the FSRM body: a single "rep movsb", which CPUs with Fast Short REP MOVSB
; run well at every length.
;
; memcpy_orig is the body for CPUs without FSRM. Lengths of 32 and more go through a loop
; that moves 32 bytes per iteration with four 8-byte loads and four stores. The loop runs
; forward, or backward from the end when the low byte of the source address is below that
; of the destination: a forward copy would then load from addresses that, modulo 4 KiB, sit
; just behind the stores it has issued, and the CPU's store-to-load forwarding check would
; see false dependencies ("4K aliasing"). The 0..31 bytes left over (at the end after a
; forward loop, at the start after a backward one) are moved with overlapping loads and
; stores: 16..31 bytes as 2+2 words from both ends, 8..15 as 1+1 words, 4..7 as 1+1 dwords,
; 1..3 as the first, middle and last byte.
;
; Neither handles overlapping buffers (that is memmove's job) and neither is machine-check
; safe: no instruction here has an exception-table entry.

default rel
bits 64
section .text

; void *memcpy_erms(void *dst, const void *src, size_t len)
; In:  rdi = dst, rsi = src, rdx = len
; Out: rax = dst
; Clobbers: rcx, rsi, rdi
global memcpy_erms
	align 16		; as the kernel's SYM_FUNC_START: functions start 16-aligned
memcpy_erms:
	mov rax, rdi
	mov rcx, rdx
	rep movsb
	ret

; void *memcpy_orig(void *dst, const void *src, size_t len)
; In:  rdi = dst, rsi = src, rdx = len
; Out: rax = dst
; Clobbers: rdx, rsi, rdi, r8-r11
global memcpy_orig
	align 16
memcpy_orig:
	mov rax, rdi
	cmp rdx, 32
	jb .tail
	cmp sil, dil
	jl .backward
	; As the kernel's loop: the count is kept 32 short, the subtraction at the top of each
	; iteration sets the carry the closing jae reads (lea leaves the flags alone), so the
	; loop has no compare of its own.
	sub rdx, 32
.forward:
	sub rdx, 32
	mov r8, [rsi]
	mov r9, [rsi + 8]
	mov r10, [rsi + 16]
	mov r11, [rsi + 24]
	lea rsi, [rsi + 32]
	mov [rdi], r8
	mov [rdi + 8], r9
	mov [rdi + 16], r10
	mov [rdi + 24], r11
	lea rdi, [rdi + 32]
	jae .forward
	add edx, 32		; 0..31 left; the 32-bit add also clears rdx's upper half
	jmp .tail
.backward:
	; From the end down: both pointers move to the end first and come back to the start
	; after the loop, where the 0..31 bytes left are. The loop starts on a 16-byte boundary,
	; as the kernel's does.
	add rsi, rdx
	add rdi, rdx
	sub rdx, 32
	align 16
.backward_loop:
	sub rdx, 32
	mov r8, [rsi - 8]
	mov r9, [rsi - 16]
	mov r10, [rsi - 24]
	mov r11, [rsi - 32]
	lea rsi, [rsi - 32]
	mov [rdi - 8], r8
	mov [rdi - 16], r9
	mov [rdi - 24], r10
	mov [rdi - 32], r11
	lea rdi, [rdi - 32]
	jae .backward_loop
	add edx, 32
	sub rsi, rdx
	sub rdi, rdx
.tail:
	; 0..31 bytes at [rsi], [rdi].
	cmp edx, 16
	jb .lt16
	mov r8, [rsi]
	mov r9, [rsi + 8]
	mov r10, [rsi + rdx - 16]
	mov r11, [rsi + rdx - 8]
	mov [rdi], r8
	mov [rdi + 8], r9
	mov [rdi + rdx - 16], r10
	mov [rdi + rdx - 8], r11
	ret
.lt16:
	cmp edx, 8
	jb .lt8
	mov r8, [rsi]
	mov r9, [rsi + rdx - 8]
	mov [rdi], r8
	mov [rdi + rdx - 8], r9
	ret
.lt8:
	cmp edx, 4
	jb .lt4
	mov r8d, [rsi]
	mov r9d, [rsi + rdx - 4]
	mov [rdi], r8d
	mov [rdi + rdx - 4], r9d
	ret
.lt4:
	test edx, edx
	jz .done
	mov r10, rdx
	shr r10, 1
	movzx r8d, byte [rsi]
	movzx r9d, byte [rsi + rdx - 1]
	movzx r11d, byte [rsi + r10]
	mov [rdi], r8b
	mov [rdi + rdx - 1], r9b
	mov [rdi + r10], r11b
.done:
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
