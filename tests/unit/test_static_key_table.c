// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_static_key_table.c - kernel/static_key_table.c and the
 * counting of kernel/static_key.c, on a fake table: relative offsets
 * decoded and kept through sorting, per-key ranges, lookup, the
 * instructions a site holds, the /proc/static_keys text, patching asked
 * for on the 0 -> 1 and 1 -> 0 transitions only, a site shared by two
 * keys, and a two-target site whose second key wins (static_branch_choose).
 *
 * The "text" is a byte array; sites are 5-byte NOPs in it, and the patching
 * hook (host_jump_label_transform) writes jmp or NOP there as the kernel's
 * arch_jump_label_transform would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kernel/base/static_key.h"
#include "kernel/base/static_key_table.h"
#include "tests/unit/host_mem.h"

#define NSITES 9

static uint8_t text[4096];
static struct jump_entry table[NSITES];

/* Keys in no particular address order; ka has no sites at all. */
DEFINE_STATIC_KEY_FALSE(kb);
DEFINE_STATIC_KEY_FALSE(ka);
DEFINE_STATIC_KEY_FALSE(kc);
DEFINE_STATIC_KEY_FALSE(kd);

struct site {
	size_t code, target;  /* offsets in text */
	struct static_key *key;
};

/* Shuffled: keys interleaved, codes out of order, targets before and after. */
static const struct site sites[NSITES] = {
	{900, 1200, &kc}, {100, 40, &kb},  {3000, 20, &kd},
	{500, 2000, &kb}, {300, 310, &kc}, {200, 4000, &kb},
	{700, 10, &kc},   {50, 3500, &kd}, {2500, 2600, &kb},
};

static void fill_table(void)
{
	static const uint8_t nop[] = JUMP_LABEL_NOP;

	memset(text, 0x90, sizeof(text));
	for (int i = 0; i < NSITES; i++) {
		memcpy(&text[sites[i].code], nop, sizeof(nop));
		assert_int_equal(jump_entry_set(&table[i],
						(uintptr_t)&text[sites[i].code],
						(uintptr_t)&text[sites[i].target],
						sites[i].key, false), 0);
	}
	struct static_key *all[] = {&ka, &kb, &kc, &kd};
	for (size_t i = 0; i < 4; i++) {
		all[i]->entries = NULL;
		all[i]->nr_entries = 0;
		all[i]->enabled = 0;
	}
}

/* find_input - the index in sites[] of entry e (by what it decodes to). */
static int find_input(const struct jump_entry *e)
{
	for (int i = 0; i < NSITES; i++)
		if (jump_entry_code(e) == (uintptr_t)&text[sites[i].code])
			return i;
	return -1;
}

static void test_decode(void **state)
{
	fill_table();
	for (int i = 0; i < NSITES; i++) {
		assert_ptr_equal(jump_entry_code(&table[i]), &text[sites[i].code]);
		assert_ptr_equal(jump_entry_target(&table[i]),
				 &text[sites[i].target]);
		assert_ptr_equal(jump_entry_key(&table[i]), sites[i].key);
		/* Relative to the field itself, as the asm emits it. */
		assert_int_equal((intptr_t)table[i].code,
				 (intptr_t)((uintptr_t)&text[sites[i].code] -
					    (uintptr_t)&table[i].code));
	}
	/* A code address more than 2 GiB away does not fit. */
	struct jump_entry far;
	assert_int_equal(jump_entry_set(&far, (uintptr_t)&far + (3ull << 30),
					(uintptr_t)&far, &ka, false), -1);
}

static void test_sort_keeps_meaning(void **state)
{
	fill_table();
	jump_table_sort(table, table + NSITES);

	bool seen[NSITES] = {false};
	for (int i = 0; i < NSITES; i++) {
		int in = find_input(&table[i]);

		assert_true(in >= 0);
		assert_false(seen[in]);
		seen[in] = true;
		/* The moved entry still names its own target and key. */
		assert_ptr_equal(jump_entry_target(&table[i]),
				 &text[sites[in].target]);
		assert_ptr_equal(jump_entry_key(&table[i]), sites[in].key);
	}
	for (int i = 0; i + 1 < NSITES; i++) {
		uintptr_t k0 = (uintptr_t)jump_entry_key(&table[i]);
		uintptr_t k1 = (uintptr_t)jump_entry_key(&table[i + 1]);

		assert_true(k0 <= k1);
		if (k0 == k1)
			assert_true(jump_entry_code(&table[i]) <
				    jump_entry_code(&table[i + 1]));
	}
}

