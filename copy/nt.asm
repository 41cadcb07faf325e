; SPDX-License-Identifier: GPL-2.0-only
;
; nt.asm - candidates for a copy_pages()/clear_pages() helper that Linux does not have:
; wide machine-check-safe loads with non-temporal stores, and non-temporal or CLZERO clears.
; The seed RFC asks which primitive such a helper should use; these let a run answer that
; on the machine at hand. Each needs a CPUID feature (AVX2, AVX-512F, CLZERO; SSE2's movnti
; is baseline): callers check it first (init/copy_setup.c refuses otherwise).
;
; SIMD state: the image owns the vector registers (nothing else in it uses them), and in a
; Linux process they are caller-saved, so these routines clobber ymm0/ymm1 or zmm0 freely
; and end with vzeroupper.
;
; copy_mc_avx2_nt / copy_mc_avx512_nt return the bytes NOT copied, like copy_mc_fragile:
;   - head bytes until the SOURCE is 64-byte aligned, and the last 0..63 bytes, go through
;     copy_mc_fragile (exact counts). Aligning the source keeps every block's loads inside
;     one cache line, the property the fragile copy exists for: a load that straddles two
;     lines can consume poison from the one the copy is not yet at. The non-temporal stores
;     need the destination aligned to the store width (32 or 64 bytes) as well, so buffers
;     whose addresses differ in those low bits go to copy_mc_fragile whole (page copies
;     never do);
;   - the body moves 64-byte blocks: the loads of a block come first, MCE-safe; a fault on
;     one returns the count at the start of the block (the block's stores have not been
;     issued), so the count may overstate what is missing by less than 64 bytes: the same
;     bound as rep movsb, and finer than the cache-line granularity of poison itself;
;   - a store fault (#PF) re-copies from the block start with copy_mc_fragile, whose byte
;     stores find the exact byte;
;   - every exit after non-temporal stores runs sfence, so the stores are globally visible
;     before the caller reads the count.

default rel
bits 64
%include "kernel/include/extable.inc"

extern copy_mc_fragile

section .text

;
; The two copies share one frame, written as macros around their block loops:
;   NT_COPY_ENTER align  save registers, hand short copies and the head (to an @align-byte
;                        destination) to copy_mc_fragile, load rcx with the block count,
;                        and fall into the block loop at .block;
;   NT_COPY_LEAVE        sfence, the tail through copy_mc_fragile, and the fault paths
;                        .load_fault / .store_fault / .head_fault, then restore and return.
; Registers in the frame: rbx = dst cursor, r12 = src cursor, r13 = bytes left, r14 = head.
; Five pushes keep the stack 16-byte aligned at the calls into copy_mc_fragile, as the ABI
; asks (r15 is saved only for that).

%macro NT_COPY_ENTER 1
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov rbx, rdi
	mov r12, rsi
	mov r13, rdx
	cmp r13, 256
	jb .tail			; short copies: fragile does it all
	mov rax, rbx
	xor rax, r12
	test rax, %1 - 1
	jnz .tail			; dst and src differ in the store-alignment bits
	mov r14, r12
	neg r14
	and r14, CACHE_LINE_SIZE - 1	; head bytes to align src to a cache line
	jz .body
	mov rdx, r14
	call copy_mc_fragile wrt ..plt
	test rax, rax
	jnz .head_fault
	add rbx, r14
	add r12, r14
	sub r13, r14
.body:
	mov rcx, r13
	shr rcx, CACHE_LINE_SHIFT	; one cache line per block
%endmacro

%macro NT_COPY_LEAVE 0
	sfence
.tail:
	mov rdi, rbx
	mov rsi, r12
	mov rdx, r13
	call copy_mc_fragile wrt ..plt
	jmp .out
.load_fault:
	sfence
	mov rax, r13			; the count at the start of the block
	jmp .out
.store_fault:
	sfence				; re-copy from the block start: byte stores find the byte
	mov rdi, rbx
	mov rsi, r12
	mov rdx, r13
	call copy_mc_fragile wrt ..plt
	jmp .out
.head_fault:
	add rax, r13			; head bytes not copied + everything after the head
	sub rax, r14
.out:
	vzeroupper
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	ret
%endmacro

; size_t copy_mc_avx2_nt(void *dst, const void *src, size_t len)
; In:  rdi = dst, rsi = src, rdx = len
; Out: rax = bytes not copied
; Clobbers: rcx, rdx, rsi, rdi, r8, r9, ymm0, ymm1 (rbx, r12-r15 saved)
; Faults: .load0/.load1 -> .load_fault (MCE-safe); .store0/.store1 -> .store_fault;
;         head and tail: see copy_mc_fragile
global copy_mc_avx2_nt
	align 16		; as the kernel's SYM_FUNC_START: functions start 16-aligned
copy_mc_avx2_nt:
	NT_COPY_ENTER 32
.block:
.load0:
	vmovdqu ymm0, [r12]
.load1:
	vmovdqu ymm1, [r12 + 32]
.store0:
	vmovntdq [rbx], ymm0
.store1:
	vmovntdq [rbx + 32], ymm1
	add r12, CACHE_LINE_SIZE
	add rbx, CACHE_LINE_SIZE
	sub r13, CACHE_LINE_SIZE
	dec rcx
	jnz .block
	NT_COPY_LEAVE

	EXTABLE .load0, .load_fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .load1, .load_fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .store0, .store_fault, EX_TYPE_DEFAULT
	EXTABLE .store1, .store_fault, EX_TYPE_DEFAULT

; size_t copy_mc_avx512_nt(void *dst, const void *src, size_t len)
; As copy_mc_avx2_nt with one 64-byte zmm load and one non-temporal store per block; source
; and destination both 64-byte aligned in the body.
; Clobbers: rcx, rdx, rsi, rdi, r8, r9, zmm0 (rbx, r12-r15 saved)
; Faults: .load -> .load_fault (MCE-safe); .store -> .store_fault
global copy_mc_avx512_nt
	align 16
copy_mc_avx512_nt:
	NT_COPY_ENTER 64
.block:
.load:
	vmovdqu64 zmm0, [r12]
.store:
	vmovntdq [rbx], zmm0
	add r12, CACHE_LINE_SIZE
	add rbx, CACHE_LINE_SIZE
	sub r13, CACHE_LINE_SIZE
	dec rcx
	jnz .block
	NT_COPY_LEAVE

	EXTABLE .load, .load_fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .store, .store_fault, EX_TYPE_DEFAULT

; void clear_pages_nt(void *addr, size_t npages)
; Non-temporal 8-byte stores (movnti, SSE2: every x86-64 CPU), then sfence.
; In: rdi = first page, rsi = page count.  Clobbers: rax, rcx, rdi
global clear_pages_nt
	align 16
clear_pages_nt:
	xor eax, eax
	mov rcx, rsi
	shl rcx, PAGE_SHIFT - CACHE_LINE_SHIFT	; lines
	jz .done
.line:
	movnti [rdi], rax
	movnti [rdi + 8], rax
	movnti [rdi + 16], rax
	movnti [rdi + 24], rax
	movnti [rdi + 32], rax
	movnti [rdi + 40], rax
	movnti [rdi + 48], rax
	movnti [rdi + 56], rax
	add rdi, CACHE_LINE_SIZE
	dec rcx
	jnz .line
	sfence
.done:
	ret

; void clear_page_nt(void *addr)
global clear_page_nt
	align 16
clear_page_nt:
	mov esi, 1
	jmp clear_pages_nt

; void clear_pages_clzero(void *addr, size_t npages)
; AMD CLZERO: zero one 64-byte line at [rax] per instruction; weakly ordered, so sfence.
; In: rdi = first page, rsi = page count.  Clobbers: rax, rcx
global clear_pages_clzero
	align 16
clear_pages_clzero:
	mov rax, rdi
	mov rcx, rsi
	shl rcx, PAGE_SHIFT - CACHE_LINE_SHIFT	; lines
	jz .done
.line:
	clzero
	add rax, CACHE_LINE_SIZE
	dec rcx
	jnz .line
	sfence
.done:
	ret

; void clear_page_clzero(void *addr)
global clear_page_clzero
	align 16
clear_page_clzero:
	mov esi, 1
	jmp clear_pages_clzero

section .note.GNU-stack noalloc noexec nowrite progbits
