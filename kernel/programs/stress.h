/* SPDX-License-Identifier: MIT */
/*
 * kernel/programs/stress.h - the `stress SECONDS` program and shell command
 * (see kernel/programs/stress.c).
 */
#ifndef KERNEL_STRESS_H
#define KERNEL_STRESS_H

struct task;

/* stress_main - the program: one stress worker per CPU in the task's
 * domain for SECONDS (arg), then clean up and print the summary. */
void stress_main(struct task *self, const char *arg);

/* stress_check - 0 if arg is a number of seconds (1 to 3600), else
 * -EINVAL. */
int stress_check(const char *arg);

#endif
