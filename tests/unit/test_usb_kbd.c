// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_usb_kbd.c - the pure logic of the USB keyboard path,
 * compiled from the kernel's own files: HID boot reports to console bytes
 * with key repeat (drivers/usb/hid_kbd.c), and the index and
 * cycle-bit arithmetic of xHCI rings (drivers/usb/xhci_ring.c).
 * No register is touched: the rings are arrays here, and the test plays
 * the controller.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "drivers/usb/hid_kbd.c"  /* NOLINT(bugprone-suspicious-include) */
#include "drivers/usb/xhci_ring.c"  /* NOLINT(bugprone-suspicious-include) */

/* --- HID boot keyboard ----------------------------------------------------- */

static char out[128];
static size_t out_len;

static void emit(char c)
{
	if (out_len + 1 < sizeof(out))
		out[out_len++] = c;
	out[out_len] = 0;
}

static struct hid_kbd kbd;

static int reset(void **state)
{
	out_len = 0;
	out[0] = 0;
	hid_kbd_init(&kbd, emit);
	return 0;
}

/* report - the keyboard's state: modifiers and up to six usages. */
static void report(uint64_t ms, uint8_t mods, uint8_t k0, uint8_t k1, uint8_t k2)
{
	uint8_t r[8] = {mods, 0, k0, k1, k2, 0, 0, 0};
	hid_kbd_report(&kbd, r, ms);
}

/* tap - press a key alone, then release everything. */
static void tap(uint64_t ms, uint8_t mods, uint8_t usage)
{
	report(ms, mods, usage, 0, 0);
	report(ms + 10, mods, 0, 0, 0);
}

static void test_letters_digits_enter(void **state)
{
	tap(0, 0, 0x0b);        /* h */
	tap(20, 0, 0x0c);       /* i */
	tap(40, 0, 0x1e);       /* 1 */
	tap(60, 0, 0x27);       /* 0 */
	tap(80, 0, 0x2c);       /* space */
	tap(100, 0, 0x2a);      /* Backspace */
	tap(120, 0, 0x28);      /* Enter */
	assert_string_equal(out, "hi10 \x7f\r");
}

static void test_shift_and_caps(void **state)
{
	tap(0, 0x02, 0x04);     /* left Shift + a */
	tap(20, 0x20, 0x1e);    /* right Shift + 1 */
	tap(40, 0x02, 0x38);    /* Shift + / */
	tap(60, 0, 0x39);       /* Caps Lock on */
	tap(80, 0, 0x05);       /* B */
	tap(100, 0x02, 0x06);   /* Shift inverts it: c */
	tap(120, 0, 0x1f);      /* digits are not capitals: 2 */
	tap(140, 0, 0x39);      /* Caps Lock off */
	tap(160, 0, 0x07);      /* d */
	assert_string_equal(out, "A!?Bc2d");
}

static void test_ctrl(void **state)
{
	tap(0, 0x01, 0x06);     /* left Ctrl + c: ETX */
	tap(20, 0x10, 0x1d);    /* right Ctrl + z */
	tap(40, 0x01, 0x1e);    /* Ctrl + 1: nothing */
	assert_int_equal(out_len, 2);
	assert_int_equal(out[0], 0x03);
	assert_int_equal(out[1], 0x1a);
}

static void test_press_once_while_held(void **state)
{
	/* a held, then b pressed too, then a released: each once. */
	report(0, 0, 0x04, 0, 0);
	report(10, 0, 0x04, 0x05, 0);
	report(20, 0, 0x05, 0, 0);
	report(30, 0, 0, 0, 0);
	assert_string_equal(out, "ab");
	/* A modifier alone, and keys that make nothing (F1, arrows). */
	report(40, 0x02, 0, 0, 0);
	tap(50, 0, 0x3a);
	tap(70, 0, 0x4f);
	assert_string_equal(out, "ab");
}

static void test_rollover_ignored(void **state)
{
	report(0, 0, 0x04, 0, 0);
	report(10, 0, 0x01, 0x01, 0x01);  /* too many keys: phantom state */
	report(20, 0, 0x04, 0x05, 0);     /* a still held: only b is new */
	assert_string_equal(out, "ab");
}

static void test_repeat(void **state)
{
	report(1000, 0, 0x04, 0, 0);                  /* a, held */
	hid_kbd_tick(&kbd, 1000 + HID_REPEAT_DELAY_MS - 1);
	assert_string_equal(out, "a");                /* not yet */
	hid_kbd_tick(&kbd, 1000 + HID_REPEAT_DELAY_MS);
	assert_string_equal(out, "aa");
	hid_kbd_tick(&kbd, 1000 + HID_REPEAT_DELAY_MS + HID_REPEAT_PERIOD_MS);
	assert_string_equal(out, "aaa");
	/* Shift pressed while it repeats: capitals from then on. */
	report(1600, 0x02, 0x04, 0, 0);
	hid_kbd_tick(&kbd, 1000 + HID_REPEAT_DELAY_MS + 2 * HID_REPEAT_PERIOD_MS);
	assert_string_equal(out, "aaaA");
	/* A second key takes the repeat over; the first stops. */
	report(1700, 0x02, 0x04, 0x05, 0);
	assert_string_equal(out, "aaaAB");
	hid_kbd_tick(&kbd, 1700 + HID_REPEAT_DELAY_MS);
	assert_string_equal(out, "aaaABB");
	/* Released: no more. */
	report(2300, 0, 0, 0, 0);
	hid_kbd_tick(&kbd, 5000);
	assert_string_equal(out, "aaaABB");
}

