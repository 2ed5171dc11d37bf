/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/asm/tracepoint.h - the x86-64 half of a tracepoint
 * (kernel/base/tracepoint.h): the call a site makes when its event is on,
 * the register-saving thunk it calls, and the clock that stamps entries.
 *
 * The call is not a C call but `call __fn_thunk` from inline assembly,
 * after pushing the arguments on the stack, last first. The thunk saves
 * every register a C function may change, loads the arguments into the
 * registers of the C calling convention (rdi, rsi, rdx, rcx, r8), aligns
 * the stack, calls __fn and restores them. So, for the compiler, the site
 * changes no register and asks for no value in any particular one: each
 * argument is pushed from wherever the compiler already keeps it (any
 * register, or a constant). A function with a tracepoint thus needs no
 * stack frame, no saved register and no register move it did not need
 * before, and the site costs what it should while the event is off - the
 * 5-byte NOP and nothing else. Linux reaches the same end with its static
 * calls and the thunks of arch/x86/entry/thunk_64.S.
 */
#ifndef ARCH_X86_64_ASM_TRACEPOINT_H
#define ARCH_X86_64_ASM_TRACEPOINT_H

#include <stdint.h>

/* An argument: in any register, or a constant that fits a push. Every
 * call pushes five, 0 for those a site does not have, so that the thunk
 * always finds its five slots on the stack. */
#define __TR_ARG(v) "re"((uintptr_t)(v))
#define __TR_CALL5(thunk, a, b, c, d, e)                                  \
	__asm__ volatile("push %4\n\tpush %3\n\tpush %2\n\t"              \
			 "push %1\n\tpush %0\n\t"                         \
			 "call " thunk "\n\t"                             \
			 "lea 40(%%rsp), %%rsp"                           \
			 : : __TR_ARG(a), __TR_ARG(b), __TR_ARG(c),       \
			   __TR_ARG(d), __TR_ARG(e)                       \
			 : "memory", "cc")
#define __TR_CALL1(t, a) __TR_CALL5(t, a, 0, 0, 0, 0)
#define __TR_CALL2(t, a, b) __TR_CALL5(t, a, b, 0, 0, 0)
#define __TR_CALL3(t, a, b, c) __TR_CALL5(t, a, b, c, 0, 0)
#define __TR_CALL4(t, a, b, c, d) __TR_CALL5(t, a, b, c, d, 0)
#define __TR_NARGS(...) __TR_NARGS_(__VA_ARGS__, 5, 4, 3, 2, 1, 0)
#define __TR_NARGS_(a, b, c, d, e, n, ...) n
#define __TR_CAT(a, b) a##b
#define __TR_CALLN(n) __TR_CAT(__TR_CALL, n)

/* arch_tracepoint_call(thunk, args...) - call the thunk named by the
 * string thunk with up to five integer or pointer arguments. */
#define arch_tracepoint_call(thunk, ...) \
	__TR_CALLN(__TR_NARGS(__VA_ARGS__))(thunk, __VA_ARGS__)

/*
 * TRACE_THUNK(fn) - define fn_thunk, the function the sites of fn call:
 * save the registers a C function may change (rax, rcx, rdx, rsi, rdi,
 * r8-r11), load the five argument slots above the return address into
 * rdi..r8, align the stack to 16 bytes as the C calling convention
 * wants, call fn, restore. rbp keeps the frame chain for backtraces.
 * Written beside the recorder fn, at file scope.
 */
#define TRACE_THUNK(fn)                                                   \
	__asm__(".pushsection .text\n"                                    \
		".globl " #fn "_thunk\n"                                  \
		".type " #fn "_thunk, @function\n"                        \
		#fn "_thunk:\n"                                           \
		"\tpush %rbp\n\tmov %rsp, %rbp\n"                         \
		"\tpush %rax\n\tpush %rcx\n\tpush %rdx\n\tpush %rsi\n"     \
		"\tpush %rdi\n\tpush %r8\n\tpush %r9\n\tpush %r10\n"       \
		"\tpush %r11\n"                                           \
		"\tmov 16(%rbp), %rdi\n\tmov 24(%rbp), %rsi\n"            \
		"\tmov 32(%rbp), %rdx\n\tmov 40(%rbp), %rcx\n"            \
		"\tmov 48(%rbp), %r8\n"                                   \
		"\tand $-16, %rsp\n"                                      \
		"\tcall " #fn "\n"                                        \
		"\tlea -72(%rbp), %rsp\n"                                 \
		"\tpop %r11\n\tpop %r10\n\tpop %r9\n\tpop %r8\n"           \
		"\tpop %rdi\n\tpop %rsi\n\tpop %rdx\n\tpop %rcx\n"         \
		"\tpop %rax\n\tpop %rbp\n\tret\n"                           \
		".size " #fn "_thunk, . - " #fn "_thunk\n"                \
		".popsection\n")

/* arch_trace_clock - the time an entry is stamped with: the TSC, which
 * agrees between the CPUs tally runs on (an invariant TSC), so the
 * entries of different CPUs merge by it. */
static inline uint64_t arch_trace_clock(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

#endif
