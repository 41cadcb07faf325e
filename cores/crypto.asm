; SPDX-License-Identifier: GPL-2.0-only
;
; crypto.asm - the cores suite's crypto kernels (cores/k_crypto.c runs them and computes the
; known answers with cores/crypto_ref.c):
;
;   void cores_aes128_cbc(const u8 *buf, size_t nblocks, const u8 *rk, u8 *state)
;       for each 16-byte block b: state = AES-128(state ^ b) with the 11 round keys @rk
;       (pxor, 9 x AESENC, AESENCLAST); @state holds the first and gets the last.
;   void cores_clmul_chain(const u64 *buf, size_t nblocks, u64 *state)
;       state (a, b), each block (c, d), fold(x) the xor of a 128-bit product's halves:
;       b ^= fold(a*c); a ^= fold(b*d); b ^= fold(a*d); a ^= fold(b*c); then (a, b) ^= (c, d),
;       every product a PCLMULQDQ (its four selectors 00h, 11h, 10h, 01h). Feistel steps: the
;       state's change is a bijection, so nothing it held is lost along the chain.
;   void cores_sha256_ni(u32 *state, const u8 *data, size_t nblocks)
;       SHA-256's compression of @nblocks 64-byte blocks by SHA256MSG1, SHA256MSG2 and
;       SHA256RNDS2; @state is { F, E, B, A, H, G, D, C } (the instruction's ABEF and CDGH
;       as they sit in xmm registers, low dword first).
;
; None needs alignment. Clobbers xmm0-xmm12; the image keeps nothing in them
; (kernel/arch/fpu.h). Only SSE2 besides each routine's own instructions.

default rel
bits 64

section .rodata
align 16
; FIPS 180-4 4.2.2: the 64 round constants (crypto_ref.c computes its own from the primes).
sha256_k:
	dd	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5
	dd	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
	dd	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3
	dd	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
	dd	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc
	dd	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
	dd	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7
	dd	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
	dd	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13
	dd	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
	dd	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3
	dd	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
	dd	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5
	dd	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
	dd	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208
	dd	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2

section .text

global cores_aes128_cbc
cores_aes128_cbc:
	movdqu	xmm0, [rcx]
	movdqu	xmm1, [rdx]
	movdqu	xmm2, [rdx + 16]
	movdqu	xmm3, [rdx + 32]
	movdqu	xmm4, [rdx + 48]
	movdqu	xmm5, [rdx + 64]
	movdqu	xmm6, [rdx + 80]
	movdqu	xmm7, [rdx + 96]
	movdqu	xmm8, [rdx + 112]
	movdqu	xmm9, [rdx + 128]
	movdqu	xmm10, [rdx + 144]
	movdqu	xmm11, [rdx + 160]
	test	rsi, rsi
	jz	.done
.loop:
	movdqu	xmm12, [rdi]
	pxor	xmm0, xmm12
	pxor	xmm0, xmm1
	aesenc	xmm0, xmm2
	aesenc	xmm0, xmm3
	aesenc	xmm0, xmm4
	aesenc	xmm0, xmm5
	aesenc	xmm0, xmm6
	aesenc	xmm0, xmm7
	aesenc	xmm0, xmm8
	aesenc	xmm0, xmm9
	aesenc	xmm0, xmm10
	aesenclast xmm0, xmm11
	add	rdi, 16
	dec	rsi
	jnz	.loop
.done:
	movdqu	[rcx], xmm0
	ret

; One Feistel half-round: the 128-bit product PCLMULQDQ %1 of one state half and one block
; half, its two halves xored into 64 bits, xored into the other state half (%2: pslldq to
; the high half b, psrldq to the low half a).
%macro clmul_half 2
	movdqa	xmm2, xmm0
	pclmulqdq xmm2, xmm1, %1
	pshufd	xmm3, xmm2, 0x4e
	pxor	xmm2, xmm3
	%2	xmm2, 8
	pxor	xmm0, xmm2
%endmacro

global cores_clmul_chain
cores_clmul_chain:
	movdqu	xmm0, [rdx]
	test	rsi, rsi
	jz	.done
.loop:
	movdqu	xmm1, [rdi]
	clmul_half 0x00, pslldq		; b ^= fold(a * c)
	clmul_half 0x11, psrldq		; a ^= fold(b * d)
	clmul_half 0x10, pslldq		; b ^= fold(a * d)
	clmul_half 0x01, psrldq		; a ^= fold(b * c)
	pxor	xmm0, xmm1
	add	rdi, 16
	dec	rsi
	jnz	.loop
.done:
	movdqu	[rdx], xmm0
	ret

; The message schedule W[0..63] goes on the stack: W[0..15] byte-swapped from the block, then
; four at a time W[i..i+3] = MSG2(MSG1(W[i-16..], W[i-12..]) + W[i-7..], W[i-4..]). Then 16
; groups of 4 rounds: xmm0 = W + K, two rounds, its high half down, two more; each
; SHA256RNDS2 writes the new ABEF over the register that held CDGH, so two swap them back.
global cores_sha256_ni
cores_sha256_ni:
	sub	rsp, 264
	movdqu	xmm1, [rdi]		; ABEF
	movdqu	xmm2, [rdi + 16]	; CDGH
	lea	r8, [sha256_k]
	test	rdx, rdx
	jz	.done
.block:
	xor	ecx, ecx
.load:
	mov	eax, [rsi + rcx * 4]
	bswap	eax
	mov	[rsp + rcx * 4], eax
	inc	ecx
	cmp	ecx, 16
	jb	.load
.sched:
	movdqu	xmm3, [rsp + rcx * 4 - 64]	; W[i-16..i-13]
	movdqu	xmm4, [rsp + rcx * 4 - 48]	; W[i-12..i-9]
	sha256msg1 xmm3, xmm4
	movdqu	xmm4, [rsp + rcx * 4 - 28]	; W[i-7..i-4]
	paddd	xmm3, xmm4
	movdqu	xmm4, [rsp + rcx * 4 - 16]	; W[i-4..i-1]
	sha256msg2 xmm3, xmm4
	movdqu	[rsp + rcx * 4], xmm3
	add	ecx, 4
	cmp	ecx, 64
	jb	.sched
	movdqa	xmm5, xmm1
	movdqa	xmm6, xmm2
	xor	ecx, ecx
.round:
	movdqu	xmm0, [rsp + rcx * 4]
	movdqa	xmm3, [r8 + rcx * 4]
	paddd	xmm0, xmm3
	sha256rnds2 xmm2, xmm1
	pshufd	xmm0, xmm0, 0x0e
	sha256rnds2 xmm1, xmm2
	add	ecx, 4
	cmp	ecx, 64
	jb	.round
	paddd	xmm1, xmm5
	paddd	xmm2, xmm6
	add	rsi, 64
	dec	rdx
	jnz	.block
.done:
	movdqu	[rdi], xmm1
	movdqu	[rdi + 16], xmm2
	add	rsp, 264
	ret
