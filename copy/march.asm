; SPDX-License-Identifier: GPL-2.0-only
;
; march.asm - the memory test's inner kernel: one March element over one run, word by word
; (copy/march.h says what it does and returns; the constants and layouts come from there
; through build/gen/copy/asm-offsets.inc).
;
; Shape: the descriptors are set up once (below), then one of thirty-six loops runs, chosen
; by what is read (nothing, a constant, an address, anything else), what is written (the same
; four) and the direction, or, for RANDOM data, by the R loops below. A loop takes one 64-byte
; line per iteration and its eight words one after the other, in the element's direction:
; load the word, compare, store the new word. Scalar 64-bit loads and stores: memory-bound on
; hardware for most loops, and under QEMU's TCG several times faster than SSE2 (measured in
; the image, 2026-12-05).
;
; Patterns as the loops see them: K_CONST, one value in a register (r8 read, r10 written):
; CONST, or a rotation whose 64 words are all equal (zeros, ones). K_ADDR, the line's first
; address in r8/r10 and @invert in r9/r11: ADDRESS, each word one lea and one xor. K_BUF,
; eight words in memory per line, r8/r10 pointing at them: any other rotation (into the
; 64-word table the set-up wrote on the stack, @invert applied) or RANDOM (one splitmix64
; finalizer per line, XORed with the lanes, into an eight-word buffer). The R loops (RPICK,
; RBODY) take over where the element only reads or only writes a RANDOM sequence, or reads
; one and writes the same one under the other invert (the complement of what each word holds:
; F_FOLD, the written word the read one XOR the two inverts, so a line is generated once, not
; twice): the generator's state and the line's word 0 in registers, no buffer (issue 38: the
; random pass's elements ran at a third of the constant ones' speed, bound by the
; instructions that generated each line into the buffer and loaded it back twice a word).
;
; A word that differs: the loop calls .record with its expected word in rax, what it read in
; rcx and its address in rdx; the first of its line is recorded (its line flushed and the
; word read again), the loop goes on to write it and the rest of the line, and the kernel
; returns after that line (rbx says a word of the line differed).
;
; Machine-check safety: every load has an EX_TYPE_DEFAULT_MCE_SAFE entry and every store an
; EX_TYPE_DEFAULT one, so poison consumed (or a #PF) resumes at a fixup that names the line;
; nothing is retried. Every way out runs sfence (the non-temporal stores of write-only
; elements are then globally visible).
;
; Registers while running: rdi the line, rsi the lines left, r14 the step (+64 or -64), r12
; buf, r13 the run's end, r15 miss, rbp 8 * rd.first - buf (rdi + rbp is 8 * the line's
; first pattern index; the written pattern's bias is in the frame), rbx nonzero once a word
; of the line differed, r8 and r10 the read and written patterns (a value, an address or a
; pointer), r9 and r11 their inverts (K_ADDR), rax, rcx, rdx scratch. The R loops: r13 the
; generator's state (the run's end is not needed once running), r8 the line's word 0, r9 and
; r11 the inverts (folded: r11 the two XORed), r10 r8 ^ r11.

default rel
bits 64
%include "kernel/include/extable.inc"
%include "copy/asm-offsets.inc"

%define U64(n) (((n %+ _HI) << 32) | ((n %+ _LO) & 0xffffffff))

%define K_NONE		0
%define K_CONST		1
%define K_ADDR		2
%define K_BUF		3

%define S_TABLE		0
%define S_RANDOM	1

; The frame, from rsp (16-byte aligned).
%define F_RDTAB		0		; 64 words: the read rotation's table, inverted
%define F_WRTAB		512
%define F_RDLANE	1024		; 8 words: the lanes XOR the read invert (RANDOM)
%define F_WRLANE	1088
%define F_RDBUF		1152		; 8 words: this line's read words (RANDOM)
%define F_WRBUF		1216
%define F_RDSEED	1280
%define F_WRSEED	1288
%define F_RDINV		1296
%define F_WRINV		1304
%define F_WRBIAS	1312		; 8 * wr.first - buf
%define F_RDSUB		1320		; S_* of a K_BUF pattern
%define F_WRSUB		1328
%define F_FOLD		1336		; 1: the written words are the read ones XOR r11 (K_FOLD)
%define F_RON		1344		; 1: an R loop runs (below)
%define F_RBIAS		1352		; its sequence's bias and seed (the read side's or written)
%define F_RSEED		1360
%define F_GSTEP		1368		; SOAK_GAMMA, negated down: the state from line to line
%define F_SIZE		1376

