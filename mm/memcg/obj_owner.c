// SPDX-License-Identifier: MIT
/*
 * mm/memcg/obj_owner.c - owner records and byte stocks, the `objects`
 * design of slab accounting (mm/memcg/obj_owner.h; Linux 5.9:
 * obj_cgroup_charge, obj_cgroup_uncharge, consume_obj_stock,
 * refill_obj_stock, drain_obj_stock, memcg_reparent_objcgs), and the
 * boot option that chooses it.
 *
 * The slab calls two functions here (mm/slab_alloc.c): one before an
 * accounted allocation (memcg_slab_pre_alloc_hook), one once an object
 * with an owner is freed (slab_free_objects):
 *
 *   memcg_slab_charge    who pays; the bytes from this CPU's byte stock
 *                        if it holds the payer's record, else from the
 *                        record's leftover, else whole pages charged to
 *                        the record's domain, the surplus to the stock
 *   memcg_slab_uncharge  the bytes back to this CPU's byte stock if it
 *                        holds the record and has room, else to the
 *                        record's leftover, each whole page of which is
 *                        uncharged
 *
 * What keeps a record's domain (owner->memcg) alive: the record's
 * reference. It changes only under obj_owner_lock (reparenting), so a
 * charge reads it there, takes a reference, charges with no lock held,
 * and adds the pages to the record only if the record still charges that
 * domain (else the charge is undone and made again).
 */
#include "mm/memcg/obj_owner.h"

#include <errno.h>
#include <string.h>

#include "kernel/base/spinlock.h"
#include "kernel/lib/cmdline.h"
#include "kernel/task/task.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"
#include "mm/page.h"
#include "mm/slab.h"

DEFINE_STATIC_KEY_FALSE(memcg_slab_objects_key);

_Static_assert(OBJ_STOCK_MAX == PAGE_SIZE, "a byte stock keeps a page");
_Static_assert(OBJ_OWNER_MAX - 1 == UINT16_MAX, "an id is 16 bits");

/* The records by id; id 0 is never given (an object charged to nobody).
 * Written under obj_owner_lock; read without it by whoever holds a
 * charge of the record (an object's bytes keep it alive). */
static struct obj_owner *obj_owner_table[OBJ_OWNER_MAX];
spinlock_t obj_owner_lock = SPINLOCK_INIT;
static unsigned int next_id = 1;  /* where the search for a free id starts */

/* --- the boot option ------------------------------------------------------ */

static char bad_value[24];  /* a value of slab_accounting= not understood */

void memcg_slab_set_objects(bool on)
{
	if (on != memcg_slab_objects()) {
		if (on)
			static_key_slow_inc(&memcg_slab_objects_key);
		else
			static_key_slow_dec(&memcg_slab_objects_key);
	}
}

void slab_accounting_setup(void)
{
	char value[sizeof(bad_value)];

	bad_value[0] = '\0';
	if (!cmdline_value("slab_accounting", value, sizeof(value)))
		return;
	if (!strcmp(value, "objects"))
		memcg_slab_set_objects(true);
	else if (!strcmp(value, "caches"))
		memcg_slab_set_objects(false);  /* cgroup=v2 chose objects */
	else
		strcpy(bad_value, value);
}

void slab_accounting_report(void)
{
	if (bad_value[0])
		printk("slab_accounting: error: EINVAL: \"%s\" is not caches "
		       "or objects\n", bad_value);
	/* Each line fits the 80 columns of the text screen. */
	if (memcg_slab_objects())
		printk("slab_accounting: objects (5.9: each object charged by "
		       "the byte to an owner)\n");
	else
		printk("slab_accounting: caches (2012: a child cache per "
		       "domain, charged by the page)\n");
}

/* --- records -------------------------------------------------------------- */

int obj_owner_create(struct mem_cgroup *memcg)
{
	struct obj_owner *owner = kzalloc(sizeof(*owner), GFP_KERNEL);
	unsigned long flags;
	unsigned int id = 0;

	if (!owner)
		return -ENOMEM;
	flags = spin_lock_irqsave(&obj_owner_lock);
	for (unsigned int n = 1; n < OBJ_OWNER_MAX; n++) {
		unsigned int at = (next_id + n - 1) % (OBJ_OWNER_MAX - 1) + 1;

		if (!obj_owner_table[at]) {
			id = at;
			break;
		}
	}
	if (id) {
		next_id = id % (OBJ_OWNER_MAX - 1) + 1;
		owner->id = (uint16_t)id;
		owner->refcnt = 1;  /* the domain's */
		owner->memcg = memcg;
		mem_cgroup_get(memcg);
		list_add_tail(&owner->node, &memcg->obj_owners);
		obj_owner_table[id] = owner;
		memcg->obj_owner = owner;
	}
	spin_unlock_irqrestore(&obj_owner_lock, flags);
	if (!id) {
		kfree(owner);
		return -ENOMEM;
	}
	return 0;
}

