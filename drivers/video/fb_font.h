/* SPDX-License-Identifier: MIT */
/*
 * drivers/video/fb_font.h - the font of the framebuffer console.
 *
 * Defined by build/fb_font.c, which the Makefile generates from one of
 * Debian's console fonts (FONT=Lat15-VGA16 by default) with
 * drivers/video/font2c.pl. Glyph c (0..127, ASCII order) is fb_font_height
 * rows of fb_font_row_bytes bytes, starting at
 * fb_font_glyphs[c * fb_font_height * fb_font_row_bytes]; the most
 * significant bit of a row's first byte is its leftmost pixel.
 */
#ifndef ARCH_X86_64_FB_FONT_H
#define ARCH_X86_64_FB_FONT_H

#include <stdint.h>

extern const char fb_font_name[];
extern const unsigned int fb_font_width;      /* pixels, at most 32 */
extern const unsigned int fb_font_height;     /* pixels, at most 64 */
extern const unsigned int fb_font_row_bytes;
extern const uint8_t fb_font_glyphs[];

#endif
