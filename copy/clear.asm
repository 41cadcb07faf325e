; SPDX-License-Identifier: GPL-2.0-only
;
; clear.asm - zero pages and ranges: the bodies Linux chooses between for clear_page()
; (rep stosb with ERMS, rep stosq with REP_GOOD, unrolled stores otherwise), the extent forms
; that clear_pages(addr, n) uses (one string instruction over n pages, or on CPUs with
; neither ERMS nor REP_GOOD the unrolled loop over the whole extent, as Linux 7.0's
; __clear_pages_unrolled), and a memset-style zeroing of any byte range.
;
; None of these is machine-check safe; stores do not consume poison.

default rel
bits 64
section .text

%include "kernel/include/asm-consts.inc"

; ZERO_LINE: store rax to the 64-byte line at rdi (eight 8-byte stores), then rdi += one line.
; The loop body of both unrolled clears.
%macro ZERO_LINE 0
	mov [rdi], rax
	mov [rdi + 8], rax
	mov [rdi + 16], rax
	mov [rdi + 24], rax
	mov [rdi + 32], rax
	mov [rdi + 40], rax
	mov [rdi + 48], rax
	mov [rdi + 56], rax
	lea rdi, [rdi + CACHE_LINE_SIZE]
%endmacro

; void clear_page_erms(void *addr)
; In: rdi = page.  Clobbers: rax, rcx, rdi
global clear_page_erms
	align 16		; as the kernel's SYM_FUNC_START: functions start 16-aligned
clear_page_erms:
	xor eax, eax
	mov ecx, PAGE_SIZE
	rep stosb
	ret

; void clear_page_rep(void *addr)
; In: rdi = page.  Clobbers: rax, rcx, rdi
global clear_page_rep
	align 16
clear_page_rep:
	xor eax, eax
	mov ecx, PAGE_SIZE / 8
	rep stosq
	ret

; void clear_page_unrolled(void *addr)
; Eight 8-byte stores per 64-byte line, 64 lines.
; In: rdi = page.  Clobbers: rax, rcx, rdi
global clear_page_unrolled
	align 16
clear_page_unrolled:
	xor eax, eax
	mov ecx, PAGE_SIZE / CACHE_LINE_SIZE
.line:
	ZERO_LINE
	dec ecx
	jnz .line
	ret

; void clear_pages_erms(void *addr, size_t npages)
; One extent: rep stosb over npages * 4 KiB.
; In: rdi = first page, rsi = page count.  Clobbers: rax, rcx, rdi
global clear_pages_erms
	align 16
clear_pages_erms:
	xor eax, eax
	mov rcx, rsi
	shl rcx, PAGE_SHIFT
	rep stosb
	ret

; void clear_pages_rep(void *addr, size_t npages)
; One extent: rep stosq over npages * 512 words.
; In: rdi = first page, rsi = page count.  Clobbers: rax, rcx, rdi
global clear_pages_rep
	align 16
clear_pages_rep:
	xor eax, eax
	mov rcx, rsi
	shl rcx, PAGE_SHIFT - 3	; 8-byte words
	rep stosq
	ret

; void clear_pages_unrolled(void *addr, size_t npages)
; One extent: eight 8-byte stores per 64-byte line, npages * 64 lines in one loop (no call
; or reload per page). npages 0 clears nothing.
; In: rdi = first page, rsi = page count.  Clobbers: rax, rcx, rdi
global clear_pages_unrolled
	align 16
clear_pages_unrolled:
	xor eax, eax
	mov rcx, rsi
	shl rcx, PAGE_SHIFT - CACHE_LINE_SHIFT	; lines
	jz .done
.line:
	ZERO_LINE
	dec rcx
	jnz .line
.done:
	ret

; void clear_bytes(void *addr, size_t len)
; memset(addr, 0, len) for any alignment and length: rep stosq for the words, rep stosb for
; the 0..7 bytes left.
; In: rdi = addr, rsi = len.  Clobbers: rax, rcx, rdx, rdi
global clear_bytes
	align 16
clear_bytes:
	xor eax, eax
	mov rdx, rsi
	mov rcx, rsi
	shr rcx, 3
	rep stosq
	mov ecx, edx
	and ecx, 7
	rep stosb
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
