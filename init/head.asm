; SPDX-License-Identifier: GPL-2.0-only
;
; head.asm - the first kernel instructions after boot/ has left UEFI boot services.
;
; kernel_start(struct boot_info *bi) is called by boot/ on the firmware's stack, which lives in
; boot-services memory the kernel will reuse. It moves onto the kernel's own stack (in the
; image), clears the frame pointer so backtraces end here, and calls kernel_main(bi), which
; never returns.
;
; Inputs:  rdi = struct boot_info *
; Clobbers: everything; does not return.

default rel
bits 64

%include "kernel/include/asm-consts.inc"

section .bss
align PAGE_SIZE
global boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	resb KERNEL_STACK_SIZE
boot_stack_top:

section .text
extern kernel_main
global kernel_start
kernel_start:
	cli
	cld
	lea rsp, [boot_stack_top]
	xor ebp, ebp
	call kernel_main
.hang:
	hlt
	jmp .hang

section .note.GNU-stack noalloc noexec nowrite progbits
