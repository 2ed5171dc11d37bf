/* SPDX-License-Identifier: MIT */
/*
 * drivers/usb/hid_kbd.h - a USB keyboard in the HID boot
 * protocol: its 8-byte reports become console input bytes, with key
 * repeat. No registers here: the xHCI driver feeds it.
 */
#ifndef ARCH_X86_64_HID_KBD_H
#define ARCH_X86_64_HID_KBD_H

#include <stdbool.h>
#include <stdint.h>

#define HID_REPEAT_DELAY_MS  500   /* a held key starts repeating after... */
#define HID_REPEAT_PERIOD_MS 33    /* ...and then repeats every (30/s) */

struct hid_kbd {
	uint8_t keys[6];           /* the keys held, from the last report */
	uint8_t modifiers;         /* its modifier byte */
	bool caps;                 /* Caps Lock toggled on */
	uint8_t repeat_key;        /* the usage repeating, 0 for none */
	uint64_t repeat_at;        /* in ms: when it next repeats */
	void (*emit)(char c);      /* where the bytes go (console_input) */
};

/* hid_kbd_init - a keyboard with no key held, sending bytes to emit. */
void hid_kbd_init(struct hid_kbd *k, void (*emit)(char c));

/*
 * hid_kbd_report - one boot-protocol report (byte 0 modifiers, byte 1
 * reserved, bytes 2-7 the usages of the keys held) received at now_ms.
 * Each key in it that was not in the last one is a press: its byte (US
 * layout; Shift, Caps Lock, Ctrl; Enter '\r', Backspace 0x7f) goes to
 * emit, and it becomes the key that repeats. A report of "phantom" usages
 * (0x01: too many keys at once) is ignored.
 */
void hid_kbd_report(struct hid_kbd *k, const uint8_t report[8],
		    uint64_t now_ms);

/* hid_kbd_tick - at now_ms: emit the held key again if its time came. */
void hid_kbd_tick(struct hid_kbd *k, uint64_t now_ms);

/* hid_kbd_usage_char - the byte that usage makes with these modifiers
 * and Caps Lock state; -1 for none (a modifier, an arrow, F1...). */
int hid_kbd_usage_char(uint8_t usage, uint8_t modifiers, bool caps);

#endif
