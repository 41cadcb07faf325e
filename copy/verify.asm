; SPDX-License-Identifier: GPL-2.0-only
;
; verify.asm - the soak's data path: fill a range with a pattern, verify it by regenerating the
; pattern in registers, compare two ranges. copy/verify.h defines the patterns, the descriptor,
; the status codes and what an offset means; the constants and layouts come from there
; through build/gen/copy/asm-offsets.inc. The generators and the frame the three share are
; macros in copy/verify.inc.
;
; Shape of all three: word-by-word head until the chunk's next 64-byte group, an SSE2 body of
; 64-byte groups, word-by-word tail. A chunk that is not 64-byte aligned (or a compare whose
; source is not 16-byte aligned against its destination) runs word by word throughout.
;
; Machine-check safety: every load of soak_verify_mc and soak_compare_mc has an
; EX_TYPE_DEFAULT_MCE_SAFE entry, so poison consumed while verifying resumes at a fixup that
; returns SOAK_POISONED with the offset, exactly as a #PF does. No load is retried after a
; fault: poison covers whole cache lines and a retry would only consume it again. A group
; never straddles a cache line (it is 64-byte aligned) and a 16-byte load never straddles a
; page, so a fault names one line.
;
; SIMD state: xmm0-xmm15 are clobbered (caller-saved in a Linux process; the image keeps
; nothing in them, kernel/arch/fpu.h). SSE2 is part of x86-64: every CPU has it.
;
; Register use while running (all three save rbx, r12-r15 and use 128 bytes of stack):
;   rdi cursor, r12 start, r13 end, r15 miss, r14 pattern index of the cursor's word,
;   r8 seed, r9 invert, r10 generator, rbx group counter (random; compare: the source's
;   end), r11 phase limit, rcx the prefetch address, xmm12-xmm15 the eight expected words
;   of the current group, xmm7 zero.
;
; Speed: the bodies prefetch SOAK_PREFETCH bytes ahead, never past the buffer's end (a
; prefetch does not fault, but the line after a buffer may be poison or another's memory).
; `make soak-speed` measures them against glibc's memcmp and memset.

default rel
bits 64
%include "kernel/include/extable.inc"
%include "copy/asm-offsets.inc"

; A 64-bit constant from its two 32-bit halves (copy/asm-offsets.c: DEFINE64).
%define U64(n) (((n %+ _HI) << 32) | ((n %+ _LO) & 0xffffffff))

section .rodata
	align 16
soak_lanes:
	dq 0, U64(SOAK_LANE1), U64(SOAK_LANE2), U64(SOAK_LANE3)
	dq U64(SOAK_LANE4), U64(SOAK_LANE5), U64(SOAK_LANE6), U64(SOAK_LANE7)
soak_mix_c1:
	dq U64(SOAK_MIX_C1)
soak_mix_c2:
	dq U64(SOAK_MIX_C2)
soak_gamma:
	dq U64(SOAK_GAMMA)

section .text

%include "copy/verify.inc"

; Verify words from rdi up to r11 one at a time (loads MCE-safe, fixup .fault); labels .%1_*.
%macro VERIFY_WORDS 1
	cmp rdi, r11
	jae .%{1}_done
.%{1}_word:
	EXPECT r14, %{1}
.%{1}_load:
	mov rdx, [rdi]
	cmp rdx, rax
	jne .word_miss
	add rdi, 8
	inc r14
	cmp rdi, r11
	jb .%{1}_word
.%{1}_done:
	EXTABLE .%{1}_load, .fault, EX_TYPE_DEFAULT_MCE_SAFE
%endmacro

; u64 soak_verify_mc(const void *buf, size_t len, const struct soak_desc *d,
;		     struct soak_miss *miss)
; In:  rdi = buf, rsi = len, rdx = d, rcx = miss
; Out: rax = SOAK_OK, SOAK_MISCOMPARE or SOAK_POISONED (@miss filled), SOAK_BAD_ARGS
; Clobbers: rcx, rdx, rsi, rdi, r8-r11, xmm0-xmm15 (rbx, r12-r15 saved)
; Faults: every load -> .fault (MCE-safe): SOAK_POISONED at the faulting word, or at the
;         start of the faulting 64-byte group in the body
global soak_verify_mc
	align 16
soak_verify_mc:
	ENTER .bad_args, .ok
	jnz .tail			; not aligned: all of it word by word
	VERIFY_WORDS head
	mov rsi, r13
	sub rsi, rdi
	and rsi, -64
	jz .tail
	lea r11, [rdi + rsi]		; end of the body
	GROUP_INIT
