/*
 * kernel/static_key.h - branches that cost nothing until they are switched on.
 *
 * static_branch_unlikely(&key) is false while key.enabled is 0. In this
 * portable form it reads the count; the kernel build replaces it with a
 * runtime-patched 5-byte NOP (the static-keys issue), the host build keeps
 * the plain read.
 */
#ifndef KERNEL_STATIC_KEY_H
#define KERNEL_STATIC_KEY_H

#include "kernel/platform.h"

struct static_key {
	int enabled;  /* reference count: > 0 means the branch is taken */
	const char *name;
};

#define STATIC_KEY_INIT_FALSE(n) {0, n}

static inline bool static_branch_unlikely(struct static_key *key)
{
	return unlikely(__atomic_load_n(&key->enabled, __ATOMIC_RELAXED) > 0);
}

void static_key_slow_inc(struct static_key *key);
void static_key_slow_dec(struct static_key *key);

#endif
