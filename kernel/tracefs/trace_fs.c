// SPDX-License-Identifier: MIT
/*
 * kernel/tracefs/trace_fs.c - /sys/kernel/tracing, the tracer's control
 * files, with ftrace's names and formats (Linux: kernel/trace/trace.c and
 * trace_events.c, the tracefs files).
 *
 *   available_events   every event, "system:name" a line
 *   set_event          read: the events on; write: NAME, !NAME, *:* ...
 *                      (kernel/trace/trace_set_event.h)
 *   tracing_on         1: record (the default), 0: stop recording; the
 *                      events stay on
 *   trace              read: a header, then every entry of every CPU in
 *                      time order; write an empty line: clear
 *
 * and the shell command trace_pipe (kernel/tracefs/trace_pipe.c), which
 * prints and consumes entries as they come until a key is pressed.
 *
 * /sys/kernel/tracing is where Linux mounts tracefs since 4.1 (and where
 * a student's Linux has it); /sys/kernel/debug/tracing is the older path.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/base/platform.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_set_event.h"
#include "kernel/tracefs/tracefs.h"
#include "mm/buddy.h"
#include "mm/page.h"

/* Each CPU's ring: 2^TRACE_RING_ORDER pages of entries (64 KiB: 512). */
#define TRACE_RING_ORDER 4

/* --- available_events, set_event ------------------------------------------ */

/* list_events - "system:name" lines of the events in mask into buf. */
static int list_events(uint64_t mask, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < trace_event_count(); i++) {
		const struct trace_event *ev = trace_event_get(i);

		if (!(mask & (1ull << i)))
			continue;
		int n = snprintf(buf + len, size - len, "%s:%s\n",
				 ev->system, ev->name);
		if (n < 0 || (size_t)n >= size - len)
			break;
		len += (size_t)n;
	}
	return (int)len;
}

static int available_events_read(struct ctl_node *file, char *buf,
				 size_t size)
{
	return list_events(~0ull, buf, size);
}

static int set_event_read(struct ctl_node *file, char *buf, size_t size)
{
	uint64_t mask = 0;

	for (unsigned int i = 0; i < trace_event_count(); i++)
		if (trace_event_enabled(i))
			mask |= 1ull << i;
	return list_events(mask, buf, size);
}

/*
 * rings_alloc - give every CPU its ring, the first time an event is
 * turned on (not at boot: a kernel that never traces keeps its memory,
 * and its free lists are what they were without tracing - the page
 * benchmarks measure the same blocks). Returns 0, or -ENOMEM if a ring
 * could not be had (the rings already given are kept for the next try).
 */
static int rings_alloc(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct page *page;

		if (trace_ring_ready(cpu))
			continue;
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, TRACE_RING_ORDER);
		if (!page)
			return -ENOMEM;
		trace_ring_give(cpu, page_address(page),
				PAGE_SIZE << TRACE_RING_ORDER);
	}
	return trace_rings_ready() ? 0 : -ENOMEM;
}

static int set_event_write(struct ctl_node *file, const char *value)
{
	const char *systems[TRACE_EVENTS_MAX], *names[TRACE_EVENTS_MAX];
	unsigned int n = trace_event_count();
	char bad[TRACE_WORD_MAX];
	uint64_t on, off;

	for (unsigned int i = 0; i < n; i++) {
		systems[i] = trace_event_get(i)->system;
		names[i] = trace_event_get(i)->name;
	}
	if (trace_set_event_parse(value, systems, names, n, &on, &off,
				  bad) < 0)
		return ctl_error(EINVAL, "no event '%s' (cat available_events; "
				 "NAME, !NAME, SYSTEM:*, *:*)", bad);
	/* Off first: then a failure to turn one on (no memory for the
	 * rings, only possible before the first event is on) has changed
	 * nothing, since every event is off until then. */
	for (unsigned int i = 0; i < n; i++)
		if (off & (1ull << i))
			trace_event_enable(i, false);
	if (on && rings_alloc() < 0)
		return ctl_error(ENOMEM, "no memory for the trace "
				 "buffers (64 KiB a CPU)");
	for (unsigned int i = 0; i < n; i++)
		if ((on & (1ull << i)) && trace_event_enable(i, true) < 0)
			return ctl_error(ENOMEM, "no memory for the trace "
					 "buffers (64 KiB a CPU)");
	return 0;
}