.group:
	PREFETCH rdi, r13, .prefetched
	GROUP_EXPECT
.load0:
	movdqa xmm1, [rdi]
.load1:
	movdqa xmm2, [rdi + 16]
.load2:
	movdqa xmm3, [rdi + 32]
.load3:
	movdqa xmm4, [rdi + 48]
	pxor xmm1, xmm12
	pxor xmm2, xmm13
	pxor xmm3, xmm14
	pxor xmm4, xmm15
	ANY_DIFF .group_miss
	GROUP_NEXT
	add rdi, 64
	add r14, 8
	cmp rdi, r11
	jb .group
.tail:
	mov r11, r13
	VERIFY_WORDS tail
.ok:
	xor eax, eax
	LEAVE
.group_miss:
	GROUP_MISS
	LEAVE
.word_miss:
	mov [r15 + SOAK_MISS_EXPECTED], rax
	mov [r15 + SOAK_MISS_ACTUAL], rdx
	mov rax, rdi
	sub rax, r12
	mov [r15 + SOAK_MISS_OFFSET], rax
	mov qword [r15 + SOAK_MISS_SIDE], 0
	mov eax, SOAK_MISCOMPARE
	LEAVE
.fault:
	mov rax, rdi
	sub rax, r12
	mov [r15 + SOAK_MISS_OFFSET], rax
	xor eax, eax
	mov [r15 + SOAK_MISS_EXPECTED], rax
	mov [r15 + SOAK_MISS_ACTUAL], rax
	mov [r15 + SOAK_MISS_SIDE], rax
	mov eax, SOAK_POISONED
	LEAVE
.bad_args:
	mov eax, SOAK_BAD_ARGS
	LEAVE

	EXTABLE .load0, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .load1, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .load2, .fault, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .load3, .fault, EX_TYPE_DEFAULT_MCE_SAFE

; Fill words from rdi up to r11 one at a time with movnti (stores fault to .fault); .%1_*.
%macro FILL_WORDS 1
	cmp rdi, r11
	jae .%{1}_done
.%{1}_word:
	EXPECT r14, %{1}
.%{1}_store:
	movnti [rdi], rax
	add rdi, 8
	inc r14
	cmp rdi, r11
	jb .%{1}_word
.%{1}_done:
	EXTABLE .%{1}_store, .fault, EX_TYPE_DEFAULT
%endmacro

