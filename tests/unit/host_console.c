// SPDX-License-Identifier: MIT
/*
 * tests/unit/host_console.c - console input and output, time and
 * power-off for host programs; see host_console.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/printk/console.h"
#include "kernel/base/platform.h"
#include "kernel/base/power.h"
#include "kernel/time/time.h"
#include "tests/unit/host_console.h"

/* Input: a growing array, read from the front. */
static char *in_buf;
static size_t in_len, in_pos, in_cap;

/* Output capture. */
static char *out_buf;
static size_t out_len, out_cap;
static bool capturing, discarding;

volatile uint64_t jiffies;
uint64_t host_msleep_total_ms;
void (*host_poweroff_hook)(int value);
void (*console_wait_hook)(void);
void (*console_wake_hook)(void);

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		fprintf(stderr, "host_console: out of memory\n");
		abort();
	}
	return p;
}

void host_console_input(const char *bytes, size_t len)
{
	if (len == 0)
		return;
	if (in_pos == in_len)
		in_pos = in_len = 0;
	if (in_len + len > in_cap) {
		in_cap = (in_len + len) * 2;
		in_buf = xrealloc(in_buf, in_cap);
	}
	memcpy(in_buf + in_len, bytes, len);
	in_len += len;
}

void host_console_input_str(const char *s)
{
	host_console_input(s, strlen(s));
}

void host_console_input_clear(void)
{
	in_pos = in_len = 0;
}

void console_input(char c)
{
	host_console_input(&c, 1);
}

bool console_input_pending(void)
{
	return in_pos < in_len;
}

/* Kicks, as the kernel's console counts them: returned before the end of
 * input, after the bytes queued. */
static bool host_kicked;

void console_kick(void)
{
	host_kicked = true;
}

int console_getc(void)
{
	if (in_pos == in_len) {
		if (host_kicked) {
			host_kicked = false;
			return CONSOLE_KICKED;
		}
		return -1;
	}
	return (unsigned char)in_buf[in_pos++];
}

/* host_console_append - the sink of printk (host_printk_hook) and
 * console_write while capturing or discarding. */
static void host_console_append(const char *s, size_t len)
{
	if (discarding)
		return;
	if (out_len + len + 1 > out_cap) {
		out_cap = (out_len + len + 1) * 2;
		out_buf = xrealloc(out_buf, out_cap);
	}
	memcpy(out_buf + out_len, s, len);
	out_len += len;
	out_buf[out_len] = '\0';
}

static void host_console_message(const char *s, size_t len);

static void update_hook(void)
{
	host_printk_hook = capturing || discarding ? host_console_message
						   : NULL;
}

static bool editing;

void host_console_capture(bool on)
{
	/* A fresh screen: no edit line left from an earlier shell_run. */
	editing = false;
	capturing = on;
	out_len = 0;
	if (out_buf)
		out_buf[0] = '\0';
	update_hook();
}

void host_console_discard(bool on)
{
	discarding = on;
	update_hook();
}

const char *host_console_output(void)
{
	return out_buf ? out_buf : "";
}

void console_write(const char *s, size_t len)
{
	host_console_message(s, len);
}

/* The edit line, as kernel/printk/console.c keeps it: a message written
 * while it is shown goes on lines of its own, and it is written again. */
static char edit_buf[640];
static size_t edit_len;

static void edit_add(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\b') {
			if (edit_len)
				edit_len--;
		} else if (s[i] >= ' ' && s[i] <= '~' &&
			   edit_len < sizeof(edit_buf)) {
			edit_buf[edit_len++] = s[i];
		}
	}
}

static void host_emit(const char *s, size_t len)
{
	if (capturing || discarding)
		host_console_append(s, len);
	else
		fwrite(s, 1, len, stdout);
}

void console_edit_begin(const char *prompt)
{
	edit_len = 0;
	edit_add(prompt, strlen(prompt));
	host_emit(prompt, strlen(prompt));
	editing = true;
}

void console_edit_echo(const char *s, size_t len)
{
	host_emit(s, len);
	if (editing)
		edit_add(s, len);
}

void console_edit_end(void)
{
	host_emit("\n", 1);
	editing = false;
	edit_len = 0;
}

/* host_console_message - what console_write does with a message from
 * elsewhere while the edit line is shown. */
static void host_console_message(const char *s, size_t len)
{
	if (!editing || !len) {
		host_emit(s, len);
		return;
	}
	host_emit("\n", 1);
	host_emit(s, len);
	if (s[len - 1] != '\n')
		host_emit("\n", 1);
	host_emit(edit_buf, edit_len);
}

uint64_t uptime_ms(void)
{
	return host_msleep_total_ms;
}

void msleep(unsigned int ms)
{
	host_msleep_total_ms += ms;
}

_Noreturn void machine_exit(int value)
{
	if (host_poweroff_hook)
		host_poweroff_hook(value);
	fflush(stdout);
	exit(2 * value + 1);
}

_Noreturn void machine_poweroff(void)
{
	machine_exit(0);
}

/* The host has nothing to restart: reboot ends the program as poweroff. */
_Noreturn void machine_reboot(void)
{
	machine_exit(0);
}
