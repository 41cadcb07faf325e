; SPDX-License-Identifier: GPL-2.0-only
;
; trampoline.asm - where an application processor starts: real mode at the page a STARTUP
; IPI names, through 32-bit protected mode into long mode on the kernel's page tables, then
; a jump to smp_ap_entry(struct percpu *) on the CPU's own stack.
;
; This is a blob, not code that runs where it is linked: kernel/platform/smpboot.c copies
; [smp_tramp_start, smp_tramp_end) to a free 4 KiB page below 1 MiB (the SIPI vector is its
; page number), fills the parameter block at smp_tramp_params (struct tramp_params,
; kernel/arch/trampoline.h; its offsets come from kernel/arch/asm-offsets.c) and keeps the
; page out of every allocator. Everything inside addresses itself relative to its own base:
; in real mode through CS, later through EBX/R12, which hold the base (CS * 16). The three
; addresses the CPU needs absolute (the GDT pointer, the two far jumps) each AP computes
; from the base and writes into the blob itself: every AP writes the same values, so APs
; that run here at the same time agree.
;
; Why two page tables: 32-bit code can load only a 32-bit CR3, and the kernel's PML4 may sit
; above 4 GiB. The BSP puts a copy of the kernel's PML4 below 1 MiB (TP_PML4_LOW); the AP
; enables paging on the copy, and once in 64-bit mode loads the real CR3. The copy's entries
; point at the same lower-level tables, so both map the same.
;
; Which CPU am I: several APs may run here at once (a late one while the next is started),
; so nothing per-CPU is passed in the blob. Each AP reads its APIC id with CPUID (leaf 0Bh
; when TP_LEAF_B is set, else leaf 1) and looks it up in the table at TP_SLOTS (struct
; tramp_slot). The AP claims its entry with lock bts; an id not in the table, an entry
; already claimed (two CPUs reading the same id) or without a stack halts: the CPU then
; shows as not answering, nothing is shared. With TP_LEAF_B set an AP whose CPUID stops
; below leaf 0Bh halts too (its 8-bit id could name another CPU's entry).
;
; Inputs: the parameter block. Clobbers: everything; never returns.

default abs

%include "kernel/include/asm-consts.inc"
%include "kernel/arch/asm-offsets.inc"

%define TR(x)	((x) - smp_tramp_start)
%define TP(f)	(TR(smp_tramp_params) + (f))

; Selectors of the trampoline's own GDT (tramp_gdt below).
%define TRAMP_CS32	0x08
%define TRAMP_DS	0x10
%define TRAMP_CS64	0x18

section .rodata
align 16
global smp_tramp_start, smp_tramp_params, smp_tramp_end

bits 16
smp_tramp_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	mov es, ax
	mov ss, ax
	movzx ebx, ax
	shl ebx, 4			; ebx = the trampoline's physical base
	lea eax, [ebx + TR(tramp_gdt)]
	mov [TR(tramp_gdtr) + 2], eax
	lea eax, [ebx + TR(tramp_pm32)]
	mov [TR(tramp_jmp32)], eax
	lea eax, [ebx + TR(tramp_lm64)]
	mov [TR(tramp_jmp64)], eax
	o32 lgdt [TR(tramp_gdtr)]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	o32 jmp far [TR(tramp_jmp32)]

bits 32
tramp_pm32:
	mov ax, TRAMP_DS
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [ebx + TP(TP_PML4_LOW)]
	mov cr3, eax
	mov ecx, MSR_EFER		; LME and NXE as the BSP has them
	mov eax, [ebx + TP(TP_EFER)]
	xor edx, edx
	wrmsr
	mov eax, [ebx + TP(TP_CR0)]	; PG, PE, WP, ... as the BSP has them
	mov cr0, eax
	jmp far [ebx + TR(tramp_jmp64)]

bits 64
tramp_lm64:
	mov r12d, ebx			; zero-extends: r12 = base
	mov rax, [r12 + TP(TP_CR3)]
	mov cr3, rax
	cmp dword [r12 + TP(TP_LEAF_B)], 0
	je .leaf1
	xor eax, eax
	cpuid
	cmp eax, CPUID_LEAF_EXT_TOPOLOGY
	jb .unknown
	mov eax, CPUID_LEAF_EXT_TOPOLOGY
	xor ecx, ecx
	cpuid
	mov esi, edx			; x2APIC id
	jmp .lookup
.leaf1:
	mov eax, CPUID_LEAF_SIGNATURE
	cpuid
	shr ebx, 24
	mov esi, ebx			; initial APIC id
.lookup:
	mov rdi, [r12 + TP(TP_SLOTS)]
	mov ecx, [r12 + TP(TP_NR_SLOTS)]
.next:
	test ecx, ecx
	jz .unknown
	cmp [rdi + TS_APIC_ID], esi
	je .found
	add rdi, TS_SIZE
	dec ecx
	jmp .next
.unknown:
	cli
	hlt
	jmp .unknown
.found:
	lock bts dword [rdi + TS_CLAIMED], 0
	jc .unknown
	cmp qword [rdi + TS_STACK_TOP], 0
	je .unknown
	mov rsp, [rdi + TS_STACK_TOP]
	mov rdi, [rdi + TS_PERCPU]
	mov rax, [r12 + TP(TP_ENTRY)]
	push 0				; as if called: RSP + 8 is 16-byte aligned at entry
	jmp rax

align 16
tramp_gdt:
	dq 0
	dq DESC_CODE32			; TRAMP_CS32: 32-bit code
	dq DESC_DATA			; TRAMP_DS: data
	dq DESC_CODE64			; TRAMP_CS64: 64-bit code
tramp_gdtr:
	dw 4 * 8 - 1
	dd 0				; base + TR(tramp_gdt), written by each AP
align 8
tramp_jmp32:
	dd 0				; base + TR(tramp_pm32), written by each AP
	dw TRAMP_CS32
align 8
tramp_jmp64:
	dd 0				; base + TR(tramp_lm64), written by each AP
	dw TRAMP_CS64

; struct tramp_params, filled by the BSP in the copy.
align 8
smp_tramp_params:
	times TP_SIZE db 0
smp_tramp_end:

section .note.GNU-stack noalloc noexec nowrite progbits
