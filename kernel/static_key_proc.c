// SPDX-License-Identifier: MIT
/*
 * kernel/static_key_proc.c - /proc/static_keys: every static key, its count,
 * and each of its patch sites as the code now holds it (docs/interface.md,
 * "Static keys, listed"):
 *
 *   memcg_kmem_enabled_key count=0 sites=3
 *     0xffffffff80112a3c nop
 *
 * The text comes from static_keys_show() (kernel/static_key.c), which reads
 * the sites under the static-key lock: never half patched.
 */
#include "kernel/static_key_proc.h"

#include "kernel/fs/ctlfs.h"
#include "kernel/base/platform.h"
#include "kernel/base/static_key.h"

static int static_keys_read(struct ctl_node *file, char *buf, size_t size)
{
	return (int)static_keys_show(buf, size);
}

static const struct ctl_ops static_keys_ops = {.read = static_keys_read};

void static_key_proc_init(void)
{
	struct ctl_node *proc;

	if (ctl_lookup(ctl_root(), "/proc", &proc) < 0)
		panic("static_key_proc_init: /proc is missing");
	if (!ctl_create_file(proc, "static_keys", &static_keys_ops, NULL))
		panic("static_key_proc_init: cannot create /proc/static_keys");
}