/* unlink - take owner out of the table and its domain's list; returns
 * the domain, whose reference the caller drops. obj_owner_lock held. */
static struct mem_cgroup *unlink(struct obj_owner *owner)
{
	if (owner->nr_pages || owner->nr_bytes)
		panic("obj_owner: record %u freed with %lu pages charged and "
		      "%u bytes left over (its charge must be given back "
		      "first: pages = live objects + stocked + left over)",
		      owner->id, owner->nr_pages, owner->nr_bytes);
	obj_owner_table[owner->id] = NULL;
	list_del_init(&owner->node);
	return owner->memcg;
}

void obj_owner_discard(struct mem_cgroup *memcg)
{
	struct obj_owner *owner = memcg->obj_owner;
	unsigned long flags;

	if (!owner)
		return;
	flags = spin_lock_irqsave(&obj_owner_lock);
	unlink(owner);
	spin_unlock_irqrestore(&obj_owner_lock, flags);
	memcg->obj_owner = NULL;
	mem_cgroup_put(memcg);  /* not the last: the caller holds one */
	kfree(owner);
}

static void obj_owner_get(struct obj_owner *owner)
{
	__atomic_add_fetch(&owner->refcnt, 1, __ATOMIC_RELAXED);
}

/* put_many - drop nr references at once; the last frees the record. */
static void put_many(struct obj_owner *owner, int nr)
{
	struct mem_cgroup *memcg;
	unsigned long flags;
	int left;

	if (!owner || !nr)
		return;
	left = __atomic_sub_fetch(&owner->refcnt, nr, __ATOMIC_ACQ_REL);
	if (left > 0)
		return;
	if (left < 0)
		panic("obj_owner: record %u: reference count below zero",
		      owner->id);
	flags = spin_lock_irqsave(&obj_owner_lock);
	memcg = unlink(owner);
	spin_unlock_irqrestore(&obj_owner_lock, flags);
	mem_cgroup_put(memcg);
	kfree(owner);
}

void obj_owner_put(struct obj_owner *owner)
{
	put_many(owner, 1);
}

/* --- charging and uncharging ---------------------------------------------- */

/*
 * uncharge_pages - nr pages charged through a record go back to memcg,
 * with the references memcg_uncharge_kmem gives back (a record's pages
 * hold none). The root was never charged. obj_owner_lock held.
 */
static void uncharge_pages(struct mem_cgroup *memcg, unsigned long nr)
{
	if (!nr || mem_cgroup_is_root(memcg))
		return;
	mem_cgroup_get_many(memcg, nr);
	memcg_uncharge_kmem(memcg, nr);
}

/*
 * uncharge_bytes - bytes of owner come back to its leftover; each whole
 * page of it goes back to the counters. With the pages gone, so goes
 * their reference, and with it the caller's own if drop_ref (a stock's,
 * given up with its bytes): both at once, the record untouched after.
 */
static void uncharge_bytes(struct obj_owner *owner, unsigned int bytes,
			   bool drop_ref)
{
	unsigned long flags = spin_lock_irqsave(&obj_owner_lock);
	unsigned long nr;
	bool last = false;

	owner->nr_bytes += bytes;
	nr = owner->nr_bytes >> PAGE_SHIFT;
	if (nr) {
		owner->nr_bytes -= nr << PAGE_SHIFT;
		owner->nr_pages -= nr;
		uncharge_pages(owner->memcg, nr);
		last = owner->nr_pages == 0;
	}
	spin_unlock_irqrestore(&obj_owner_lock, flags);
	/* No page charged through it: no object is left. */
	put_many(owner, (last ? 1 : 0) + (drop_ref ? 1 : 0));
}

/*
 * charge_pages - nr_pages more for owner, charged to its domain's
 * counters as a kernel page charge (stock, batch, drain and reclaim
 * included). Returns 0 or -ENOMEM. The caller holds a reference on owner.
 */
