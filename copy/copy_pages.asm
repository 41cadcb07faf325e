; SPDX-License-Identifier: GPL-2.0-only
;
; copy_pages.asm - CANDIDATES for an x86 copy_pages(to, from, npages), a helper Linux does
; not have (the batching RFC, seed 000, proposes one mirroring clear_pages()). Nothing here
; is Linux's; copy/dispatch.h says which body each candidate picks on which CPU.
;
; Page copies, one extent each (npages * 4 KiB, a 64-bit length that never truncates):
;   copy_pages_erms      rep movsb over the extent
;   copy_pages_rep       rep movsq over the extent
;   copy_pages_unrolled  copy_page_unrolled's loop (8 loads, then 8 stores per 64-byte line,
;                        prefetch 5 lines ahead) over the whole extent; the last 5 lines go
;                        without prefetch, so nothing past the extent is touched
; memcpy with the page-aligned fast path a reviewer of the RFC suggested, for CPUs without
; FSRM (where Linux's memcpy() is memcpy_orig): when dst, src and len are all multiples of
; 4 KiB (and len is not 0) the copy takes a copy_page body over the extent, otherwise it is
; memcpy_orig unchanged:
;   memcpy_pa_rep        page path: rep movsq (REP_GOOD)
;   memcpy_pa_unrolled   page path: copy_pages_unrolled (no REP_GOOD)
; Machine-check-safe page copies (the batched folio_mc_copy() candidate's primitive):
;   copy_mc_pages_erms, copy_mc_pages_rep, copy_mc_pages_unrolled (contracts below).
;
; The non-mc routines are not machine-check safe: none of their instructions has an
; exception-table entry. None of these handles overlapping buffers.

default rel
bits 64
%include "kernel/include/extable.inc"

extern memcpy_orig

%define PF_LINES	5		; how far ahead the unrolled loop prefetches
%define LINES_PER_PAGE	(PAGE_SIZE / CACHE_LINE_SIZE)

section .text

; void copy_pages_erms(void *dst, const void *src, size_t npages)
; In:  rdi = dst, rsi = src (any alignment; pages in practice), rdx = page count (0: nothing)
; Out: nothing
; Clobbers: rcx, rsi, rdi
global copy_pages_erms
	align 16
copy_pages_erms:
	mov rcx, rdx
	shl rcx, PAGE_SHIFT
	rep movsb
	ret

; void copy_pages_rep(void *dst, const void *src, size_t npages)
; In:  rdi = dst, rsi = src (any alignment; pages in practice), rdx = page count (0: nothing)
; Out: nothing
; Clobbers: rcx, rsi, rdi
global copy_pages_rep
	align 16
copy_pages_rep:
	mov rcx, rdx
	shl rcx, PAGE_SHIFT - 3		; 8-byte words
	rep movsq
	ret

; One line: 8 loads into rax, rbx, rdx, r8-r12, then 8 stores, then both pointers advance.
; %1 is a label prefix: with it, every load and store gets a label (%1_ldN, %1_stN) for the
; exception table of the machine-check-safe copy.
%macro MOVE_LINE 1
%{1}_ld0:	mov rax, [rsi]
%{1}_ld1:	mov rbx, [rsi + 8]
%{1}_ld2:	mov rdx, [rsi + 16]
%{1}_ld3:	mov r8, [rsi + 24]
%{1}_ld4:	mov r9, [rsi + 32]
%{1}_ld5:	mov r10, [rsi + 40]
%{1}_ld6:	mov r11, [rsi + 48]
%{1}_ld7:	mov r12, [rsi + 56]
%{1}_st0:	mov [rdi], rax
%{1}_st1:	mov [rdi + 8], rbx
%{1}_st2:	mov [rdi + 16], rdx
%{1}_st3:	mov [rdi + 24], r8
%{1}_st4:	mov [rdi + 32], r9
%{1}_st5:	mov [rdi + 40], r10
%{1}_st6:	mov [rdi + 48], r11
%{1}_st7:	mov [rdi + 56], r12
	lea rsi, [rsi + CACHE_LINE_SIZE]
	lea rdi, [rdi + CACHE_LINE_SIZE]
%endmacro

; void copy_pages_unrolled(void *dst, const void *src, size_t npages)
; In:  rdi = dst, rsi = src (any alignment; pages in practice), rdx = page count (0: nothing)
; Out: nothing
; Clobbers: rax, rcx, rdx, r8-r11, rsi, rdi (rbx and r12 are saved and restored)
; Prefetches stay inside the source extent: the last PF_LINES lines have none.
global copy_pages_unrolled
	align 16
copy_pages_unrolled:
	test rdx, rdx
	jz .none
	push rbx
	push r12
	mov rcx, rdx
	shl rcx, PAGE_SHIFT - CACHE_LINE_SHIFT	; lines; at least 64, so more than PF_LINES
	sub rcx, PF_LINES
.line_prefetch:
	prefetcht0 [rsi + CACHE_LINE_SIZE * PF_LINES]
	MOVE_LINE .p
	dec rcx
	jnz .line_prefetch
	mov ecx, PF_LINES
.line_last:
	MOVE_LINE .l
	dec ecx
	jnz .line_last
	pop r12
	pop rbx
.none:
	ret

; True (ZF clear) unless dst, src and len are all multiples of PAGE_SIZE and len is not 0:
; the page path's test. Uses rax.
%macro NOT_PAGES 0
	mov rax, rdi
	or rax, rsi
	or rax, rdx
	test eax, PAGE_SIZE - 1
	jnz memcpy_orig			; memcpy_orig returns dst itself
	test rdx, rdx
	jz memcpy_orig
%endmacro

; void *memcpy_pa_rep(void *dst, const void *src, size_t len)
; In:  rdi = dst, rsi = src, rdx = len (any)
; Out: rax = dst
; Clobbers: rcx, rsi, rdi; on the memcpy_orig path what memcpy_orig clobbers (rdx, r8-r11)
global memcpy_pa_rep
	align 16
memcpy_pa_rep:
	NOT_PAGES
	mov rax, rdi
	mov rcx, rdx
	shr rcx, 3
	rep movsq
	ret

; void *memcpy_pa_unrolled(void *dst, const void *src, size_t len)
; In:  rdi = dst, rsi = src, rdx = len (any)
; Out: rax = dst
; Clobbers: rcx, rdx, rsi, rdi, r8-r11 (rbx, r12 saved by copy_pages_unrolled)
global memcpy_pa_unrolled
	align 16
memcpy_pa_unrolled:
	NOT_PAGES
	push rdi
	shr rdx, PAGE_SHIFT
	call copy_pages_unrolled
	pop rax
	ret

; ---- machine-check-safe candidates ------------------------------------------------------
;
; All three: size_t fn(void *dst, const void *src, size_t npages) returns the bytes NOT
; copied out of npages * 4 KiB (0 on success), a 64-bit count: the length never truncates
; (Linux's copy_mc_to_kernel() takes 32 bits). None retries after a fault (poison covers
; whole cache lines: a retry would take the #MC again). Bytes before the stop are written;
; nothing at or after it is claimed. For the sweep over these (poisoned SOURCE lines):
;
; copy_mc_pages_erms: rep movsb, one MCE-safe entry (as copy_mc_enhanced_fast_string). The
;   count is RCX where the CPU stopped: at or before the poisoned byte, never after it, so
;   it may overstate what is missing (fast strings move lines at a time).
; copy_mc_pages_rep: rep movsq, one MCE-safe entry. The count is 8 x RCX: whole quadwords,
;   at or before the poisoned quadword (ktest/oracle NOTES.md, the candidate's rule C3).
;   Linux trusts rep movs with a machine check only on ERMS CPUs; this candidate runs it on
;   REP_GOOD CPUs without ERMS too, which is what it exists to measure.
; copy_mc_pages_unrolled: the unrolled line loop without prefetch (a prefetch of a poisoned
;   line is never wanted). Every load is MCE-safe; all 8 loads of a line come before its
;   stores, so a fault on a load returns the count from the start of that line: exact to
;   the poisoned line when the source is 64-byte aligned (pages are), as copy_mc_fragile
;   stops. A store fault (#PF only: stores do not consume poison) returns the count from
;   the start of its line too: up to 56 bytes more than is missing. This is the body for
;   CPUs whose fragile key is on: no string instruction, 8-byte loads only.

; size_t copy_mc_pages_erms(void *dst, const void *src, size_t npages)
; In:  rdi = dst, rsi = src, rdx = page count
; Out: rax = bytes not copied (RCX where the CPU stopped)
; Clobbers: rcx, rsi, rdi
; Faults: the rep movsb at .copy -> .fault (MCE-safe)
global copy_mc_pages_erms
	align 16
copy_mc_pages_erms:
	mov rcx, rdx
	shl rcx, PAGE_SHIFT
.copy:
	rep movsb
	xor eax, eax
	ret
.fault:
	mov rax, rcx
	ret

	EXTABLE .copy, .fault, EX_TYPE_DEFAULT_MCE_SAFE

; size_t copy_mc_pages_rep(void *dst, const void *src, size_t npages)
; In:  rdi = dst, rsi = src, rdx = page count
; Out: rax = bytes not copied (8 x the quadwords RCX had left)
; Clobbers: rcx, rsi, rdi
; Faults: the rep movsq at .copy -> .fault (MCE-safe)
global copy_mc_pages_rep
	align 16
copy_mc_pages_rep:
	mov rcx, rdx
	shl rcx, PAGE_SHIFT - 3
.copy:
	rep movsq
	xor eax, eax
	ret
.fault:
	lea rax, [rcx * 8]
	ret

	EXTABLE .copy, .fault, EX_TYPE_DEFAULT_MCE_SAFE

; size_t copy_mc_pages_unrolled(void *dst, const void *src, size_t npages)
; In:  rdi = dst, rsi = src (64-byte aligned for an exact count; pages are), rdx = page count
; Out: rax = bytes not copied (from the start of the line that faulted)
; Clobbers: rcx, rdx, rsi, rdi, r8-r11 (rbx and r12 are saved and restored)
; Faults: the 8 loads of .m (.m_ld0-7) -> .fault (MCE-safe); its 8 stores -> .fault
global copy_mc_pages_unrolled
	align 16
copy_mc_pages_unrolled:
	xor eax, eax
	mov rcx, rdx
	shl rcx, PAGE_SHIFT - CACHE_LINE_SHIFT	; lines left, the current one included
	jz .done
	push rbx
	push r12
.line:
	MOVE_LINE .m
	dec rcx
	jnz .line
	xor eax, eax
	pop r12
	pop rbx
.done:
	ret
.fault:
	mov rax, rcx
	shl rax, CACHE_LINE_SHIFT
	pop r12
	pop rbx
	ret

	EXTABLE .m_ld0, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .m_ld1, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .m_ld2, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .m_ld3, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .m_ld4, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .m_ld5, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .m_ld6, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .m_ld7, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .m_st0, .fault, EX_TYPE_DEFAULT
	EXTABLE .m_st1, .fault, EX_TYPE_DEFAULT
	EXTABLE .m_st2, .fault, EX_TYPE_DEFAULT
	EXTABLE .m_st3, .fault, EX_TYPE_DEFAULT
	EXTABLE .m_st4, .fault, EX_TYPE_DEFAULT
	EXTABLE .m_st5, .fault, EX_TYPE_DEFAULT
	EXTABLE .m_st6, .fault, EX_TYPE_DEFAULT
	EXTABLE .m_st7, .fault, EX_TYPE_DEFAULT

section .note.GNU-stack noalloc noexec nowrite progbits
