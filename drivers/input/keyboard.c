// SPDX-License-Identifier: MIT
/*
 * drivers/input/keyboard.c - the PS/2 keyboard: scan codes to console input.
 *
 * The keyboard talks to the 8042 controller, which the CPU reads at two
 * ports: 0x64 (status on read, commands on write) and 0x60 (data). On
 * most PCs without a PS/2 socket the firmware's USB legacy emulation
 * presents the USB keyboard the same way. Each key press and release
 * raises IRQ 1 with one byte of scan code waiting at 0x60.
 *
 * The controller is set to translate the keyboard's scan codes to set 1,
 * the oldest and simplest: a key's press is one byte below 0x80 and its
 * release the same byte with bit 7 set; a few keys send 0xE0 first
 * (the right Ctrl and Alt, the arrows, the keypad's Enter and '/'), and
 * Pause sends six bytes starting with 0xE1. keyboard_scancode() turns
 * these into bytes for console_input() with a US layout: Shift, Caps
 * Lock and Ctrl apply, Enter is '\r' and Backspace 0x7f (as a serial
 * terminal sends them), keys that make no character are dropped.
 */
#include "drivers/input/keyboard.h"

#include <stdbool.h>

#include "arch/x86_64/io.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/trap.h"
#include "kernel/base/initcall.h"
#include "kernel/printk/console.h"

#define KBD_DATA   0x60
#define KBD_STATUS 0x64    /* read */
#define KBD_CMD    0x64    /* write */

#define STATUS_OUT_FULL 0x01   /* a byte waits at KBD_DATA */
#define STATUS_IN_FULL  0x02   /* the controller has not taken our byte */
#define STATUS_AUX      0x20   /* the waiting byte is from the mouse port */

#define CMD_READ_CONFIG  0x20
#define CMD_WRITE_CONFIG 0x60
#define CMD_AUX_DISABLE  0xa7
#define CMD_KBD_DISABLE  0xad
#define CMD_KBD_ENABLE   0xae

#define CONFIG_KBD_IRQ       0x01
#define CONFIG_AUX_IRQ       0x02
#define CONFIG_KBD_CLOCK_OFF 0x10
#define CONFIG_TRANSLATE     0x40

#define KBD_SET_SCANCODES 0xf0
#define KBD_ENABLE_SCAN   0xf4
#define KBD_ACK           0xfa
#define KBD_RESEND        0xfe

#define SPINS 100000       /* polls of the status port before giving up */

/* Set-1 scan codes (US layout) to characters, without and with Shift;
 * 0 for keys that make none. */
static const char keymap[0x59] = {
	[0x01] = 0x1b, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0',
	'-', '=',
	[0x0e] = 0x7f, '\t',
	'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\r',
	[0x1e] = 'a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`',
	[0x2b] = '\\', 'z', 'x', 'c', 'v', 'b', 'n', 'm', ',', '.', '/',
	[0x37] = '*', [0x39] = ' ',
	[0x47] = '7', '8', '9', '-', '4', '5', '6', '+', '1', '2', '3', '0',
	'.',
};
static const char keymap_shift[0x59] = {
	[0x01] = 0x1b, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')',
	'_', '+',
	[0x0e] = 0x7f, '\t',
	'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\r',
	[0x1e] = 'A', 'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~',
	[0x2b] = '|', 'Z', 'X', 'C', 'V', 'B', 'N', 'M', '<', '>', '?',
	[0x37] = '*', [0x39] = ' ',
	[0x47] = '7', '8', '9', '-', '4', '5', '6', '+', '1', '2', '3', '0',
	'.',
};

#define SC_LCTRL  0x1d
#define SC_LSHIFT 0x2a
#define SC_RSHIFT 0x36
#define SC_CAPS   0x3a
#define SC_ENTER  0x1c
#define SC_SLASH  0x35

static struct {
	bool lshift, rshift, ctrl_l, ctrl_r, caps;
	bool extended;          /* the last byte was 0xE0 */
	int skip;               /* bytes of a Pause sequence still to come */
} kbd;

