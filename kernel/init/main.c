// SPDX-License-Identifier: MIT
/*
 * kernel/init/main.c - kmain: from the boot loader's hand-off to the shell.
 *
 * The order matters: this CPU's data (GS) first, so that locks work; the
 * console; exceptions; what the loader said (memory, command line); page
 * tables; the page allocator; ACPI and the interrupt controllers; the
 * other CPUs. Only then is the banner printed - the first line the kernel
 * prints - and the shell started.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "arch/x86_64/acpi.h"
#include "arch/x86_64/boot_info.h"
#include "arch/x86_64/asm/cpu.h"
#include "drivers/video/fb.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/asm/jump_label.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/paging.h"
#include "drivers/serial/serial.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/trap.h"
#include "drivers/video/vga.h"
#include "kernel/init/boot_tasks.h"
#include "kernel/base/initcall.h"
#include "kernel/lib/cmdline.h"
#include "kernel/base/platform.h"
#include "kernel/sched/sched.h"
#include "mm/init.h"
#include "mm/memcg_hooks.h"

extern int vga_enabled;

static unsigned int smp_limit(void)
{
	char value[16];
	unsigned int limit = NR_CPUS;
	if (cmdline_value("smp", value, sizeof(value))) {
		long n = strtol(value, NULL, 10);
		if (n >= 1 && n <= NR_CPUS)
			limit = (unsigned int)n;
	}
	return limit;
}

_Noreturn void kmain(uint32_t magic, uint64_t info_phys)
{
	pic_disable();
	cpu_init_this(0);
	serial_init();
	trap_init();
	trap_load();
	fpu_enable();

	multiboot_parse(magic, info_phys);
	cmdline_set(boot_info.cmdline);
	/* Under UEFI (or a graphics mode) there is no VGA text screen. */
	if (boot_info.fb.addr && boot_info.fb.type != 2)
		vga_enabled = 0;
	vga_init();

	paging_init(boot_info.ram_top);
	jump_label_init();  /* static keys: before anything takes one */
	fb_init(&boot_info.fb);
	acpi_init();  /* before mm_init: the SRAT's NUMA nodes */
	mm_init(boot_info.ram, boot_info.nr_ram, boot_info.reserved,
		boot_info.nr_reserved);

	lapic_init_this();
	lapic_calibrate();
	ioapic_init();
	lapic_timer_start();
	smp_boot(smp_limit(), cpu_idle_loop);
	acpi_numa_map_cpus();
	fb_enable_write_combining();

	/* RAM as the user asked for it with -m: the usable ranges plus the
	 * legacy hole between 640 KiB and 1 MiB. */
	uint64_t mem_mib =
		(boot_info.ram_bytes + (384 << 10) + (1 << 20) - 1) >> 20;
	printk("tally %s cpus=%u mem=%luMiB\n", TALLY_VERSION, nr_cpus,
	       (unsigned long)mem_mib);
	slab_accounting_report();  /* read by mm_init, told after the banner */
	cgroup_mode_report();

	initcalls_run(bus);     /* PCI */
	/* the serial line's and keyboards' interrupts */
	initcalls_run(device);
	local_irq_enable();
	start_kernel_services();
	for (;;)
		__asm__ volatile("hlt");
}
