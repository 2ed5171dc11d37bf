/* SPDX-License-Identifier: MIT */
/*
 * boot/trampoline.S - how an application processor (AP) gets to 64-bit C.
 *
 * An AP starts in 16-bit real mode at the address given by the start-up IPI
 * (SIPI vector << 12), which must be below 1 MiB. The boot CPU copies this
 * code to TRAMPOLINE_BASE (0x8000) and fills in the variables at its end:
 * the boot page tables' physical address (which map the trampoline
 * identically and the kernel at its link address), the AP's stack and its
 * CPU number. The code below is linked in .rodata but runs at
 * TRAMPOLINE_BASE: every address in it is written T(label).
 *
 * Real mode -> protected mode (trampoline GDT) -> PAE, EFER.LME, paging ->
 * long mode -> jump to ap_start64 in the kernel proper, which switches to
 * the kernel's page tables and calls ap_main(cpu).
 */
#define TRAMPOLINE_BASE 0x8000
#define T(x) ((x) - trampoline_start + TRAMPOLINE_BASE)

	.section .rodata.trampoline, "a"
	.code16
	.global trampoline_start, trampoline_end
	.global trampoline_cr3, trampoline_stack, trampoline_cpu
trampoline_start:
	cli
	cld
	xorw %ax, %ax
	movw %ax, %ds
	lgdtl T(tramp_gdt_ptr)
	movl %cr0, %eax
	orl $1, %eax                    /* PE */
	movl %eax, %cr0
	ljmpl $0x08, $T(tramp_32)

	.code32
tramp_32:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl %cr4, %eax
	orl $0x20, %eax                 /* PAE */
	movl %eax, %cr4
	movl T(trampoline_cr3), %eax
	movl %eax, %cr3
	movl $0xC0000080, %ecx          /* EFER: LME | NXE */
	rdmsr
	orl $0x900, %eax
	wrmsr
	movl %cr0, %eax
	orl $0x80010000, %eax           /* PG | WP */
	movl %eax, %cr0
	ljmp $0x18, $T(tramp_64)

	.code64
tramp_64:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movq T(trampoline_stack), %rsp
	movq T(trampoline_cpu), %rdi
	movabsq $ap_start64, %rax
	jmp *%rax

	.align 16
tramp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff        /* 0x08: 32-bit code */
	.quad 0x00cf92000000ffff        /* 0x10: data */
	.quad 0x00af9a000000ffff        /* 0x18: 64-bit code */
tramp_gdt_end:
tramp_gdt_ptr:
	.short tramp_gdt_end - tramp_gdt - 1
	.long T(tramp_gdt)
	.align 8
trampoline_cr3:
	.quad 0
trampoline_stack:
	.quad 0
trampoline_cpu:
	.quad 0
trampoline_end:

	.text
	.global ap_start64
/* ap_start64 - first kernel code an AP runs: kernel page tables, then C. */
ap_start64:
	movq kernel_cr3(%rip), %rax
	movq %rax, %cr3
	xorl %ebp, %ebp
	call ap_main
1:	hlt
	jmp 1b
