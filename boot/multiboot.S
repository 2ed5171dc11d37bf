/* SPDX-License-Identifier: MIT */
/*
 * boot/multiboot.S - the first code that runs: multiboot headers and the
 * 32-bit entry that turns on long mode and jumps to the higher-half kernel.
 *
 * Both multiboot1 (QEMU -kernel, GRUB's "multiboot") and multiboot2 (GRUB's
 * "multiboot2", used by the ISO for BIOS and UEFI) headers are here. Either
 * loader enters _start in 32-bit protected mode with paging off, EAX holding
 * its magic and EBX the physical address of its information structure.
 *
 * _start builds the boot page tables: the first GiB of RAM mapped three
 * times with 2 MiB pages - at 0 (identity, so the instruction after "enable
 * paging" is still mapped), at the direct map 0xffff800000000000, and at
 * the kernel's link address 0xffffffff80000000 - then enables PAE, long mode
 * and paging, and jumps to boot_high_entry in the kernel proper. The real
 * page tables, with read-only text and NX data, are built in C
 * (arch/x86_64/paging.c). Application processors reuse the boot tables on
 * their way up (boot/trampoline.S).
 */
#define KERNEL_VMA 0xffffffff80000000

#define MB1_MAGIC 0x1BADB002
/* page-align modules | memory map | a.out kludge (load addresses below) */
#define MB1_FLAGS 0x00010003
#define MB2_MAGIC 0xE85250D6

	.section .multiboot, "a"
	.align 4
mb1_header:
	.long MB1_MAGIC
	.long MB1_FLAGS
	.long -(MB1_MAGIC + MB1_FLAGS)
	.long mb1_header        /* header_addr */
	.long mb1_header        /* load_addr: the file is loaded from here */
	.long _load_end_phys    /* load_end_addr: end of .data */
	.long _bss_end_phys     /* bss_end_addr: zeroed by the loader */
	.long _start            /* entry_addr */

	.align 8
mb2_header:
	.long MB2_MAGIC
	.long 0                           /* architecture: i386 */
	.long mb2_header_end - mb2_header
	.long -(MB2_MAGIC + (mb2_header_end - mb2_header))
	/* entry address tag: the ELF entry is fine too, but be explicit */
	.align 8
	.short 3, 0
	.long 12
	.long _start
	/* framebuffer tag (optional): any mode. GRUB keeps VGA text under BIOS
	 * when grub.cfg says "set gfxpayload=text", and passes the UEFI GOP
	 * framebuffer under UEFI (drivers/video/fb.c draws on it). */
	.align 8
	.short 5, 1
	.long 20
	.long 0, 0, 0                     /* width, height, depth: no preference */
	/* end tag */
	.align 8
	.short 0, 0
	.long 8
mb2_header_end:

	.section .boot.text, "ax"
	.code32
	.global _start
_start:
	cli
	cld
	movl %eax, %edi                 /* multiboot magic */
	movl %ebx, %esi                 /* multiboot information (physical) */

	/* boot_pd: 512 entries of 2 MiB, present | writable | huge */
	movl $boot_pd, %ebx
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $0x83, %eax
	movl %eax, (%ebx,%ecx,8)
	movl $0, 4(%ebx,%ecx,8)
	incl %ecx
	cmpl $512, %ecx
	jne 1b

	movl $boot_pd + 3, %eax
	movl %eax, boot_pdpt_low          /* 0 .. 1 GiB */
	movl %eax, boot_pdpt_high + 510*8 /* 0xffffffff80000000 .. +1 GiB */
	movl $boot_pdpt_low + 3, %eax
	movl %eax, boot_pml4              /* identity */
	movl %eax, boot_pml4 + 256*8      /* direct map 0xffff800000000000 */
	movl $boot_pdpt_high + 3, %eax
	movl %eax, boot_pml4 + 511*8      /* kernel image */

	movl $boot_pml4, %eax
	movl %eax, %cr3
	movl %cr4, %eax
	orl $0x20, %eax                 /* PAE */
	movl %eax, %cr4
	movl $0xC0000080, %ecx          /* EFER */
	rdmsr
	orl $0x900, %eax                /* LME | NXE */
	wrmsr
	movl %cr0, %eax
	orl $0x80010001, %eax           /* PG | WP | PE */
	movl %eax, %cr0

	lgdt boot_gdt_ptr
	ljmp $0x08, $boot_long_mode

	.code64
boot_long_mode:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movabsq $boot_high_entry, %rax
	jmp *%rax

	.section .boot.data, "aw"
	.align 4096
	.global boot_pml4
boot_pml4:
	.fill 512, 8, 0
boot_pdpt_low:
	.fill 512, 8, 0
boot_pdpt_high:
	.fill 512, 8, 0
boot_pd:
	.fill 512, 8, 0

	.align 16
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff        /* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff        /* 0x10: data */
boot_gdt_end:
boot_gdt_ptr:
	.short boot_gdt_end - boot_gdt - 1
	.long boot_gdt

	.text
	.code64
	.global boot_high_entry
boot_high_entry:
	movabsq $boot_stack_top, %rsp
	xorl %ebp, %ebp
	movl %edi, %edi                 /* zero-extend magic and info */
	movl %esi, %esi
	call kmain
2:	hlt
	jmp 2b

	.bss
	.align 16
boot_stack:
	.skip 16384
boot_stack_top:
