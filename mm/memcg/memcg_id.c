// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_id.c - domain ids, from a bitmap in two levels: a bit
 * per id (1024 words of 64), and a bit per word that says the word is
 * full (16 words). Finding a free id looks at the 16 summary words for a
 * word with room, then at that word: the same few instructions with one
 * domain or sixty-five thousand (Linux uses an IDR, a radix tree, for the
 * same). Any context; ids_lock is taken with interrupts off, as a domain
 * may be freed, and its id given back, from any context.
 */
#include "mm/memcg/memcg_id.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "kernel/base/initcall.h"
#include "kernel/base/platform.h"
#include "kernel/base/spinlock.h"
#include "kernel/lib/cmdline.h"

#define ID_WORDS ((MEM_CGROUP_ID_MAX + 1) / 64)  /* ids 0 .. 65535 */
#define FULL_WORDS (ID_WORDS / 64)

_Static_assert((MEM_CGROUP_ID_MAX + 1) % (64 * 64) == 0,
	       "the two levels cover the ids exactly");

/* Id 0 is the root's: taken from the start. */
static uint64_t id_used[ID_WORDS] = {1};
static uint64_t word_full[FULL_WORDS];
static unsigned int id_limit = MEM_CGROUP_ID_MAX;
static spinlock_t ids_lock = SPINLOCK_INIT;

/* memcg_id_setup - read memcg_id_max= from the command line, after the
 * banner (a bad value is told, and ignored) and before any mkdir. */
static void memcg_id_setup(void)
{
	char value[16], *end;
	long n;

	if (!cmdline_value("memcg_id_max", value, sizeof(value)))
		return;
	n = strtol(value, &end, 10);
	if (end == value || *end || n < 1 || n > MEM_CGROUP_ID_MAX) {
		printk("memcg_id_max: error: EINVAL: \"%s\" is not a number "
		       "from 1 to %d; the limit stays %d\n", value,
		       MEM_CGROUP_ID_MAX, MEM_CGROUP_ID_MAX);
		return;
	}
	id_limit = (unsigned int)n;
}

INITCALL(fs, memcg_id_setup);

unsigned int memcg_id_limit(void)
{
	return id_limit;
}

int memcg_id_alloc(void)
{
	unsigned long flags = spin_lock_irqsave(&ids_lock);
	int id = -ENOSPC;

	for (unsigned int f = 0; f < FULL_WORDS; f++) {
		unsigned int w, bit;

		if (word_full[f] == UINT64_MAX)
			continue;
		w = f * 64 + __builtin_ctzll(~word_full[f]);
		bit = __builtin_ctzll(~id_used[w]);
		if (w * 64 + bit > id_limit)
			break;  /* the lowest free id is past the limit */
		id_used[w] |= 1ull << bit;
		if (id_used[w] == UINT64_MAX)
			word_full[f] |= 1ull << (w % 64);
		id = (int)(w * 64 + bit);
		break;
	}
	spin_unlock_irqrestore(&ids_lock, flags);
	return id;
}

void memcg_id_free(int id)
{
	unsigned long flags;
	unsigned int w = (unsigned int)id / 64;

	if (id <= 0 || id > MEM_CGROUP_ID_MAX)
		panic("memcg_id: id %d given back: ids run from 1 to %d", id,
		      MEM_CGROUP_ID_MAX);
	flags = spin_lock_irqsave(&ids_lock);
	if (!(id_used[w] & (1ull << (id % 64))))
		panic("memcg_id: id %d given back twice (an id is freed once, "
		      "with its domain)", id);
	id_used[w] &= ~(1ull << (id % 64));
	word_full[w / 64] &= ~(1ull << (w % 64));
	spin_unlock_irqrestore(&ids_lock, flags);
}