section .rodata
	align 16
march_lanes:
	dq 0, U64(SOAK_LANE1), U64(SOAK_LANE2), U64(SOAK_LANE3)
	dq U64(SOAK_LANE4), U64(SOAK_LANE5), U64(SOAK_LANE6), U64(SOAK_LANE7)
march_c1:
	dq U64(SOAK_MIX_C1)
march_c2:
	dq U64(SOAK_MIX_C2)
march_gamma:
	dq U64(SOAK_GAMMA)

section .text

; splitmix64's finalizer on %1 (in/out), %2 temporary.
%macro MIX 2
	mov %2, %1
	shr %2, SOAK_MIX_S1
	xor %1, %2
	imul %1, [march_c1]
	mov %2, %1
	shr %2, SOAK_MIX_S2
	xor %1, %2
	imul %1, [march_c2]
	mov %2, %1
	shr %2, SOAK_MIX_S3
	xor %1, %2
%endmacro

; Set up the descriptor at %1: its value register %2 (K_CONST), its kind into %3; frame
; slots: table %4, lanes %5, seed %6, invert %7, sub-kind %8. Unknown generator: .bad_args.
; Clobbers rax, rcx, rdx.
%macro SETUP 8
	mov rax, [%1 + SOAK_DESC_SEED]
	mov [rsp + %6], rax
	mov rax, [%1 + SOAK_DESC_INVERT]
	mov [rsp + %7], rax
	mov %3, K_BUF
	mov rax, [%1 + SOAK_DESC_GEN]
	cmp rax, SOAK_GEN_RANDOM
	je %%random
	cmp rax, SOAK_GEN_ADDRESS
	je %%address
	cmp rax, SOAK_GEN_CONST
	je %%const
	cmp rax, SOAK_GEN_ROTATE
	jne .bad_args
	xor ecx, ecx
%%rotate_word:
	mov rax, [rsp + %6]
	rol rax, cl
	xor rax, [rsp + %7]
	mov [rsp + %4 + rcx * 8], rax
	inc ecx
	cmp ecx, SOAK_TABLE_WORDS
	jb %%rotate_word
	mov qword [rsp + %8], S_TABLE
	mov %2, [rsp + %4]
	mov ecx, 1
%%same:					; all 64 words one value: K_CONST
	cmp %2, [rsp + %4 + rcx * 8]
	jne %%done
	inc ecx
	cmp ecx, SOAK_TABLE_WORDS
	jb %%same
	mov %3, K_CONST
	jmp %%done
%%const:
	mov %2, [rsp + %6]
	xor %2, [rsp + %7]
	mov %3, K_CONST
	jmp %%done
%%random:
	mov qword [rsp + %8], S_RANDOM
	lea rdx, [march_lanes]
	xor ecx, ecx
%%lane:
	mov rax, [rdx + rcx * 8]
	xor rax, [rsp + %7]
	mov [rsp + %5 + rcx * 8], rax
	inc ecx
	cmp ecx, SOAK_LINE_WORDS
	jb %%lane
	jmp %%done
%%address:
	mov %3, K_ADDR
%%done:
%endmacro

; A K_BUF pattern's eight words for the line at rdi: %1 gets where they are; %2 the bias
; (8 * first - buf), frame slots: table %3, lanes %4, buffer %5, seed %6, sub-kind %7.
; Clobbers rax, rcx, rdx.
%macro BLINE 7
	mov rax, %2
	add rax, rdi			; 8 * the line's first index
	cmp qword [rsp + %7], S_RANDOM
	je %%random
	and eax, 8 * SOAK_TABLE_WORDS - 1
	lea %1, [rsp + rax + %3]
	jmp %%done
%%random:
	shr rax, 6			; the line's group of eight
	inc rax
	imul rax, [march_gamma]
	add rax, [rsp + %6]
	MIX rax, rdx
%assign k 0
%rep SOAK_LINE_WORDS
	mov rcx, [rsp + %4 + k]
	xor rcx, rax
	mov [rsp + %5 + k], rcx
%assign k k + 8
%endrep
	lea %1, [rsp + %5]
%%done:
%endmacro

