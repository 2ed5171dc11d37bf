# SPDX-License-Identifier: MIT
# labs/pids/scenarios.pl - the QEMU scenario of the pids lab (see
# labs/res_counter/scenarios.pl for the form).
use strict;
use warnings;

my $D = '/cgroup/lab_bomb';
my $N = 20;
return {
	# The domain has a 4M kmem limit too, so that a bomb the pids
	# controller does not stop is stopped there, and seen to pass N.
	bomb_contained => sub {
		my ($t) = @_;
		$t->cmd("mkdir $D");
		$t->cmd("echo 4M > $D/memory.kmem.limit_in_bytes");
		$t->cmd("echo $N > $D/pids.max");
		my $pid = $t->run_pid("$D forkbomb");
		return (0, 'the fork bomb did not start') unless $pid;
		my $full = $t->until_true(60, sub {
			my $c = $t->file("$D/pids.current");
			return $c >= $N ? $c : undef;
		}) // 'never';
		my @current = map { $t->file("$D/pids.current") } 1 .. 3;
		my $peak = $t->file("$D/pids.peak");
		my $events = $t->file("$D/pids.events");
		my $run = $t->cmd("run $D spin") // '';
		$t->cmd("echo 1 > $D/cgroup.kill");
		my $gone = $t->until_true(60, sub {
			$t->file("$D/pids.current") eq '0' ? 'yes' : undef;
		}) // 'no';
		$t->cmd("rmdir $D");
		my $check = $t->cmd('check', 60) // '';
		my $ok = $full eq $N && !grep({ $_ > $N } @current)
			&& $peak eq $N && $events =~ /^max [1-9]\d*$/
			&& $run =~ /EAGAIN/ && $gone eq 'yes'
			&& $check eq 'check: ok';
		return ($ok, "pids.current $full at first, then @current; "
			. "pids.peak $peak; pids.events '$events'; "
			. "run into it: '$run'; all reaped: $gone; $check");
	},
};
