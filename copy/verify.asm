; SPDX-License-Identifier: GPL-2.0-only
;
; verify.asm - the soak's data path: fill a range with a pattern, verify it by regenerating the
; pattern in registers, compare two ranges. copy/verify.h defines the patterns, the descriptor,
; the status codes and what an offset means; the constants and layouts come from there
; through build/gen/copy/asm-offsets.inc.
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

; How far ahead of the cursor the bodies prefetch (within the buffer only): one read stream
; alone does not keep enough lines in flight to reach memory speed.
%ifndef SOAK_PREFETCH
%define SOAK_PREFETCH	2048
%endif

section .text

; Prefetch SOAK_PREFETCH bytes ahead of %1 while that stays below %2 (a register); %3 names
; the label to skip to.
%macro PREFETCH 3
	lea rcx, [%1 + SOAK_PREFETCH]
	cmp rcx, %2
	jae %3
	prefetcht0 [rcx]
%3:
%endmacro

; splitmix64's finalizer on %1 (in/out), %2 temporary.
%macro MIX 2
	mov %2, %1
	shr %2, SOAK_MIX_S1
	xor %1, %2
	imul %1, [soak_mix_c1]
	mov %2, %1
	shr %2, SOAK_MIX_S2
	xor %1, %2
	imul %1, [soak_mix_c2]
	mov %2, %1
	shr %2, SOAK_MIX_S3
	xor %1, %2
%endmacro

; rax = the pattern word of index %1 (r8 seed, r9 invert, r10 generator); labels .%2_*.
; Clobbers rcx, rdx.
%macro EXPECT 2
	cmp r10d, SOAK_GEN_ROTATE
	je .%{2}_rot
	mov rax, %1
	shr rax, 3
	inc rax
	imul rax, [soak_gamma]
	add rax, r8
	MIX rax, rdx
	mov ecx, %1d
	and ecx, 7
	lea rdx, [soak_lanes]
	xor rax, [rdx + rcx * 8]
	jmp .%{2}_expected
.%{2}_rot:
	mov rax, r8
	mov ecx, %1d
	rol rax, cl
.%{2}_expected:
	xor rax, r9
%endmacro

; Prologue shared by fill and verify: rdi buf, rsi len, rdx desc, rcx miss (or unused).
; Loads r8-r10, r12-r15; jumps to %1 when buf or len is not whole words, to %2 when len is 0.
; Sets r11 to where the word-by-word head ends: the next group start (clamped to the end), or
; the end itself when the chunk is not 64-byte aligned (ZF is then set for the caller: all
; word by word).
%macro ENTER 2
	push rbx
	push r12
	push r13
	push r14
	push r15
	sub rsp, 128
	mov r12, rdi
	mov r15, rcx
	mov r8, [rdx + SOAK_DESC_SEED]
	mov r9, [rdx + SOAK_DESC_INVERT]
	mov r10, [rdx + SOAK_DESC_GEN]
	mov r14, [rdx + SOAK_DESC_FIRST]
	mov rax, rdi
	or rax, rsi
	test al, 7
	jnz %1
	lea r13, [rdi + rsi]
	test rsi, rsi
	jz %2
	pxor xmm7, xmm7
	mov rax, r14
	shl rax, 3
	mov rdx, rdi
	sub rdx, rax			; the chunk's first word
	mov r11, r13
	test dl, 63
	jnz .enter_done			; not aligned: everything word by word (ZF clear)
	mov rax, r14
	neg rax
	and eax, 7			; words to the next group
	lea r11, [rdi + rax * 8]
	cmp r11, r13
	cmova r11, r13
	xor eax, eax			; ZF set: head, body, tail
.enter_done:
%endmacro

%macro LEAVE 0
	add rsp, 128
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	ret
%endmacro

; Set up the body for the group at r14. Both generators: xmm0 = @invert in both lanes.
; Rotate: xmm8-xmm11 = the group's words before the inversion. Random: xmm8-xmm11 = the
; lanes XOR @invert, rbx = seed + (g + 1) * gamma for the group g = r14 / 8.
; Clobbers rax, rcx, rsi.
%macro GROUP_INIT 0
	movq xmm0, r9
	punpcklqdq xmm0, xmm0
	cmp r10d, SOAK_GEN_ROTATE
	jne .init_random
	xor esi, esi
.init_word:
	lea rcx, [r14 + rsi]
	mov rax, r8
	rol rax, cl
	mov [rsp + rsi * 8], rax
	inc esi
	cmp esi, 8
	jb .init_word
	movdqu xmm8, [rsp]
	movdqu xmm9, [rsp + 16]
	movdqu xmm10, [rsp + 32]
	movdqu xmm11, [rsp + 48]
	jmp .init_done
