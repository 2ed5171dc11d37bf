// SPDX-License-Identifier: MIT
/*
 * drivers/video/fb.c - console output on a linear framebuffer.
 *
 * Under UEFI there is no VGA text screen: GRUB hands over the firmware's
 * graphics mode (the GOP framebuffer) in the multiboot2 framebuffer tag,
 * and this file draws text on it, the same bytes the serial console gets.
 *
 * The screen is a grid of cells, each one glyph of the console font
 * (drivers/video/fb_font.h, generated at build time from a Debian console
 * font), drawn light grey on black as the VGA text screen is. On screens
 * of 2560x1440 and more each font pixel is drawn as 2x2 (or more), so that
 * the text stays readable.
 *
 * Scrolling. The obvious way is to memmove the pixel rows up by one text
 * line, but that reads the framebuffer, and reads of video memory are very
 * slow on real hardware (it is uncached or write-combining: every read
 * goes over the bus). So the file keeps, in RAM, the character shown in
 * every cell (fb.cells), and scrolling is a memmove of that grid; then
 * only the cells whose character changed are drawn again. Text that
 * scrolls over blank space costs nothing, and the framebuffer is only ever
 * written.
 *
 * The cursor is an underline in the last rows of its cell, drawn when the
 * output stops (at the end of each fb_putc) and removed before the cell
 * changes.
 */
#include "drivers/video/fb.h"

#include <string.h>

#include "drivers/video/fb_font.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/paging.h"
#include "kernel/base/platform.h"
#include "kernel/printk/console.h"

/* The largest grid kept: 320x160 cells (2560x2560 pixels with an 8x16 font
 * at scale 1); larger screens get a larger scale. */
#define FB_MAX_COLS 320
#define FB_MAX_ROWS 160

#define FB_TYPE_RGB 1

static struct {
	uint8_t *base;            /* the framebuffer, in the direct map */
	uint32_t pitch;           /* bytes from one pixel row to the next */
	uint32_t width, height;   /* pixels */
	unsigned int bytes_pp;    /* bytes per pixel: 2, 3 or 4 */
	uint32_t fg, bg;          /* pixel values */
	unsigned int scale;       /* screen pixels per font pixel, each way */
	unsigned int cell_w, cell_h;  /* pixels */
	unsigned int cols, rows;
	unsigned int row, col;    /* the cursor */
	bool active;
	uint8_t cells[FB_MAX_ROWS * FB_MAX_COLS];  /* character in each cell */
} fb;

/* grey - light grey (VGA colour 7, 0xaa per channel) as a pixel of this
 * depth. The tag's colour masks are not needed: grey is the same in RGB
 * and BGR order. */
static uint32_t grey(unsigned int bpp)
{
	switch (bpp) {
	case 15:
		return (21u << 10) | (21u << 5) | 21u;
	case 16:
		return (21u << 11) | (42u << 5) | 21u;
	default:
		return 0xaaaaaa;
	}
}

static inline void put_pixel(uint8_t *p, uint32_t v)
{
	switch (fb.bytes_pp) {
	case 4:
		*(volatile uint32_t *)p = v;
		break;
	case 3:
		((volatile uint8_t *)p)[0] = (uint8_t)v;
		((volatile uint8_t *)p)[1] = (uint8_t)(v >> 8);
		((volatile uint8_t *)p)[2] = (uint8_t)(v >> 16);
		break;
	default:
		*(volatile uint16_t *)p = (uint16_t)v;
		break;
	}
}

/* glyph_row - font row y of character c, leftmost pixel in bit width-1. */
static uint32_t glyph_row(uint8_t c, unsigned int y)
{
	const uint8_t *g = fb_font_glyphs +
		((size_t)(c & 0x7f) * fb_font_height + y) * fb_font_row_bytes;
	uint32_t bits = 0;
	for (unsigned int i = 0; i < fb_font_row_bytes; i++)
		bits = (bits << 8) | g[i];
	return bits >> (fb_font_row_bytes * 8 - fb_font_width);
}

/* draw_cell - draw character c in cell (row, col), with the underline
 * cursor if cursor is set. */
static void draw_cell(unsigned int row, unsigned int col, uint8_t c,
		      bool cursor)
{
	/* The cursor: the last eighth of the font's rows, at least one. */
	unsigned int cursor_from = fb_font_height - (fb_font_height + 7) / 8;
	uint8_t *line = fb.base + (size_t)row * fb.cell_h * fb.pitch +
		(size_t)col * fb.cell_w * fb.bytes_pp;

	for (unsigned int y = 0; y < fb_font_height; y++) {
		uint32_t bits = glyph_row(c, y);
		if (cursor && y >= cursor_from)
			bits = ~0u;
		for (unsigned int sy = 0; sy < fb.scale;
		     sy++, line += fb.pitch) {
			uint8_t *p = line;
			for (unsigned int x = 0; x < fb_font_width; x++) {
				unsigned int bit = fb_font_width - 1 - x;
				uint32_t v = (bits >> bit) & 1 ? fb.fg : fb.bg;
				for (unsigned int sx = 0; sx < fb.scale; sx++) {
					put_pixel(p, v);
					p += fb.bytes_pp;
				}
			}
		}
	}
}

/* set_cell - show character c in a cell, drawing only if it changed. */
static void set_cell(unsigned int row, unsigned int col, uint8_t c)
{
	uint8_t *cell = &fb.cells[row * fb.cols + col];
	if (*cell == c)
		return;
	*cell = c;
	draw_cell(row, col, c, false);
}

