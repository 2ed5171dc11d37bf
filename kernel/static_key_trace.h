/* SPDX-License-Identifier: MIT */
/*
 * kernel/static_key_trace.h - the static_key: system's tracepoint; its
 * recorder is in kernel/static_key_trace.c.
 */
#ifndef KERNEL_STATIC_KEY_TRACE_H
#define KERNEL_STATIC_KEY_TRACE_H

#include <stdbool.h>

#include "kernel/base/tracepoint.h"

/* static_key:static_key_patch - a key's sites were rewritten. */
TRACEPOINT(static_key_patch, trace_static_key_patch,
	   (struct static_key *key, bool enable), (key, enable))

#endif
