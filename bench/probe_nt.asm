; SPDX-License-Identifier: GPL-2.0-only
;
; probe_nt.asm - the bandwidth probe's writes of data that is not all zeros (bench/probe.c):
; what one core's movnti stores and its rep stosb move when no zero fast path can help.

default rel
bits 64

section .text

;
; void probe_nt_write(void *dst, u64 bytes)
;   rdi = dst (8-byte aligned), rsi = bytes (a multiple of 8; a remainder is not written).
;   Writes every 8-byte word of [dst, dst + bytes) with movnti, the word at byte offset i
;   holding the value i (so a fast path for zeros cannot help), one store per iteration,
;   then sfence: the stores are globally visible when it returns, before the caller reads
;   its clock. Clobbers rax, rsi and the flags; no memory read, no fault expected (the
;   buffer is the caller's own, mapped).
;
global probe_nt_write
probe_nt_write:
	and rsi, -8
	xor eax, eax
	jmp .test
.store:
	movnti [rdi + rax], rax
	add rax, 8
.test:
	cmp rax, rsi
	jb .store
	sfence
	ret

;
; void probe_stosb_write(void *dst, u64 bytes, unsigned int value)
;   rdi = dst, rsi = bytes, edx = the byte to store (its low 8 bits).
;   rep stosb of that byte over [dst, dst + bytes): the store clear_pages_erms uses, with
;   data a zero fast path cannot help (the probe passes 0x5a). Clobbers rax, rcx, rdi and
;   the flags; no memory read, no fault expected (the buffer is the caller's own, mapped).
;
global probe_stosb_write
probe_stosb_write:
	mov eax, edx
	mov rcx, rsi
	rep stosb
	ret
