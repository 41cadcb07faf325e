; SPDX-License-Identifier: GPL-2.0-only
;
; x87.asm - the cores suite's x87 kernel (cores/k_x87.c has the known answers' table):
;
;   void cores_x87(const u32 *num, size_t n, u64 *out)
;
; for each of @n inputs x = num[i] / 1024: F2XM1, FSIN, FCOS, FPTAN (tan; its pushed 1.0
; dropped) and FYL2X with y = 1 (log2 x), each stored as a double (rounded to nearest) in
; out[5 i] .. out[5 i + 4]. FNINIT first: 64-bit precision, round to nearest, exceptions
; masked. The x87 stack is empty again on return; nothing else in the image uses it.

default rel
bits 64

section .rodata
align 8
inv1024:	dq	0x3f50000000000000	; 2^-10, exact

section .text

global cores_x87
cores_x87:
	sub	rsp, 8
	fninit
	test	rsi, rsi
	jz	.done
.loop:
	fild	dword [rdi]
	fmul	qword [inv1024]
	fstp	qword [rsp]		; x, exact
	fld	qword [rsp]
	f2xm1
	fstp	qword [rdx]
	fld	qword [rsp]
	fsin
	fstp	qword [rdx + 8]
	fld	qword [rsp]
	fcos
	fstp	qword [rdx + 16]
	fld	qword [rsp]
	fptan
	fstp	st0			; the 1.0 FPTAN pushes
	fstp	qword [rdx + 24]
	fld1
	fld	qword [rsp]
	fyl2x				; st1 * log2(st0), popped
	fstp	qword [rdx + 32]
	add	rdi, 4
	add	rdx, 40
	dec	rsi
	jnz	.loop
.done:
	add	rsp, 8
	ret
