/* SPDX-License-Identifier: MIT */
/*
 * drivers/video/vga.h - the VGA text screen (80x25) under BIOS.
 */
#ifndef ARCH_X86_64_VGA_H
#define ARCH_X86_64_VGA_H

void vga_init(void);
void vga_putc(char c);

#endif
