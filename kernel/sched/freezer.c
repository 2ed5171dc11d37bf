// SPDX-License-Identifier: MIT
/*
 * kernel/sched/freezer.c - cgroup v2's freezer, the tasks' side (Linux:
 * kernel/cgroup/freezer.c and do_freezer_trap in kernel/signal.c).
 *
 * Writing 1 to a cgroup's cgroup.freeze marks every task of its subtree
 * freezing (mem_cgroup_freeze, mm/memcg/memcontrol.c), and so does a
 * task's entry into a frozen cgroup by fork, `run` or a move. A marked
 * task stops at its next stopping point, where it holds nothing, and
 * sleeps in task_freeze until it is thawed or killed. Its charges
 * stay where they are: a frozen cgroup holds its memory, it only stops
 * using CPU and asking for more.
 *
 * A task asleep in a kernel service (a sleep, a wait) is stopped
 * already: its program cannot run until it wakes. If it wakes before the
 * thaw, the service finishes and the task stops as it returns, before
 * its program runs again. So a cgroup is frozen (cgroup.events) once
 * each of its tasks sleeps, in the freezer or elsewhere. System tasks
 * never freeze.
 */
#include "kernel/sched/freezer.h"

#include "kernel/sched/sched.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"

void task_freeze(struct task *self)
{
	/* A kernel service of its own: no preemption point freezes the
	 * task again, or makes it exit, while it is in here. A kill wakes
	 * it, and it exits on the way out. */
	self->in_kernel++;
	for (;;) {
		/* Asleep before it says it is frozen, and says so before it
		 * looks at the mark: a thaw that clears the mark and then
		 * finds it frozen wakes it; one that finds it not frozen yet
		 * cleared the mark before the look. */
		set_current_state(TASK_SLEEPING);
		__atomic_store_n(&self->frozen, true, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&self->freezing, __ATOMIC_SEQ_CST) ||
		    READ_ONCE(self->killed))
			break;
		schedule();
	}
	__atomic_store_n(&self->frozen, false, __ATOMIC_SEQ_CST);
	set_current_state(TASK_RUNNING);
	self->in_kernel--;
}

void task_set_freezing(struct task *task, bool freezing)
{
	/* Every entry into a cgroup calls this, each fork among them, and
	 * the mark rarely changes: a locked store only when it does. The
	 * callers hold memcg_tree_lock, so no other writer races the look;
	 * and whoever cleared the mark has woken the task already. */
	if ((task->flags & TASK_SYSTEM) ||
	    __atomic_load_n(&task->freezing, __ATOMIC_RELAXED) == freezing)
		return;
	__atomic_store_n(&task->freezing, freezing, __ATOMIC_SEQ_CST);
	if (!freezing && __atomic_load_n(&task->frozen, __ATOMIC_SEQ_CST))
		wake_up_task(task);
}

bool task_stopped(const struct task *task)
{
	return READ_ONCE(task->frozen) ||
	       READ_ONCE(task->state) != TASK_RUNNING;
}
