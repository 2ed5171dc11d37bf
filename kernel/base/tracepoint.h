/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/tracepoint.h - the site of a tracepoint (Linux:
 * include/linux/tracepoint.h).
 *
 * A tracepoint is one line in the code it watches:
 *
 *   trace_memcg_kmem_commit(page, handle, order);
 *
 * and costs, while its event is off, one 5-byte NOP: the wrapper is an
 * inline test of the event's own static key (kernel/base/static_key.h),
 * named trace_EVENT_key and listed in /proc/static_keys with its sites.
 * Turning the event on (echo EVENT > /sys/kernel/tracing/set_event) takes
 * a reference on the key, which patches every site to a jump to the call
 * of the event's out-of-line recorder __trace_EVENT, through its
 * register-saving thunk (arch/x86_64/asm/tracepoint.h).
 *
 * Each subsystem declares its own sites in a header beside its code
 * (mm/kmem_trace.h, mm/memcg/memcg_trace.h, kernel/sched/task_trace.h,
 * kernel/static_key_trace.h), and defines the events and their recorders
 * in the .c file beside it (kernel/trace/trace_event.h). This header is
 * all a site needs: it includes nothing above the base layer.
 *
 * The arguments at each site are simple expressions (a variable, a
 * field), which the compiler computes in the unlikely branch only; they
 * are passed on the stack, so none of them has to be in a particular
 * register on the way past. A site that would compute one (a flag from
 * a test, say) gives the recorder what it needs to work it out instead.
 *
 * Compiled out (make TRACE=0, or a host build of mm/): every wrapper is
 * empty, and no site is left in the code at all.
 */
#ifndef KERNEL_BASE_TRACEPOINT_H
#define KERNEL_BASE_TRACEPOINT_H

#include "kernel/base/static_key.h"

#if defined(CONFIG_TRACEPOINTS) && defined(TALLY_KERNEL)

#include "arch/x86_64/asm/tracepoint.h"

/* DECLARE_TRACEPOINT_KEY(event) - the event's key, for a site that
 * names it (TRACEPOINT does it for its own event). */
#define DECLARE_TRACEPOINT_KEY(event) \
	extern struct static_key trace_##event##_key

#define __TR_UNPAREN(...) __VA_ARGS__

/* TRACEPOINT(event, wrapper, (params), (args)) - the inline wrapper: a
 * NOP while the event's key is off, else the call of __wrapper through
 * its thunk. An event may have several wrappers (several kinds of
 * site), each with its own recorder. */
#define TRACEPOINT(event, fn, params, args)                               \
	DECLARE_TRACEPOINT_KEY(event);                                    \
	void __##fn params;                                               \
	static __always_inline void fn params                             \
	{                                                                 \
		if (static_branch_unlikely(&trace_##event##_key)) {       \
			arch_tracepoint_call("__" #fn "_thunk",           \
					     __TR_UNPAREN args);          \
		}                                                         \
	}

/* TRACEPOINT_SHARED(fn, (keys), (params), (args)) - one site for the
 * events whose keys are listed (static_branch_unlikely_any; each key
 * declared first): a NOP while all of them are off; else __fn is called,
 * and records those of the events that are on. */
#define TRACEPOINT_SHARED(fn, keys, params, args)                         \
	void __##fn params;                                               \
	static __always_inline void fn params                             \
	{                                                                 \
		if (static_branch_unlikely_any(__TR_UNPAREN keys)) {      \
			arch_tracepoint_call("__" #fn "_thunk",           \
					     __TR_UNPAREN args);          \
		}                                                         \
	}

#else

/* The recorders are still declared: they are built either way. */
#define DECLARE_TRACEPOINT_KEY(event) \
	extern struct static_key trace_##event##_key
#define TRACEPOINT(event, fn, params, args) \
	DECLARE_TRACEPOINT_KEY(event); \
	void __##fn params; \
	static inline void fn params {}
#define TRACEPOINT_SHARED(fn, keys, params, args) \
	void __##fn params; \
	static inline void fn params {}

#endif

#endif
