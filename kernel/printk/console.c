// SPDX-License-Identifier: MIT
/*
 * kernel/printk/console.c - the console: every output device gets every byte,
 * and input from any device lands in one ring buffer the shell reads.
 *
 * Output is serialised by console_lock so that lines from different CPUs
 * do not interleave mid-line. After a panic has begun, the lock is ignored
 * (it may be held by the CPU that crashed).
 *
 * The edit line. While the shell waits for input, the last line on the
 * screen is its prompt and what has been typed so far; the console keeps a
 * copy (console_edit_begin, console_edit_echo). Anything else written
 * meanwhile - an OOM kill on another CPU, a job's end - would land in the
 * middle of that line and leave the user without a prompt. So, as a
 * line-editing shell does when a log message interrupts it, the console
 * ends the edit line, writes the message on lines of its own, and writes
 * the edit line again: every output ends with a prompt. The check and the
 * redraw are made under console_lock, with the message: no other output
 * can come between them.
 */
#include "kernel/printk/console.h"

#include <string.h>

#include "kernel/base/panic.h"
#include "kernel/base/spinlock.h"
#include "kernel/sched/wait.h"

static spinlock_t console_lock = SPINLOCK_INIT;

/* The edit line, under console_lock: shown while editing. */
#define EDIT_MAX 640
static char edit_buf[EDIT_MAX];
static size_t edit_len;
static bool editing;

/* Set by console_kick, taken by console_getc. */
static volatile bool kicked;

#define INPUT_SIZE 1024
static char input_ring[INPUT_SIZE];
static volatile unsigned int input_head, input_tail;  /* head: next write */

/* console_wait_hook - how a reader waits for input: once tasks exist,
 * console_sleep_on_input() installs one that sleeps on a wait queue.
 * Before that the CPU halts until the next interrupt. */
void (*console_wait_hook)(void);
/* console_wake_hook - called (interrupt context) when input arrived. */
void (*console_wake_hook)(void);

/* The output devices, in the order they registered. */
static const struct console_output *outputs[CONSOLE_MAX_OUTPUTS];
static unsigned int nr_outputs;

void console_register_output(const struct console_output *out)
{
	unsigned long flags = spin_lock_irqsave(&console_lock);

	if (nr_outputs < CONSOLE_MAX_OUTPUTS)
		outputs[nr_outputs++] = out;
	spin_unlock_irqrestore(&console_lock, flags);
}

/* emit - to every output device. console_lock held (or a panic). */
static void emit(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		for (unsigned int d = 0; d < nr_outputs; d++)
			outputs[d]->putc(s[i]);
}

void console_write(const char *s, size_t len)
{
	unsigned long flags = 0;
	bool locked = !panic_in_progress();

	if (!locked) {
		/* A panic: no redraw, but its lines start at a line's start. */
		if (editing) {
			editing = false;
			emit("\n", 1);
		}
		emit(s, len);
		return;
	}
	flags = spin_lock_irqsave(&console_lock);
	if (editing && len) {
		/* A line of its own, then the edit line again. */
		emit("\n", 1);
		emit(s, len);
		if (s[len - 1] != '\n')
			emit("\n", 1);
		emit(edit_buf, edit_len);
	} else {
		emit(s, len);
	}
	spin_unlock_irqrestore(&console_lock, flags);
}

/* edit_add - the edit line's copy follows what was written: a backspace
 * takes back the last byte, a printable byte is added. */
static void edit_add(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\b') {
			if (edit_len)
				edit_len--;
		} else if (s[i] >= ' ' && s[i] <= '~' && edit_len < EDIT_MAX) {
			edit_buf[edit_len++] = s[i];
		}
	}
}

void console_edit_begin(const char *prompt)
{
	unsigned long flags = spin_lock_irqsave(&console_lock);

	edit_len = 0;
	edit_add(prompt, strlen(prompt));
	emit(prompt, strlen(prompt));
	editing = true;
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_edit_echo(const char *s, size_t len)
{
	unsigned long flags = spin_lock_irqsave(&console_lock);

	emit(s, len);
	if (editing)
		edit_add(s, len);
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_edit_end(void)
{
	unsigned long flags = spin_lock_irqsave(&console_lock);

	emit("\n", 1);
	editing = false;
	edit_len = 0;
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_kick(void)
{
	__atomic_store_n(&kicked, true, __ATOMIC_RELEASE);
	if (console_wake_hook)
		console_wake_hook();
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
	return __atomic_load_n(&input_head, __ATOMIC_ACQUIRE) != input_tail ||
	       __atomic_load_n(&kicked, __ATOMIC_ACQUIRE);
}

int console_getc(void)
{
	for (;;) {
		/* Input first: a line being typed is read to its end. */
		if (__atomic_load_n(&input_head, __ATOMIC_ACQUIRE) !=
		    input_tail)
			break;
		if (__atomic_exchange_n(&kicked, false, __ATOMIC_ACQ_REL))
			return CONSOLE_KICKED;
		if (console_wait_hook) {
			console_wait_hook();
		} else {
			/* sti; hlt is atomic: no wake-up is lost between */
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