static void test_sort_sorted_and_reversed(void **state)
{
	/* Sorting twice changes nothing; a reversed table comes out the same.
	 * (Static: an entry's offsets must reach the text from where it is.) */
	static struct jump_entry once[NSITES];

	fill_table();
	jump_table_sort(table, table + NSITES);
	for (int i = 0; i < NSITES; i++)
		assert_int_equal(jump_entry_set(&once[i],
						jump_entry_code(&table[i]),
						jump_entry_target(&table[i]),
						jump_entry_key(&table[i]),
						jump_entry_overrides(&table[i])), 0);
	jump_table_sort(table, table + NSITES);
	for (int i = 0; i < NSITES; i++)
		assert_ptr_equal(jump_entry_code(&table[i]),
				 jump_entry_code(&once[i]));

	for (int i = 0; i < NSITES; i++) {
		const struct jump_entry *src = &once[NSITES - 1 - i];

		assert_int_equal(jump_entry_set(&table[i], jump_entry_code(src),
						jump_entry_target(src),
						jump_entry_key(src),
						jump_entry_overrides(src)), 0);
	}
	jump_table_sort(table, table + NSITES);
	for (int i = 0; i < NSITES; i++) {
		assert_ptr_equal(jump_entry_code(&table[i]),
				 jump_entry_code(&once[i]));
		assert_ptr_equal(jump_entry_target(&table[i]),
				 jump_entry_target(&once[i]));
	}
	jump_table_sort(table, table);  /* empty: nothing to do */
}

static void test_ranges_and_find(void **state)
{
	fill_table();
	jump_table_sort(table, table + NSITES);
	jump_table_assign(table, table + NSITES);

	assert_null(ka.entries);
	assert_int_equal(ka.nr_entries, 0);
	assert_int_equal(kb.nr_entries, 4);
	assert_int_equal(kc.nr_entries, 3);
	assert_int_equal(kd.nr_entries, 2);
	struct static_key *with_sites[] = {&kb, &kc, &kd};
	for (size_t j = 0; j < 3; j++) {
		struct static_key *k = with_sites[j];

		for (unsigned int i = 0; i < k->nr_entries; i++)
			assert_ptr_equal(jump_entry_key(&k->entries[i]), k);
	}

	for (int i = 0; i < NSITES; i++) {
		uintptr_t code = (uintptr_t)&text[sites[i].code];
		const struct jump_entry *e = jump_table_find(sites[i].key, code);

		assert_non_null(e);
		assert_ptr_equal(jump_entry_code(e), code);
		/* Not a site of another key, nor one byte off. */
		assert_null(jump_table_find(&ka, code));
		assert_null(jump_table_find(sites[i].key, code + 1));
	}
}

static void test_insn_and_state(void **state)
{
	static const uint8_t nop[] = JUMP_LABEL_NOP;
	uint8_t insn[JUMP_LABEL_INSN_SIZE];

	fill_table();
	for (int i = 0; i < NSITES; i++) {
		const struct jump_entry *e = &table[i];
		int32_t rel;

		jump_insn_make(e, 0, insn);
		assert_memory_equal(insn, nop, 5);
		assert_int_equal(jump_site_state(e), JUMP_SITE_NOP);

		jump_insn_make(e, 1, insn);
		assert_int_equal(insn[0], 0xe9);
		memcpy(&rel, &insn[1], 4);
		/* jmp rel32 counts from the end of the 5-byte instruction. */
		assert_int_equal(rel, (int32_t)sites[i].target -
					      (int32_t)(sites[i].code + 5));
		memcpy((void *)jump_entry_code(e), insn, 5);
		assert_int_equal(jump_site_state(e), JUMP_SITE_JMP);

		text[sites[i].code + 3] ^= 1;  /* a corrupted site */
		assert_int_equal(jump_site_state(e), JUMP_SITE_OTHER);
	}
}

