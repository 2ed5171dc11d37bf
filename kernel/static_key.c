/*
 * kernel/static_key.c - switching static keys on and off (interim).
 *
 * A static key is a reference count: the branch behind it is taken while
 * the count is above zero (kernel/static_key.h). This portable version
 * only counts; the static-keys issue replaces it with one that rewrites
 * the 5-byte NOP at every call site into a jump when the count goes from 0
 * to 1, and back when it returns to 0.
 *
 * Callers to be aware of: static_key_slow_dec(&memcg_kmem_enabled_key)
 * runs when a domain is freed, which is when its last kernel page is
 * freed - possibly with interrupts off, from whatever context frees pages.
 */
#include "kernel/static_key.h"

void static_key_slow_inc(struct static_key *key)
{
	__atomic_add_fetch(&key->enabled, 1, __ATOMIC_SEQ_CST);
}

void static_key_slow_dec(struct static_key *key)
{
	if (__atomic_sub_fetch(&key->enabled, 1, __ATOMIC_SEQ_CST) < 0)
		panic("static_key_slow_dec: %s: count below zero",
		      key->name ? key->name : "(unnamed key)");
}
