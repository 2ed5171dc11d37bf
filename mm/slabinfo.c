// SPDX-License-Identifier: MIT
/*
 * mm/slabinfo.c - /proc/slabinfo, as Linux prints it (mm/slab_common.c:
 * print_slabinfo_header and cache_show):
 *
 *   slabinfo - version: 2.1
 *   # name            <active_objs> <num_objs> <objsize> <objperslab> ...
 *   task_struct           12     16    896    4    1 : tunables    0 ...
 *   task_struct(A)         7      8    896    4    1 : tunables    0 ...
 *
 * (each line goes on: "0    0 : slabdata      4      4      0").
 *
 * A child cache of a domain (mm/memcg/memcg_slab.h) is a line of its own,
 * "root(domain)", so a student can see which domain's objects fill which
 * pages. tally keeps a CPU slab per CPU, as Linux's SLUB does, not
 * per-CPU object arrays: the tunables and the shared count are 0, as with
 * SLUB; objects on CPU lists are counted free.
 */
#include "mm/slabinfo.h"

#include "kernel/lib/emit.h"
#include "mm/slab.h"

static const char slabinfo_header[] =
	"slabinfo - version: 2.1\n"
	"# name            <active_objs> <num_objs> <objsize> <objperslab> "
	"<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : "
	"slabdata <active_slabs> <num_slabs> <sharedavail>\n";

void slabinfo_print(const struct emitter *out)
{
	struct kmem_cache *c;
	unsigned long flags;

	if (!emitf(out, "%s", slabinfo_header))
		return;
	/* Under slab_caches_lock, a child cache cannot be destroyed while
	 * its line is printed. */
	flags = spin_lock_irqsave(&slab_caches_lock);
	list_for_each_entry(c, &slab_caches, list) {
		struct slabinfo info;

		get_slabinfo(c, &info);
		if (!emitf(out, "%-17s %6lu %6lu %6u %4u %4u : "
			   "tunables %4u %4u %4u : slabdata %6lu %6lu %6lu\n",
			   c->name, info.active_objs, info.num_objs,
			   info.objsize, info.objperslab, info.pagesperslab,
			   0u, 0u, 0u, info.active_slabs, info.num_slabs, 0ul))
			break;
	}
	spin_unlock_irqrestore(&slab_caches_lock, flags);
}

int slabinfo_show(char *buf, size_t size)
{
	struct emit_buf eb;
	struct emitter out = emit_buf_init(&eb, buf, size);

	slabinfo_print(&out);
	return (int)eb.len;
}