; Whether the element reads and writes one random sequence under two inverts (a word's
; complement written over it, SOAK_PAT_HELD_INV): the same seed and bias for both K_BUF
; descriptors. Then the written words are the read ones XOR the two inverts (the R loop R_X)
; and one line's words are generated once, not twice. F_FOLD says; clobbers rax.
%macro FOLDABLE 0
	mov qword [rsp + F_FOLD], 0
	cmp r9, K_BUF
	jne %%no
	cmp r11, K_BUF
	jne %%no
	cmp qword [rsp + F_RDSUB], S_RANDOM
	jne %%no
	cmp qword [rsp + F_WRSUB], S_RANDOM
	jne %%no
	mov rax, [rsp + F_RDSEED]
	cmp rax, [rsp + F_WRSEED]
	jne %%no
	cmp rbp, [rsp + F_WRBIAS]
	jne %%no
	mov qword [rsp + F_FOLD], 1
%%no:
%endmacro

; Whether an R loop (below) runs the element instead of the one in rax: a folded element
; (F_FOLD), or one that only reads (or only writes) a RANDOM sequence; then rax is it, and
; F_RON, F_RBIAS and F_RSEED say so and which sequence. Before r9 and r11 become inverts (they
; hold the kinds); bl the flags. Clobbers rcx, rdx.
%macro RPICK 0
	mov qword [rsp + F_RON], 0
	cmp qword [rsp + F_FOLD], 0
	jne %%fold
	cmp r11, K_NONE
	jne %%write
	cmp r9, K_BUF
	jne %%no
	cmp qword [rsp + F_RDSUB], S_RANDOM
	jne %%no
	lea rax, [.v_R_N_up]
	lea rdx, [.v_R_N_down]
	jmp %%read
%%fold:
	lea rax, [.v_R_X_up]
	lea rdx, [.v_R_X_down]
%%read:
	mov [rsp + F_RBIAS], rbp
	mov rcx, [rsp + F_RDSEED]
	jmp %%on
%%write:
	cmp r9, K_NONE
	jne %%no
	cmp r11, K_BUF
	jne %%no
	cmp qword [rsp + F_WRSUB], S_RANDOM
	jne %%no
	lea rax, [.v_N_R_up]
	lea rdx, [.v_N_R_down]
	mov rcx, [rsp + F_WRBIAS]
	mov [rsp + F_RBIAS], rcx
	mov rcx, [rsp + F_WRSEED]
%%on:
	mov [rsp + F_RSEED], rcx
	test bl, SOAK_MV_DOWN
	cmovnz rax, rdx
	mov qword [rsp + F_RON], 1
%%no:
%endmacro

; A K_ADDR pattern's first address for the line at rdi into %1: bias %2, seed slot %3.
%macro ALINE 3
	mov %1, %2
	add %1, rdi
	add %1, [rsp + %3]
%endmacro

; One word at rdi + %3: read as %1 says (N, C, A, B), written as %2 says; %4 1: non-temporal.
%macro WORD 4
%ifnidn %1, N
%%load:
	mov rcx, [rdi + %3]
	EXTABLE %%load, .fault_load, EX_TYPE_DEFAULT_MCE_SAFE
%ifidn %1, C
	cmp rcx, r8
	je %%ok
	mov rax, r8
%elifidn %1, A
	lea rax, [r8 + %3]
	xor rax, r9
	cmp rcx, rax
	je %%ok
%else
	cmp rcx, [r8 + %3]
	je %%ok
	mov rax, [r8 + %3]
%endif
	lea rdx, [rdi + %3]
	call .record
%%ok:
%endif
%ifnidn %2, N
%ifidn %2, C
%%store:
%if %4
	movnti [rdi + %3], r10
%else
	mov [rdi + %3], r10
%endif
%else
%ifidn %2, A
	lea rax, [r10 + %3]
	xor rax, r11
%else
	mov rax, [r10 + %3]
%endif
%%store:
%if %4
	movnti [rdi + %3], rax
%else
	mov [rdi + %3], rax
%endif
%endif
	EXTABLE %%store, .fault_store, EX_TYPE_DEFAULT
%endif
%endmacro

; The loop reading %1, writing %2 (N, C, A, B), direction %3 (up, down).
%macro BODY 3
	align 16
.v_%1_%2_%3:
%ifidn %1, A
	ALINE r8, rbp, F_RDSEED
