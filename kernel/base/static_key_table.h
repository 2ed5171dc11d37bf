/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/static_key_table.h - the table of static-key patch sites (the
 * __jump_table section), as pure logic that host programs can test.
 *
 * Every use of static_branch_unlikely(&key) in the kernel leaves a 5-byte
 * NOP in the code and one entry here: where the NOP is (code), where the
 * branch goes when the key is on (target), and which key it belongs to.
 * As in Linux (since 4.15), the three are stored as offsets from the
 * entry's own fields, not as addresses:
 *
 *   code   = (address of e->code)   + e->code
 *   target = (address of e->target) + e->target
 *   key    = (address of e->key)    + e->key
 *
 * which halves the table (two 32-bit offsets instead of two addresses)
 * and needs no relocation. The price: an entry cannot be copied as it is.
 * Moving it by d bytes changes every offset by -d (jump_entry_move).
 *
 * Several entries may name one site (the same code): one per key of a
 * shared site (static_branch_unlikely_any), all with one target.
 *
 * At boot, jump_table_sort() orders the table by key (then by code
 * address), so that the sites of one key are one contiguous range, which
 * jump_table_assign() records in the key (key->entries, key->nr_entries).
 */
#ifndef KERNEL_STATIC_KEY_TABLE_H
#define KERNEL_STATIC_KEY_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct static_key;

struct jump_entry {
	int32_t code;    /* the 5-byte NOP or jmp, from &code */
	int32_t target;  /* where the branch goes when on, from &target */
	int64_t key;     /* the struct static_key, from &key */
};

/* The 5-byte NOP every site holds while its key is off: nopl 0(%rax,%rax). */
#define JUMP_LABEL_NOP {0x0f, 0x1f, 0x44, 0x00, 0x00}
#define JUMP_LABEL_INSN_SIZE 5
#define JUMP_LABEL_JMP_OPCODE 0xe9  /* jmp rel32 */

static inline uintptr_t jump_entry_code(const struct jump_entry *e)
{
	return (uintptr_t)&e->code + e->code;
}

static inline uintptr_t jump_entry_target(const struct jump_entry *e)
{
	return (uintptr_t)&e->target + e->target;
}

static inline struct static_key *jump_entry_key(const struct jump_entry *e)
{
	return (struct static_key *)((uintptr_t)&e->key + e->key);
}

/*
 * jump_entry_set - make e describe (code, target, key), from where e is.
 * Returns 0, or -1 if code
 * or target is more than 2 GiB away from e (the offsets are 32-bit; in the
 * kernel everything is within 2 GiB).
 */
int jump_entry_set(struct jump_entry *e, uintptr_t code, uintptr_t target,
		   const struct static_key *key);

/* jump_table_sort - order [start, stop) by key, then by code address,
 * keeping every entry's meaning (offsets re-based as entries move). */
void jump_table_sort(struct jump_entry *start, struct jump_entry *stop);

/*
 * jump_table_assign - after jump_table_sort: give each key found in
 * [start, stop) its range of entries (key->entries, key->nr_entries). Keys
 * with no site keep entries NULL, nr_entries 0. The table is remembered:
 * jump_site_next looks there for the other entries of a site.
 */
void jump_table_assign(struct jump_entry *start, struct jump_entry *stop);

/*
 * jump_site_next - the entries of the site at code, in the table that
 * jump_table_assign last gave out: the first after prev (from the start
 * when prev is NULL), or NULL after the last. The entries of one site
 * belong to different keys, so they are not neighbours in the sorted
 * table: a scan of it, for slow paths only.
 */
struct jump_entry *jump_site_next(uintptr_t code,
				  const struct jump_entry *prev);

/*
 * jump_table_find - the entry of key whose code is at addr, or NULL. Its
 * range is sorted by code address: a binary search.
 */
const struct jump_entry *jump_table_find(const struct static_key *key,
					 uintptr_t addr);

/*
 * jump_insn_make - the 5 bytes a site holds: the NOP (off) or jmp rel32 to
 * its target (on).
 */
void jump_insn_make(const struct jump_entry *e, int on,
		    uint8_t insn[JUMP_LABEL_INSN_SIZE]);

/* What the bytes at a site are. */
enum jump_site_state { JUMP_SITE_NOP, JUMP_SITE_JMP, JUMP_SITE_OTHER };

/*
 * jump_site_state - read the site's code: the NOP; a jmp to the target of
 * e or of any other entry of the same site (a shared site that another
 * key holds on, or a two-target site); or anything else (a corrupted
 * site, or one being patched).
 */
enum jump_site_state jump_site_state(const struct jump_entry *e);

/*
 * static_keys_format - the text of /proc/static_keys for nkeys keys
 * (docs/interface.md, "Static keys, listed"): per key
 *
 *   NAME count=N sites=M
 *     0xffffffff80112a3c nop          (one line per site: nop or jmp)
 *
 * into buf (NUL-terminated, truncated to size). Returns the length it
 * wrote (without the NUL).
 */
size_t static_keys_format(struct static_key *const *keys, size_t nkeys,
			  char *buf, size_t size);

#endif
