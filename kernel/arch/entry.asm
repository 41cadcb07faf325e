; SPDX-License-Identifier: GPL-2.0-only
;
; entry.asm - one entry path for all 32 exception vectors.
;
; Each vector has a small stub that makes the stack look the same whatever the CPU pushed:
; vectors without an error code push a zero, then every stub pushes its vector number and
; jumps to exc_common. exc_common saves all fifteen general registers below that, so the stack
; holds a struct pt_regs (kernel/include/ptrace.h: its order is this push sequence),
; calls trap_dispatch(regs) with the stack 16-byte aligned, restores the registers (a fixup
; may have changed rip and any register in pt_regs) and returns with iretq.
;
; #DF, NMI and #MC arrive on their own IST stacks (kernel/arch/gdt.c), so a broken kernel stack
; still reaches a handler that can report instead of triple-faulting.
;
; Clobbers: nothing the interrupted code can see, except what trap_dispatch writes to pt_regs.

default rel
bits 64

section .text

; Vectors for which the CPU pushes an error code: #DF 8, #TS 10, #NP 11, #SS 12, #GP 13,
; #PF 14, #AC 17, #CP 21, #VC 29, #SX 30.
%macro EXC_STUB 1
global exc_stub_%1
exc_stub_%1:
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
%else
	push 0
%endif
	push %1
	jmp exc_common
	align 16
%endmacro

align 16
global exc_stubs_start
exc_stubs_start:
%assign v 0
%rep 32
	EXC_STUB v
%assign v v+1
%endrep

extern trap_dispatch
exc_common:
	cld
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	mov rdi, rsp
	mov rbx, rsp		; callee-saved: survives the call
	and rsp, -16
	call trap_dispatch
	mov rsp, rbx
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16		; vector and error code
	iretq

; The wakeup IPI (VECTOR_WAKEUP): an idle AP halts in "sti; hlt" and this interrupt only
; ends the halt; the AP then looks at its work slot (kernel/platform/smp.c). The handler
; acknowledges the interrupt and returns. The CPU left RSP 16-byte aligned minus the 40-byte
; frame; nine pushes bring it back to a 16-byte boundary for the call.
; Clobbers: nothing (the caller-saved registers are saved around the call).
extern apic_eoi
global irq_wakeup_stub
irq_wakeup_stub:
	cld
	push rax
	push rcx
	push rdx
	push rsi
	push rdi
	push r8
	push r9
	push r10
	push r11
	call apic_eoi
	pop r11
	pop r10
	pop r9
	pop r8
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rax
	iretq

; The corrected machine-check interrupt (VECTOR_CMCI, the LVT CMCI entry): irq_cmci()
; (kernel/arch/traps.c) runs the handler mce/ registered, which acknowledges the APIC itself.
; It arrives on the interrupted stack, like the wakeup IPI, aligned as there.
; Clobbers: nothing (the caller-saved registers are saved around the call).
extern irq_cmci
global irq_cmci_stub
irq_cmci_stub:
	cld
	push rax
	push rcx
	push rdx
	push rsi
	push rdi
	push r8
	push r9
	push r10
	push r11
	call irq_cmci
	pop r11
	pop r10
	pop r9
	pop r8
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rax
	iretq

; The TLB-shootdown IPI (VECTOR_TLB): irq_tlb() (kernel/arch/traps.c) runs the handler
; kernel/platform/smp_tlb.c registered, which invalidates, acknowledges the request and the
; APIC. On the interrupted stack, aligned as the wakeup IPI's.
; Clobbers: nothing (the caller-saved registers are saved around the call).
extern irq_tlb
global irq_tlb_stub
irq_tlb_stub:
	cld
	push rax
	push rcx
	push rdx
	push rsi
	push rdi
	push r8
	push r9
	push r10
	push r11
	call irq_tlb
	pop r11
	pop r10
	pop r9
	pop r8
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rax
	iretq

; A spurious interrupt needs no EOI (SDM vol. 3, "Spurious Interrupt").
global irq_spurious_stub
irq_spurious_stub:
	iretq

; Table of stub addresses, filled at boot (position independent: no absolute relocations).
; exc_stub_stride is the distance between two stubs; kernel/arch/idt.c computes each address.
global exc_stub_stride
exc_stub_stride:
	dq exc_stub_1 - exc_stub_0

section .note.GNU-stack noalloc noexec nowrite progbits
