; SPDX-License-Identifier: GPL-2.0-only
;
; fma.asm - the cores suite's fused multiply-add kernels (cores/k_fma.c has the exact
; integer reference): lanes of 64 bits; per chunk of words v from the buffer, each lane s:
;   a = the double 1.m with m = v >> 12          (in [1, 2))
;   b = the double 1.m with m = s's low 52 bits  (in [1, 2))
;   p = a * b rounded (VMULPD), e = a * b - p exactly (VFMSUB231PD: the product's rounding
;   error, always a double; an unfused multiply-subtract would give 0)
;   s = rotl(s ^ bits(p) ^ v, 13) + bits(e)
; MXCSR is set to its reset value (round to nearest, every exception masked) for the run and
; restored after.
;
;   void cores_fma_avx2(const u64 *buf, size_t nchunks, u64 *lanes)     4 lanes, FMA + AVX2
;   void cores_fma_avx512(const u64 *buf, size_t nchunks, u64 *lanes)   8 lanes, AVX-512F
;
; Clobbers ymm0-ymm7 or zmm0-zmm7 (then vzeroupper); the image keeps nothing in them.

default rel
bits 64

section .rodata
align 8
one:		dq	0x3ff0000000000000	; 1.0
mant:		dq	0x000fffffffffffff	; a double's 52 fraction bits
mxcsr_reset:	dd	0x1f80

section .text

global cores_fma_avx2
cores_fma_avx2:
	sub	rsp, 8
	stmxcsr	[rsp]
	ldmxcsr	[mxcsr_reset]
	vmovdqu	ymm0, [rdx]
	vpbroadcastq ymm6, [one]
	vpbroadcastq ymm7, [mant]
	test	rsi, rsi
	jz	.done
.loop:
	vmovdqu	ymm1, [rdi]
	vpsrlq	ymm2, ymm1, 12
	vpor	ymm2, ymm2, ymm6		; a
	vpand	ymm3, ymm0, ymm7
	vpor	ymm3, ymm3, ymm6		; b
	vmulpd	ymm4, ymm2, ymm3		; p
	vmovapd	ymm5, ymm4
	vfmsub231pd ymm5, ymm2, ymm3		; e = a * b - p
	vpxor	ymm0, ymm0, ymm4
	vpxor	ymm0, ymm0, ymm1
	vpsrlq	ymm4, ymm0, 51
	vpsllq	ymm0, ymm0, 13
	vpor	ymm0, ymm0, ymm4
	vpaddq	ymm0, ymm0, ymm5
	add	rdi, 32
	dec	rsi
	jnz	.loop
.done:
	vmovdqu	[rdx], ymm0
	vzeroupper
	ldmxcsr	[rsp]
	add	rsp, 8
	ret

global cores_fma_avx512
cores_fma_avx512:
	sub	rsp, 8
	stmxcsr	[rsp]
	ldmxcsr	[mxcsr_reset]
	vmovdqu64 zmm0, [rdx]
	vpbroadcastq zmm6, [one]
	vpbroadcastq zmm7, [mant]
	test	rsi, rsi
	jz	.done
.loop:
	vmovdqu64 zmm1, [rdi]
	vpsrlq	zmm2, zmm1, 12
	vporq	zmm2, zmm2, zmm6		; a
	vpandq	zmm3, zmm0, zmm7
	vporq	zmm3, zmm3, zmm6		; b
	vmulpd	zmm4, zmm2, zmm3		; p
	vmovapd	zmm5, zmm4
	vfmsub231pd zmm5, zmm2, zmm3		; e = a * b - p
	vpxorq	zmm0, zmm0, zmm4
	vpxorq	zmm0, zmm0, zmm1
	vprolq	zmm0, zmm0, 13
	vpaddq	zmm0, zmm0, zmm5
	add	rdi, 64
	dec	rsi
	jnz	.loop
.done:
	vmovdqu64 [rdx], zmm0
	vzeroupper
	ldmxcsr	[rsp]
	add	rsp, 8
	ret
