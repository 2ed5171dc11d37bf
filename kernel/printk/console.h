/* SPDX-License-Identifier: MIT */
/*
 * kernel/printk/console.h - the console: output to COM1 and the screen, input from
 * COM1 and the keyboard.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

/* console_write - write len bytes to every output device ("\n" -> CR LF on
 * the serial line). Safe from any context, serialised by a lock. */
void console_write(const char *s, size_t len);

/* console_getc - the next input byte; sleeps (or halts) until one arrives. */
int console_getc(void);

/* console_input - called by input drivers (interrupt context) with a byte. */
void console_input(char c);

/* console_input_pending - is there a byte console_getc() would return now? */
bool console_input_pending(void);

/* How console_getc() waits, and how an input interrupt wakes the waiter.
 * NULL: halt until the next interrupt. */
extern void (*console_wait_hook)(void);
extern void (*console_wake_hook)(void);

/* console_sleep_on_input - from now on a reader waiting for input sleeps
 * on a wait queue that input wakes. Called once the scheduler runs
 * (kernel/boot_tasks.c). */
void console_sleep_on_input(void);

#endif
