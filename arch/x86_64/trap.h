/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/trap.h - interrupts and exceptions: the saved frame, the
 * vectors tally uses, and how a driver claims an interrupt.
 */
#ifndef ARCH_X86_64_TRAP_H
#define ARCH_X86_64_TRAP_H

#include <stdint.h>

struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;  /* pushed by the CPU */
};

#define VECTOR_BREAKPOINT   3
#define VECTOR_PAGE_FAULT   14
#define VECTOR_TIMER        32
#define VECTOR_SERIAL       36   /* IRQ 4 */
#define VECTOR_KEYBOARD     33   /* IRQ 1 */
#define VECTOR_PIC_BASE     0x70 /* the masked 8259s: spurious only */
#define VECTOR_KTEST        0xe0 /* in-kernel tests (ktest_static_key.c) */
#define VECTOR_CALL_FUNC    0xf0 /* smp_call_function_all */
#define VECTOR_RESCHEDULE   0xf1
#define VECTOR_SPURIOUS     0xff

typedef void (*trap_handler_t)(struct trap_frame *frame);

/* trap_init - build the IDT (boot CPU); trap_load - load it (every CPU). */
void trap_init(void);
void trap_load(void);

/* trap_register - route vector to handler (interrupts: called with the
 * interrupt counted in in_interrupt(); the LAPIC EOI is sent after). */
void trap_register(unsigned int vector, trap_handler_t handler);

/*
 * trap_breakpoint_hook - if set, #BP (int3) is offered to it first; it
 * returns 1 if it handled the trap (text patching uses this to move a CPU
 * that hit a site being patched past it).
 */
extern int (*trap_breakpoint_hook)(struct trap_frame *frame);

/* irq_exit_hook - called on the way out of an interrupt that did not nest,
 * with interrupts disabled: the scheduler preempts from here. */
extern void (*irq_exit_hook)(struct trap_frame *frame);

/* print_backtrace - walk the frame-pointer chain from rbp. */
void print_backtrace(uint64_t rip, uint64_t rbp);

#endif
