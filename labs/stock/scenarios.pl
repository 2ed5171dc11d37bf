# SPDX-License-Identifier: MIT
# labs/stock/scenarios.pl - the QEMU scenario of the per-CPU stock lab
# (see labs/res_counter/scenarios.pl for the form).
use strict;
use warnings;

my $T = '/sys/kernel/tracing';
# The first task's stack (4 pages) misses and charges a batch of 32; the
# rest waits in this CPU's stock. The second task's stack must be served
# from it: the second 4-page kernel charge of the domain is a hit. (The
# first task's own slab page, a 1-page hit, does not count.)
return {
	second_fork_hits => sub {
		my ($t) = @_;
		$t->cmd("echo memcg:memcg_stock_consume > $T/set_event");
		$t->cmd('mkdir /cgroup/lab_s');
		$t->cmd('echo 1M > /cgroup/lab_s/memory.kmem.limit_in_bytes');
		my @runs = map { $t->cmd('run /cgroup/lab_s spin') // '' } 1 .. 2;
		$t->cmd("echo 0 > $T/tracing_on");
		my @trace = grep { m{memcg_stock_consume: domain=/cgroup/lab_s } }
			split /\n/, $t->file("$T/trace");
		$t->cmd("echo !*:* > $T/set_event");
		$t->cmd("echo 1 > $T/tracing_on");
		my @stacks = grep { / pages=4 kind=kmem / } @trace;
		my $check = $t->cmd('check', 60) // '';
		my $ok = (grep { /^pid \d+$/ } @runs) == 2 && @stacks >= 2
			&& $stacks[0] =~ / miss / && $stacks[1] =~ / hit /
			&& $check eq 'check: ok';
		return ($ok, join("\n", 'runs: ' . join(' / ', @runs),
			'the 4-page charges (the stacks): '
				. (@stacks ? '' : 'none traced'), @stacks, $check));
	},
};
