/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/switch.S - switching from one task to another.
 *
 * void context_switch(struct cpu_context *prev, struct cpu_context *next)
 *
 * Saves what the C calling convention says a callee must preserve - rbx,
 * rbp, r12-r15 - on prev's stack, and the FPU/SSE state (fxsave: x87,
 * MMX, XMM registers and MXCSR; newlib uses SSE) in prev->fxsave; stores
 * rsp in prev->rsp. Then loads next's rsp and FPU state and pops its
 * registers: the `ret` returns to wherever next called context_switch
 * itself - or, for a new task, to task_start (the stack fork built).
 * Called with interrupts off and the run queue locked (kernel/sched/sched.c).
 *
 * struct cpu_context (kernel/task/task.h): fxsave at offset 0, rsp at 512.
 */
#define CTX_RSP 512

	.text
	.global context_switch
context_switch:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	fxsave64 (%rdi)
	movq %rsp, CTX_RSP(%rdi)

	movq CTX_RSP(%rsi), %rsp
	fxrstor64 (%rsi)
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

/*
 * task_start - where a new task first runs: its stack, built by fork, has
 * six zeroed registers and this address on top. rbp is 0, so that a
 * backtrace stops here. task_entry (kernel/sched/fork.c) never returns.
 */
	.global task_start
task_start:
	xorl %ebp, %ebp
	call task_entry
	ud2