int keyboard_scancode(uint8_t code)
{
	if (kbd.skip > 0) {
		kbd.skip--;
		return -1;
	}
	if (code == 0xe1) {     /* Pause: E1 1D 45 E1 9D C5 */
		kbd.skip = 5;
		return -1;
	}
	if (code == 0xe0) {
		kbd.extended = true;
		return -1;
	}
	bool extended = kbd.extended;
	bool release = code & 0x80;
	uint8_t key = code & 0x7f;
	kbd.extended = false;

	/* Modifiers. E0 2A / E0 AA are fake shifts around some extended
	 * keys: ignored. */
	if (key == SC_LSHIFT || key == SC_RSHIFT) {
		if (!extended) {
			if (key == SC_LSHIFT)
				kbd.lshift = !release;
			else
				kbd.rshift = !release;
		}
		return -1;
	}
	if (key == SC_LCTRL) {
		if (extended)
			kbd.ctrl_r = !release;
		else
			kbd.ctrl_l = !release;
		return -1;
	}
	if (release)
		return -1;
	if (key == SC_CAPS) {
		kbd.caps = !kbd.caps;
		return -1;
	}

	/* Of the extended keys only the keypad's Enter and '/' make a
	 * character; the arrows, Home, End and the rest make none. */
	if (extended)
		return key == SC_ENTER ? '\r' : key == SC_SLASH ? '/' : -1;
	if (key >= sizeof(keymap) || !keymap[key])
		return -1;

	bool shift = kbd.lshift || kbd.rshift;
	char c = shift ? keymap_shift[key] : keymap[key];
	if (kbd.caps && c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	else if (kbd.caps && c >= 'A' && c <= 'Z')
		c += 'a' - 'A';
	if (kbd.ctrl_l || kbd.ctrl_r) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			return c & 0x1f;
		return -1;
	}
	return (unsigned char)c;
}

static void keyboard_interrupt(struct trap_frame *frame)
{
	uint8_t status;
	while ((status = inb(KBD_STATUS)) & STATUS_OUT_FULL) {
		uint8_t code = inb(KBD_DATA);
		if (status & STATUS_AUX)
			continue;       /* a mouse byte */
		int c = keyboard_scancode(code);
		if (c >= 0)
			console_input((char)c);
	}
}

/* --- talking to the controller, with time limits ----------------------- */

static bool wait_input_empty(void)
{
	for (int i = 0; i < SPINS; i++)
		if (!(inb(KBD_STATUS) & STATUS_IN_FULL))
			return true;
	return false;
}

static int read_data(void)
{
	for (int i = 0; i < SPINS; i++)
		if (inb(KBD_STATUS) & STATUS_OUT_FULL)
			return inb(KBD_DATA);
	return -1;
}

static void flush_output(void)
{
	for (int i = 0; i < 64 && (inb(KBD_STATUS) & STATUS_OUT_FULL); i++)
		inb(KBD_DATA);
}

static bool controller_cmd(uint8_t cmd)
{
	if (!wait_input_empty())
		return false;
	outb(KBD_CMD, cmd);
	return true;
}

/* keyboard_send - a byte to the keyboard itself; true once it acknowledged. */
static bool keyboard_send(uint8_t byte)
{
	for (int tries = 0; tries < 3; tries++) {
		if (!wait_input_empty())
			return false;
		outb(KBD_DATA, byte);
		int reply = read_data();
		if (reply == KBD_ACK)
			return true;
		if (reply != KBD_RESEND)
			return false;
	}
	return false;
}

void keyboard_init(void)
{
	/* No controller: the port floats and reads 0xff. */
	if (inb(KBD_STATUS) == 0xff)
		return;

	controller_cmd(CMD_KBD_DISABLE);
	controller_cmd(CMD_AUX_DISABLE);
	flush_output();

	int config = -1;
	if (controller_cmd(CMD_READ_CONFIG))
		config = read_data();
	if (config < 0)
		return;     /* no answer: there is no working controller */
	config |= CONFIG_KBD_IRQ | CONFIG_TRANSLATE;
	config &= ~(CONFIG_KBD_CLOCK_OFF | CONFIG_AUX_IRQ);
	if (controller_cmd(CMD_WRITE_CONFIG) && wait_input_empty())
		outb(KBD_DATA, (uint8_t)config);
	controller_cmd(CMD_KBD_ENABLE);

	/* The firmware may have left the keyboard in another scan code set,
	 * or not scanning: ask for set 2 (translated to set 1 by the
	 * controller) and for scanning. A keyboard that does not answer
	 * (some legacy emulations) keeps what it has. */
	if (keyboard_send(KBD_SET_SCANCODES))
		keyboard_send(2);
	keyboard_send(KBD_ENABLE_SCAN);
	flush_output();

	trap_register(VECTOR_KEYBOARD, keyboard_interrupt);
	ioapic_route_isa_irq(1, VECTOR_KEYBOARD);
	/* A key pressed since the flush would leave the line high with no
	 * new edge: read it now. */
	keyboard_interrupt(0);
}
INITCALL(device, keyboard_init);
