/* SPDX-License-Identifier: MIT */
/*
 * drivers/video/fb.h - console output on a linear framebuffer: the screen
 * that GRUB leaves under UEFI (or a VBE graphics mode under BIOS).
 */
#ifndef ARCH_X86_64_FB_H
#define ARCH_X86_64_FB_H

#include <stdbool.h>

#include "arch/x86_64/boot_info.h"

/*
 * fb_init - take over the framebuffer described by the boot loader, clear
 * it and put the cursor at the top left. Does nothing (and fb_putc stays a
 * no-op) for EGA text (the VGA text driver's), indexed-colour or missing
 * framebuffers. Call after paging_init (the framebuffer is reached through
 * the direct map).
 */
void fb_init(const struct boot_framebuffer *fb);

/* fb_putc - draw one byte at the cursor: printable ASCII, '\n', '\r',
 * '\b', '\t'; other bytes are ignored. The caller serialises calls
 * (console_write's lock). */
void fb_putc(char c);

/*
 * fb_enable_write_combining - map the framebuffer write-combining (PAT),
 * on every CPU: call once, after the other CPUs are up (smp_boot). Drawing
 * works without it, only slower on real hardware.
 */
void fb_enable_write_combining(void);

#endif
