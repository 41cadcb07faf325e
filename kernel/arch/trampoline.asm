; SPDX-License-Identifier: GPL-2.0-only
;
; trampoline.asm - where an application processor starts: real mode at the page a STARTUP
; IPI names, through 32-bit protected mode into long mode on the kernel's page tables, then
; a jump to smp_ap_entry(struct percpu *) on the CPU's own stack.
;
; This is a blob, not code that runs where it is linked: kernel/platform/smpboot.c copies
; [smp_tramp_start, smp_tramp_end) to a free 4 KiB page below 1 MiB (the SIPI vector is its
; page number), fills the TR_* fields below through their offsets, and keeps the page out
; of every allocator. Everything inside addresses itself relative to its own base: in real
; mode through CS, later through EBX/R12, which hold the base (CS * 16).
;
; Why two page tables: 32-bit code can load only a 32-bit CR3, and the kernel's PML4 may sit
; above 4 GiB. The BSP puts a copy of the kernel's PML4 in the page after the trampoline
; (below 1 MiB); the AP enables paging on the copy, and once in 64-bit mode loads the real
; CR3. The copy's entries point at the same lower-level tables, so both map the same.
;
; Which CPU am I: several APs may run here at once (a late one while the next is started),
; so nothing per-CPU is passed in the blob. Each AP reads its APIC id with CPUID (leaf 0Bh
; when TR_LEAF_B is set, else leaf 1) and looks it up in the table at TR_TABLE: entries of
; { u32 apic_id; u32 claimed; u64 stack_top; u64 percpu; }. The AP claims its entry with
; lock bts; an id not in the table, an entry already claimed (two CPUs reading the same id) or
; without a stack halts: the CPU then shows as not answering, nothing is shared. With
; TR_LEAF_B set an AP whose CPUID stops below leaf 0Bh halts too (its 8-bit id could name
; another CPU's entry).
;
; Inputs (filled by the BSP): see the TR_* offsets. Clobbers: everything; never returns.

default abs

%define TR(x)	((x) - smp_tramp_start)

section .rodata
align 16
global smp_tramp_start, smp_tramp_end
global smp_tramp_gdtr, smp_tramp_jmp32, smp_tramp_jmp64, smp_tramp_cr3_low, smp_tramp_efer
global smp_tramp_cr0, smp_tramp_cr3, smp_tramp_table, smp_tramp_count, smp_tramp_leaf_b
global smp_tramp_entry, smp_tramp_pm32, smp_tramp_lm64, smp_tramp_gdt

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
	o32 lgdt [TR(smp_tramp_gdtr)]
	mov eax, cr0
	or eax, 1			; PE
	mov cr0, eax
	o32 jmp far [TR(smp_tramp_jmp32)]

bits 32
smp_tramp_pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, [ebx + TR(smp_tramp_cr3_low)]
	mov cr3, eax
	mov ecx, 0xc0000080		; EFER: LME and NXE as the BSP has them
	mov eax, [ebx + TR(smp_tramp_efer)]
	xor edx, edx
	wrmsr
	mov eax, [ebx + TR(smp_tramp_cr0)]	; PG, PE, WP, ... as the BSP has them
	mov cr0, eax
	jmp far [ebx + TR(smp_tramp_jmp64)]

bits 64
smp_tramp_lm64:
	mov r12d, ebx			; zero-extends: r12 = base
	mov rax, [r12 + TR(smp_tramp_cr3)]
	mov cr3, rax
	cmp dword [r12 + TR(smp_tramp_leaf_b)], 0
	je .leaf1
	xor eax, eax
	cpuid
	cmp eax, 0xb
	jb .unknown
	mov eax, 0xb
	xor ecx, ecx
	cpuid
	mov esi, edx			; x2APIC id
	jmp .lookup
.leaf1:
	mov eax, 1
	cpuid
	shr ebx, 24
	mov esi, ebx			; initial APIC id
.lookup:
	mov rdi, [r12 + TR(smp_tramp_table)]
	mov ecx, [r12 + TR(smp_tramp_count)]
.next:
	test ecx, ecx
	jz .unknown
	cmp [rdi], esi
	je .found
	add rdi, 24
	dec ecx
	jmp .next
.unknown:
	cli
	hlt
	jmp .unknown
.found:
	lock bts dword [rdi + 4], 0
	jc .unknown
	cmp qword [rdi + 8], 0
	je .unknown
	mov rsp, [rdi + 8]
	mov rdi, [rdi + 16]
	mov rax, [r12 + TR(smp_tramp_entry)]
	push 0				; as if called: RSP + 8 is 16-byte aligned at entry
	jmp rax

align 16
smp_tramp_gdt:
	dq 0
	dq 0x00cf9a000000ffff		; 0x08: 32-bit code
	dq 0x00cf92000000ffff		; 0x10: data
	dq 0x00af9a000000ffff		; 0x18: 64-bit code
smp_tramp_gdtr:
	dw 4 * 8 - 1
	dd 0				; base + TR(smp_tramp_gdt)
align 8
smp_tramp_jmp32:
	dd 0				; base + TR(smp_tramp_pm32)
	dw 0x08
align 8
smp_tramp_jmp64:
	dd 0				; base + TR(smp_tramp_lm64)
	dw 0x18
align 8
smp_tramp_cr3_low:	dd 0
smp_tramp_efer:		dd 0
smp_tramp_cr0:		dd 0
smp_tramp_leaf_b:	dd 0
smp_tramp_count:	dd 0
align 8
smp_tramp_cr3:		dq 0
smp_tramp_table:	dq 0
smp_tramp_entry:	dq 0
smp_tramp_end:

section .note.GNU-stack noalloc noexec nowrite progbits