%endif
%ifidn %2, A
	ALINE r10, [rsp + F_WRBIAS], F_WRSEED
%endif
%ifidn %1, B
	BLINE r8, rbp, F_RDTAB, F_RDLANE, F_RDBUF, F_RDSEED, F_RDSUB
%endif
%ifidn %2, B
	BLINE r10, [rsp + F_WRBIAS], F_WRTAB, F_WRLANE, F_WRBUF, F_WRSEED, F_WRSUB
%endif
%assign j 0
%rep SOAK_LINE_WORDS
%ifidn %3, up
%assign off j * 8
%else
%assign off (SOAK_LINE_WORDS - 1 - j) * 8
%endif
%ifidn %1, N
	WORD %1, %2, off, 1
%else
	WORD %1, %2, off, 0
%endif
%assign j j + 1
%endrep
%ifnidn %1, N
	test ebx, ebx
	jnz .line_missed
%endif
	add rdi, r14
	dec rsi
	jnz .v_%1_%2_%3
	jmp .ok
%endmacro

; The R loops: an element that reads a RANDOM sequence (R_N), writes one (N_R), or reads one
; and writes the same one under the other invert (R_X: the complement of what each word
; holds, F_FOLD), with the generator in registers: r13 is splitmix64's state for the line
; (seed + (group + 1) * SOAK_GAMMA, stepped by F_GSTEP), r8 the line's word 0 (its finalizer
; XOR the invert, r9 read, r11 written), so word k is r8 ^ lane k, checked as (read ^ r8) ==
; lane k with the lane from march_lanes; R_X writes read ^ r11 (the inverts XORed), word k > 0
; as (read ^ r8) ^ r10, r10 = r8 ^ r11. A wrong word leaves the line through a not-taken
; branch to its stub (RSTUBS), which records it and comes back to write it as the reference
; does (expected ^ r11). Same words, order and results as the B loops: only fewer
; instructions per line (issue 38).

; One word at rdi + %3 (word %4 of its line) of the R loop %5: read %1 (R, N), written %2
; (N, X, R).
%macro RWORD 5
%ifidn %1, R
%%load:
	mov rcx, [rdi + %3]
	EXTABLE %%load, .fault_load, EX_TYPE_DEFAULT_MCE_SAFE
%if %4 == 0
	cmp rcx, r8
%else
	xor rcx, r8
	cmp rcx, [march_lanes + %3]
%endif
	jne .m_%5_%4
.b_%5_%4:
%endif
%ifidn %2, X
%if %4 == 0
	xor rcx, r11
%else
	xor rcx, r10
%endif
%%store:
	mov [rdi + %3], rcx
	EXTABLE %%store, .fault_store, EX_TYPE_DEFAULT
%elifidn %2, R
%if %4 == 0
%%store:
	movnti [rdi + %3], r8
%else
	mov rax, [march_lanes + %3]
	xor rax, r8
%%store:
	movnti [rdi + %3], rax
%endif
	EXTABLE %%store, .fault_store, EX_TYPE_DEFAULT
%endif
%endmacro

; The R loop %1_%2_%3 (read %1, written %2, direction %3), then its stubs.
%macro RBODY 3
	align 16
.v_%1_%2_%3:
	mov r8, r13
	MIX r8, rdx
%ifidn %2, R
	xor r8, r11
%else
	xor r8, r9
%endif
%ifidn %2, X
	mov r10, r8
	xor r10, r11
%endif
	add r13, [rsp + F_GSTEP]
%assign j 0
%rep SOAK_LINE_WORDS
%ifidn %3, up
%assign k j
%else
%assign k SOAK_LINE_WORDS - 1 - j
%endif
	RWORD %1, %2, k * 8, %[k], %1_%2_%3
%assign j j + 1
%endrep
%ifidn %1, R
	test ebx, ebx
	jnz .line_missed
%endif
	add rdi, r14
	dec rsi
	jnz .v_%1_%2_%3
	jmp .ok
%ifidn %1, R
%assign k 0
%rep SOAK_LINE_WORDS
.m_%1_%2_%3_%[k]:			; rcx: the word read (k 0), else read ^ r8
%if k == 0
	mov rax, r8
%else
	xor rcx, r8
	mov rax, [march_lanes + k * 8]
	xor rax, r8
%endif
	lea rdx, [rdi + k * 8]
	call .record