/* --- tracing_on ----------------------------------------------------------- */

static int tracing_on_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "%d\n", trace_is_on() ? 1 : 0);
}

static int tracing_on_write(struct ctl_node *file, const char *value)
{
	if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
		return ctl_error(EINVAL, "write 1 (record) or 0 (stop), not "
				 "'%.40s'", value);
	trace_set_on(value[0] == '1');
	return 0;
}

/* --- trace ---------------------------------------------------------------- */

/* One reader at a time: show handlers run under the control tree's lock. */
static uint64_t show_pos[NR_CPUS];
static struct trace_entry show_entry;
static char show_line[320];

static int trace_show(struct ctl_node *file, struct ctl_seq *seq)
{
	struct trace_totals t;

	trace_totals(&t);
	ctl_seq_printf(seq, "# tracer: nop\n");
	ctl_seq_printf(seq, "#\n");
	ctl_seq_printf(seq, "# entries-in-buffer/entries-written: %llu/%llu"
		       "   #P:%u\n", (unsigned long long)t.entries,
		       (unsigned long long)t.written, nr_cpus);
	ctl_seq_printf(seq, "# events lost: %llu (overwritten before they "
		       "were read)\n", (unsigned long long)t.lost);
	ctl_seq_printf(seq, "#\n");
	ctl_seq_printf(seq, "#              TASK-PID   CPU#   TIMESTAMP  "
		       "EVENT\n");
	ctl_seq_printf(seq, "#                 | |       |        |      "
		       "  |\n");
	memset(show_pos, 0, sizeof(show_pos));
	while (trace_next(show_pos, false, &show_entry)) {
		if (seq->index < seq->start) {
			ctl_seq_printf(seq, "-");  /* skipped: not formatted */
			continue;
		}
		trace_format(&show_entry, show_line, sizeof(show_line));
		if (!ctl_seq_printf(seq, "%s", show_line))
			break;
	}
	return 0;
}

static int trace_write(struct ctl_node *file, const char *value)
{
	if (value[0])
		return ctl_error(EINVAL, "write an empty line to clear the "
				 "trace (echo > trace), nothing else");
	trace_clear();
	return 0;
}

/* --- the directory -------------------------------------------------------- */

static const struct ctl_ops available_events_ops = {
	.read = available_events_read};
static const struct ctl_ops set_event_ops = {.read = set_event_read,
					     .write = set_event_write};
static const struct ctl_ops tracing_on_ops = {.read = tracing_on_read,
					      .write = tracing_on_write};
static const struct ctl_ops trace_ops = {.show = trace_show,
					 .write = trace_write};

/* dir - the child directory name of parent, made if missing. */
static struct ctl_node *dir(struct ctl_node *parent, const char *name)
{
	struct ctl_node *node;

	if (ctl_lookup(parent, name, &node) == 0)
		return node;
	node = ctl_create_dir(parent, name, NULL, NULL);
	if (!node)
		panic("trace: cannot create the directory %s", name);
	return node;
}

void trace_fs_init(void)
{
	struct ctl_node *tracing =
		dir(dir(dir(ctl_root(), "sys"), "kernel"), "tracing");

	if (!ctl_create_file(tracing, "available_events",
			     &available_events_ops, NULL) ||
	    !ctl_create_file(tracing, "set_event", &set_event_ops, NULL) ||
	    !ctl_create_file(tracing, "tracing_on", &tracing_on_ops, NULL) ||
	    !ctl_create_file(tracing, "trace", &trace_ops, NULL))
		panic("trace: cannot create the files of /sys/kernel/tracing");
}
