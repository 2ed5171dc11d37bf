// SPDX-License-Identifier: MIT
/*
 * kernel/shell/script.c - the built-in boot scripts, and scripts from multiboot
 * modules.
 *
 * A script is what a user would type: running it prints each line after
 * a prompt and executes it, so a transcript of a boot script reads like a
 * session at the keyboard. `script=demo` on the kernel command line runs
 * the fork-bomb demonstration (README.md, "What you see").
 */
#include "kernel/shell/script.h"

#include <stdlib.h>
#include <string.h>

#include "arch/x86_64/boot_info.h"
#include "kernel/lib/cmdline.h"
#include "kernel/base/platform.h"
#include "kernel/shell/shell.h"
#include "mm/slab.h"

/* The fork-bomb demonstration: a bomb under an 8M kmem limit next
 * to a worker; `demo` (kernel/programs/demo.c) prints the status lines and
 * checks the recovery. While the bomb is at its limit, a fork in another domain
 * still works (`run ... worker 1`: one unit of work, then it exits). */
static const char *const demo_lines[] = {
	"mkdir /cgroup/good",
	"mkdir /cgroup/bomb",
	"echo 8M > /cgroup/bomb/memory.kmem.limit_in_bytes",
	"echo 256M > /cgroup/bomb/memory.limit_in_bytes",
	"demo start /cgroup/good",
	"run /cgroup/bomb forkbomb",
	"demo watch /cgroup/bomb 5",
	"run /cgroup/good worker 1",
	"demo stop /cgroup/bomb",
	"cat /cgroup/cgroup.stat",
	"check",
	NULL,
};

/* The same bomb with no kmem limit: what the controller prevents. The
 * bomb takes all the memory, so a fork anywhere fails (`run` in good:
 * ENOMEM), and only killing the bomb gives it back. */
static const char *const demo_unlimited_lines[] = {
	"mkdir /cgroup/good",
	"mkdir /cgroup/bomb",
	"demo start /cgroup/good",
	"run /cgroup/bomb forkbomb",
	"demo watch /cgroup/bomb 5",
	"run /cgroup/good worker 1",
	"demo stop /cgroup/bomb",
	"cat /cgroup/cgroup.stat",
	"check",
	NULL,
};

/* Watching the charge path (docs/tracing.md): every
 * event on (kernel/trace/), then one fork into a domain with a 32K kmem
 * limit - a 16K stack and the task's slab page fit - and its trace; then a
 * second fork, which the kmem counter refuses, and its trace. */
#define TRACING "/sys/kernel/tracing"
static const char *const trace_fork_lines[] = {
	"cat " TRACING "/available_events",
	"echo *:* > " TRACING "/set_event",
	"mkdir /cgroup/traced",
	"echo 32K > /cgroup/traced/memory.kmem.limit_in_bytes",
	"run /cgroup/traced spin",
	"echo 0 > " TRACING "/tracing_on",
	"cat " TRACING "/trace",
	"echo > " TRACING "/trace",
	"echo 1 > " TRACING "/tracing_on",
	"run /cgroup/traced spin",
	"echo 0 > " TRACING "/tracing_on",
	"cat " TRACING "/trace",
	"echo !*:* > " TRACING "/set_event",
	"echo > " TRACING "/trace",
	"echo 1 > " TRACING "/tracing_on",
	"cat /cgroup/traced/memory.kmem.failcnt",
	NULL,
};
#undef TRACING

/* The fork bomb contained four ways (`make contain`, docs/containment.md):
 * one boot each, the same worker next door, each limit chosen to hold
 * about as many tasks as the 8M kmem limit does (481). `contain`
 * (kernel/programs/contain.c) prints one line of figures. */
#define V1 "/cgroup/"
#define V2 "/sys/fs/cgroup/"
#define CONTAIN_SECS "5"

static const char *const contain_kmem_lines[] = {
	"mkdir " V1 "good",
	"mkdir " V1 "bomb",
	"echo 8M > " V1 "bomb/memory.kmem.limit_in_bytes",
	"echo 256M > " V1 "bomb/memory.limit_in_bytes",
	"contain -v kmem " V1 "good " V1 "bomb " CONTAIN_SECS,
	"check",
	NULL,
};

static const char *const contain_pids_lines[] = {
	"mkdir " V1 "good",
	"mkdir " V1 "bomb",
	"echo 481 > " V1 "bomb/pids.max",
	"contain -v pids " V1 "good " V1 "bomb " CONTAIN_SECS,
	"check",
	NULL,
};

