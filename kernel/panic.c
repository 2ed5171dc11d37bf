// SPDX-License-Identifier: MIT
/*
 * kernel/panic.c - the end of the line: report a kernel bug and stop.
 */
#include "kernel/base/panic.h"

#include <stdarg.h>
#include <stdio.h>

#include "arch/x86_64/lapic.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/trap.h"
#include "kernel/base/platform.h"
#include "kernel/base/power.h"

static volatile int panicking;

bool panic_in_progress(void)
{
	return panicking != 0;
}

void panic_begin(void)
{
	__asm__ volatile("cli");
	/* A second CPU panicking at the same time waits here for ever; the
	 * first one's report is the one that matters. */
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST)) {
		for (;;)
			__asm__ volatile("hlt");
	}
	lapic_stop_other_cpus();
}

_Noreturn void panic_end(void)
{
	smp_report_stopped_cpus();
	machine_exit(1);
}

_Noreturn void panic(const char *fmt, ...)
{
	char message[512];
	va_list ap;
	uint64_t rbp;

	panic_begin();
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	printk("panic: %s (cpu %u)\n", message, smp_processor_id());
	__asm__ volatile("movq %%rbp, %0" : "=r"(rbp));
	print_backtrace((uint64_t)__builtin_return_address(0), rbp);
	panic_end();
}