static void test_repeat_stops_on_release_of_that_key(void **state)
{
	report(0, 0, 0x04, 0x05, 0);     /* a and b together: b repeats */
	report(10, 0, 0x04, 0, 0);       /* b released, a still held */
	hid_kbd_tick(&kbd, 10000);
	assert_string_equal(out, "ab");  /* a was not the last pressed */
}

/* --- rings ----------------------------------------------------------------- */

#define N 8

static void test_producer_ring_wraps_with_link(void **state)
{
	static struct xhci_trb trbs[N];
	struct xhci_ring r;
	const uint64_t base = 0x10000;

	assert_int_equal(xhci_ring_init(&r, trbs, base, N), base | 1);
	assert_int_equal(TRB_GET_TYPE(trbs[N - 1].control), 6);   /* link */
	assert_int_equal(trbs[N - 1].param, base);
	assert_true(trbs[N - 1].control & TRB_TOGGLE);
	assert_int_equal(trbs[N - 1].control & TRB_CYCLE, 0);     /* not yet given */

	/* First lap: N - 1 TRBs with cycle 1, at consecutive addresses. */
	for (unsigned int i = 0; i < N - 1; i++) {
		uint64_t at = xhci_ring_push(&r, 100 + i, i, TRB_TYPE(1) | TRB_CYCLE);
		assert_int_equal(at, base + 16 * i);
		assert_int_equal(trbs[i].param, 100 + i);
		assert_int_equal(trbs[i].control & TRB_CYCLE, 1);
		assert_int_equal(TRB_GET_TYPE(trbs[i].control), 1);
	}
	/* The link was handed over with cycle 1; the producer's cycle is 0. */
	assert_int_equal(trbs[N - 1].control & TRB_CYCLE, 1);
	assert_int_equal(r.enq, 0);
	assert_int_equal(r.cycle, 0);

	/* Second lap: cycle 0 (the cycle bit in control is ignored). */
	uint64_t at = xhci_ring_push(&r, 7, 0, TRB_TYPE(9) | TRB_CYCLE);
	assert_int_equal(at, base);
	assert_int_equal(trbs[0].control & TRB_CYCLE, 0);
	assert_int_equal(TRB_GET_TYPE(trbs[0].control), 9);
	/* The old first-lap TRBs still have cycle 1: not the consumer's now. */
	assert_int_equal(trbs[1].control & TRB_CYCLE, 1);
	for (unsigned int i = 1; i < N - 1; i++)
		xhci_ring_push(&r, 0, 0, TRB_TYPE(1));
	assert_int_equal(trbs[N - 1].control & TRB_CYCLE, 0);  /* link again */
	assert_int_equal(r.cycle, 1);
}

/* controller_writes - the test as the controller: an event at index i
 * with cycle bit c. */
static void controller_writes(struct xhci_trb *t, unsigned int i, uint32_t c,
			      uint64_t param)
{
	t[i].param = param;
	t[i].status = 0;
	t[i].control = TRB_TYPE(33) | c;
}

static void test_event_ring_consumer(void **state)
{
	static struct xhci_trb trbs[N];
	struct xhci_event_ring er;
	const uint64_t base = 0x20000;

	xhci_event_ring_init(&er, trbs, base, N);
	assert_null(xhci_event_peek(&er));       /* zeroed: nothing new */

	for (unsigned int i = 0; i < N; i++) {
		controller_writes(trbs, i, 1, i);
		const struct xhci_trb *ev = xhci_event_peek(&er);
		assert_non_null(ev);
		assert_int_equal(ev->param, i);
		uint64_t erdp = xhci_event_pop(&er);
		assert_int_equal(erdp, base + 16 * ((i + 1) % N));
	}
	/* Wrapped: the consumer now waits for cycle 0; the old events, cycle
	 * 1, are not read again. */
	assert_int_equal(er.deq, 0);
	assert_int_equal(er.cycle, 0);
	assert_null(xhci_event_peek(&er));
	controller_writes(trbs, 0, 0, 42);
	assert_non_null(xhci_event_peek(&er));
	assert_int_equal(xhci_event_peek(&er)->param, 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_letters_digits_enter, reset),
		cmocka_unit_test_setup(test_shift_and_caps, reset),
		cmocka_unit_test_setup(test_ctrl, reset),
		cmocka_unit_test_setup(test_press_once_while_held, reset),
		cmocka_unit_test_setup(test_rollover_ignored, reset),
		cmocka_unit_test_setup(test_repeat, reset),
		cmocka_unit_test_setup(test_repeat_stops_on_release_of_that_key, reset),
		cmocka_unit_test(test_producer_ring_wraps_with_link),
		cmocka_unit_test(test_event_ring_consumer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
