// SPDX-License-Identifier: MIT
/*
 * kernel/printk/console.c - the console: every output device gets every byte, and
 * input from any device lands in one ring buffer the shell reads.
 *
 * Output is serialised by console_lock so that lines from different CPUs
 * do not interleave mid-line. After a panic has begun, the lock is ignored
 * (it may be held by the CPU that crashed).
 */
#include "kernel/printk/console.h"

#include "arch/x86_64/drivers/fb.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/drivers/serial.h"
#include "arch/x86_64/drivers/vga.h"
#include "kernel/panic.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/wait.h"

static spinlock_t console_lock = SPINLOCK_INIT;

#define INPUT_SIZE 1024
static char input_ring[INPUT_SIZE];
static volatile unsigned int input_head, input_tail;  /* head: next write */

/* console_wait_hook - how a reader waits for input: once tasks exist,
 * console_sleep_on_input() installs one that sleeps on a wait queue.
 * Before that the CPU halts until the next interrupt. */
void (*console_wait_hook)(void);
/* console_wake_hook - called (interrupt context) when input arrived. */
void (*console_wake_hook)(void);

void console_write(const char *s, size_t len)
{
	unsigned long flags = 0;
	bool locked = !panic_in_progress();

	if (locked)
		flags = spin_lock_irqsave(&console_lock);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
		vga_putc(s[i]);
		fb_putc(s[i]);
	}
	if (locked)
		spin_unlock_irqrestore(&console_lock, flags);
}

void console_input(char c)
{
	unsigned int next = (input_head + 1) % INPUT_SIZE;
	if (next == input_tail)
		return;  /* full: drop the byte */
	input_ring[input_head] = c;
	__atomic_store_n(&input_head, next, __ATOMIC_RELEASE);
	if (console_wake_hook)
		console_wake_hook();
}

bool console_input_pending(void)
{
	return __atomic_load_n(&input_head, __ATOMIC_ACQUIRE) != input_tail;
}

int console_getc(void)
{
	while (!console_input_pending()) {
		if (console_wait_hook) {
			console_wait_hook();
		} else {
			/* sti; hlt is atomic: no wake-up is lost between them */
			__asm__ volatile("sti\n\thlt" ::: "memory");
		}
	}
	char c = input_ring[input_tail];
	__atomic_store_n(&input_tail, (input_tail + 1) % INPUT_SIZE,
			 __ATOMIC_RELEASE);
	return (unsigned char)c;
}

static DECLARE_WAIT_QUEUE_HEAD(console_wq);

static void console_sleep(void)
{
	wait_event(&console_wq, console_input_pending());
}

static void console_wake(void)
{
	wake_up_all(&console_wq);
}

void console_sleep_on_input(void)
{
	console_wait_hook = console_sleep;
	console_wake_hook = console_wake;
}
