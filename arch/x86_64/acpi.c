// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/acpi.c - reading ACPI tables: RSDP -> RSDT/XSDT -> MADT, SRAT.
 *
 * The MADT ("APIC") lists every processor's local APIC, the IO-APICs and
 * the ISA interrupt overrides (on QEMU: IRQ 0 is GSI 2). The SRAT (System
 * Resource Affinity Table), present only on NUMA machines, says which
 * proximity domain - NUMA node - each range of memory and each local APIC
 * belongs to (ACPI 6.5, section 5.2.16). All tables are in firmware memory
 * below 4 GiB, which the direct map covers.
 */
#include "arch/x86_64/acpi.h"

#include <string.h>

#include "arch/x86_64/boot_info.h"
#include "arch/x86_64/asm/cpu.h"
#include "mm/numa.h"

struct acpi_info acpi_info;

struct rsdp {
	char signature[8];
	uint8_t checksum;
	char oem[6];
	uint8_t revision;
	uint32_t rsdt;
	uint32_t length;
	uint64_t xsdt;
	uint8_t xchecksum;
	uint8_t reserved[3];
} __attribute__((packed));

struct sdt_header {
	char signature[4];
	uint32_t length;
	uint8_t revision, checksum;
	char oem[6], oem_table[8];
	uint32_t oem_revision, creator, creator_revision;
} __attribute__((packed));

static const struct rsdp *rsdp;

static bool checksum_ok(const void *p, size_t len)
{
	uint8_t sum = 0;
	for (size_t i = 0; i < len; i++)
		sum += ((const uint8_t *)p)[i];
	return sum == 0;
}

static const struct rsdp *scan_for_rsdp(uint64_t start, uint64_t len)
{
	for (uint64_t p = start; p < start + len; p += 16) {
		const struct rsdp *r = phys_to_virt(p);
		if (!memcmp(r->signature, "RSD PTR ", 8) && checksum_ok(r, 20))
			return r;
	}
	return NULL;
}

static const struct rsdp *find_rsdp(void)
{
	if (boot_info.have_rsdp)
		return (const struct rsdp *)boot_info.rsdp;
	uint64_t ebda = (uint64_t)(*(uint16_t *)phys_to_virt(0x40e)) << 4;
	const struct rsdp *r = NULL;
	if (ebda >= 0x80000 && ebda < 0xa0000)
		r = scan_for_rsdp(ebda, 1024);
	if (!r)
		r = scan_for_rsdp(0xe0000, 0x20000);
	return r;
}

uint64_t acpi_find_table(const char *signature)
{
	if (!rsdp)
		return 0;
	bool xsdt = rsdp->revision >= 2 && rsdp->xsdt;
	uint64_t root = xsdt ? rsdp->xsdt : rsdp->rsdt;
	const struct sdt_header *h = phys_to_virt(root);
	size_t entry = xsdt ? 8 : 4;
	size_t n = (h->length - sizeof(*h)) / entry;
	const uint8_t *entries = (const uint8_t *)(h + 1);

	for (size_t i = 0; i < n; i++) {
		uint64_t table = xsdt ? *(const uint64_t *)(entries + i * 8)
				      : *(const uint32_t *)(entries + i * 4);
		const struct sdt_header *t = phys_to_virt(table);
		if (!memcmp(t->signature, signature, 4))
			return table;
	}
	return 0;
}

static void parse_madt(uint64_t madt_phys)
{
	const struct sdt_header *h = phys_to_virt(madt_phys);
	const uint8_t *p = (const uint8_t *)h + sizeof(*h);
	const uint8_t *end = (const uint8_t *)h + h->length;

	acpi_info.lapic_phys = *(const uint32_t *)p;
	p += 8;  /* local APIC address, flags */
	while (p + 2 <= end && p[1] >= 2) {
		switch (p[0]) {
		case 0: {  /* processor local APIC: uid, apic id, flags */
			uint32_t flags = *(const uint32_t *)(p + 4);
			if ((flags & 1) && acpi_info.nr_cpus < NR_CPUS)
				acpi_info.apic_ids[acpi_info.nr_cpus++] = p[3];
			break;
		}
		case 1:  /* IO-APIC: id, reserved, address, GSI base */
			if (!acpi_info.ioapic_phys) {
				const uint32_t *w = (const uint32_t *)(p + 4);

				acpi_info.ioapic_phys = w[0];
				acpi_info.ioapic_gsi_base = w[1];
			}
			break;
		case 2:  /* interrupt source override: bus, irq, gsi, flags */
			if (acpi_info.nr_overrides < 16) {
				unsigned int n = acpi_info.nr_overrides++;
				struct acpi_irq_override *o =
					&acpi_info.overrides[n];
				o->isa_irq = p[3];
				o->gsi = *(const uint32_t *)(p + 4);
				o->flags = *(const uint16_t *)(p + 8);
			}
			break;
		case 5:  /* local APIC address override */
			acpi_info.lapic_phys = *(const uint64_t *)(p + 4);
			break;
		}
		p += p[1];
	}
}

