/* SPDX-License-Identifier: MIT */
/*
 * kernel/printk/console.h - the console: output to COM1 and the screen, input
 * from COM1 and the keyboard.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * An output device: a driver (the serial line, the VGA text screen, the
 * framebuffer) registers one when it is ready, and from then on gets
 * every byte written to the console. putc is called with the console's
 * lock held, interrupts off; a device that wants "\r\n" for "\n" adds
 * the "\r" itself.
 */
struct console_output {
	const char *name;
	void (*putc)(char c);
};
#define CONSOLE_MAX_OUTPUTS 4

/* console_register_output - from now on out gets the console's output.
 * out must live for ever; past CONSOLE_MAX_OUTPUTS, it is ignored. */
void console_register_output(const struct console_output *out);

/* console_write - write len bytes to every output device. Safe from any
 * context, serialised by a lock. */
void console_write(const char *s, size_t len);

/*
 * console_getc - the next input byte; sleeps (or halts) until one arrives,
 * or returns CONSOLE_KICKED if console_kick() was called meanwhile (bytes
 * already waiting come first). (Host builds: -1 at the end of input.)
 */
int console_getc(void);
#define CONSOLE_KICKED (-2)

/* console_kick - make console_getc() return CONSOLE_KICKED once, waking
 * it: something other than input wants the reader (a job ended). Any
 * context. */
void console_kick(void);

/*
 * The edit line (kernel/printk/console.c): the prompt and what has been
 * typed after it, while the shell waits for input. console_edit_begin
 * writes the prompt and starts it; console_edit_echo writes the echo of
 * typed bytes ("\b \b" erases one) and keeps the copy in step;
 * console_edit_end writes the newline that ends it. Until then, anything
 * else written goes on lines of its own, and the edit line is written
 * again after it.
 */
void console_edit_begin(const char *prompt);
void console_edit_echo(const char *s, size_t len);
void console_edit_end(void);

/* console_input - an input device (the serial line, a PS/2 or USB
 * keyboard) hands the console a byte; interrupt context. Input devices
 * need no other registration: the console never calls them. */
void console_input(char c);

/* console_input_pending - would console_getc() return at once (a byte, or
 * a kick)? */
bool console_input_pending(void);

/* How console_getc() waits, and how an input interrupt wakes the waiter.
 * NULL: halt until the next interrupt. */
extern void (*console_wait_hook)(void);
extern void (*console_wake_hook)(void);

/* console_sleep_on_input - from now on a reader waiting for input sleeps
 * on a wait queue that input wakes. Called once the scheduler runs
 * (kernel/init/boot_tasks.c). */
void console_sleep_on_input(void);

#endif