/* --- counting and patching -------------------------------------------------- */

static int transforms;
static bool last_enable;
static struct jump_entry *last_entries;
static unsigned int last_n;

static void fake_transform(struct jump_entry *entries, unsigned int n,
			   bool enable)
{
	uint8_t insn[JUMP_LABEL_INSN_SIZE];

	transforms++;
	last_enable = enable;
	last_entries = entries;
	last_n = n;
	for (unsigned int i = 0; i < n; i++) {
		enum jump_site_state s = jump_site_state(&entries[i]);

		/* What the kernel's check_sites accepts: to a jump from the NOP
		 * or from another entry's jump, to the NOP from a jump. */
		jump_insn_make(&entries[i], enable, insn);
		if (enable)
			assert_true(s == JUMP_SITE_NOP ||
				    (s == JUMP_SITE_JMP &&
				     memcmp((void *)jump_entry_code(&entries[i]),
					    insn, sizeof(insn)) != 0));
		else
			assert_int_equal(s, JUMP_SITE_JMP);
		memcpy((void *)jump_entry_code(&entries[i]), insn, sizeof(insn));
	}
}

static bool all_sites(const struct static_key *k, enum jump_site_state s)
{
	for (unsigned int i = 0; i < k->nr_entries; i++)
		if (jump_site_state(&k->entries[i]) != s)
			return false;
	return true;
}

static void test_patch_on_transitions_only(void **state)
{
	fill_table();
	host_jump_label_transform = fake_transform;
	transforms = 0;

	/* Taken before the table is ready: counted, patched at init. */
	static_key_slow_inc(&kd);
	assert_int_equal(transforms, 0);
	static_key_init_table(table, table + NSITES);
	assert_int_equal(transforms, 1);
	assert_true(last_enable);
	assert_ptr_equal(last_entries, kd.entries);
	assert_true(all_sites(&kd, JUMP_SITE_JMP));
	static_key_slow_dec(&kd);
	assert_int_equal(transforms, 2);
	assert_true(all_sites(&kd, JUMP_SITE_NOP));

	transforms = 0;
	static_key_slow_inc(&kb);                  /* 0 -> 1 */
	assert_int_equal(transforms, 1);
	assert_true(last_enable);
	assert_ptr_equal(last_entries, kb.entries);
	assert_int_equal(last_n, 4);
	assert_true(all_sites(&kb, JUMP_SITE_JMP));
	assert_true(all_sites(&kc, JUMP_SITE_NOP)); /* other keys untouched */
	static_key_slow_inc(&kb);                  /* 1 -> 2: no patching */
	static_key_slow_inc(&kb);
	static_key_slow_dec(&kb);
	static_key_slow_dec(&kb);                  /* 2 -> 1 */
	assert_int_equal(transforms, 1);
	assert_int_equal(static_key_count(&kb), 1);
	static_key_slow_dec(&kb);                  /* 1 -> 0 */
	assert_int_equal(transforms, 2);
	assert_false(last_enable);
	assert_true(all_sites(&kb, JUMP_SITE_NOP));

	/* A key with no sites counts, and asks nothing of the arch. */
	static_key_slow_inc(&ka);
	static_key_slow_dec(&ka);
	assert_int_equal(transforms, 2);

	HOST_EXPECT_PANIC(static_key_slow_dec(&kc), "count below zero");
	host_jump_label_transform = NULL;
}

/* A site that two keys share (static_branch_unlikely_any): kb's and kc's
 * entries at text[100]; each key has one site of its own besides. */
