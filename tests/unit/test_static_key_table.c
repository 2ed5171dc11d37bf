// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_static_key_table.c - kernel/static_key_table.c and the
 * counting of kernel/static_key.c, on a fake table: relative offsets
 * decoded and kept through sorting, per-key ranges, lookup, the
 * instructions a site holds, the /proc/static_keys text, patching asked
 * for on the 0 -> 1 and 1 -> 0 transitions only, and a site shared by
 * two keys.
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
						sites[i].key), 0);
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
					(uintptr_t)&far, &ka), -1);
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
						jump_entry_key(&table[i])), 0);
	jump_table_sort(table, table + NSITES);
	for (int i = 0; i < NSITES; i++)
		assert_ptr_equal(jump_entry_code(&table[i]),
				 jump_entry_code(&once[i]));

	for (int i = 0; i < NSITES; i++) {
		const struct jump_entry *src = &once[NSITES - 1 - i];

		assert_int_equal(jump_entry_set(&table[i], jump_entry_code(src),
						jump_entry_target(src),
						jump_entry_key(src)), 0);
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
						shared[i].key), 0);
	}
}

/* at - the state of the site at text[code], whose target is target. (The
 * entry is static: its offsets must reach text.) */
static enum jump_site_state at(size_t code, size_t target)
{
	static struct jump_entry e;

	assert_int_equal(jump_entry_set(&e, (uintptr_t)&text[code],
					(uintptr_t)&text[target], &kb), 0);
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
		cmocka_unit_test(test_branch_reads_count),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_show_lists_registered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
