#!/usr/bin/perl
# tests/qemu/accounting.t - kernel-memory accounting seen from the shell
# (SPEC 1, 5): a fork bomb under a 256K kmem limit stops at 16 stacks with
# ENOMEM, kmem usage exactly 262144, kmem.failcnt counting and the user
# failcnt 0 (configuration 2); with kmem 64M and a user limit of 200K the
# user counter refuses first (configuration 3); a task moved out of an
# accounted domain leaves its stack charged there, so the removed domain
# is dying until the task exits, then gone. `check` after each.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Time::HiRes qw(sleep);
use Tally;

my $t = Tally->boot(smp => 2, mem => '512M', timeout => 900);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt: ' . $t->transcript);

sub file { my $v = $t->cmd("cat $_[0]"); return defined $v ? $v : '' }
sub tasks_in { my @p = grep { /^\d+$/ } split /\n/, file("$_[0]/tasks"); return scalar @p }

# wait_for_tasks - poll until the domain has n tasks and they stay so.
sub settle {
	my ($dir) = @_;
	my ($last, $same) = (-1, 0);
	for (1 .. 60) {
		my $n = tasks_in($dir);
		$same = $n == $last ? $same + 1 : 0;
		$last = $n;
		return $n if $same >= 3;
		$t->cmd('sleep 200');
	}
	return $last;
}

sub kill_and_remove {
	my ($dir) = @_;
	$t->cmd("echo 1 > $dir/cgroup.kill");
	for (1 .. 50) {
		last if tasks_in($dir) == 0;
		$t->cmd('sleep 100');
	}
	is($t->cmd("rmdir $dir"), '', "rmdir $dir after cgroup.kill");
}

sub dying { return file('/cgroup/cgroup.stat') =~ /^nr_dying_descendants (\d+)$/m ? $1 : -1 }

# --- configuration 2: an independent kmem limit --------------------------------
$t->cmd('mkdir /cgroup/K');
is($t->cmd('echo 256K > /cgroup/K/memory.kmem.limit_in_bytes'), '', 'kmem limit 256K');
is(file('/cgroup/K/memory.kmem.limit_in_bytes'), '262144', 'reads back 262144');
like($t->cmd('run /cgroup/K forkbomb'), qr/^pid \d+$/, 'forkbomb started');
is(settle('/cgroup/K'), 16, '16 tasks: the 17th fork is refused (16 x 16 KiB stacks = 256K)');
is(file('/cgroup/K/memory.kmem.usage_in_bytes'), '262144', 'kmem usage is exactly the limit');
cmp_ok(file('/cgroup/K/memory.kmem.failcnt'), '>', 0, 'kmem.failcnt counts the refusals');
is(file('/cgroup/K/memory.failcnt'), '0', 'the user counter never failed');
like(file('/cgroup/K/memory.stat'), qr/^kernel_stack 262144$/m, 'memory.stat kernel_stack 262144');
kill_and_remove('/cgroup/K');
is(dying(), 0, 'no dying domain once the stacks are freed');
is($t->cmd('check'), 'check: ok', 'check: ok');

# --- configuration 3: kmem limit above the user limit ---------------------------
$t->cmd('mkdir /cgroup/U');
is($t->cmd('echo 64M > /cgroup/U/memory.kmem.limit_in_bytes'), '', 'kmem limit 64M');
is($t->cmd('echo 200K > /cgroup/U/memory.limit_in_bytes'), '', 'user limit 200K');
is(file('/cgroup/U/memory.limit_in_bytes'), '204800', '200K reads back 204800');
$t->cmd('run /cgroup/U forkbomb');
my $n = settle('/cgroup/U');
is($n, 12, '12 stacks fit in 200K (12 x 16K = 192K)');
cmp_ok(file('/cgroup/U/memory.failcnt'), '>', 0, 'the user (res) counter refused');
is(file('/cgroup/U/memory.kmem.failcnt'), '0', 'kmem never refused');
cmp_ok(file('/cgroup/U/memory.usage_in_bytes'), '<=', 204800, 'res usage within the user limit');
kill_and_remove('/cgroup/U');
is($t->cmd('check'), 'check: ok', 'check: ok');

# --- a task moved out leaves its charge behind; dying until it exits -------------
$t->cmd('mkdir /cgroup/M');
$t->cmd('echo 8M > /cgroup/M/memory.kmem.limit_in_bytes');
my ($pid) = ($t->cmd('run /cgroup/M spin') // '') =~ /^pid (\d+)$/;
ok(defined $pid, 'spin started in /cgroup/M');
is(file('/cgroup/M/memory.kmem.usage_in_bytes'), '16384', 'its stack is charged to M');
is($t->cmd("echo $pid > /cgroup/tasks"), '', 'moved to the root');
is(file('/cgroup/M/memory.kmem.usage_in_bytes'), '16384', 'the stack stays charged to M');
is($t->cmd('rmdir /cgroup/M'), '', 'rmdir M with kernel charges left');
ok(!grep({ $_ eq 'M' } split /\n/, $t->cmd('ls /cgroup') // ''), 'M is gone from the tree');
is(dying(), 1, 'M is dying (nr_dying_descendants 1)');
$t->cmd("kill $pid");
$t->cmd("wait $pid", 60);
my $d = -1;
for (1 .. 50) { $d = dying(); last if $d == 0; $t->cmd('sleep 100') }
is($d, 0, 'the task exited: M is freed (nr_dying_descendants 0)');
is($t->cmd('check'), 'check: ok', 'check: ok');

is($t->poweroff(30), 1, 'poweroff');
$t->diag_transcript unless Test::More->builder->is_passing;
done_testing();
