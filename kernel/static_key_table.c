// SPDX-License-Identifier: MIT
/*
 * kernel/static_key_table.c - sorting and reading the table of static-key
 * patch sites (kernel/base/static_key_table.h): pure logic, no patching, so
 * that host programs test it (tests/unit/test_static_key_table.c).
 */
#include "kernel/base/static_key_table.h"

#include <stdio.h>
#include <string.h>

#include "kernel/base/static_key.h"

/* Is v a value that fits an int32_t offset? */
static int fits_s32(intptr_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

int jump_entry_set(struct jump_entry *e, uintptr_t code, uintptr_t target,
		   const struct static_key *key)
{
	intptr_t c = (intptr_t)(code - (uintptr_t)&e->code);
	intptr_t t = (intptr_t)(target - (uintptr_t)&e->target);

	if (!fits_s32(c) || !fits_s32(t))
		return -1;
	e->code = (int32_t)c;
	e->target = (int32_t)t;
	e->key = (int64_t)((uintptr_t)key - (uintptr_t)&e->key);
	return 0;
}

/*
 * jump_entry_move - copy *src to *dst, keeping its meaning: the entry is
 * now (dst - src) bytes further on, so each offset is that much smaller.
 * Only for moves within the table:
 * a short distance, so the 32-bit offsets cannot overflow.
 */
static void jump_entry_move(struct jump_entry *dst,
			    const struct jump_entry *src)
{
	intptr_t delta = (intptr_t)((uintptr_t)dst - (uintptr_t)src);

	dst->code = (int32_t)(src->code - delta);
	dst->target = (int32_t)(src->target - delta);
	dst->key = src->key - delta;
}

/* An entry decoded to absolute addresses: what can live anywhere (the
 * offsets of an entry are only good where the entry is). */
struct jump_site {
	uintptr_t code, target;
	struct static_key *key;
};

static struct jump_site jump_site_of(const struct jump_entry *e)
{
	return (struct jump_site){jump_entry_code(e), jump_entry_target(e),
				  jump_entry_key(e)};
}

/* The sort order: by key, then by code address. */
static int jump_site_before(const struct jump_site *a,
			    const struct jump_site *b)
{
	if (a->key != b->key)
		return (uintptr_t)a->key < (uintptr_t)b->key;
	return a->code < b->code;
}

/*
 * An insertion sort: the table has a few dozen entries, is sorted once at
 * boot, and is usually almost in order already (the sites of one key come
 * from the same few files). Entries shifted up one slot are re-based
 * (jump_entry_move); the one being inserted is held decoded, because its
 * offsets would not fit from wherever the holder is (the stack may be more
 * than 2 GiB away from the table).
 */
void jump_table_sort(struct jump_entry *start, struct jump_entry *stop)
{
	for (struct jump_entry *i = start + 1; i < stop; i++) {
		struct jump_site held = jump_site_of(i), prev;
		struct jump_entry *hole = i;

		while (hole > start &&
		       (prev = jump_site_of(hole - 1),
			jump_site_before(&held, &prev))) {
			jump_entry_move(hole, hole - 1);
			hole--;
		}
		if (hole != i)
			jump_entry_set(hole, held.code, held.target, held.key);
	}
}

/* The table jump_table_assign last gave out: where a site's other entries
 * are (jump_site_next). */
static struct jump_entry *table_start, *table_stop;

void jump_table_assign(struct jump_entry *start, struct jump_entry *stop)
{
	struct jump_entry *e = start;

	table_start = start;
	table_stop = stop;
	while (e < stop) {
		struct static_key *key = jump_entry_key(e);
		struct jump_entry *first = e;

		while (e < stop && jump_entry_key(e) == key)
			e++;
		key->entries = first;
		key->nr_entries = (unsigned int)(e - first);
	}
}

struct jump_entry *jump_site_next(uintptr_t code, const struct jump_entry *prev)
{
	size_t i = prev ? (size_t)(prev - table_start) + 1 : 0;

	if (!table_start)
		return NULL;  /* no table yet */
	for (; table_start + i < table_stop; i++)
		if (jump_entry_code(&table_start[i]) == code)
			return &table_start[i];
	return NULL;
}

const struct jump_entry *jump_table_find(const struct static_key *key,
					 uintptr_t addr)
{
	const struct jump_entry *base = key->entries;
	size_t lo = 0, hi = key->nr_entries;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uintptr_t code = jump_entry_code(&base[mid]);

		if (code == addr)
			return &base[mid];
		if (code < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void jump_insn_make(const struct jump_entry *e, int on,
		    uint8_t insn[JUMP_LABEL_INSN_SIZE])
{
	static const uint8_t nop[JUMP_LABEL_INSN_SIZE] = JUMP_LABEL_NOP;

	if (!on) {
		memcpy(insn, nop, sizeof(nop));
		return;
	}
	/* jmp rel32: the offset counts from the end of the instruction. */
	int32_t rel = (int32_t)(jump_entry_target(e) -
				(jump_entry_code(e) + JUMP_LABEL_INSN_SIZE));
	insn[0] = JUMP_LABEL_JMP_OPCODE;
	memcpy(&insn[1], &rel, sizeof(rel));
}

enum jump_site_state jump_site_state(const struct jump_entry *e)
{
	const volatile uint8_t *code =
		(const volatile uint8_t *)jump_entry_code(e);
	uint8_t now[JUMP_LABEL_INSN_SIZE], want[JUMP_LABEL_INSN_SIZE];

	/* One read of the bytes, so that every comparison sees the same. */
	for (int i = 0; i < JUMP_LABEL_INSN_SIZE; i++)
		now[i] = code[i];
	jump_insn_make(e, 0, want);
	if (!memcmp(now, want, sizeof(now)))
		return JUMP_SITE_NOP;
	jump_insn_make(e, 1, want);
	if (!memcmp(now, want, sizeof(now)))
		return JUMP_SITE_JMP;
	return JUMP_SITE_OTHER;
}

size_t static_keys_format(struct static_key *const *keys, size_t nkeys,
			  char *buf, size_t size)
{
	static const char *const state_name[] = {"nop", "jmp", "corrupt"};
	size_t len = 0;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (size_t k = 0; k < nkeys && len < size; k++) {
		const struct static_key *key = keys[k];

		len += snprintf(buf + len, size - len, "%s count=%d sites=%u\n",
				key->name ? key->name : "(unnamed)",
				__atomic_load_n(&key->enabled,
						__ATOMIC_RELAXED),
				key->nr_entries);
		for (unsigned int i = 0; i < key->nr_entries && len < size;
		     i++) {
			const struct jump_entry *e = &key->entries[i];

			len += snprintf(buf + len, size - len, "  %#lx %s\n",
					(unsigned long)jump_entry_code(e),
					state_name[jump_site_state(e)]);
		}
	}
	return len < size ? len : size - 1;
}
