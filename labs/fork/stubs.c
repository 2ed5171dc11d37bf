// SPDX-License-Identifier: MIT
// labs/fork/stubs.c - the starting point of the accounted-fork lab
// (docs/labs/fork.md). `make lab-start LAB=fork` puts the block below in
// place of task_create's body. The stub charges no stack and undoes
// nothing when a step fails.

//@ kernel/sched/fork.c: task_create
{
	/* LAB fork: charge the stack to the domain, then the task; undo in
	 * the reverse order on every failure. */
	struct page *stack;
	struct task *task;

	stack = alloc_pages(GFP_KERNEL | __GFP_NOWARN, THREAD_ORDER);
	if (!stack)
		return -ENOMEM;
	memcg_account_kernel_stack(stack, +1);
	task = task_alloc(GFP_ACCOUNT | __GFP_NOWARN);
	if (!task)
		return -ENOMEM;
	task_init(task, stack, prog, arg, flags, charge);
	if (task_hash(task) < 0)
		return -ENOMEM;
	*out = task;
	return 0;
}
