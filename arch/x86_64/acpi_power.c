// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/acpi_power.c - ACPI power-off (S5) and reset.
 *
 * The FADT ("FACP") says where the fixed power-management registers are.
 * Turning the machine off is a write to the PM1 control register (or to
 * both, PM1a and PM1b, where there are two): the sleep type SLP_TYP in
 * bits 10-12 and SLP_EN, bit 13. The sleep type of S5 (soft off) is not in
 * the FADT but in the DSDT's AML byte code, as
 *
 *     Name (_S5_, Package (n) { SLP_TYPa, SLP_TYPb, ... })
 *
 * which a full AML interpreter would evaluate. A byte scan is enough here,
 * as in many small kernels: find "_S5_" after a NameOp (0x08), then a
 * PackageOp (0x12), skip its length and element count, and read two AML
 * integers. On QEMU both are 0.
 *
 * The firmware may leave the machine in legacy (SMM) mode, with SCI_EN
 * (bit 0 of PM1 control) clear; writing ACPI_ENABLE to the SMI command port
 * switches it to ACPI mode, as an OS's ACPI driver does at start-up.
 *
 * Reset is simpler: write the FADT's RESET_VALUE to its RESET_REG (on PCs
 * usually port 0xcf9). Hardware-reduced platforms (no PM1 registers) use
 * the FADT's sleep control register instead.
 */
#include "arch/x86_64/acpi_power.h"

#include <string.h>

#include "arch/x86_64/acpi.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/paging.h"
#include "kernel/base/platform.h"

/* FADT field offsets (ACPI 6.x, table 5.9) */
#define FADT_DSDT            40
#define FADT_SMI_CMD         48
#define FADT_ACPI_ENABLE     52
#define FADT_PM1A_EVT_BLK    56
#define FADT_PM1B_EVT_BLK    60
#define FADT_PM1A_CNT_BLK    64
#define FADT_PM1B_CNT_BLK    68
#define FADT_PM1_EVT_LEN     88
#define FADT_FLAGS           112
#define FADT_RESET_REG       116
#define FADT_RESET_VALUE     128
#define FADT_X_DSDT          140
#define FADT_X_PM1A_EVT_BLK  148
#define FADT_X_PM1B_EVT_BLK  160
#define FADT_X_PM1A_CNT_BLK  172
#define FADT_X_PM1B_CNT_BLK  184
#define FADT_SLEEP_CONTROL   244

#define FADT_FLAG_RESET_REG_SUP (1u << 10)
#define FADT_FLAG_HW_REDUCED    (1u << 20)

#define PM1_SCI_EN      (1u << 0)
#define PM1_SLP_TYP(t)  ((uint32_t)((t) & 7) << 10)
#define PM1_SLP_TYP_MASK (7u << 10)
#define PM1_SLP_EN      (1u << 13)
#define PM1_WAK_STS     (1u << 15)
#define SLEEP_CTL_SLP_TYP(t) ((uint32_t)((t) & 7) << 2)
#define SLEEP_CTL_SLP_EN     (1u << 5)

/* A Generic Address Structure: a register in I/O, memory or PCI space. */
struct gas {
	uint8_t space;          /* 0 memory, 1 I/O, 2 PCI configuration */
	uint8_t bit_width, bit_offset, access_size;
	uint64_t address;
};
#define GAS_MEMORY 0
#define GAS_IO     1
#define GAS_PCI    2

struct fadt {
	const uint8_t *p;
	uint32_t len;
};

static bool fadt_get(struct fadt *f)
{
	if (!acpi_info.fadt_phys)
		return false;
	f->p = phys_to_virt(acpi_info.fadt_phys);
	memcpy(&f->len, f->p + 4, 4);
	return f->len >= FADT_PM1B_CNT_BLK + 4;
}

/* field - an unaligned little-endian field of size bytes, 0 past the end
 * of the table (an older, shorter FADT). */
static uint64_t field(const struct fadt *f, uint32_t off, unsigned int size)
{
	uint64_t v = 0;
	if (off + size <= f->len)
		memcpy(&v, f->p + off, size);
	return v;
}

static bool gas_field(const struct fadt *f, uint32_t off, struct gas *g)
{
	if (off + 12 > f->len)
		return false;
	g->space = f->p[off];
	g->bit_width = f->p[off + 1];
	g->bit_offset = f->p[off + 2];
	g->access_size = f->p[off + 3];
	memcpy(&g->address, f->p + off + 4, 8);
	return g->address != 0;
}

/* pm1_reg - the PM1 register from its 64-bit (X_) field, else from its
 * 32-bit port field; false if neither is set. */