static void clear_screen(void)
{
	for (uint32_t y = 0; y < fb.height; y++) {
		uint8_t *p = fb.base + (size_t)y * fb.pitch;
		for (uint32_t x = 0; x < fb.width; x++, p += fb.bytes_pp)
			put_pixel(p, fb.bg);
	}
	memset(fb.cells, ' ', sizeof(fb.cells));
}

/* scroll - move every line up by one and blank the last: the grid is
 * moved with memmove, and a cell is drawn again only if its character is
 * not the one it already shows. */
static void scroll(void)
{
	for (unsigned int r = 0; r + 1 < fb.rows; r++)
		for (unsigned int c = 0; c < fb.cols; c++)
			set_cell(r, c, fb.cells[(r + 1) * fb.cols + c]);
	for (unsigned int c = 0; c < fb.cols; c++)
		set_cell(fb.rows - 1, c, ' ');
}

static void cursor_show(bool on)
{
	draw_cell(fb.row, fb.col, fb.cells[fb.row * fb.cols + fb.col], on);
}

static void newline(void)
{
	fb.col = 0;
	if (++fb.row == fb.rows) {
		scroll();
		fb.row = fb.rows - 1;
	}
}

void fb_putc(char ch)
{
	uint8_t c = (uint8_t)ch;

	if (!fb.active)
		return;
	cursor_show(false);
	switch (c) {
	case '\n':
		newline();
		break;
	case '\r':
		fb.col = 0;
		break;
	case '\b':
		if (fb.col > 0)
			fb.col--;
		break;
	case '\t':
		do
			set_cell(fb.row, fb.col++, ' ');
		while (fb.col % 8 && fb.col < fb.cols);
		if (fb.col == fb.cols)
			newline();
		break;
	default:
		if (c < ' ' || c > '~')
			break;
		set_cell(fb.row, fb.col, c);
		if (++fb.col == fb.cols)
			newline();
	}
	cursor_show(true);
	__asm__ volatile("sfence" ::: "memory");  /* drain write-combining */
}

static const struct console_output fb_console = {
	.name = "fb",
	.putc = fb_putc,
};

void fb_init(const struct boot_framebuffer *info)
{
	if (!info->addr || info->type != FB_TYPE_RGB)
		return;
	if (info->bpp != 15 && info->bpp != 16 && info->bpp != 24 &&
	    info->bpp != 32)
		return;
	if (info->width < fb_font_width * 20 ||
	    info->height < fb_font_height * 5)
		return;

	fb.pitch = info->pitch;
	fb.width = info->width;
	fb.height = info->height;
	fb.bytes_pp = (info->bpp + 7) / 8;
	fb.fg = grey(info->bpp);
	fb.bg = 0;
	fb.scale = (fb.width >= 2560 && fb.height >= 1440) ? 2 : 1;
	while (fb.width / (fb_font_width * fb.scale) > FB_MAX_COLS ||
	       fb.height / (fb_font_height * fb.scale) > FB_MAX_ROWS)
		fb.scale++;
	fb.cell_w = fb_font_width * fb.scale;
	fb.cell_h = fb_font_height * fb.scale;
	fb.cols = fb.width / fb.cell_w;
	fb.rows = fb.height / fb.cell_h;

	/* The direct map covers the first 4 GiB; a framebuffer above that
	 * (a large PCI BAR) is mapped into it here, uncached. */
	uint64_t size = (uint64_t)fb.pitch * fb.height;
	if (!paging_lookup_pte((uint64_t)phys_to_virt(info->addr), NULL) ||
	    !paging_lookup_pte((uint64_t)phys_to_virt(info->addr + size - 1),
			       NULL))
		paging_map_uncached(info->addr, size);
	fb.base = phys_to_virt(info->addr);

	fb.row = fb.col = 0;
	fb.active = true;
	clear_screen();
	cursor_show(true);
	console_register_output(&fb_console);
}

/*
 * Write-combining. Video memory is uncached by the firmware's MTRRs, so
 * each pixel store is a separate bus transaction; a write-combining
 * mapping lets the CPU merge stores into whole lines, an order of
 * magnitude faster on real hardware. The page tables pick a memory type
 * through the PAT, an 8-entry table in an MSR: entry 1 (the PWT bit alone)
 * is write-through by default, and nothing else in tally uses it, so it is
 * made write-combining on every CPU - all CPUs must agree - and the
 * framebuffer's pages are given PWT. Until a CPU has switched, entry 1
 * means write-through, which over uncached memory is uncached: harmless.
 */
#define MSR_PAT 0x277
#define PAT_WC  0x01

static void pat_entry1_wc(void *arg)
{
	uint64_t pat = rdmsr(MSR_PAT);
	__asm__ volatile("wbinvd" ::: "memory");
	wrmsr(MSR_PAT, (pat & ~(0xffull << 8)) | ((uint64_t)PAT_WC << 8));
	__asm__ volatile("wbinvd" ::: "memory");
	/* The direct map is global: flush each framebuffer page by address. */
	uint64_t size = (uint64_t)fb.pitch * fb.height;
	for (uint64_t off = 0; off < size + (2u << 20); off += 2u << 20)
		paging_flush((uint64_t)fb.base + off);
}

void fb_enable_write_combining(void)
{
	if (!fb.active)
		return;
	uint64_t size = (uint64_t)fb.pitch * fb.height;
	uint64_t start = (uint64_t)fb.base & ~((2ull << 20) - 1);
	for (uint64_t va = start; va < (uint64_t)fb.base + size; va += 4096) {
		int level;
		uint64_t *pte = paging_lookup_pte(va, &level);
		if (!pte)
			return;
		*pte = (*pte & ~PTE_PCD) | PTE_PWT;
		if (level == 2)
			va += (2ull << 20) - 4096;  /* one entry maps 2 MiB */
	}
	smp_call_function_all(pat_entry1_wc, NULL);
}