; size_t soak_fill(void *buf, size_t len, const struct soak_desc *d)
; In:  rdi = buf, rsi = len, rdx = d
; Out: rax = bytes not written (0; len - offset of the faulting store; len on bad arguments)
; Clobbers: rcx, rdx, rsi, rdi, r8-r11, xmm0-xmm15 (rbx, r12-r15 saved)
; Faults: every store -> .fault (#PF only: stores do not consume poison); non-temporal
;         stores, then sfence on every way out
global soak_fill
	align 16
soak_fill:
	ENTER .bad_args, .ok
	jnz .tail
	FILL_WORDS head
	mov rsi, r13
	sub rsi, rdi
	and rsi, -64
	jz .tail
	lea r11, [rdi + rsi]
	GROUP_INIT
.group:
	GROUP_EXPECT
.store0:
	movntdq [rdi], xmm12
.store1:
	movntdq [rdi + 16], xmm13
.store2:
	movntdq [rdi + 32], xmm14
.store3:
	movntdq [rdi + 48], xmm15
	GROUP_NEXT
	add rdi, 64
	add r14, 8
	cmp rdi, r11
	jb .group
.tail:
	mov r11, r13
	FILL_WORDS tail
.ok:
	sfence
	xor eax, eax
	LEAVE
.fault:
	sfence
	mov rax, r13
	sub rax, rdi
	LEAVE
.bad_args:
	mov rax, rsi
	LEAVE

	EXTABLE .store0, .fault, EX_TYPE_DEFAULT
	EXTABLE .store1, .fault, EX_TYPE_DEFAULT
	EXTABLE .store2, .fault, EX_TYPE_DEFAULT
	EXTABLE .store3, .fault, EX_TYPE_DEFAULT

; Compare words from rdi (dst) and rsi (src) up to r11 one at a time; labels .%1_*.
%macro COMPARE_WORDS 1
	cmp rdi, r11
	jae .%{1}_done
.%{1}_word:
.%{1}_load_dst:
	mov rax, [rdi]
.%{1}_load_src:
	mov rdx, [rsi]
	cmp rax, rdx
	jne .word_miss
	add rdi, 8
	add rsi, 8
	cmp rdi, r11
	jb .%{1}_word
.%{1}_done:
	EXTABLE .%{1}_load_dst, .fault_dst, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .%{1}_load_src, .fault_src, EX_TYPE_DEFAULT_MCE_SAFE
%endmacro

; u64 soak_compare_mc(const void *dst, const void *src, size_t len, struct soak_miss *miss)
; In:  rdi = dst, rsi = src, rdx = len, rcx = miss
; Out: rax = SOAK_OK, SOAK_MISCOMPARE (expected = src word, actual = dst word) or
;      SOAK_POISONED (side 0 dst, 1 src), @miss filled; SOAK_BAD_ARGS
; Clobbers: rcx, rdx, rsi, rdi, r8-r11, xmm0-xmm15 (rbx, r12-r15 saved)
; Faults: every load -> a fixup (MCE-safe) that names the side and the offset: the faulting
;         word, or in the body the destination group or the source's 16-byte load
global soak_compare_mc
	align 16
soak_compare_mc:
	push rbx
	push r12
	push r13
	push r14
	push r15
	sub rsp, 128
	mov r12, rdi
	mov r15, rcx
	mov rax, rdi
	or rax, rsi
	or rax, rdx
	test al, 7
	jnz .bad_args
	lea r13, [rdi + rdx]
	lea rbx, [rsi + rdx]		; end of the source, for the prefetch
	pxor xmm7, xmm7
	mov r11, r13
	mov rax, rdi
	neg rax
	and eax, 63			; bytes until dst is 64-byte aligned
	cmp rax, rdx
	ja .tail			; shorter than that: all word by word
	lea r11, [rdi + rax]
	COMPARE_WORDS head
	mov rax, rdi
	xor rax, rsi
	test al, 15
	jnz .tail			; src not 16-byte aligned when dst is: word by word
	mov r11, r13
	sub r11, rdi
	and r11, -64
	add r11, rdi			; end of the body
	cmp rdi, r11
	jae .tail
.group:
	PREFETCH rdi, r13, .dst_prefetched
	PREFETCH rsi, rbx, .src_prefetched
.dst0:
	movdqa xmm1, [rdi]
.dst1:
	movdqa xmm2, [rdi + 16]
.dst2:
	movdqa xmm3, [rdi + 32]
.dst3:
	movdqa xmm4, [rdi + 48]
.src0:
	movdqa xmm12, [rsi]
.src1:
	movdqa xmm13, [rsi + 16]
.src2:
	movdqa xmm14, [rsi + 32]
.src3:
	movdqa xmm15, [rsi + 48]
	pxor xmm1, xmm12
	pxor xmm2, xmm13
	pxor xmm3, xmm14
	pxor xmm4, xmm15
	ANY_DIFF .group_miss
	add rdi, 64
	add rsi, 64
	cmp rdi, r11
	jb .group
.tail:
	mov r11, r13
	COMPARE_WORDS tail
	xor eax, eax
	LEAVE
.group_miss:
	GROUP_MISS
	LEAVE
.word_miss:
	mov [r15 + SOAK_MISS_EXPECTED], rdx
	mov [r15 + SOAK_MISS_ACTUAL], rax
	mov rax, rdi
	sub rax, r12
	mov [r15 + SOAK_MISS_OFFSET], rax
	mov qword [r15 + SOAK_MISS_SIDE], 0
	mov eax, SOAK_MISCOMPARE
	LEAVE
.fault_src3:
	add rdi, 16
.fault_src2:
	add rdi, 16
.fault_src1:
	add rdi, 16
.fault_src:
	mov ecx, 1
	jmp .fault
.fault_dst:
	xor ecx, ecx
.fault:
	mov rax, rdi
	sub rax, r12
	mov [r15 + SOAK_MISS_OFFSET], rax
	mov [r15 + SOAK_MISS_SIDE], rcx
	xor eax, eax
	mov [r15 + SOAK_MISS_EXPECTED], rax
	mov [r15 + SOAK_MISS_ACTUAL], rax
	mov eax, SOAK_POISONED
	LEAVE
.bad_args:
	mov eax, SOAK_BAD_ARGS
	LEAVE

	EXTABLE .dst0, .fault_dst, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .dst1, .fault_dst, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .dst2, .fault_dst, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .dst3, .fault_dst, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .src0, .fault_src, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .src1, .fault_src1, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .src2, .fault_src2, EX_TYPE_DEFAULT_MCE_SAFE
	EXTABLE .src3, .fault_src3, EX_TYPE_DEFAULT_MCE_SAFE

section .note.GNU-stack noalloc noexec nowrite progbits
