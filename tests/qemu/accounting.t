#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/accounting.t - kernel-memory accounting seen from the shell
# (docs/design.md): a fork bomb under a 256K kmem limit stops at 15 tasks with
# ENOMEM, kmem usage exactly 262144 (15 stacks and the 4 slab pages of
# their task structs), kmem.failcnt counting and the user failcnt 0
# (configuration 2); with kmem 64M and a user limit of 200K the user
# counter refuses first (configuration 3); a task moved out of an
# accounted domain leaves its stack and task struct charged there, so the
# removed domain is dying until the task is reaped, then gone. `check`
# after each.
#
# The arithmetic. A fork is charged for its 16 KiB stack (4 pages) and its
# struct task, which comes from the domain's own child cache
# "task_struct(K)": objperslab tasks share one slab of pagesperslab pages
# (read from /proc/slabinfo: 4 tasks of 960 bytes in one 4 KiB page on
# x86-64 today). So n tasks cost 4n + ceil(n / objperslab) * pagesperslab
# pages, and the stack is charged first: the first fork whose stack does
# not fit is refused.
#
# One CPU, so that the arithmetic is exact: each CPU takes a slab of the
# child cache of its own (docs/slab.md, "Per-CPU slabs"), and with two a
# fork bomb whose tasks fork on both CPUs holds a fifth, partly used
# slab, and stops at 14 tasks (tests/qemu/stress.t is the SMP test).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Time::HiRes qw(sleep);
use Tally;

my $t = Tally->boot(smp => 1, mem => '512M', timeout => 900);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt: ' . $t->transcript);

sub tasks_in { my @p = grep { /^\d+$/ } split /\n/, $t->file("$_[0]/tasks"); return scalar @p }

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

