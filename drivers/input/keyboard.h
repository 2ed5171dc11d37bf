/* SPDX-License-Identifier: MIT */
/*
 * drivers/input/keyboard.h - the PS/2 keyboard (or the USB keyboard that the
 * firmware's legacy emulation presents as one): key presses become bytes
 * of console input, beside COM1.
 */
#ifndef ARCH_X86_64_KEYBOARD_H
#define ARCH_X86_64_KEYBOARD_H

#include <stdint.h>

/*
 * keyboard_init - set up the 8042 controller (keyboard port on, its
 * interrupt on, scan codes translated to set 1) and route IRQ 1 to
 * VECTOR_KEYBOARD. Does nothing if there is no controller. Call after
 * ioapic_init.
 */
void keyboard_init(void);

/*
 * keyboard_scancode - feed one set-1 scan code byte to the decoder; returns
 * the byte the key produces (ASCII; Enter is '\r', Backspace 0x7f, Ctrl+
 * letter its control code) or -1 for none (a release, a modifier, a key
 * that makes no character, the first byte of an extended code).
 */
int keyboard_scancode(uint8_t code);

#endif
