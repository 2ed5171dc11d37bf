/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/host_console.h - the console, time and power-off for host
 * programs (kernel/printk/console.h, kernel/time/time.h, kernel/base/power.h).
 *
 * Input: a test queues bytes with host_console_input(); console_getc()
 * returns them in order, then -1 (end of input: shell_run() returns).
 *
 * Output: printk() and console_write() go to stdout until a test calls
 * host_console_capture(true); from then on they are appended to a buffer,
 * read with host_console_output(), until capture is turned off.
 * host_console_discard(true) drops all output (fuzzers).
 *
 * Time does not pass: msleep() adds to host_msleep_total_ms and returns.
 * machine_poweroff()/machine_exit() call host_poweroff_hook if set (a test
 * longjmps out of it), else exit the program with status 2 * value + 1, as
 * QEMU does.
 */
#ifndef TESTS_UNIT_HOST_CONSOLE_H
#define TESTS_UNIT_HOST_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* host_console_input - queue len bytes for console_getc(). */
void host_console_input(const char *bytes, size_t len);
/* host_console_input_str - queue a string. */
void host_console_input_str(const char *s);
/* host_console_input_clear - drop queued input. */
void host_console_input_clear(void);

/* host_console_capture - start (emptying the buffer) or stop capturing. */
void host_console_capture(bool on);
/* host_console_discard - drop all output (overrides capture) or not. */
void host_console_discard(bool on);
/* host_console_output - what was captured, NUL-terminated. */
const char *host_console_output(void);

extern uint64_t host_msleep_total_ms;
/* host_poweroff_hook(value): called by machine_poweroff (0)/machine_exit. */
extern void (*host_poweroff_hook)(int value);

#endif