# --- configuration 2: an independent kmem limit --------------------------------
$t->cmd('mkdir /cgroup/K');
is($t->cmd('echo 256K > /cgroup/K/memory.kmem.limit_in_bytes'), '', 'kmem limit 256K');
is($t->file('/cgroup/K/memory.kmem.limit_in_bytes'), '262144', 'reads back 262144');
like($t->cmd('run /cgroup/K forkbomb'), qr/^pid \d+$/, 'forkbomb started');
# pages_for(n) - the pages n tasks of one domain are charged for.
my ($per_slab, $pages_per_slab) = (4, 1);
sub pages_for { my ($n) = @_; return 4 * $n + int(($n + $per_slab - 1) / $per_slab) * $pages_per_slab }
# most_tasks(limit_pages) - how many forks fit: the first whose stack (or
# whose struct's new slab) passes the limit is refused.
sub most_tasks { my ($lim) = @_; my $n = 0; $n++ while pages_for($n + 1) <= $lim; return $n }
my $k_tasks = settle('/cgroup/K');
my ($slabline) = grep { /^task_struct\(K\) / } split /\n/, $t->file('/proc/slabinfo');
my @f = split ' ', $slabline // '';
ok(@f >= 6, '/proc/slabinfo has the child cache task_struct(K)') or diag($slabline // 'none');
($per_slab, $pages_per_slab) = ($f[4], $f[5]) if @f >= 6;
# 256K = 64 pages: 15 tasks are 60 stack pages + 4 slab pages = 64; the
# 16th task's stack would make 68.
is($k_tasks, most_tasks(64), "$k_tasks tasks: the next fork is refused ($per_slab task structs per $pages_per_slab-page slab)");
is($k_tasks, 15, '15 tasks with 4 task structs a page (15 x 16K + 4 x 4K = 256K)') if $per_slab == 4 && $pages_per_slab == 1;
is($f[1], $k_tasks, 'task_struct(K) holds exactly the domain\'s task structs');
is($t->file('/cgroup/K/memory.kmem.usage_in_bytes'), pages_for($k_tasks) * 4096, 'kmem usage = stacks + task-struct slabs');
is($t->file('/cgroup/K/memory.kmem.usage_in_bytes'), '262144', 'kmem usage is exactly the limit') if $per_slab == 4 && $pages_per_slab == 1;
cmp_ok($t->file('/cgroup/K/memory.kmem.failcnt'), '>', 0, 'kmem.failcnt counts the refusals');
is($t->file('/cgroup/K/memory.failcnt'), '0', 'the user counter never failed');
my $kstat = $t->file('/cgroup/K/memory.stat');
like($kstat, qr/^kernel_stack ${\($k_tasks * 16384)}$/m, 'memory.stat kernel_stack = 16 KiB per task');
my ($ks) = $kstat =~ /^kernel_stack (\d+)$/m;
my ($sl) = $kstat =~ /^slab (\d+)$/m;
my ($km) = $kstat =~ /^kmem (\d+)$/m;
is(($ks // 0) + ($sl // 0), $km // -1, 'memory.stat: kernel_stack + slab = kmem');
is($sl, int(($k_tasks + $per_slab - 1) / $per_slab) * $pages_per_slab * 4096, 'memory.stat slab: the task-struct slabs');
kill_and_remove('/cgroup/K');
is($t->dying, 0, 'no dying domain once the stacks are freed');
is($t->cmd('check'), 'check: ok', 'check: ok');

# --- configuration 3: kmem limit above the user limit ---------------------------
$t->cmd('mkdir /cgroup/U');
is($t->cmd('echo 64M > /cgroup/U/memory.kmem.limit_in_bytes'), '', 'kmem limit 64M');
is($t->cmd('echo 200K > /cgroup/U/memory.limit_in_bytes'), '', 'user limit 200K');
is($t->file('/cgroup/U/memory.limit_in_bytes'), '204800', '200K reads back 204800');
$t->cmd('run /cgroup/U forkbomb');
my $n = settle('/cgroup/U');
# 200K = 50 pages of res: 11 tasks are 44 stack pages + 3 slab pages = 47;
# the 12th task's stack would make 51.
is($n, most_tasks(50), "$n tasks fit in 200K (stacks and task-struct slabs)");
is($n, 11, '11 tasks (11 x 16K + 3 x 4K = 188K)') if $per_slab == 4 && $pages_per_slab == 1;
cmp_ok($t->file('/cgroup/U/memory.failcnt'), '>', 0, 'the user (res) counter refused');
is($t->file('/cgroup/U/memory.kmem.failcnt'), '0', 'kmem never refused');
cmp_ok($t->file('/cgroup/U/memory.usage_in_bytes'), '<=', 204800, 'res usage within the user limit');
kill_and_remove('/cgroup/U');
is($t->cmd('check'), 'check: ok', 'check: ok');

# --- a task moved out leaves its charge behind; dying until it exits -------------
$t->cmd('mkdir /cgroup/M');
$t->cmd('echo 8M > /cgroup/M/memory.kmem.limit_in_bytes');
my $pid = $t->run_pid('/cgroup/M spin');
ok(defined $pid, 'spin started in /cgroup/M');
# one stack and one slab of task_struct(M): 16384 + 4096
my $m_kmem = pages_for(1) * 4096;
is($t->file('/cgroup/M/memory.kmem.usage_in_bytes'), $m_kmem, "its stack and task struct are charged to M ($m_kmem)");
is($t->cmd("echo $pid > /cgroup/tasks"), '', 'moved to the root');
is($t->file('/cgroup/M/memory.kmem.usage_in_bytes'), $m_kmem, 'they stay charged to M');
is($t->cmd('rmdir /cgroup/M'), '', 'rmdir M with kernel charges left');
ok(!grep({ $_ eq 'M' } split /\n/, $t->cmd('ls /cgroup') // ''), 'M is gone from the tree');
is($t->dying, 1, 'M is dying (nr_dying_descendants 1)');
$t->cmd("kill $pid");
$t->cmd("wait $pid", 60);
my $d = -1;
for (1 .. 50) { $d = $t->dying; last if $d == 0; $t->cmd('sleep 100') }
is($d, 0, 'the task exited and was reaped: M is freed (nr_dying_descendants 0)');
ok(!grep({ /^task_struct\(M\) / } split /\n/, $t->file('/proc/slabinfo')), 'its child cache task_struct(M) is gone with it');
is($t->cmd('check'), 'check: ok', 'check: ok');

is($t->poweroff(30), 1, 'poweroff');
$t->diag_transcript unless Test::More->builder->is_passing;
done_testing();