static void fill_shared(struct jump_entry *t)
{
	static const uint8_t nop[] = JUMP_LABEL_NOP;
	static const struct site shared[4] = {
		{900, 1200, &kc}, {100, 40, &kb}, {100, 40, &kc}, {500, 2000, &kb},
	};

	fill_table();
	for (int i = 0; i < 4; i++) {
		memcpy(&text[shared[i].code], nop, sizeof(nop));
		assert_int_equal(jump_entry_set(&t[i],
						(uintptr_t)&text[shared[i].code],
						(uintptr_t)&text[shared[i].target],
						shared[i].key, false), 0);
	}
}

/* at - the state of the site at text[code], whose target is target. (The
 * entry is static: its offsets must reach text.) */
static enum jump_site_state at(size_t code, size_t target)
{
	static struct jump_entry e;

	assert_int_equal(jump_entry_set(&e, (uintptr_t)&text[code],
					(uintptr_t)&text[target], &kb, false), 0);
	return jump_site_state(&e);
}

static void test_shared_site(void **state)
{
	static struct jump_entry t[4];

	fill_shared(t);
	host_jump_label_transform = fake_transform;
	transforms = 0;
	static_key_init_table(t, t + 4);
	assert_int_equal(transforms, 0);
	assert_int_equal(kb.nr_entries, 2);
	assert_int_equal(kc.nr_entries, 2);

	static_key_slow_inc(&kb);          /* the shared site and kb's own */
	assert_int_equal(transforms, 1);
	assert_int_equal(last_n, 2);
	assert_int_equal(at(100, 40), JUMP_SITE_JMP);
	assert_int_equal(at(500, 2000), JUMP_SITE_JMP);
	assert_int_equal(at(900, 1200), JUMP_SITE_NOP);

	static_key_slow_inc(&kc);          /* kc's own only: shared is a jmp */
	assert_int_equal(transforms, 2);
	assert_int_equal(last_n, 1);
	assert_ptr_equal(jump_entry_code(last_entries), &text[900]);

	static_key_slow_dec(&kb);          /* kc still on: shared stays */
	assert_int_equal(transforms, 3);
	assert_int_equal(last_n, 1);
	assert_int_equal(at(100, 40), JUMP_SITE_JMP);
	assert_int_equal(at(500, 2000), JUMP_SITE_NOP);
	assert_true(static_branch_unlikely_any(&kb, &kc));

	static_key_slow_dec(&kc);          /* the last key off: all NOPs */
	assert_int_equal(at(100, 40), JUMP_SITE_NOP);
	assert_int_equal(at(900, 1200), JUMP_SITE_NOP);
	assert_false(static_branch_unlikely_any(&kb, &kc));

	/* Both taken before the table is ready: the shared site is patched
	 * once, for the first key, and left to the second. */
	fill_shared(t);
	static_key_slow_inc(&kb);
	static_key_slow_inc(&kc);
	transforms = 0;
	static_key_init_table(t, t + 4);
	assert_int_equal(at(100, 40), JUMP_SITE_JMP);
	assert_int_equal(at(500, 2000), JUMP_SITE_JMP);
	assert_int_equal(at(900, 1200), JUMP_SITE_JMP);
	assert_int_equal(transforms, 2);
	static_key_slow_dec(&kb);
	static_key_slow_dec(&kc);
	assert_int_equal(at(100, 40), JUMP_SITE_NOP);
	host_jump_label_transform = NULL;
}

/* --- a two-target site (static_branch_choose) ------------------------------ */

/*
 * static_branch_choose(a, b): the site at text[1000] jumps to text[1100]
 * for a and to text[1200] for b, b's entry overriding; a has a site of its
 * own at text[600] besides. Each test runs twice, kb as a and kc as b, then
 * the other way round: the table is sorted by key address, so one of the
 * two puts b's entry first in the site's scan and the other last, and the
 * overriding entry (first in the input) is moved by the sort in one of
 * them. A rule that held only by the order of the table would fail one.
 */
#define CHOOSE_AT 1000
#define A_TARGET 1100
#define B_TARGET 1200

static struct static_key *key_a, *key_b;

struct choose_entry {
	size_t code, target;
	struct static_key *key;
	bool overrides;
};

/* fill_choose_from - the three entries, the first of them at t[first]
 * (then on, round the table). */
