// SPDX-License-Identifier: MIT
/*
 * drivers/video/vga.c - console output on the VGA text screen: 80x25 cells of
 * (character, attribute) at physical 0xb8000, scrolled by copying up.
 */
#include "drivers/video/vga.h"

#include <string.h>

#include "arch/x86_64/io.h"
#include "kernel/base/platform.h"
#include "kernel/printk/console.h"

#define VGA_COLS 80
#define VGA_ROWS 25
#define VGA_ATTR 0x0700  /* light grey on black */

static volatile uint16_t *vga_cells;
static int vga_row, vga_col;
int vga_enabled = 1;  /* cleared when the boot loader set a graphics mode */

static void vga_set_cursor(void)
{
	unsigned int pos = vga_row * VGA_COLS + vga_col;
	outb(0x3d4, 0x0f);
	outb(0x3d5, pos & 0xff);
	outb(0x3d4, 0x0e);
	outb(0x3d5, (pos >> 8) & 0xff);
}

static const struct console_output vga_console = {
	.name = "vga",
	.putc = vga_putc,
};

void vga_init(void)
{
	if (!vga_enabled)
		return;
	vga_cells = phys_to_virt(0xb8000);
	for (int i = 0; i < VGA_COLS * VGA_ROWS; i++)
		vga_cells[i] = VGA_ATTR | ' ';
	vga_row = vga_col = 0;
	console_register_output(&vga_console);
}

static void vga_scroll(void)
{
	for (int i = 0; i < VGA_COLS * (VGA_ROWS - 1); i++)
		vga_cells[i] = vga_cells[i + VGA_COLS];
	for (int i = 0; i < VGA_COLS; i++)
		vga_cells[(VGA_ROWS - 1) * VGA_COLS + i] = VGA_ATTR | ' ';
	vga_row = VGA_ROWS - 1;
}

void vga_putc(char c)
{
	if (!vga_enabled || !vga_cells)
		return;
	switch (c) {
	case '\n':
		vga_col = 0;
		vga_row++;
		break;
	case '\r':
		vga_col = 0;
		break;
	case '\b':
		if (vga_col > 0)
			vga_col--;
		break;
	default:
		if ((unsigned char)c < ' ')
			return;
		vga_cells[vga_row * VGA_COLS + vga_col] = VGA_ATTR | (uint8_t)c;
		if (++vga_col == VGA_COLS) {
			vga_col = 0;
			vga_row++;
		}
	}
	if (vga_row == VGA_ROWS)
		vga_scroll();
	vga_set_cursor();
}
