// SPDX-License-Identifier: MIT
/*
 * kernel/fs/proc.c - /proc/cpuinfo: one block per CPU that came up, in the
 * spirit of Linux's (processor, apicid, online ticks); and /proc/sched, the
 * scheduler's per-CPU counters (kernel/sched/sched.c prints them).
 */
#include "kernel/fs/proc.h"

#include <stdio.h>

#include "arch/x86_64/asm/cpu.h"
#include "arch/x86_64/lapic.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/base/platform.h"
#include "kernel/sched/sched.h"

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

static int sched_show(struct ctl_node *file, struct ctl_seq *seq)
{
	struct emitter out = ctl_seq_emitter(seq);

	sched_stats_print(&out);
	return 0;
}

static const struct ctl_ops cpuinfo_ops = {.read = cpuinfo_read};
static const struct ctl_ops sched_ops = {.show = sched_show};

void proc_init(void)
{
	struct ctl_node *proc;
	if (ctl_lookup(ctl_root(), "/proc", &proc) < 0)
		panic("proc_init: /proc is missing");
	if (!ctl_create_file(proc, "cpuinfo", &cpuinfo_ops, NULL) ||
	    !ctl_create_file(proc, "sched", &sched_ops, NULL))
		panic("proc_init: cannot create /proc/cpuinfo, /proc/sched");
}