static void fill_choose_from(struct jump_entry *t, int first)
{
	static const uint8_t nop[] = JUMP_LABEL_NOP;
	const struct choose_entry choose_sites[3] = {
		{CHOOSE_AT, B_TARGET, key_b, true},
		{600, 650, key_a, false},
		{CHOOSE_AT, A_TARGET, key_a, false},
	};

	fill_table();
	for (int i = 0; i < 3; i++) {
		const struct choose_entry *c = &choose_sites[i];

		memcpy(&text[c->code], nop, sizeof(nop));
		assert_int_equal(jump_entry_set(&t[(first + i) % 3],
						(uintptr_t)&text[c->code],
						(uintptr_t)&text[c->target], c->key,
						c->overrides), 0);
	}
}

static void fill_choose(struct jump_entry *t)
{
	fill_choose_from(t, 0);
}

/* goes_to - where the bytes at text[code] send a CPU, decoded here and not
 * by the code under test: the offset of a jmp rel32's target, code + 5 for
 * the NOP, or -1 for anything else. */
static long goes_to(size_t code)
{
	static const uint8_t nop[] = JUMP_LABEL_NOP;
	int32_t rel;

	if (!memcmp(&text[code], nop, sizeof(nop)))
		return (long)code + 5;
	if (text[code] != 0xe9)
		return -1;
	memcpy(&rel, &text[code + 1], sizeof(rel));
	return (long)code + 5 + rel;
}

#define FALLS_THROUGH (CHOOSE_AT + 5)

/* put_jmp - write jmp rel32 to text[target] at text[code], by hand. */
static void put_jmp(size_t code, size_t target)
{
	int32_t rel = (int32_t)target - (int32_t)(code + 5);

	text[code] = 0xe9;
	memcpy(&text[code + 1], &rel, sizeof(rel));
}

