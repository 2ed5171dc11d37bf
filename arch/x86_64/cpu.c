// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/cpu.c - per-CPU set-up: GDT, TSS, GS base, SSE.
 *
 * Every CPU has its own GDT (because each has its own TSS, whose descriptor
 * lives in the GDT) and its own struct cpu, found through GS. The TSS is
 * only used for its interrupt stack table: double faults and NMIs switch to
 * a known-good stack, so a kernel stack overflow is still reported.
 */
#include "arch/x86_64/asm/cpu.h"

#include "arch/x86_64/io.h"
#include "kernel/base/platform.h"

struct cpu cpus[NR_CPUS];

/* IST1 stacks for double fault and NMI, one per CPU. */
static uint8_t ist_stacks[NR_CPUS][8192] __attribute__((aligned(16)));

void cpu_init_this(unsigned int id)
{
	struct cpu *cpu = &cpus[id];

	cpu->self = cpu;
	cpu->id = id;
	cpu->tss.ist[0] = (uint64_t)&ist_stacks[id][sizeof(ist_stacks[id])];
	cpu->tss.iomap_base = sizeof(struct tss);

	uint64_t tss = (uint64_t)&cpu->tss;
	uint64_t limit = sizeof(struct tss) - 1;
	cpu->gdt[0] = 0;
	cpu->gdt[1] = 0x00af9a000000ffffull;  /* 0x08 kernel code, 64-bit */
	cpu->gdt[2] = 0x00cf92000000ffffull;  /* 0x10 kernel data */
	cpu->gdt[3] = 0;
	cpu->gdt[4] = 0;
	/* 0x28: 64-bit TSS descriptor, 16 bytes */
	cpu->gdt[5] = (limit & 0xffff) | ((tss & 0xffffff) << 16) |
		      (0x89ull << 40) | (((limit >> 16) & 0xf) << 48) |
		      (((tss >> 24) & 0xff) << 56);
	cpu->gdt[6] = tss >> 32;

	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) gdtr = {sizeof(cpu->gdt) - 1,
					  (uint64_t)cpu->gdt};
	__asm__ volatile("lgdt %0\n\t"
			 "pushq $0x08\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw $0x10, %%ax\n\t"
			 "movw %%ax, %%ds\n\t"
			 "movw %%ax, %%es\n\t"
			 "movw %%ax, %%ss\n\t"
			 "xorl %%eax, %%eax\n\t"
			 "movw %%ax, %%fs\n\t"
			 "movw %%ax, %%gs\n\t"
			 "movw $0x28, %%ax\n\t"
			 "ltr %%ax"
			 :
			 : "m"(gdtr)
			 : "rax", "memory");
	wrmsr(MSR_GS_BASE, (uint64_t)cpu);
}

void fpu_enable(void)
{
	uint64_t cr0, cr4;
	__asm__ volatile("movq %%cr0, %0" : "=r"(cr0));
	cr0 &= ~(1ull << 2);  /* EM: no x87 emulation */
	cr0 |= 1ull << 1;     /* MP */
	__asm__ volatile("movq %0, %%cr0" ::"r"(cr0));
	__asm__ volatile("movq %%cr4, %0" : "=r"(cr4));
	cr4 |= (1ull << 9) | (1ull << 10);  /* OSFXSR, OSXMMEXCPT */
	__asm__ volatile("movq %0, %%cr4" ::"r"(cr4));
	__asm__ volatile("fninit");
}
