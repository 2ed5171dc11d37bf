// SPDX-License-Identifier: MIT
/*
 * drivers/usb/hid_kbd.c - HID boot-protocol keyboard reports
 * to console bytes.
 *
 * In the boot protocol (HID 1.11, appendix B) a keyboard sends, whenever
 * what is held changes, an 8-byte report of its whole state:
 *
 *   byte 0   modifiers: bit 0 left Ctrl, 1 left Shift, 2 left Alt,
 *            3 left GUI, 4-7 the same on the right
 *   byte 1   reserved
 *   2..7     the usage ids (HID Usage Tables, page 7) of up to six keys
 *            held, 0 for none; all 0x01 when more are held than fit
 *
 * There is no "press" or "release" message: a press is a usage that
 * appears, a release one that goes away. Nor does the keyboard repeat a
 * held key (tally sets the idle rate to 0: reports come on change only),
 * so repeat is done here, as a PC's keyboard controller does it: the
 * last key pressed repeats after HID_REPEAT_DELAY_MS while it is held,
 * every HID_REPEAT_PERIOD_MS, with the modifiers held at that moment.
 */
#include "drivers/usb/hid_kbd.h"

#include <string.h>

#define MOD_CTRL  0x11   /* left or right */
#define MOD_SHIFT 0x22

#define USAGE_A      0x04
#define USAGE_Z      0x1d
#define USAGE_CAPS   0x39
#define USAGE_ROLLOVER 0x01

/* Usages 0x1e-0x38 (digits, Enter, Esc, Backspace, Tab, Space,
 * punctuation) and the keypad 0x54-0x63, without and with Shift. */
static const char plain[0x64] = {
	[0x1e] = '1', '2', '3', '4', '5', '6', '7', '8', '9', '0',
	[0x28] = '\r', 0x1b, 0x7f, '\t', ' ', '-', '=', '[', ']', '\\',
	[0x32] = '#', ';', '\'', '`', ',', '.', '/',
	[0x54] = '/', '*', '-', '+', '\r', '1', '2', '3', '4', '5', '6', '7',
	'8', '9', '0', '.',
};
static const char shifted[0x64] = {
	[0x1e] = '!', '@', '#', '$', '%', '^', '&', '*', '(', ')',
	[0x28] = '\r', 0x1b, 0x7f, '\t', ' ', '_', '+', '{', '}', '|',
	[0x32] = '~', ':', '"', '~', '<', '>', '?',
	[0x54] = '/', '*', '-', '+', '\r', '1', '2', '3', '4', '5', '6', '7',
	'8', '9', '0', '.',
};

int hid_kbd_usage_char(uint8_t usage, uint8_t modifiers, bool caps)
{
	bool shift = modifiers & MOD_SHIFT;
	int c;

	if (usage >= USAGE_A && usage <= USAGE_Z) {
		c = 'a' + (usage - USAGE_A);
		if (shift != caps)
			c -= 'a' - 'A';
	} else if (usage < sizeof(plain) && plain[usage]) {
		c = (unsigned char)(shift ? shifted[usage] : plain[usage]);
	} else {
		return -1;
	}
	if (modifiers & MOD_CTRL) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			return c & 0x1f;
		return -1;
	}
	return c;
}

void hid_kbd_init(struct hid_kbd *k, void (*emit)(char c))
{
	memset(k, 0, sizeof(*k));
	k->emit = emit;
}

static bool held(const uint8_t keys[6], uint8_t usage)
{
	for (int i = 0; i < 6; i++)
		if (keys[i] == usage)
			return true;
	return false;
}

void hid_kbd_report(struct hid_kbd *k, const uint8_t report[8], uint64_t now_ms)
{
	const uint8_t *keys = report + 2;

	if (keys[0] == USAGE_ROLLOVER)
		return;     /* phantom state: keep what we had */
	k->modifiers = report[0];
	for (int i = 0; i < 6; i++) {
		uint8_t u = keys[i];
		if (u < USAGE_A || held(k->keys, u))
			continue;
		if (u == USAGE_CAPS) {
			k->caps = !k->caps;
			continue;
		}
		int c = hid_kbd_usage_char(u, k->modifiers, k->caps);
		if (c < 0)
			continue;
		k->emit((char)c);
		k->repeat_key = u;
		k->repeat_at = now_ms + HID_REPEAT_DELAY_MS;
	}
	if (k->repeat_key && !held(keys, k->repeat_key))
		k->repeat_key = 0;
	memcpy(k->keys, keys, 6);
}

void hid_kbd_tick(struct hid_kbd *k, uint64_t now_ms)
{
	if (!k->repeat_key || now_ms < k->repeat_at)
		return;
	int c = hid_kbd_usage_char(k->repeat_key, k->modifiers, k->caps);
	if (c >= 0)
		k->emit((char)c);
	k->repeat_at = now_ms + HID_REPEAT_PERIOD_MS;
}