static void choose_entries(void)
{
	static struct jump_entry t[3];

	/* The flag is bit 0 of the key offset, and the key reads without it. */
	fill_choose(t);
	assert_true(t[0].key & JUMP_ENTRY_OVERRIDES);
	assert_true(jump_entry_overrides(&t[0]));
	assert_ptr_equal(jump_entry_key(&t[0]), key_b);
	assert_false(jump_entry_overrides(&t[2]));
	assert_ptr_equal(jump_entry_key(&t[2]), key_a);

	/* Sorted (entries moved and re-based), each keeps its flag, key and
	 * target. */
	jump_table_sort(t, t + 3);
	jump_table_assign(t, t + 3);
	assert_int_equal(key_a->nr_entries, 2);
	assert_int_equal(key_b->nr_entries, 1);
	const struct jump_entry *b = jump_table_find(key_b, (uintptr_t)&text[CHOOSE_AT]);
	const struct jump_entry *a = jump_table_find(key_a, (uintptr_t)&text[CHOOSE_AT]);
	static const uint8_t nop[] = JUMP_LABEL_NOP;

	assert_non_null(a);
	assert_non_null(b);
	assert_true(jump_entry_overrides(b));
	assert_ptr_equal(jump_entry_key(b), key_b);
	assert_ptr_equal(jump_entry_target(b), &text[B_TARGET]);
	assert_false(jump_entry_overrides(a));
	assert_ptr_equal(jump_entry_key(a), key_a);
	assert_ptr_equal(jump_entry_target(a), &text[A_TARGET]);
	assert_false(jump_entry_overrides(&key_a->entries[0]));  /* text[600] */

	/* Sorting a sorted table moves nothing, and loses no flag. */
	jump_table_sort(t, t + 3);
	assert_true(jump_entry_overrides(b) && !jump_entry_overrides(a));

	/* With the overriding entry second or last in the input, the sort
	 * moves it as the entry being inserted, or shifts it on. */
	for (int first = 1; first < 3; first++) {
		fill_choose_from(t, first);
		jump_table_sort(t, t + 3);
		jump_table_assign(t, t + 3);
		const struct jump_entry *ob = jump_table_find(key_b, (uintptr_t)&text[CHOOSE_AT]);
		const struct jump_entry *oa = jump_table_find(key_a, (uintptr_t)&text[CHOOSE_AT]);
		assert_non_null(ob);
		assert_non_null(oa);
		assert_true(jump_entry_overrides(ob));
		assert_ptr_equal(jump_entry_target(ob), &text[B_TARGET]);
		assert_false(jump_entry_overrides(oa));
		assert_ptr_equal(jump_entry_target(oa), &text[A_TARGET]);
		assert_false(jump_entry_overrides(&key_a->entries[0]));
	}
	fill_choose(t);
	jump_table_sort(t, t + 3);
	jump_table_assign(t, t + 3);
	b = jump_table_find(key_b, (uintptr_t)&text[CHOOSE_AT]);
	a = jump_table_find(key_a, (uintptr_t)&text[CHOOSE_AT]);

	/* The state, read through either entry: jmp for a jump to a's or b's
	 * target, nop for the NOP, corrupt for a jump anywhere else. */
	put_jmp(CHOOSE_AT, A_TARGET);
	assert_int_equal(jump_site_state(a), JUMP_SITE_JMP);
	assert_int_equal(jump_site_state(b), JUMP_SITE_JMP);
	put_jmp(CHOOSE_AT, B_TARGET);
	assert_int_equal(jump_site_state(a), JUMP_SITE_JMP);
	assert_int_equal(jump_site_state(b), JUMP_SITE_JMP);
	put_jmp(CHOOSE_AT, 1300);
	assert_int_equal(jump_site_state(a), JUMP_SITE_OTHER);
	assert_int_equal(jump_site_state(b), JUMP_SITE_OTHER);
	memcpy(&text[CHOOSE_AT], nop, sizeof(nop));
	assert_int_equal(jump_site_state(a), JUMP_SITE_NOP);
	assert_int_equal(jump_site_state(b), JUMP_SITE_NOP);
	/* A jump to a's target from a's site of its own is not one of that
	 * site's jumps (its only target is text[650]). */
	put_jmp(600, A_TARGET);
	assert_int_equal(jump_site_state(&key_a->entries[0]), JUMP_SITE_OTHER);
	put_jmp(600, 650);
	assert_int_equal(jump_site_state(&key_a->entries[0]), JUMP_SITE_JMP);
}

/* chosen - what the switch would run: the host build's static_branch_choose. */
static int chosen(void)
{
	return static_branch_choose(key_a, key_b);
}

