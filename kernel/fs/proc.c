// SPDX-License-Identifier: MIT
/*
 * kernel/fs/proc.c - /proc/cpuinfo: one block per CPU that came up, in the
 * spirit of Linux's (processor, apicid, online ticks).
 */
#include "kernel/fs/proc.h"

#include <stdio.h>

#include "arch/x86_64/cpu.h"
#include "arch/x86_64/apic/lapic.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/platform.h"

static int cpuinfo_read(struct ctl_node *file, char *buf, size_t size)
{
	size_t len = 0;
	for (unsigned int i = 0; i < nr_cpus && len < size; i++) {
		len += snprintf(buf + len, size - len,
				"processor\t: %u\napicid\t\t: %u\n"
				"cpu MHz\t\t: %lu\nticks\t\t: %lu\n\n",
				i, cpus[i].apic_id,
				(unsigned long)(tsc_khz / 1000),
				(unsigned long)cpus[i].ticks);
	}
	if (len >= size)
		len = size - 1;
	return (int)len;
}

static const struct ctl_ops cpuinfo_ops = {.read = cpuinfo_read};

void proc_init(void)
{
	struct ctl_node *proc;
	if (ctl_lookup(ctl_root(), "/proc", &proc) < 0)
		panic("proc_init: /proc is missing");
	ctl_create_file(proc, "cpuinfo", &cpuinfo_ops, NULL);
}
