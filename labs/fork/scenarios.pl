# SPDX-License-Identifier: MIT
# labs/fork/scenarios.pl - the QEMU scenarios of the accounted-fork lab
# (see labs/res_counter/scenarios.pl for the form).
use strict;
use warnings;

# domain NAME, LIMIT - a new domain with a kmem limit; its path.
sub lab_domain {
	my ($t, $name, $limit) = @_;
	$t->cmd("mkdir /cgroup/$name");
	$t->cmd("echo $limit > /cgroup/$name/memory.kmem.limit_in_bytes");
	return "/cgroup/$name";
}

return {
	stack_charged => sub {
		my ($t) = @_;
		my $d = lab_domain($t, 'lab_f1', '1M');
		my $run = $t->cmd("run $d spin") // '';
		my $stack = $t->stat_of($d, 'kernel_stack') // 'none';
		my $kmem = $t->file("$d/memory.kmem.usage_in_bytes");
		return ($run =~ /^pid \d+$/m && $stack eq '16384' && $kmem >= 16384,
			"run: '$run'; kernel_stack $stack; kmem usage $kmem");
	},
	refused_task_undoes_stack => sub {
		my ($t) = @_;
		my $d = lab_domain($t, 'lab_f2', '16K');
		my $run = $t->cmd("run $d spin") // '';
		my $stack = $t->stat_of($d, 'kernel_stack') // 'none';
		my $kmem = $t->file("$d/memory.kmem.usage_in_bytes");
		my $fail = $t->file("$d/memory.kmem.failcnt");
		my $check = $t->cmd('check', 60) // '';
		return ($run =~ /ENOMEM/ && $stack eq '0' && $kmem eq '0' && $fail >= 1
				&& $check eq 'check: ok',
			"run: '$run'; kernel_stack $stack; kmem usage $kmem; failcnt $fail; $check");
	},
	killed_task_uncharges => sub {
		my ($t) = @_;
		my $d = lab_domain($t, 'lab_f3', '1M');
		my $pid = $t->run_pid("$d spin");
		return (0, 'run did not start a task') unless $pid;
		$t->cmd("kill $pid");
		my $kmem = $t->until_true(10, sub {
			my $v = $t->file("$d/memory.kmem.usage_in_bytes");
			return $v eq '0' ? 'zero' : undef;
		});
		my $now = $t->file("$d/memory.kmem.usage_in_bytes");
		my $check = $t->cmd('check', 60) // '';
		return (($kmem // '') eq 'zero' && $check eq 'check: ok',
			"kmem usage after the kill: $now; $check");
	},
};
