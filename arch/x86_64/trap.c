// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/trap.c - the interrupt descriptor table, exception reports and
 * interrupt dispatch.
 *
 * An exception in the kernel is a kernel bug: it is reported with the
 * vector, error code, RIP, CR2 (the faulting address of a page fault), the
 * registers and a backtrace, then the kernel panics (QEMU exits with
 * status 3). Interrupts (vectors 32 and up) go to the handler a driver
 * registered and are acknowledged at the local APIC.
 */
#include "arch/x86_64/trap.h"

#include "arch/x86_64/io.h"
#include "arch/x86_64/lapic.h"
#include "kernel/base/panic.h"
#include "kernel/base/platform.h"

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __attribute__((packed));

static struct idt_gate idt[256] __attribute__((aligned(16)));
static trap_handler_t handlers[256];
extern const uint64_t trap_stubs[256];

int (*trap_breakpoint_hook)(struct trap_frame *frame);
void (*irq_exit_hook)(struct trap_frame *frame);

static const char *const exception_names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint",
	"#OF overflow", "#BR bound range", "#UD invalid opcode",
	"#NM device not available", "#DF double fault", "coprocessor overrun",
	"#TS invalid TSS", "#NP segment not present", "#SS stack fault",
	"#GP general protection", "#PF page fault", "reserved",
	"#MF x87 error", "#AC alignment check", "#MC machine check",
	"#XM SIMD error", "#VE virtualization", "#CP control protection",
};

void trap_init(void)
{
	for (int v = 0; v < 256; v++) {
		uint64_t addr = trap_stubs[v];
		idt[v].offset_low = addr & 0xffff;
		idt[v].selector = 0x08;
		/* double fault and NMI run on their own stack (TSS IST1) */
		idt[v].ist = (v == 8 || v == 2) ? 1 : 0;
		idt[v].type_attr = 0x8e;  /* present, ring 0, interrupt gate */
		idt[v].offset_mid = (addr >> 16) & 0xffff;
		idt[v].offset_high = addr >> 32;
		idt[v].reserved = 0;
	}
}

void trap_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) idtr = {sizeof(idt) - 1, (uint64_t)idt};
	__asm__ volatile("lidt %0" ::"m"(idtr));
}

void trap_register(unsigned int vector, trap_handler_t handler)
{
	handlers[vector] = handler;
}

void print_backtrace(uint64_t rip, uint64_t rbp)
{
	printk("backtrace:\n  %016lx\n", (unsigned long)rip);
	/* Frame pointers link the frames: [rbp] = caller's rbp, [rbp+8] =
	 * return address. Stop at anything that is not a kernel address. */
	for (int depth = 0; depth < 16; depth++) {
		if (rbp < 0xffff800000000000ull || (rbp & 7))
			break;
		uint64_t *frame = (uint64_t *)rbp;
		uint64_t ret = frame[1];
		if (ret < KERNEL_VMA)
			break;
		printk("  %016lx\n", (unsigned long)ret);
		rbp = frame[0];
	}
}

static _Noreturn void report_exception(struct trap_frame *f)
{
	const char *name = f->vector < 32 && exception_names[f->vector]
				   ? exception_names[f->vector]
				   : "exception";
	panic_begin();
	printk("panic: exception %lu (%s) on cpu %u: error=%#lx rip=%#lx "
	       "cr2=%#lx\n",
	       (unsigned long)f->vector, name, smp_processor_id(),
	       (unsigned long)f->error_code, (unsigned long)f->rip,
	       (unsigned long)read_cr2());
	printk("rax=%016lx rbx=%016lx rcx=%016lx rdx=%016lx\n"
	       "rsi=%016lx rdi=%016lx rbp=%016lx rsp=%016lx\n"
	       "r8 =%016lx r9 =%016lx r10=%016lx r11=%016lx\n"
	       "r12=%016lx r13=%016lx r14=%016lx r15=%016lx\n"
	       "rflags=%08lx cs=%lx\n",
	       f->rax, f->rbx, f->rcx, f->rdx, f->rsi, f->rdi, f->rbp, f->rsp,
	       f->r8, f->r9, f->r10, f->r11, f->r12, f->r13, f->r14, f->r15,
	       f->rflags, f->cs);
	print_backtrace(f->rip, f->rbp);
	panic_end();
}

/* trap_handler - called by trap_common (entry.S) for every vector. */
void trap_handler(struct trap_frame *frame)
{
	unsigned int vector = frame->vector;

	if (vector == VECTOR_BREAKPOINT && trap_breakpoint_hook &&
	    trap_breakpoint_hook(frame))
		return;
	if (vector < 32) {
		if (handlers[vector]) {
			handlers[vector](frame);
			return;
		}
		report_exception(frame);
	}
	if (vector >= VECTOR_PIC_BASE && vector < VECTOR_PIC_BASE + 16)
		return;  /* spurious interrupt from a masked 8259 */
	if (vector == VECTOR_SPURIOUS)
		return;  /* APIC spurious: no EOI */

	struct cpu *cpu = this_cpu();
	cpu->irq_depth++;
	if (handlers[vector])
		handlers[vector](frame);
	lapic_eoi();
	cpu->irq_depth--;
	if (cpu->irq_depth == 0 && irq_exit_hook)
		irq_exit_hook(frame);
}