static bool pm1_reg(const struct fadt *f, uint32_t x_off, uint32_t off,
		    struct gas *g)
{
	if (gas_field(f, x_off, g) &&
	    (g->space == GAS_IO || g->space == GAS_MEMORY))
		return true;
	g->space = GAS_IO;
	g->bit_width = 16;
	g->bit_offset = g->access_size = 0;
	g->address = field(f, off, 4);
	return g->address != 0;
}

static void *mmio(uint64_t phys)
{
	paging_map_uncached(phys, 8);
	return phys_to_virt(phys);
}

static uint32_t gas_read16(const struct gas *g)
{
	if (g->space == GAS_MEMORY)
		return *(volatile uint16_t *)mmio(g->address);
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"((uint16_t)g->address));
	return v;
}

static void gas_write16(const struct gas *g, uint32_t v)
{
	if (g->space == GAS_MEMORY)
		*(volatile uint16_t *)mmio(g->address) = (uint16_t)v;
	else
		outw((uint16_t)g->address, (uint16_t)v);
}

static void gas_write8(const struct gas *g, uint8_t v)
{
	switch (g->space) {
	case GAS_MEMORY:
		*(volatile uint8_t *)mmio(g->address) = v;
		break;
	case GAS_IO:
		outb((uint16_t)g->address, v);
		break;
	case GAS_PCI: {
		/* bus 0; device, function and offset packed in the address */
		uint32_t dev = (g->address >> 32) & 0x1f;
		uint32_t fn = (g->address >> 16) & 0x7;
		uint32_t reg = g->address & 0xff;
		outl(0xcf8, 0x80000000u | dev << 11 | fn << 8 | (reg & 0xfc));
		outb(0xcfc + (reg & 3), v);
		break;
	}
	}
}

/* --- the \_S5_ package in AML ------------------------------------------ */

/* aml_integer - an AML integer constant at *p (advanced past it); false if
 * the byte there is not one. */
static bool aml_integer(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	static const unsigned int prefix_size[] = {
		[0x0a] = 1, [0x0b] = 2, [0x0c] = 4, [0x0e] = 8,
	};
	if (*p >= end)
		return false;
	uint8_t op = **p;
	if (op == 0x00 || op == 0x01 || op == 0xff) {  /* Zero, One, Ones */
		*v = op == 0xff ? ~0ull : op;
		(*p)++;
		return true;
	}
	if (op >= sizeof(prefix_size) / sizeof(prefix_size[0]) ||
	    !prefix_size[op])
		return false;
	unsigned int n = prefix_size[op];
	if (*p + 1 + n > end)
		return false;
	*v = 0;
	memcpy(v, *p + 1, n);
	*p += 1 + n;
	return true;
}

bool acpi_s5_sleep_type(const uint8_t *aml, uint32_t len, uint8_t *typ_a,
			uint8_t *typ_b)
{
	const uint8_t *end = aml + len;

	for (const uint8_t *p = aml + 1; p + 4 < end; p++) {
		if (memcmp(p, "_S5_", 4) != 0)
			continue;
		/* NameOp, possibly with the root prefix '\' before the name */
		bool named = p[-1] == 0x08 ||
			(p - aml >= 2 && p[-1] == '\\' && p[-2] == 0x08);
		const uint8_t *q = p + 4;
		if (!named || q >= end || *q != 0x12)   /* PackageOp */
			continue;
		q++;
		if (q >= end)
			break;
		q += 1 + (*q >> 6);     /* PkgLength: 1 to 4 bytes */
		q++;                    /* NumElements */
		uint64_t a, b;
		if (!aml_integer(&q, end, &a))
			continue;
		if (!aml_integer(&q, end, &b))
			b = a;
		*typ_a = (uint8_t)a;
		*typ_b = (uint8_t)b;
		return true;
	}
	return false;
}

static bool find_s5(const struct fadt *f, uint8_t *typ_a, uint8_t *typ_b)
{
	uint64_t dsdt = field(f, FADT_X_DSDT, 8);
	if (!dsdt)
		dsdt = field(f, FADT_DSDT, 4);
	if (!dsdt)
		return false;
	const uint8_t *t = phys_to_virt(dsdt);
	uint32_t len;
	memcpy(&len, t + 4, 4);
	if (memcmp(t, "DSDT", 4) != 0 || len < 36)
		return false;
	return acpi_s5_sleep_type(t + 36, len - 36, typ_a, typ_b);
}

/* --- S5 ------------------------------------------------------------------ */

/* acpi_mode_enable - make sure SCI_EN is set, asking the firmware through
 * the SMI command port if it is not. */