.init_random:
	lea rax, [soak_lanes]
	movdqa xmm8, [rax]
	movdqa xmm9, [rax + 16]
	movdqa xmm10, [rax + 32]
	movdqa xmm11, [rax + 48]
	pxor xmm8, xmm0
	pxor xmm9, xmm0
	pxor xmm10, xmm0
	pxor xmm11, xmm0
	mov rbx, r14
	shr rbx, 3
	inc rbx
	imul rbx, [soak_gamma]
	add rbx, r8
.init_done:
%endmacro

; Random: xmm12-xmm15 = h(rbx) ^ lanes, rax = h, then rbx steps to the next group.
%macro GROUP_RANDOM 0
	mov rax, rbx
	MIX rax, rdx
	add rbx, [soak_gamma]
	movq xmm0, rax
	punpcklqdq xmm0, xmm0
	movdqa xmm12, xmm0
	movdqa xmm13, xmm0
	movdqa xmm14, xmm0
	movdqa xmm15, xmm0
	pxor xmm12, xmm8
	pxor xmm13, xmm9
	pxor xmm14, xmm10
	pxor xmm15, xmm11
%endmacro

; Rotate: xmm12-xmm15 = the group's words (xmm8-xmm11) XOR @invert (xmm0).
%macro GROUP_ROTATE 0
	movdqa xmm12, xmm8
	movdqa xmm13, xmm9
	movdqa xmm14, xmm10
	movdqa xmm15, xmm11
	pxor xmm12, xmm0
	pxor xmm13, xmm0
	pxor xmm14, xmm0
	pxor xmm15, xmm0
%endmacro

; Rotate: the next group's words are this group's rotated left by 8. Clobbers xmm5.
%macro ROTATE_ONE 1
	movdqa xmm5, %1
	psllq %1, 8
	psrlq xmm5, 56
	por %1, xmm5
%endmacro
%macro ROTATE_NEXT 0
	ROTATE_ONE xmm8
	ROTATE_ONE xmm9
	ROTATE_ONE xmm10
	ROTATE_ONE xmm11
%endmacro

; The expected words of the group at rdi into xmm12-xmm15, for either generator.
%macro GROUP_EXPECT 0
	cmp r10d, SOAK_GEN_ROTATE
	jne .expect_random
	GROUP_ROTATE
	jmp .expect_done
.expect_random:
	GROUP_RANDOM
.expect_done:
%endmacro

; After a group: the rotate generator moves on (the random one did in GROUP_RANDOM).
%macro GROUP_NEXT 0
	cmp r10d, SOAK_GEN_ROTATE
	jne .next_done
	ROTATE_NEXT
.next_done:
%endmacro

; xmm1-xmm4 hold differences: fall through when all are zero, else jump to %1.
%macro ANY_DIFF 1
	movdqa xmm5, xmm1
	por xmm5, xmm2
	movdqa xmm6, xmm3
	por xmm6, xmm4
	por xmm5, xmm6
	pcmpeqb xmm5, xmm7
	pmovmskb edx, xmm5
	cmp edx, 0xffff
	jne %1
%endmacro

; A group whose differences (xmm1-xmm4) are not all zero, expected words in xmm12-xmm15:
; fill @miss with the first wrong word (offset from r12 of the group at rdi).
%macro GROUP_MISS 0
	movdqu [rsp], xmm12
	movdqu [rsp + 16], xmm13
	movdqu [rsp + 32], xmm14
	movdqu [rsp + 48], xmm15
	movdqu [rsp + 64], xmm1
	movdqu [rsp + 80], xmm2
	movdqu [rsp + 96], xmm3
	movdqu [rsp + 112], xmm4
	xor ecx, ecx
.miss_find:
	mov rdx, [rsp + 64 + rcx * 8]
	test rdx, rdx
	jnz .miss_found
	inc ecx
	cmp ecx, 7
	jb .miss_find			; the last word must then be it
	mov rdx, [rsp + 64 + rcx * 8]
.miss_found:
	mov rax, [rsp + rcx * 8]
	mov [r15 + SOAK_MISS_EXPECTED], rax
	xor rax, rdx
	mov [r15 + SOAK_MISS_ACTUAL], rax
	lea rax, [rdi + rcx * 8]
	sub rax, r12
	mov [r15 + SOAK_MISS_OFFSET], rax
	mov qword [r15 + SOAK_MISS_SIDE], 0
	mov eax, SOAK_MISCOMPARE
%endmacro

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
