// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_keyboard_acpi.c - the pure logic of two hardware
 * drivers, compiled from the kernel's own files: the PS/2 scan-code
 * decoder (drivers/input/keyboard.c: keyboard_scancode) and the byte scan
 * for the DSDT's \_S5_ package (arch/x86_64/acpi_power.c:
 * acpi_s5_sleep_type). Nothing here touches a port: only those two
 * functions are called.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

/* The test compiles the two arch files themselves, to reach their static
 * parsers. */
#include "arch/x86_64/acpi_power.c"  /* NOLINT(bugprone-suspicious-include) */
#include "drivers/input/keyboard.c"  /* NOLINT(bugprone-suspicious-include) */

/* What the two files use and the host build does not have. */
struct acpi_info acpi_info;
void paging_map_uncached(uint64_t phys, uint64_t size) {}
void trap_register(unsigned int vector, trap_handler_t handler) {}
void ioapic_route_isa_irq(unsigned int irq, uint8_t vector) {}

/* --- keyboard ------------------------------------------------------------- */

/* feed - decode a sequence of scan codes; the characters it made. */
static const char *feed(const uint8_t *codes, size_t n)
{
	static char out[64];
	size_t len = 0;
	for (size_t i = 0; i < n && len + 1 < sizeof(out); i++) {
		int c = keyboard_scancode(codes[i]);
		if (c >= 0)
			out[len++] = (char)c;
	}
	out[len] = 0;
	return out;
}
#define FEED(...) feed((const uint8_t[]){__VA_ARGS__}, \
		       sizeof((const uint8_t[]){__VA_ARGS__}))

static int reset_keyboard(void **state)
{
	memset(&kbd, 0, sizeof(kbd));
	return 0;
}

static void test_letters_and_enter(void **state)
{
	/* p w d Enter, each pressed and released */
	assert_string_equal(FEED(0x19, 0x99, 0x11, 0x91, 0x20, 0xa0, 0x1c, 0x9c),
			    "pwd\r");
}

static void test_backspace_tab_space_digits(void **state)
{
	assert_string_equal(FEED(0x0e, 0x8e), "\x7f");
	assert_string_equal(FEED(0x0f, 0x39, 0x02, 0x0b, 0x0c, 0x0d), "\t 10-=");
}

static void test_shift(void **state)
{
	/* Shift held: capitals and the upper row of symbols */
	assert_string_equal(FEED(0x2a, 0x19, 0x02, 0x35, 0x34, 0xaa, 0x19), "P!?>p");
	/* right Shift too, and its release */
	assert_string_equal(FEED(0x36, 0x1e, 0xb6, 0x1e), "Aa");
}

static void test_caps_lock(void **state)
{
	assert_string_equal(FEED(0x3a, 0xba, 0x1e, 0x02), "A1");
	/* Shift with Caps Lock gives lower case */
	assert_string_equal(FEED(0x2a, 0x1e, 0xaa), "a");
	assert_string_equal(FEED(0x3a, 0xba, 0x1e), "a");
}

static void test_ctrl(void **state)
{
	/* Ctrl-C, Ctrl-D (left), Ctrl-U (right: E0 1D) */
	assert_string_equal(FEED(0x1d, 0x2e, 0x20, 0x9d, 0x2e), "\x03\x04" "c");
	assert_string_equal(FEED(0xe0, 0x1d, 0x16, 0xe0, 0x9d, 0x16), "\x15u");
	/* Ctrl with a digit makes nothing */
	assert_string_equal(FEED(0x1d, 0x02, 0x9d), "");
}