static void choose_site(void)
{
	static struct jump_entry t[3];

	fill_choose(t);
	host_jump_label_transform = fake_transform;
	transforms = 0;
	static_key_init_table(t, t + 3);
	assert_int_equal(transforms, 0);
	assert_int_equal(goes_to(CHOOSE_AT), FALLS_THROUGH);       /* both off */
	assert_int_equal(chosen(), 0);

	static_key_slow_inc(key_a);                                  /* a on */
	assert_int_equal(goes_to(CHOOSE_AT), A_TARGET);
	assert_int_equal(goes_to(600), 650);
	assert_int_equal(transforms, 1);   /* a's two sites: one run, one patch */
	assert_int_equal(last_n, 2);
	assert_int_equal(chosen(), 1);

	static_key_slow_inc(key_b);                                  /* a and b on */
	assert_int_equal(goes_to(CHOOSE_AT), B_TARGET);
	assert_int_equal(goes_to(600), 650);
	assert_int_equal(transforms, 2);
	assert_int_equal(chosen(), 2);

	static_key_slow_dec(key_b);                                  /* b off, a on */
	assert_int_equal(goes_to(CHOOSE_AT), A_TARGET);
	assert_int_equal(transforms, 3);
	assert_true(last_enable);          /* a's jump, for a's entry */
	assert_int_equal(last_n, 1);
	assert_ptr_equal(jump_entry_key(last_entries), key_a);
	assert_int_equal(chosen(), 1);

	static_key_slow_inc(key_b);                                  /* b on again */
	assert_int_equal(goes_to(CHOOSE_AT), B_TARGET);
	transforms = 0;
	static_key_slow_dec(key_a);                                  /* a off, b on */
	assert_int_equal(goes_to(CHOOSE_AT), B_TARGET);            /* b's stays */
	assert_int_equal(goes_to(600), 605);                       /* a's own: NOP */
	assert_int_equal(transforms, 1);   /* only text[600]: the site was right */
	assert_ptr_equal(jump_entry_code(last_entries), &text[600]);
	assert_int_equal(chosen(), 2);

	static_key_slow_dec(key_b);                                  /* both off */
	assert_int_equal(goes_to(CHOOSE_AT), FALLS_THROUGH);
	assert_false(last_enable);
	assert_int_equal(chosen(), 0);

	/* A count above one switches nothing: b 0 -> 1 -> 2 -> 1 leaves b's
	 * jump, and a's 0 -> 1 under it patches only a's own site. */
	static_key_slow_inc(key_b);
	static_key_slow_inc(key_b);
	static_key_slow_dec(key_b);
	assert_int_equal(goes_to(CHOOSE_AT), B_TARGET);
	transforms = 0;
	static_key_slow_inc(key_a);
	assert_int_equal(goes_to(CHOOSE_AT), B_TARGET);
	assert_int_equal(transforms, 1);
	assert_int_equal(last_n, 1);
	assert_ptr_equal(jump_entry_code(last_entries), &text[600]);
	static_key_slow_dec(key_a);
	static_key_slow_dec(key_b);
	assert_int_equal(goes_to(CHOOSE_AT), FALLS_THROUGH);
	assert_int_equal(goes_to(600), 605);
	host_jump_label_transform = NULL;
}

static void choose_at_boot(void)
{
	static struct jump_entry t[3];

	host_jump_label_transform = fake_transform;
	/* Both taken before the table is ready, in either order: b wins. */
	for (int order = 0; order < 2; order++) {
		fill_choose(t);
		static_key_slow_inc(order ? key_b : key_a);
		static_key_slow_inc(order ? key_a : key_b);
		static_key_init_table(t, t + 3);
		assert_int_equal(goes_to(CHOOSE_AT), B_TARGET);
		assert_int_equal(goes_to(600), 650);
		static_key_slow_dec(key_b);
		assert_int_equal(goes_to(CHOOSE_AT), A_TARGET);
		static_key_slow_dec(key_a);
		assert_int_equal(goes_to(CHOOSE_AT), FALLS_THROUGH);
	}
	/* a alone before: a's jump; b alone before: b's. */
	fill_choose(t);
	static_key_slow_inc(key_a);
	static_key_init_table(t, t + 3);
	assert_int_equal(goes_to(CHOOSE_AT), A_TARGET);
	static_key_slow_dec(key_a);
	fill_choose(t);
	static_key_slow_inc(key_b);
	static_key_init_table(t, t + 3);
	assert_int_equal(goes_to(CHOOSE_AT), B_TARGET);
	assert_int_equal(goes_to(600), 605);
	static_key_slow_dec(key_b);
	assert_int_equal(goes_to(CHOOSE_AT), FALLS_THROUGH);
	host_jump_label_transform = NULL;
}

static void choose_format(void)
{
	/* /proc/static_keys: while a alone is on, b's line lists the site
	 * as jmp too (a jump of that site); both off, nop for both. */
	static struct jump_entry t[3];
	struct static_key *keys[] = {key_a, key_b};
	const char *a = key_a->name, *b = key_b->name;
	char buf[512], want[512];

	fill_choose(t);
	host_jump_label_transform = fake_transform;
	static_key_init_table(t, t + 3);
	static_key_slow_inc(key_a);
	static_keys_format(keys, 2, buf, sizeof(buf));
	snprintf(want, sizeof(want),
		 "%s count=1 sites=2\n  %#lx jmp\n  %#lx jmp\n"
		 "%s count=0 sites=1\n  %#lx jmp\n", a,
		 (unsigned long)(uintptr_t)&text[600],
		 (unsigned long)(uintptr_t)&text[CHOOSE_AT], b,
		 (unsigned long)(uintptr_t)&text[CHOOSE_AT]);
	assert_string_equal(buf, want);
	static_key_slow_dec(key_a);
	static_keys_format(keys, 2, buf, sizeof(buf));
	snprintf(want, sizeof(want),
		 "%s count=0 sites=2\n  %#lx nop\n  %#lx nop\n"
		 "%s count=0 sites=1\n  %#lx nop\n", a,
		 (unsigned long)(uintptr_t)&text[600],
		 (unsigned long)(uintptr_t)&text[CHOOSE_AT], b,
		 (unsigned long)(uintptr_t)&text[CHOOSE_AT]);
	assert_string_equal(buf, want);
	host_jump_label_transform = NULL;
}