static int charge_pages(struct obj_owner *owner, gfp_t gfp,
			unsigned int nr_pages)
{
	struct mem_cgroup *memcg;
	unsigned long flags;

	for (;;) {
		flags = spin_lock_irqsave(&obj_owner_lock);
		memcg = owner->memcg;
		mem_cgroup_get(memcg);
		spin_unlock_irqrestore(&obj_owner_lock, flags);

		if (!mem_cgroup_is_root(memcg)) {
			if (memcg_charge_kmem(memcg, gfp, nr_pages)) {
				mem_cgroup_put(memcg);
				return -ENOMEM;
			}
			/* The record's reference stands for its pages. */
			mem_cgroup_put_many(memcg, nr_pages);
		}
		flags = spin_lock_irqsave(&obj_owner_lock);
		if (owner->memcg == memcg)
			break;
		/* Reparented meanwhile: the charge was the old domain's. */
		uncharge_pages(memcg, nr_pages);
		spin_unlock_irqrestore(&obj_owner_lock, flags);
		mem_cgroup_put(memcg);
	}
	if (owner->nr_pages == 0)
		obj_owner_get(owner);  /* the pages' reference */
	owner->nr_pages += nr_pages;
	spin_unlock_irqrestore(&obj_owner_lock, flags);
	mem_cgroup_put(memcg);
	return 0;
}

/* take_leftover - bytes from owner's leftover, if it has them. */
static bool take_leftover(struct obj_owner *owner, unsigned int bytes)
{
	unsigned long flags = spin_lock_irqsave(&obj_owner_lock);
	bool ok = owner->nr_bytes >= bytes;

	if (ok)
		owner->nr_bytes -= bytes;
	spin_unlock_irqrestore(&obj_owner_lock, flags);
	return ok;
}

/* --- the byte stock ------------------------------------------------------- */

static struct obj_stock *this_cpu_obj_stock(void)
{
	return &this_cpu_stock()->obj;
}

/* consume_obj_stock - take bytes of owner from this CPU's byte stock, if
 * it holds owner's and enough of them. Interrupts off. */
static bool consume_obj_stock(struct obj_owner *owner, unsigned int bytes)
{
	struct obj_stock *stock = this_cpu_obj_stock();

	if (stock->cached != owner || stock->nr_bytes < bytes)
		return false;
	stock->nr_bytes -= bytes;
	return true;
}

/*
 * refill_obj_stock - the bytes of a charge that the allocation did not
 * need go to this CPU's byte stock, with the caller's reference on owner:
 * it becomes the stock's if the stock takes owner, else it is dropped. A
 * stock that holds another record's bytes gives them back to that record
 * first; what is over OBJ_STOCK_MAX goes back to owner.
 */
static void refill_obj_stock(struct obj_owner *owner, unsigned int bytes)
{
	struct obj_owner *old = NULL;
	unsigned int old_bytes = 0, over = 0;
	struct obj_stock *stock;
	unsigned long flags;
	bool drop = true;  /* the caller's reference, unless the stock's */

	flags = local_irq_save();
	stock = this_cpu_obj_stock();
	if (stock->cached != owner) {
		old = stock->cached;
		old_bytes = stock->nr_bytes;
		drop = false;
		stock->cached = owner;
		stock->nr_bytes = 0;
	}
	stock->nr_bytes += bytes;
	if (stock->nr_bytes > OBJ_STOCK_MAX) {
		over = stock->nr_bytes - OBJ_STOCK_MAX;
		stock->nr_bytes = OBJ_STOCK_MAX;
	}
	local_irq_restore(flags);

	if (old)
		uncharge_bytes(old, old_bytes, true);
	if (over)
		uncharge_bytes(owner, over, drop);
	else if (drop)
		obj_owner_put(owner);
}

void obj_stock_drain_subtree(struct obj_stock *stock, struct mem_cgroup *top)
{
	struct obj_owner *owner = stock->cached;
	unsigned int bytes = stock->nr_bytes;

	/* The stock's reference keeps the record, and the record its
	 * domain; a reparenting meanwhile only moves it up. */
	if (!owner || (top && !res_counter_is_ancestor(
				      &READ_ONCE(owner->memcg)->res,
				      &top->res)))
		return;
	stock->cached = NULL;
	stock->nr_bytes = 0;
	uncharge_bytes(owner, bytes, true);
}

/* --- what the slab calls -------------------------------------------------- */

/*
 * obj_owner_charge - charge bytes to owner the long way, when this CPU's
 * byte stock cannot (Linux: the rest of obj_cgroup_charge): from its
 * leftover, else whole pages, whose surplus refills this CPU's stock.
 * Returns owner's id, or -ENOMEM. The caller's reference on owner is
 * handed over (to the stock, or dropped): the bytes charged keep the
 * record alive.
 */
static __noinline int
obj_owner_charge(struct obj_owner *owner, gfp_t gfp, unsigned int bytes)
{
	unsigned int nr_pages = (bytes + PAGE_SIZE - 1) >> PAGE_SHIFT;
	int id = owner->id;

	if (take_leftover(owner, bytes)) {
		obj_owner_put(owner);
		return id;
	}
	if (charge_pages(owner, gfp, nr_pages)) {
		obj_owner_put(owner);
		return -ENOMEM;
	}
	refill_obj_stock(owner, (nr_pages << PAGE_SHIFT) - bytes);
	return id;
}