/* Booted with cgroup=v2: the root enables both controllers for its
 * children. */
static const char *const contain_max_lines[] = {
	"echo +memory +pids > " V2 "cgroup.subtree_control",
	"mkdir " V2 "good",
	"mkdir " V2 "bomb",
	"echo 8M > " V2 "bomb/memory.max",
	"contain -v max " V2 "good " V2 "bomb " CONTAIN_SECS,
	"check",
	NULL,
};

static const char *const contain_high_lines[] = {
	"echo +memory +pids > " V2 "cgroup.subtree_control",
	"mkdir " V2 "good",
	"mkdir " V2 "bomb",
	"echo 8M > " V2 "bomb/memory.high",
	"contain -v high " V2 "good " V2 "bomb " CONTAIN_SECS,
	"check",
	NULL,
};

/* The three v2 mechanisms side by side in one boot (cgroup=v2). */
static const char *const contain_v2_lines[] = {
	"echo +memory +pids > " V2 "cgroup.subtree_control",
	"mkdir " V2 "good",
	"mkdir " V2 "max",
	"mkdir " V2 "high",
	"mkdir " V2 "pids",
	"echo 8M > " V2 "max/memory.max",
	"echo 8M > " V2 "high/memory.high",
	"echo 481 > " V2 "pids/pids.max",
	"contain max " V2 "good " V2 "max " CONTAIN_SECS,
	"contain high " V2 "good " V2 "high " CONTAIN_SECS,
	"contain pids " V2 "good " V2 "pids " CONTAIN_SECS,
	"cat " V2 "cgroup.stat",
	"check",
	NULL,
};
#undef V1
#undef V2
#undef CONTAIN_SECS

static const char *const ktest_lines[] = {
	"ktest",
	NULL,
};

static const struct script scripts[] = {
	{"contain-high", contain_high_lines,
	 "the fork bomb under memory.high 8M (boot with cgroup=v2)"},
	{"contain-kmem", contain_kmem_lines,
	 "the fork bomb under an 8M kmem limit, measured"},
	{"contain-max", contain_max_lines,
	 "the fork bomb under memory.max 8M (boot with cgroup=v2)"},
	{"contain-pids", contain_pids_lines,
	 "the fork bomb under pids.max 481"},
	{"contain-v2", contain_v2_lines,
	 "memory.max, memory.high and pids.max in one v2 boot"},
	{"demo", demo_lines, "the fork bomb contained by an 8M kmem limit"},
	{"demo-unlimited", demo_unlimited_lines,
	 "the same fork bomb with no kmem limit"},
	{"ktest", ktest_lines, "the in-kernel tests"},
	{"trace-fork", trace_fork_lines,
	 "trace one accounted fork and one refused fork"},
};

const struct script *script_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(scripts); i++)
		if (!strcmp(scripts[i].name, name))
			return &scripts[i];
	return NULL;
}

/* run_module_script - split a module's text into lines and run them. */
static void run_module_script(const struct boot_module *m)
{
	size_t size = m->end - m->start;
	char *text = kmalloc(size + 1, 0);
	const char **lines = kmalloc(sizeof(char *) * (size / 2 + 2), 0);
	size_t n = 0;

	if (!text || !lines) {
		printk("error: ENOMEM: no memory for the script module\n");
		kfree(text);
		kfree(lines);
		return;
	}
	memcpy(text, phys_to_virt(m->start), size);
	text[size] = 0;
	for (char *p = text; *p;) {
		char *end = p + strcspn(p, "\r\n");
		bool last = *end == 0;
		*end = 0;
		if (*p && *p != '#')
			lines[n++] = p;
		p = last ? end : end + 1;
	}
	lines[n] = NULL;
	shell_run_script(lines);
	kfree(lines);
	kfree(text);
}

void boot_script_run(void)
{
	char name[64];

	if (cmdline_value("script", name, sizeof(name))) {
		const struct script *s = script_find(name);
		if (s)
			shell_run_script(s->lines);
		else
			printk("error: ENOENT: no built-in script named '%s'\n",
			       name);
	}
	for (int i = 0; i < boot_info.nr_modules; i++)
		if (!strcmp(boot_info.modules[i].cmdline, "script"))
			run_module_script(&boot_info.modules[i]);
}
