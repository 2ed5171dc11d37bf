// SPDX-License-Identifier: MIT
// labs/rmdir/stubs.c - the starting point of the domain-removal lab
// (docs/labs/rmdir.md). `make lab-start LAB=rmdir` puts each block below
// in place of the body of the function named above it. With these stubs
// rmdir of a domain is always refused.

//@ mm/memcg/memcontrol.c: mem_cgroup_destroy
{
	/* LAB rmdir: refuse while it has tasks or children; else mark it
	 * dying, take it out of the tree, drain the stocks, move its user
	 * charges to the parent and drop the tree's reference. */
	return mem_cgroup_is_root(memcg) ? -EINVAL : -EBUSY;
}

//@ mm/memcg/memcontrol.c: mem_cgroup_free
{
	/* LAB rmdir: the last reference is gone: check the counters, take
	 * it off the list of domains, give back its slab caches and its
	 * static-key reference, free it, and return its parent. */
	printk("lab rmdir: mem_cgroup_free is not written: %s leaks\n",
	       memcg->name);
	return NULL;
}