%if k == 0
	mov rcx, r8			; R_X writes rcx ^ r11: expected ^ r11
%else
	mov rcx, [march_lanes + k * 8]	; R_X writes rcx ^ r10: expected ^ r11
%endif
	jmp .b_%1_%2_%3_%[k]
%assign k k + 1
%endrep
%endif
%endmacro

%macro LEAVE 0
	add rsp, F_SIZE + 8
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret
%endmacro

; u64 soak_march_mc(void *buf, size_t len, const struct soak_mv *mv,
;		    struct soak_word_miss *miss)
; In:  rdi = buf, rsi = len, rdx = mv, rcx = miss
; Out: rax = SOAK_OK, SOAK_MISCOMPARE or SOAK_POISONED (@miss filled), SOAK_BAD_ARGS
; Clobbers: rcx, rdx, rsi, rdi, r8-r11 (rbx, rbp, r12-r15 saved)
; Faults: every load -> .fault_load (MCE-safe), every store -> .fault_store: SOAK_POISONED
;         at the line
global soak_march_mc
	align 16
soak_march_mc:
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	sub rsp, F_SIZE + 8
	mov r12, rdi
	mov r15, rcx
	mov rbx, [rdx + SOAK_MV_FLAGS]
	mov rax, rdi
	or rax, rsi
	test al, SOAK_LINE - 1
	jnz .bad_args
	mov rax, [rdx + SOAK_MV_RD + SOAK_DESC_FIRST]
	or rax, [rdx + SOAK_MV_WR + SOAK_DESC_FIRST]
	test al, SOAK_LINE_WORDS - 1
	jnz .bad_args
	lea r13, [rdi + rsi]
	mov rbp, [rdx + SOAK_MV_RD + SOAK_DESC_FIRST]
	shl rbp, 3
	sub rbp, rdi
	mov rax, [rdx + SOAK_MV_WR + SOAK_DESC_FIRST]
	shl rax, 3
	sub rax, rdi
	mov [rsp + F_WRBIAS], rax
	mov r14, rdx
	xor r9d, r9d			; K_NONE
	xor r11d, r11d
	test bl, SOAK_MV_READ
	jz .no_read
	lea rdi, [r14 + SOAK_MV_RD]
	SETUP rdi, r8, r9, F_RDTAB, F_RDLANE, F_RDSEED, F_RDINV, F_RDSUB
.no_read:
	test bl, SOAK_MV_WRITE
	jz .no_write
	lea rdi, [r14 + SOAK_MV_WR]
	SETUP rdi, r10, r11, F_WRTAB, F_WRLANE, F_WRSEED, F_WRINV, F_WRSUB
.no_write:
	FOLDABLE
	lea rax, [r11 + r9 * 4]		; 4 * read kind + written kind: 1..15
	test rax, rax
	jz .bad_args
	lea rcx, [.loops_up]
	lea rdx, [.loops_down]
	test bl, SOAK_MV_DOWN
	cmovnz rcx, rdx
	movsxd rax, dword [rcx + rax * 4]
	add rax, rcx
	RPICK
	mov r9, [rsp + F_RDINV]
	mov r11, [rsp + F_WRINV]
	cmp qword [rsp + F_FOLD], 0
	je .unfolded
	xor r11, r9			; written = read XOR (read invert XOR written invert)
.unfolded:
	mov rsi, r13
	sub rsi, r12
	shr rsi, 6			; lines
	jz .ok
	mov rdi, r12
	mov r14, SOAK_LINE
	test bl, SOAK_MV_DOWN
	jz .go
	lea rdi, [r13 - SOAK_LINE]
	neg r14
.go:
	cmp qword [rsp + F_RON], 0
	je .go_now
	mov r13, rdi			; an R loop: the state for the first line
	add r13, [rsp + F_RBIAS]
	shr r13, 6			; its group
	inc r13
	imul r13, [march_gamma]
	add r13, [rsp + F_RSEED]
	mov rcx, [march_gamma]
	mov rdx, rcx
	neg rdx
	test r14, r14
	cmovs rcx, rdx
	mov [rsp + F_GSTEP], rcx
.go_now:
	xor ebx, ebx			; from here: a word of this line differed
	jmp rax

	align 4