int memcg_slab_charge(gfp_t gfp, unsigned int bytes)
{
	struct mem_cgroup *memcg;
	struct obj_owner *owner;
	unsigned long flags;

	/* Interrupts off from reading the payer to taking its record's
	 * bytes or a reference on it (see memcg_kmem_payer). */
	flags = local_irq_save();
	memcg = memcg_kmem_payer(current, gfp);
	if (!memcg_kmem_charges(memcg)) {
		local_irq_restore(flags);
		return 0;
	}
	owner = memcg->obj_owner;
	if (consume_obj_stock(owner, bytes)) {
		local_irq_restore(flags);
		return owner->id;
	}
	obj_owner_get(owner);
	local_irq_restore(flags);
	return obj_owner_charge(owner, gfp, bytes);
}

void memcg_slab_uncharge(uint16_t owner_id, unsigned int bytes)
{
	/* The object's bytes keep the record alive (its pages'
	 * reference) until they are given back here. */
	struct obj_owner *owner = obj_owner_table[owner_id];
	struct obj_stock *stock;
	unsigned long flags;

	flags = local_irq_save();
	stock = this_cpu_obj_stock();
	if (stock->cached == owner &&
	    stock->nr_bytes + bytes <= OBJ_STOCK_MAX) {
		stock->nr_bytes += bytes;
		local_irq_restore(flags);
		return;
	}
	local_irq_restore(flags);
	uncharge_bytes(owner, bytes, false);
}

struct obj_owner *obj_owner_of(uint16_t id)
{
	return obj_owner_table[id];
}

/* --- reparenting ---------------------------------------------------------- */

void obj_owner_reparent(struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);
	struct mem_cgroup *to = parent ? parent : root_mem_cgroup;
	struct obj_owner *owner;
	unsigned int moved = 0;
	unsigned long flags;

	if (!memcg_slab_objects())
		return;
	flags = spin_lock_irqsave(&obj_owner_lock);
	while (!list_empty(&memcg->obj_owners)) {
		int64_t bytes;

		owner = list_first_entry(&memcg->obj_owners, struct obj_owner,
					 node);
		bytes = (int64_t)owner->nr_pages << PAGE_SHIFT;

		/* With use_hierarchy the parent was charged with us: only
		 * our own counters give the charge back. The root never
		 * takes one: it is dropped, as a removed domain's user
		 * pages are (mm/memcg/user_memory.c). */
		res_counter_uncharge_until(&memcg->kmem,
					   parent ? &parent->kmem : NULL,
					   bytes);
		res_counter_uncharge_until(&memcg->res,
					   parent ? &parent->res : NULL, bytes);
		owner->memcg = to;
		list_del_init(&owner->node);
		list_add_tail(&owner->node, &to->obj_owners);
		moved++;
	}
	mem_cgroup_get_many(to, moved);
	spin_unlock_irqrestore(&obj_owner_lock, flags);
	if (moved)
		mem_cgroup_put_many(memcg, moved);  /* not the last: rmdir's */
}

/* --- the census ----------------------------------------------------------- */

/* count_object - slab_owner_walk's callback: an object of bytes owned by
 * the record with that id. obj_owner_lock held. */
static void count_object(uint16_t id, unsigned int bytes, void *arg)
{
	uint64_t *unknown = arg;

	if (obj_owner_table[id])
		obj_owner_table[id]->scan_bytes += bytes;
	else
		*unknown += bytes;
}

uint64_t obj_owner_scan(void (*fn)(struct obj_owner *owner, void *arg),
			void *arg)
{
	unsigned long flags = spin_lock_irqsave(&obj_owner_lock);
	uint64_t unknown = 0;

	for (unsigned int id = 1; id < OBJ_OWNER_MAX; id++) {
		if (obj_owner_table[id]) {
			obj_owner_table[id]->scan_bytes = 0;
			obj_owner_table[id]->scan_stocked = 0;
		}
	}
	slab_owner_walk(count_object, &unknown);
	/* A stock names a record it holds a reference on: one in the
	 * table (freeing it takes this lock). */
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct obj_stock *stock = &memcg_stock_of(cpu)->obj;
		struct obj_owner *owner = READ_ONCE(stock->cached);

		if (owner && obj_owner_table[owner->id] == owner)
			owner->scan_stocked += READ_ONCE(stock->nr_bytes);
	}
	for (unsigned int id = 1; id < OBJ_OWNER_MAX; id++)
		if (obj_owner_table[id])
			fn(obj_owner_table[id], arg);
	spin_unlock_irqrestore(&obj_owner_lock, flags);
	return unknown;
}
