/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/entry.S - the interrupt and exception entry stubs.
 *
 * Every vector has a tiny stub that makes the stack look the same - an
 * error code (the CPU pushes one for some exceptions; the stub pushes 0 for
 * the others) and the vector number - then jumps to trap_common, which
 * saves the general registers into a struct trap_frame (arch/x86_64/trap.h)
 * and calls trap_handler(frame). All code runs in ring 0, so there is no
 * stack switch and no swapgs: GS always holds this CPU's base.
 */
	.text

.macro TRAP_STUB vector
	.align 16
trap_stub_\vector:
	/* The CPU pushes an error code for these; the others get a 0. */
	.if (\vector == 8) || (\vector >= 10 && \vector <= 14) || \
	    (\vector == 17) || (\vector == 21) || (\vector == 29) || \
	    (\vector == 30)
	.else
	pushq $0
	.endif
	pushq $\vector
	jmp trap_common
.endm

	.altmacro
.macro TRAP_STUBS from, to
	TRAP_STUB \from
	.if \to-\from
	TRAP_STUBS %(\from+1), \to
	.endif
.endm

	TRAP_STUBS 0, 63
	TRAP_STUBS 64, 127
	TRAP_STUBS 128, 191
	TRAP_STUBS 192, 255

trap_common:
	pushq %rax
	pushq %rbx
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %rbp
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	cld
	movq %rsp, %rdi
	call trap_handler
	.global trap_return
trap_return:
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rbp
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rbx
	popq %rax
	addq $16, %rsp
	iretq

/* trap_stubs: the address of each vector's stub, for the IDT. */
.macro STUB_ADDR vector
	.quad trap_stub_\vector
.endm
.macro STUB_ADDRS from, to
	STUB_ADDR \from
	.if \to-\from
	STUB_ADDRS %(\from+1), \to
	.endif
.endm
	.section .rodata
	.align 8
	.global trap_stubs
trap_stubs:
	STUB_ADDRS 0, 63
	STUB_ADDRS 64, 127
	STUB_ADDRS 128, 191
	STUB_ADDRS 192, 255
