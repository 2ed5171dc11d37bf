# SPDX-License-Identifier: MIT
# labs/stock/scenarios.pl - the QEMU scenario of the per-CPU stock lab
# (see labs/res_counter/scenarios.pl for the form).
use strict;
use warnings;

my $T = '/sys/kernel/tracing';
return {
	second_fork_hits => sub {
		my ($t) = @_;
		$t->cmd("echo memcg:memcg_stock_consume > $T/set_event");
		$t->cmd('mkdir /cgroup/lab_s');
		$t->cmd('echo 1M > /cgroup/lab_s/memory.kmem.limit_in_bytes');
		my $runs = join ' / ', map { $t->cmd('run /cgroup/lab_s spin') // '' } 1 .. 2;
		$t->cmd("echo 0 > $T/tracing_on");
		my @trace = grep { /memcg_stock_consume:/ } split /\n/, $t->file("$T/trace");
		$t->cmd("echo !*:* > $T/set_event");
		my $hits = grep { m{domain=/cgroup/lab_s .* hit } } @trace;
		return ($hits >= 1 && $runs =~ /pid.*pid/,
			"runs: $runs\n" . (@trace ? join("\n", @trace) : 'no memcg_stock_consume event'));
	},
};
