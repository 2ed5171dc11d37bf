# SPDX-License-Identifier: MIT
# labs/rmdir/scenarios.pl - the QEMU scenarios of the domain-removal lab
# (see labs/res_counter/scenarios.pl for the form).
use strict;
use warnings;

return {
	rmdir_busy => sub {
		my ($t) = @_;
		$t->cmd('mkdir /cgroup/lab_r1');
		my $pid = $t->run_pid('/cgroup/lab_r1 spin');
		my $rm = $t->cmd('rmdir /cgroup/lab_r1') // '';
		$t->cmd("kill $pid") if $pid;
		return ($pid && $rm =~ /EBUSY/, "rmdir with task $pid in it: '$rm'");
	},
	rmdir_then_freed => sub {
		my ($t) = @_;
		my $d = '/cgroup/lab_r2';
		$t->cmd("mkdir $d");
		$t->cmd("echo 1M > $d/memory.kmem.limit_in_bytes");
		my $pid = $t->run_pid("$d spin");
		return (0, 'run did not start a task') unless $pid;
		$t->cmd("kill $pid");
		my $rm = $t->until_true(5, sub {
			my $r = $t->cmd("rmdir $d") // 'no prompt';
			return $r eq '' ? 'removed' : undef;
		});
		my $rmout = $t->cmd("rmdir $d") // '';
		my $dying = $t->until_true(10, sub { $t->dying == 0 ? 'none' : undef });
		my $stat = $t->file('/cgroup/cgroup.stat');
		my $check = $t->cmd('check', 60) // '';
		$stat =~ s/\n/, /g;
		return (($rm // '') eq 'removed' && ($dying // '') eq 'none'
				&& $check eq 'check: ok',
			"rmdir: " . ($rm // "refused: $rmout") . "; $stat; $check");
	},
};