/* --- SRAT: NUMA nodes --------------------------------------------------- */

/*
 * Proximity domains are 32-bit firmware numbers; node ids are small and
 * dense: each new domain gets the next node id, in the order the SRAT
 * names them (Linux: pxm_to_node). QEMU numbers its domains 0, 1, ...
 * already, so there the two are the same.
 */
static uint32_t node_pxm[MAX_NUMNODES];
static unsigned int nr_pxm;

/* pxm_to_node - the node id of a proximity domain, or -1 if there are
 * more domains than MAX_NUMNODES. */
static int pxm_to_node(uint32_t pxm)
{
	for (unsigned int nid = 0; nid < nr_pxm; nid++)
		if (node_pxm[nid] == pxm)
			return (int)nid;
	if (nr_pxm == MAX_NUMNODES)
		return -1;
	node_pxm[nr_pxm] = pxm;
	return (int)nr_pxm++;
}

/* The node of each local APIC the SRAT names (CPUs are numbered only
 * later, by smp_boot: acpi_numa_map_cpus matches them by APIC id). */
static struct {
	uint32_t apic_id;
	uint8_t node;
} srat_cpus[NR_CPUS];
static unsigned int nr_srat_cpus;

static void srat_add_cpu(uint32_t apic_id, uint32_t pxm)
{
	int nid = pxm_to_node(pxm);

	if (nid < 0 || nr_srat_cpus == NR_CPUS)
		return;
	srat_cpus[nr_srat_cpus].apic_id = apic_id;
	srat_cpus[nr_srat_cpus].node = (uint8_t)nid;
	nr_srat_cpus++;
}

#define SRAT_ENABLED 1u  /* flags bit 0, in all three structures */

/*
 * parse_srat - after the header come 12 reserved bytes, then structures
 * of (type, length, ...):
 *   type 0, 16 bytes: processor local APIC affinity - proximity domain
 *           bits 0-7 at byte 2 (bits 8-31 at bytes 9-11), APIC id at 3,
 *           flags at 4;
 *   type 1, 40 bytes: memory affinity - proximity domain at 2, base at 8,
 *           length at 16, flags at 28;
 *   type 2, 24 bytes: processor local x2APIC affinity - proximity domain
 *           at 4, x2APIC id at 8, flags at 12.
 * Disabled entries are skipped, as are the other types (GICC, ...).
 */
static void parse_srat(uint64_t srat_phys)
{
	const struct sdt_header *h = phys_to_virt(srat_phys);
	const uint8_t *p = (const uint8_t *)h + sizeof(*h) + 12;
	const uint8_t *end = (const uint8_t *)h + h->length;

	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		switch (p[0]) {
		case 0:
			if (p[1] >= 16 &&
			    (*(const uint32_t *)(p + 4) & SRAT_ENABLED))
				srat_add_cpu(p[3], p[2] | (uint32_t)p[9] << 8 |
						   (uint32_t)p[10] << 16 |
						   (uint32_t)p[11] << 24);
			break;
		case 1:
			if (p[1] >= 40 &&
			    (*(const uint32_t *)(p + 28) & SRAT_ENABLED)) {
				int nid = pxm_to_node(
					*(const uint32_t *)(p + 2));
				uint64_t base = *(const uint64_t *)(p + 8);
				uint64_t len = *(const uint64_t *)(p + 16);

				if (nid >= 0)
					numa_add_memblk((unsigned int)nid, base,
							base + len);
			}
			break;
		case 2:
			if (p[1] >= 24 &&
			    (*(const uint32_t *)(p + 12) & SRAT_ENABLED))
				srat_add_cpu(*(const uint32_t *)(p + 8),
					     *(const uint32_t *)(p + 4));
			break;
		}
		p += p[1];
	}
}

void acpi_numa_map_cpus(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		for (unsigned int i = 0; i < nr_srat_cpus; i++)
			if (srat_cpus[i].apic_id == cpus[cpu].apic_id)
				numa_set_cpu_node(cpu, srat_cpus[i].node);
}

/* --- the tables ------------------------------------------------------- */

void acpi_init(void)
{
	acpi_info.lapic_phys = 0xfee00000;
	rsdp = find_rsdp();
	uint64_t madt = acpi_find_table("APIC");
	if (madt)
		parse_madt(madt);
	acpi_info.fadt_phys = acpi_find_table("FACP");
	acpi_info.srat_phys = acpi_find_table("SRAT");
	if (acpi_info.srat_phys)
		parse_srat(acpi_info.srat_phys);
	if (acpi_info.nr_cpus == 0)
		acpi_info.nr_cpus = 1;  /* no MADT: only the boot CPU */
}
