; SPDX-License-Identifier: GPL-2.0-only
;
; vec.asm - the cores suite's vector kernels (cores/k_vec.c has the scalar reference):
; lanes of 64 bits; per chunk of words v from the buffer, each lane a:
;   a += v; a ^= (lo32(a) * lo32(v)) << 32 (pmuludq); a = rotl(a, 7);
;   a += v with its 32-bit halves swapped (pshufd 0xb1)
; Every step is a bijection of a for a given v (the product only changes the high half, a
; Feistel step), so a bit flipped in the buffer or a lane reaches the end.
;
;   void cores_vec_sse2(const u64 *buf, size_t nchunks, u64 *lanes)   2 lanes, SSE2
;   void cores_vec_avx2(const u64 *buf, size_t nchunks, u64 *lanes)   4 lanes, AVX2
;   void cores_vec_avx512(const u64 *buf, size_t nchunks, u64 *lanes) 8 lanes, AVX-512F
;       (the rotate by VPROLQ)
;   void cores_vec_avx512bw(const u64 *buf, size_t nchunks, u64 *lanes)   AVX-512BW, another
;       chain: each byte of a += v's byte where that byte is odd, -= it where even (VPTESTMB
;       into k1, KNOTQ, masked VPADDB and VPSUBB); each 16-bit word of a *= the word of
;       rotl(v, 8) | 1 (VPMULLW, low half; v rotated so a word's top bit does not reach the
;       add and the multiplier alike, where the two can cancel); each lane rotated left by
;       11 (VPROLQ). Clobbers k1, k2 too.
;
; @lanes holds the starting lanes and gets the final ones. The buffer needs no alignment.
; Clobbers xmm0-xmm3 (ymm0-ymm3 or zmm0-zmm3, then vzeroupper); the image keeps nothing in them
; (kernel/arch/fpu.h).

default rel
bits 64

section .text

global cores_vec_sse2
cores_vec_sse2:
	movdqu	xmm0, [rdx]
	test	rsi, rsi
	jz	.done
.loop:
	movdqu	xmm1, [rdi]
	paddq	xmm0, xmm1
	movdqa	xmm2, xmm0
	pmuludq	xmm2, xmm1
	psllq	xmm2, 32
	pxor	xmm0, xmm2
	movdqa	xmm3, xmm0
	psllq	xmm0, 7
	psrlq	xmm3, 57
	por	xmm0, xmm3
	pshufd	xmm3, xmm1, 0xb1
	paddq	xmm0, xmm3
	add	rdi, 16
	dec	rsi
	jnz	.loop
.done:
	movdqu	[rdx], xmm0
	ret

global cores_vec_avx2
cores_vec_avx2:
	vmovdqu	ymm0, [rdx]
	test	rsi, rsi
	jz	.done
.loop:
	vmovdqu	ymm1, [rdi]
	vpaddq	ymm0, ymm0, ymm1
	vpmuludq ymm2, ymm0, ymm1
	vpsllq	ymm2, ymm2, 32
	vpxor	ymm0, ymm0, ymm2
	vpsrlq	ymm3, ymm0, 57
	vpsllq	ymm0, ymm0, 7
	vpor	ymm0, ymm0, ymm3
	vpshufd	ymm3, ymm1, 0xb1
	vpaddq	ymm0, ymm0, ymm3
	add	rdi, 32
	dec	rsi
	jnz	.loop
.done:
	vmovdqu	[rdx], ymm0
	vzeroupper
	ret

global cores_vec_avx512
cores_vec_avx512:
	vmovdqu64 zmm0, [rdx]
	test	rsi, rsi
	jz	.done
.loop:
	vmovdqu64 zmm1, [rdi]
	vpaddq	zmm0, zmm0, zmm1
	vpmuludq zmm2, zmm0, zmm1
	vpsllq	zmm2, zmm2, 32
	vpxorq	zmm0, zmm0, zmm2
	vprolq	zmm0, zmm0, 7
	vpshufd	zmm3, zmm1, 0xb1
	vpaddq	zmm0, zmm0, zmm3
	add	rdi, 64
	dec	rsi
	jnz	.loop
.done:
	vmovdqu64 [rdx], zmm0
	vzeroupper
	ret

global cores_vec_avx512bw
cores_vec_avx512bw:
	mov	eax, 1
	vpbroadcastb zmm7, eax			; 01h in every byte
	vpbroadcastw zmm6, eax			; 0001h in every word
	vmovdqu64 zmm0, [rdx]
	test	rsi, rsi
	jz	.done
.loop:
	vmovdqu64 zmm1, [rdi]
	vptestmb k1, zmm1, zmm7			; the odd bytes of v
	knotq	k2, k1
	vpaddb	zmm0{k1}, zmm0, zmm1
	vpsubb	zmm0{k2}, zmm0, zmm1
	vprolq	zmm2, zmm1, 8
	vporq	zmm2, zmm2, zmm6
	vpmullw	zmm0, zmm0, zmm2
	vprolq	zmm0, zmm0, 11
	add	rdi, 64
	dec	rsi
	jnz	.loop
.done:
	vmovdqu64 [rdx], zmm0
	vzeroupper
	ret