/* both_ways - run fn with kb as a and kc as b, then the other way round. */
static void both_ways(void (*fn)(void))
{
	for (int round = 0; round < 2; round++) {
		key_a = round ? &kc : &kb;
		key_b = round ? &kb : &kc;
		fn();
	}
}

static void test_choose_entries(void **state) { both_ways(choose_entries); }
static void test_choose_site(void **state) { both_ways(choose_site); }
static void test_choose_at_boot(void **state) { both_ways(choose_at_boot); }
static void test_choose_format(void **state) { both_ways(choose_format); }

static void test_branch_reads_count(void **state)
{
	/* The host build's static_branch_unlikely is the plain read. */
	fill_table();
	assert_false(static_branch_unlikely(&kc));
	static_key_slow_inc(&kc);
	assert_true(static_branch_unlikely(&kc));
	static_key_slow_dec(&kc);
	assert_false(static_branch_unlikely(&kc));
}

/* --- the /proc/static_keys text -------------------------------------------- */

static void test_format(void **state)
{
	struct static_key *keys[] = {&kc, &ka};
	char buf[512], want[512];
	size_t len;

	fill_table();
	jump_table_sort(table, table + NSITES);
	jump_table_assign(table, table + NSITES);
	kc.enabled = 1;
	fake_transform(kc.entries, kc.nr_entries, true);

	len = static_keys_format(keys, 2, buf, sizeof(buf));
	snprintf(want, sizeof(want),
		 "kc count=1 sites=3\n  %#lx jmp\n  %#lx jmp\n  %#lx jmp\n"
		 "ka count=0 sites=0\n",
		 (unsigned long)(uintptr_t)&text[300],
		 (unsigned long)(uintptr_t)&text[700],
		 (unsigned long)(uintptr_t)&text[900]);
	assert_string_equal(buf, want);
	assert_int_equal(len, strlen(want));

	/* Truncated output stays NUL-terminated and says how much it wrote. */
	len = static_keys_format(keys, 2, buf, 10);
	assert_int_equal(len, 9);
	assert_int_equal(strlen(buf), 9);
	kc.enabled = 0;
}

static void test_show_lists_registered(void **state)
{
	/* Every DEFINE_STATIC_KEY_FALSE of the program, count 0 included:
	 * this file's four and mm/'s. */
	char buf[4096];

	fill_table();
	static_keys_show(buf, sizeof(buf));
	assert_non_null(strstr(buf, "ka count=0 sites=0\n"));
	assert_non_null(strstr(buf, "memcg_kmem_enabled_key count=0 sites=0\n"));
	assert_non_null(strstr(buf, "debug_check_on_free_key count=0"));
}

int main(void)
{
	host_panic_hook = host_panic_longjmp;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_sort_keeps_meaning),
		cmocka_unit_test(test_sort_sorted_and_reversed),
		cmocka_unit_test(test_ranges_and_find),
		cmocka_unit_test(test_insn_and_state),
		cmocka_unit_test(test_patch_on_transitions_only),
		cmocka_unit_test(test_shared_site),
		cmocka_unit_test(test_choose_entries),
		cmocka_unit_test(test_choose_site),
		cmocka_unit_test(test_choose_at_boot),
		cmocka_unit_test(test_choose_format),
		cmocka_unit_test(test_branch_reads_count),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_show_lists_registered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