static void test_extended_keys(void **state)
{
	/* arrows and Delete make nothing; keypad Enter and '/' do */
	assert_string_equal(FEED(0xe0, 0x48, 0xe0, 0xc8, 0xe0, 0x53, 0xe0, 0xd3), "");
	assert_string_equal(FEED(0xe0, 0x1c, 0xe0, 0x35), "\r/");
	/* the keypad's digits */
	assert_string_equal(FEED(0x47, 0x52, 0x53, 0x4e, 0x37), "70.+*");
	/* a fake shift (E0 2A) around an arrow does not make capitals */
	assert_string_equal(FEED(0xe0, 0x2a, 0xe0, 0x4b, 0xe0, 0xcb, 0xe0, 0xaa, 0x1e), "a");
}

static void test_pause_and_unknown(void **state)
{
	/* Pause: six bytes, no character, and the next key still works */
	assert_string_equal(FEED(0xe1, 0x1d, 0x45, 0xe1, 0x9d, 0xc5, 0x1e), "a");
	/* F1, Esc (0x1b), F12, codes past the table */
	assert_string_equal(FEED(0x3b, 0x01, 0x58, 0x59, 0x7f), "\x1b");
}

/* --- \_S5_ --------------------------------------------------------------- */

static void s5(const uint8_t *aml, size_t len, bool found, int a, int b)
{
	uint8_t ta = 0xee, tb = 0xee;
	assert_int_equal(acpi_s5_sleep_type(aml, (uint32_t)len, &ta, &tb), found);
	if (found) {
		assert_int_equal(ta, a);
		assert_int_equal(tb, b);
	}
}
#define S5(found, a, b, ...) s5((const uint8_t[]){__VA_ARGS__}, \
	sizeof((const uint8_t[]){__VA_ARGS__}), found, a, b)

static void test_s5_forms(void **state)
{
	/* Name (_S5_, Package (4) { 0x05, 0x05, Zero, Zero }) */
	S5(true, 5, 5, 0x10, 0x08, '_', 'S', '5', '_', 0x12, 0x0a, 0x04,
	   0x0a, 0x05, 0x0a, 0x05, 0x00, 0x00);
	/* Name (\_S5_, Package (4) { Zero, Zero, Zero, Zero }) - QEMU's */
	S5(true, 0, 0, 0x08, '\\', '_', 'S', '5', '_', 0x12, 0x06, 0x04,
	   0x00, 0x00, 0x00, 0x00);
	/* One, a word prefix, and a two-byte PkgLength */
	S5(true, 1, 7, 0x08, '_', 'S', '5', '_', 0x12, 0x40, 0x08, 0x02,
	   0x01, 0x0b, 0x07, 0x00);
	/* a one-element package: SLP_TYPb = SLP_TYPa */
	S5(true, 7, 7, 0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x01, 0x0a, 0x07);
}

static void test_s5_not_a_name(void **state)
{
	/* a reference to _S5_ (no NameOp), then the real definition */
	S5(true, 3, 4, 0x70, '_', 'S', '5', '_', 0x60,
	   0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x04, 0x0a, 0x03, 0x0a, 0x04,
	   0x00, 0x00);
	/* a name that is not a package */
	S5(false, 0, 0, 0x08, '_', 'S', '5', '_', 0x0a, 0x05);
	/* none at all, and a truncated one */
	S5(false, 0, 0, 0x08, '_', 'S', '4', '_', 0x12, 0x06, 0x04, 0, 0, 0, 0);
	S5(false, 0, 0, 0x08, '_', 'S', '5', '_', 0x12, 0x06);
	S5(false, 0, 0, 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x0a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_letters_and_enter, reset_keyboard),
		cmocka_unit_test_setup(test_backspace_tab_space_digits, reset_keyboard),
		cmocka_unit_test_setup(test_shift, reset_keyboard),
		cmocka_unit_test_setup(test_caps_lock, reset_keyboard),
		cmocka_unit_test_setup(test_ctrl, reset_keyboard),
		cmocka_unit_test_setup(test_extended_keys, reset_keyboard),
		cmocka_unit_test_setup(test_pause_and_unknown, reset_keyboard),
		cmocka_unit_test(test_s5_forms),
		cmocka_unit_test(test_s5_not_a_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