.loops_up:
	dd .bad_args - .loops_up, .v_N_C_up - .loops_up
	dd .v_N_A_up - .loops_up, .v_N_B_up - .loops_up
	dd .v_C_N_up - .loops_up, .v_C_C_up - .loops_up
	dd .v_C_A_up - .loops_up, .v_C_B_up - .loops_up
	dd .v_A_N_up - .loops_up, .v_A_C_up - .loops_up
	dd .v_A_A_up - .loops_up, .v_A_B_up - .loops_up
	dd .v_B_N_up - .loops_up, .v_B_C_up - .loops_up
	dd .v_B_A_up - .loops_up, .v_B_B_up - .loops_up
.loops_down:
	dd .bad_args - .loops_down, .v_N_C_down - .loops_down
	dd .v_N_A_down - .loops_down, .v_N_B_down - .loops_down
	dd .v_C_N_down - .loops_down, .v_C_C_down - .loops_down
	dd .v_C_A_down - .loops_down, .v_C_B_down - .loops_down
	dd .v_A_N_down - .loops_down, .v_A_C_down - .loops_down
	dd .v_A_A_down - .loops_down, .v_A_B_down - .loops_down
	dd .v_B_N_down - .loops_down, .v_B_C_down - .loops_down
	dd .v_B_A_down - .loops_down, .v_B_B_down - .loops_down

	BODY N, C, up
	BODY N, A, up
	BODY N, B, up
	BODY C, N, up
	BODY C, C, up
	BODY C, A, up
	BODY C, B, up
	BODY A, N, up
	BODY A, C, up
	BODY A, A, up
	BODY A, B, up
	BODY B, N, up
	BODY B, C, up
	BODY B, A, up
	BODY B, B, up
	RBODY R, N, up
	RBODY N, R, up
	RBODY R, X, up
	BODY N, C, down
	BODY N, A, down
	BODY N, B, down
	BODY C, N, down
	BODY C, C, down
	BODY C, A, down
	BODY C, B, down
	BODY A, N, down
	BODY A, C, down
	BODY A, A, down
	BODY A, B, down
	BODY B, N, down
	BODY B, C, down
	BODY B, A, down
	BODY B, B, down
	RBODY R, N, down
	RBODY N, R, down
	RBODY R, X, down

.ok:
	sfence
	xor eax, eax
	LEAVE
.line_missed:
	sfence
	mov eax, SOAK_MISCOMPARE
	LEAVE

; A word that differs, called from a loop (rsp is 8 lower than the frame's): rax expected,
; rcx read, rdx the word. The first of its line is recorded, its line flushed and the word
; read again; later ones in the line are counted. Clobbers rcx (the loop goes on to the
; word's store).
.record:
	test ebx, ebx
	jnz .record_more
	mov ebx, 1
	mov [r15 + SOAK_WMISS_EXPECTED], rax
	mov [r15 + SOAK_WMISS_ACTUAL], rcx
	mov rcx, rdx
	sub rcx, r12
	mov [r15 + SOAK_WMISS_OFFSET], rcx
	mov qword [r15 + SOAK_WMISS_MORE], 0
	mov qword [r15 + SOAK_WMISS_STORE], 0
	clflush [rdx]
	mfence
.reread:
	mov rcx, [rdx]
	mov [r15 + SOAK_WMISS_REREAD], rcx
	ret
.record_more:
	inc qword [r15 + SOAK_WMISS_MORE]
	ret
.reread_fault:				; inside .record: drop its return address first
	add rsp, 8
	jmp .fault_load

.fault_store:
	mov ecx, 1
	jmp .fault
.fault_load:
	xor ecx, ecx
.fault:
	mov rax, rdi
	sub rax, r12
	mov [r15 + SOAK_WMISS_OFFSET], rax
	mov [r15 + SOAK_WMISS_STORE], rcx
	xor eax, eax
	mov [r15 + SOAK_WMISS_EXPECTED], rax
	mov [r15 + SOAK_WMISS_ACTUAL], rax
	mov [r15 + SOAK_WMISS_REREAD], rax
	mov [r15 + SOAK_WMISS_MORE], rax
	sfence
	mov eax, SOAK_POISONED
	LEAVE
.bad_args:
	mov eax, SOAK_BAD_ARGS
	LEAVE

	EXTABLE .reread, .reread_fault, EX_TYPE_DEFAULT_MCE_SAFE

section .note.GNU-stack noalloc noexec nowrite progbits