static void acpi_mode_enable(const struct fadt *f, const struct gas *pm1a)
{
	uint32_t smi_cmd = field(f, FADT_SMI_CMD, 4);
	uint8_t enable = field(f, FADT_ACPI_ENABLE, 1);

	if (gas_read16(pm1a) & PM1_SCI_EN)
		return;
	if (!smi_cmd || !enable)
		return;
	outb((uint16_t)smi_cmd, enable);
	for (int i = 0; i < 1000000; i++)     /* the spec allows it a while */
		if (gas_read16(pm1a) & PM1_SCI_EN)
			return;
}

/* wait_a_while - a second or three (3e9 TSC cycles), for the
 * hardware to act on a write that should end everything. */
static void wait_a_while(void)
{
	uint64_t start = rdtsc();
	while (rdtsc() - start < 3000000000ull)
		__asm__ volatile("pause");
}

void acpi_poweroff(void)
{
	struct fadt f;
	uint8_t typ_a, typ_b;

	if (!fadt_get(&f)) {
		printk("poweroff: no ACPI FADT\n");
		return;
	}
	if (!find_s5(&f, &typ_a, &typ_b)) {
		printk("poweroff: no \\_S5_ package in the DSDT\n");
		return;
	}

	uint32_t flags = field(&f, FADT_FLAGS, 4);
	struct gas ctl;
	if ((flags & FADT_FLAG_HW_REDUCED) &&
	    gas_field(&f, FADT_SLEEP_CONTROL, &ctl)) {
		__asm__ volatile("cli\n\twbinvd" ::: "memory");
		gas_write8(&ctl, SLEEP_CTL_SLP_TYP(typ_a) | SLEEP_CTL_SLP_EN);
		wait_a_while();
		printk("poweroff: the sleep control register did not turn "
		       "the machine off\n");
		return;
	}

	struct gas pm1a, pm1b, evt;
	if (!pm1_reg(&f, FADT_X_PM1A_CNT_BLK, FADT_PM1A_CNT_BLK, &pm1a)) {
		printk("poweroff: the FADT has no PM1 control register\n");
		return;
	}
	bool have_b = pm1_reg(&f, FADT_X_PM1B_CNT_BLK, FADT_PM1B_CNT_BLK,
			      &pm1b);
	acpi_mode_enable(&f, &pm1a);

	__asm__ volatile("cli\n\twbinvd" ::: "memory");
	/* Clear the wake status (the first half of the PM1 event block is
	 * the status register, write 1 to clear), so that a stale wake event
	 * does not cancel the transition. */
	if (field(&f, FADT_PM1_EVT_LEN, 1) >= 4 &&
	    pm1_reg(&f, FADT_X_PM1A_EVT_BLK, FADT_PM1A_EVT_BLK, &evt))
		gas_write16(&evt, PM1_WAK_STS);
	if (field(&f, FADT_PM1_EVT_LEN, 1) >= 4 &&
	    pm1_reg(&f, FADT_X_PM1B_EVT_BLK, FADT_PM1B_EVT_BLK, &evt))
		gas_write16(&evt, PM1_WAK_STS);

	/* As ACPICA does: the sleep type first, then with SLP_EN. */
	const uint32_t keep = ~(PM1_SLP_TYP_MASK | PM1_SLP_EN);
	uint32_t a = (gas_read16(&pm1a) & keep) | PM1_SLP_TYP(typ_a);
	uint32_t b = 0;

	if (have_b)
		b = (gas_read16(&pm1b) & keep) | PM1_SLP_TYP(typ_b);
	gas_write16(&pm1a, a);
	if (have_b)
		gas_write16(&pm1b, b);
	gas_write16(&pm1a, a | PM1_SLP_EN);
	if (have_b)
		gas_write16(&pm1b, b | PM1_SLP_EN);
	wait_a_while();
	printk("poweroff: ACPI S5 (SLP_TYP %u/%u) did not turn the machine "
	       "off\n", typ_a, typ_b);
}

/* --- reset --------------------------------------------------------------- */

void acpi_reboot(void)
{
	struct fadt f;
	struct gas reset;

	if (!fadt_get(&f) || f.len < FADT_RESET_VALUE + 1)
		return;
	if (!(field(&f, FADT_FLAGS, 4) & FADT_FLAG_RESET_REG_SUP) ||
	    !gas_field(&f, FADT_RESET_REG, &reset))
		return;
	gas_write8(&reset, (uint8_t)field(&f, FADT_RESET_VALUE, 1));
	wait_a_while();
}
