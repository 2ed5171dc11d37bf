/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/obj_owner.h - the `objects` design of slab accounting (Linux
 * 5.9: struct obj_cgroup, obj_cgroup_charge, struct obj_stock,
 * memcg_reparent_objcgs; docs/slab.md).
 *
 * Each domain has an owner record. An accounted object is charged by the
 * byte (its cache's object size) to its domain's record, and its slab
 * keeps the record's id beside it (mm/memcg_hooks.h); the slab pages
 * themselves, of the shared root caches, are charged to nobody. A record
 * is charged whole pages, to its domain's res and kmem counters (with
 * their hierarchy, exactly as a page charge), and hands the bytes out:
 * through each CPU's byte stock (struct obj_stock), which holds at most
 * OBJ_STOCK_MAX bytes of one record, and through its own leftover
 * (nr_bytes). So, for each record, at every moment:
 *
 *   nr_pages * PAGE_SIZE = bytes of its live objects
 *                        + bytes held for it in CPU byte stocks
 *                        + nr_bytes (its leftover, < PAGE_SIZE)
 *
 * and `check` verifies it. Pages charged through a record hold no
 * reference on the domain; the record holds one, on the domain it
 * charges (memcg).
 *
 * Removing a domain hands its records to the parent (obj_owner_reparent):
 * their charge leaves the domain's counters for the parent's, and their
 * objects, and later charges made through them, are the parent's. The
 * domain is then freed at once, as nothing of it is left charged.
 *
 * A record is freed when its last reference goes: its domain's (dropped
 * when the domain is freed), each CPU stock's that caches it, and one
 * while any page is charged through it (which covers its live objects).
 */
#ifndef MM_OBJ_OWNER_H
#define MM_OBJ_OWNER_H

#include <stdint.h>

#include "kernel/base/list.h"
#include "kernel/base/spinlock.h"
#include "mm/memcg_hooks.h"

struct mem_cgroup;

struct obj_owner {
	uint16_t id;                 /* what its objects' slabs keep */
	int refcnt;                  /* atomic */
	/* Under obj_owner_lock: */
	struct mem_cgroup *memcg;    /* the domain charged (a reference) */
	unsigned long nr_pages;      /* pages charged to memcg through it */
	unsigned int nr_bytes;       /* of them, bytes nobody holds */
	struct list_head node;       /* on memcg->obj_owners */
	/* Scratch for obj_owner_scan. */
	uint64_t scan_bytes, scan_stocked;
};

/*
 * obj_stock - a CPU's byte stock (Linux: struct obj_stock): bytes charged
 * to one owner record and not yet handed to an object. It is part of the
 * CPU's charge stock (mm/memcg/stock.h), written by its own CPU only,
 * with interrupts off, and holds a reference on the record it caches.
 */
struct obj_stock {
	struct obj_owner *cached;  /* NULL: none */
	unsigned int nr_bytes;
};

#define OBJ_STOCK_MAX 4096  /* the most bytes a stock keeps: a page */

/* Under it: every record's memcg, nr_pages, nr_bytes, node, the table of
 * ids, and each domain's obj_owners list. Taken with interrupts off. */
extern spinlock_t obj_owner_lock;

/*
 * obj_owner_create - memcg's own record (mkdir, `objects`): an id, a
 * reference on memcg, on memcg->obj_owners, in memcg->obj_owner.
 * Returns 0, or -ENOMEM (no memory, or OBJ_OWNER_MAX - 1 records alive).
 * obj_owner_discard - undo it, for a mkdir that fails later (none made:
 * nothing is done).
 */
int obj_owner_create(struct mem_cgroup *memcg);
void obj_owner_discard(struct mem_cgroup *memcg);

/* obj_owner_put - drop a reference; the last one frees the record. Any
 * context, obj_owner_lock not held. NULL: nothing is done. */
void obj_owner_put(struct obj_owner *owner);

/*
 * obj_owner_reparent - memcg is being removed (dying, its stocks
 * drained): each record charging it now charges the domain its user
 * charges go to (the parent with use_hierarchy, else the root, which is
 * never charged: the charge is dropped), and moves to that domain's list
 * (Linux: memcg_reparent_objcgs). Nothing in `caches`.
 */
void obj_owner_reparent(struct mem_cgroup *memcg);

/* obj_stock_drain_subtree - on the stock's own CPU, interrupts off (a
 * drain IPI): give the byte stock's bytes back to its record if the
 * record charges top's subtree (any record: top NULL) (Linux:
 * drain_obj_stock). */
void obj_stock_drain_subtree(struct obj_stock *stock,
			     struct mem_cgroup *top);

/*
 * obj_owner_scan - for the census: with obj_owner_lock held, count each
 * record's live object bytes (scan_bytes, a walk of every slab) and its
 * bytes in CPU stocks (scan_stocked), then call fn for each record.
 * Exact when nothing is allocated or freed meanwhile. Returns the bytes
 * of objects whose id names no record.
 */
uint64_t obj_owner_scan(void (*fn)(struct obj_owner *owner, void *arg),
			void *arg);

/* obj_owner_of - the record with that id, NULL if none: for tests. */
struct obj_owner *obj_owner_of(uint16_t id);

#endif
