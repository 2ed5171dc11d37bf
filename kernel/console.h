/*
 * kernel/console.h - the console: output to COM1 and the screen, input from
 * COM1 and the keyboard.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>

/* console_write - write len bytes to every output device ("\n" -> CR LF on
 * the serial line). Safe from any context, serialised by a lock. */
void console_write(const char *s, size_t len);

/* console_getc - the next input byte; sleeps (or halts) until one arrives. */
int console_getc(void);

/* console_input - called by input drivers (interrupt context) with a byte. */
void console_input(char c);

#endif
