// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/multiboot.c - reading the boot loader's information:
 * multiboot1 (QEMU -kernel) and multiboot2 (GRUB, the ISO).
 *
 * Both give a memory map, a command line and modules; multiboot2 also
 * gives a copy of the ACPI RSDP (UEFI machines have no BIOS area to search)
 * and the framebuffer. The first MiB, the kernel image, the information
 * structure and the modules are reserved.
 */
#include "arch/x86_64/boot_info.h"

#include <string.h>

#include "kernel/base/platform.h"

struct boot_info boot_info;

extern char _boot_start_phys[], _kernel_end_phys[];

#define MB1_BOOTLOADER_MAGIC 0x2BADB002
#define MB2_BOOTLOADER_MAGIC 0x36d76289

struct mb1_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
} __attribute__((packed));

struct mb1_mmap_entry {
	uint32_t size;
	uint64_t addr, len;
	uint32_t type;
} __attribute__((packed));

struct mb1_module {
	uint32_t start, end, cmdline, pad;
};

struct mb2_tag {
	uint32_t type, size;
};

void boot_reserve(uint64_t start, uint64_t end)
{
	if (boot_info.nr_reserved == BOOT_MAX_RANGES)
		panic("boot_info: more than %d reserved ranges",
		      BOOT_MAX_RANGES);
	boot_info.reserved[boot_info.nr_reserved].start = start & ~0xfffull;
	boot_info.reserved[boot_info.nr_reserved].end = (end + 0xfff) &
							~0xfffull;
	boot_info.nr_reserved++;
}

static void add_ram(uint64_t start, uint64_t len)
{
	uint64_t end = (start + len) & ~0xfffull;
	start = (start + 0xfff) & ~0xfffull;
	if (end <= start || boot_info.nr_ram == BOOT_MAX_RANGES)
		return;
	boot_info.ram[boot_info.nr_ram].start = start;
	boot_info.ram[boot_info.nr_ram].end = end;
	boot_info.nr_ram++;
	boot_info.ram_bytes += end - start;
	if (end > boot_info.ram_top)
		boot_info.ram_top = end;
}

static void copy_string(char *dst, size_t size, const char *src)
{
	strncpy(dst, src, size - 1);
	dst[size - 1] = 0;
}

static void add_module(uint64_t start, uint64_t end, const char *cmdline)
{
	if (boot_info.nr_modules == BOOT_MAX_MODULES)
		return;
	struct boot_module *m = &boot_info.modules[boot_info.nr_modules++];
	m->start = start;
	m->end = end;
	copy_string(m->cmdline, sizeof(m->cmdline), cmdline);
	boot_reserve(start, end);
}

static void parse_mb1(uint64_t info_phys)
{
	struct mb1_info *info = phys_to_virt(info_phys);

	if (info->flags & (1u << 2))
		copy_string(boot_info.cmdline, sizeof(boot_info.cmdline),
			    phys_to_virt(info->cmdline));
	if (info->flags & (1u << 6)) {
		uint64_t p = info->mmap_addr, end = p + info->mmap_length;
		while (p < end) {
			struct mb1_mmap_entry *e = phys_to_virt(p);
			if (e->type == 1)
				add_ram(e->addr, e->len);
			p += e->size + 4;
		}
	} else {
		add_ram(0, (uint64_t)info->mem_lower * 1024);
		add_ram(0x100000, (uint64_t)info->mem_upper * 1024);
	}
	if (info->flags & (1u << 3)) {
		struct mb1_module *mods = phys_to_virt(info->mods_addr);
		for (uint32_t i = 0; i < info->mods_count; i++)
			add_module(mods[i].start, mods[i].end,
				   mods[i].cmdline ?
					   phys_to_virt(mods[i].cmdline) :
					   "");
	}
}

static void parse_mb2(uint64_t info_phys)
{
	uint32_t total = *(uint32_t *)phys_to_virt(info_phys);
	uint64_t p = info_phys + 8, end = info_phys + total;

	boot_info.multiboot2 = true;
	while (p < end) {
		struct mb2_tag *tag = phys_to_virt(p);
		uint8_t *body = (uint8_t *)(tag + 1);
		if (tag->type == 0)
			break;
		switch (tag->type) {
		case 1:  /* command line */
			copy_string(boot_info.cmdline,
				    sizeof(boot_info.cmdline), (char *)body);
			break;
		case 3: {  /* module: start, end, string */
			uint32_t *m = (uint32_t *)body;
			add_module(m[0], m[1], (char *)(m + 2));
			break;
		}
		case 6: {  /* memory map */
			uint32_t entry_size = ((uint32_t *)body)[0];
			for (uint8_t *e = body + 8;
			     e + entry_size <= (uint8_t *)tag + tag->size;
			     e += entry_size) {
				uint64_t addr = *(uint64_t *)e;
				uint64_t len = *(uint64_t *)(e + 8);
				uint32_t type = *(uint32_t *)(e + 16);
				if (type == 1)
					add_ram(addr, len);
			}
			break;
		}
		case 8: {  /* framebuffer */
			boot_info.fb.addr = *(uint64_t *)body;
			boot_info.fb.pitch = *(uint32_t *)(body + 8);
			boot_info.fb.width = *(uint32_t *)(body + 12);
			boot_info.fb.height = *(uint32_t *)(body + 16);
			boot_info.fb.bpp = body[20];
			boot_info.fb.type = body[21];
			break;
		}
		case 14:  /* ACPI 1.0 RSDP copy */
		case 15: {  /* ACPI 2.0 RSDP copy */
			uint32_t len = tag->size - 8;
			if (len > sizeof(boot_info.rsdp))
				len = sizeof(boot_info.rsdp);
			if (!boot_info.have_rsdp || tag->type == 15) {
				memcpy(boot_info.rsdp, body, len);
				boot_info.have_rsdp = true;
			}
			break;
		}
		}
		p += (tag->size + 7) & ~7u;
	}
}

void multiboot_parse(uint32_t magic, uint64_t info_phys)
{
	/* The first MiB holds the BIOS data, the AP trampoline and option
	 * ROMs; the kernel image follows. */
	boot_reserve(0, 0x100000);
	boot_reserve((uint64_t)_boot_start_phys, (uint64_t)_kernel_end_phys);

	if (magic == MB1_BOOTLOADER_MAGIC)
		parse_mb1(info_phys);
	else if (magic == MB2_BOOTLOADER_MAGIC)
		parse_mb2(info_phys);
	else
		panic("multiboot: unknown boot loader magic %#x", magic);
	/* Everything needed from the information structure has been copied;
	 * modules stay where they are and were reserved above. */
}
