// SPDX-License-Identifier: MIT
// labs/pids/stubs.c - the starting point of the pids lab
// (docs/labs/pids.md). `make lab-pack LAB=pids` puts each block below in
// place of the body of the function named above it. With these stubs
// every fork is counted and none is refused: pids.max is ignored.

//@ kernel/cgroup/pids.c: pids_try_charge
{
	/* LAB pids: one more task at every level, if no level would pass
	 * its limit; else charge none and return the first level (from
	 * the bottom) that refused. This counts every level, always. */
	pids_charge(pids);
	return NULL;
}

//@ kernel/cgroup/pids.c: pids_refused
{
	/* LAB pids: count the refusal in pids.events where the limit was
	 * and above it, in pids.events.local where it was, and in the
	 * forking domain (its first refusal is reported). This counts only
	 * the last. */
	(void)over;
	return ++forking->forkfail == 1;
}
