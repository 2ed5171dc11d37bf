#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/tasks.t - tasks and the scheduler from the shell (docs/design.md,
# docs/interface.md): run / ps / kill / wait, killing a task asleep and one
# running, moving tasks between domains, fairness between domains on two CPUs,
# the shell's answer time under a fork bomb, and that a thousand tasks -
# then two thousand - started, killed and reaped give back every page
# (MemFree to within 256 KiB, kernel_stack 0, check ok), and are all
# listed in the domain's tasks file (longer than one 8 KiB read).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Time::HiRes qw(sleep time);
use Tally;

my $t = Tally->boot(smp => 2, mem => '512M', timeout => 1500);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt: ' . $t->transcript);
my $scale = Tally::scale();

# ps - the rows of ps, as hashes; undef if the header is not ps's.
sub ps {
	my @l = $t->cmd('ps', 60);
	my $head = shift @l;
	return undef unless defined $head
		&& $head =~ /^PID\s+DOMAIN\s+CPU\s+STATE\s+PROG\s+WORK\s*$/;
	my @rows;
	for (@l) {
		my @f = split ' ';
		return undef unless @f == 6 && $f[0] =~ /^\d+$/ && $f[3] =~ /^[RSZ]$/;
		push @rows, { pid => $f[0], domain => $f[1], cpu => $f[2],
			state => $f[3], prog => $f[4], work => $f[5] };
	}
	return \@rows;
}

sub ps_pid {
	my ($pid) = @_;
	my $rows = ps() or return undef;
	my ($r) = grep { $_->{pid} == $pid } @$rows;
	return $r;
}

my $free0 = $t->memfree_kb;
ok(defined $free0, 'MemFree readable');

# --- run, ps, errors ----------------------------------------------------------
{
	my $rows = ps();
	ok($rows, 'ps prints its header and six columns per task');
	ok((grep { $_->{prog} eq 'shell' } @{$rows || []}), 'ps lists the shell');
	is($t->cmd('mkdir /cgroup/A'), '', 'mkdir /cgroup/A');
	like(scalar $t->cmd('run nosuch spin'), qr/^error: ENOENT: /, 'run in an unknown domain: ENOENT');
	like(scalar $t->cmd('run A nosuch'), qr/^error: ENOENT: /, 'run of an unknown program: ENOENT');
	like(scalar $t->cmd('run A hog 1xx'), qr/^error: EINVAL: /, 'run hog with a bad size: EINVAL');
	like(scalar $t->cmd('kill 30000'), qr/^error: ESRCH: /, 'kill of an unknown PID: ESRCH');
	like(scalar $t->cmd('wait 30000'), qr/^error: ESRCH: /, 'wait of an unknown PID: ESRCH');
	my ($shell) = grep { $_->{prog} eq 'shell' } @{$rows || []};
	like(scalar $t->cmd('kill ' . ($shell ? $shell->{pid} : 1)), qr/^error: EPERM: /,
		'kill of a system task: EPERM');

	my $p1 = $t->run_pid('A spin');
	my $p2 = $t->run_pid('/cgroup/A spin');
	ok($p1 && $p2 && $p2 > $p1, 'run prints "pid N"; PIDs increase') or diag("pids $p1 $p2");
	my $r = $t->until_true(5, sub { my $r = ps_pid($p1); $r && $r->{state} eq 'S' ? $r : undef });
	ok($r, 'spin sleeps: state S');
	is($r && $r->{domain}, '/cgroup/A', 'ps shows its domain');
	is($r && $r->{prog}, 'spin', 'ps shows its program');
	is($t->cmd("kill $p1"), '', 'kill PID prints nothing');
	# The shell reaps its jobs (docs/interface.md): no zombie waits for `wait`.
	is($t->job_notice($p1, 30), "[pid $p1 killed]", 'a task killed while asleep is reaped: [pid N killed]');
	ok(!ps_pid($p1), 'reaped: ps no longer shows it');
	is($t->cmd("wait $p1"), '', 'wait PID on the reaped job answers at once');
	is($t->cmd("wait $p1"), '', 'and again');

	# kill during run
	my $w = $t->run_pid('A worker');
	$r = $t->until_true(5, sub { my $r = ps_pid($w); $r && $r->{work} > 0 ? $r : undef });
	ok($r && $r->{state} eq 'R', 'worker runs: state R, WORK grows');
	is($t->cmd("kill $w"), '', 'kill a running worker');
	is($t->cmd("wait $w", 30), '', 'wait for it returns');
	ok(!ps_pid($w), 'gone');

	# a worker with a fixed amount of work exits by itself
	my $f = $t->run_pid('A worker 50');
	is($t->cmd("wait $f", 60), '', 'worker 50 exits by itself; wait returns');
	ok(!ps_pid($f), 'and it is gone');
	# cgroup.kill: the tasks are reaped at once by the reaper
	is($t->cmd('echo 1 > /cgroup/A/cgroup.kill'), '', 'cgroup.kill');
	ok($t->until_true(5, sub { !ps_pid($p2) }), 'a task killed by cgroup.kill is reaped without wait');
	is($t->cmd('rmdir /cgroup/A'), '', 'rmdir the emptied domain');
}

# --- moves between domains ----------------------------------------------------
{
	$t->cmd('mkdir /cgroup/M1');
	$t->cmd('mkdir /cgroup/M2');
	$t->cmd('echo 64M > /cgroup/M1/memory.kmem.limit_in_bytes');
	my $p = $t->run_pid('M1 spin');
	ok($p, 'a task in M1');
	my $k1 = $t->cmd('cat /cgroup/M1/memory.kmem.usage_in_bytes');
	ok(defined $k1 && $k1 >= 16384, 'its 16 KiB stack is charged to M1 (kmem usage ' . ($k1 // '?') . ')');
	is($t->stat_of('/cgroup/M1', 'kernel_stack'), 16384, 'M1 kernel_stack 16384');
	# Its struct task is charged too, as one slab page of M1's own
	# task_struct(M1) cache: kmem = 16384 + 4096, and nothing else.
	is($t->stat_of('/cgroup/M1', 'slab'), 4096, 'M1 slab 4096: the page of its task struct');
	is($k1, 16384 + 4096, 'M1 kmem usage = stack + task-struct slab (20480)');
	is($t->cmd("echo $p > /cgroup/M2/tasks"), '', 'echo PID > M2/tasks');
	is(ps_pid($p)->{domain}, '/cgroup/M2', 'ps shows it in M2');
	is($t->cmd('cat /cgroup/M1/tasks'), '', 'M1 has no task');
	is($t->cmd('cat /cgroup/M2/tasks'), $p, 'M2 lists it');
	is($t->cmd('cat /cgroup/M1/memory.kmem.usage_in_bytes'), $k1,
		'the stack stays charged to M1 after the move');
	my $q = $t->run_pid('M1 worker');
	is($t->cmd("echo $q > /cgroup/M2/tasks"), '', 'move a running task');
	is($t->cmd("echo $q > /cgroup/M1/tasks"), '', '... and back');
	is(ps_pid($q)->{domain}, '/cgroup/M1', 'it is in M1 again');
	$t->cmd("kill $_") for $p, $q;
	$t->job_notice($_, 30) for $p, $q;
	is($t->stat_of('/cgroup/M1', 'kernel_stack'), 0, 'stacks freed: M1 kernel_stack 0');
	is($t->cmd('rmdir /cgroup/M1'), '', 'rmdir M1');
	is($t->cmd('rmdir /cgroup/M2'), '', 'rmdir M2');
	$t->check_ok('after the moves');
}

# --- fairness: 40 workers in one domain, 1 in another, on 2 CPUs -------------
{
	$t->cmd('mkdir /cgroup/many');
	$t->cmd('mkdir /cgroup/one');
	my @many = map { $t->run_pid('many worker') } 1 .. 40;
	my $one = $t->run_pid('one worker');
	is(scalar(grep { defined } @many, $one), 41, '41 workers started');
	sleep 1 * $scale;  # let the balancer settle
	my $before = ps();
	sleep 3 * $scale;
	my $after = ps();
	my %w0 = map { $_->{pid} => $_->{work} } @{$before || []};
	my (%got, %cpus, %on);
	for my $r (@{$after || []}) {
		next unless $r->{domain} =~ m{^/cgroup/(many|one)$};
		my $w = $r->{work} - ($w0{$r->{pid}} // 0);
		$got{$1} += $w;
		$on{$r->{cpu}}{$1} += $w;
		$cpus{$r->{cpu}}++;
	}
	my ($m, $o) = ($got{many} // 0, $got{one} // 0);
	ok($m > 0 && $o > 0, "both domains progress (many +$m, one +$o)");
	# WORK counts the instructions a task ran, and the CPUs need not run
	# equally fast: under TCG each is a host thread, and on a loaded host
	# one may get half the host time the other gets. So a domain's CPU
	# time is counted, on each CPU, as its part of all the work done
	# there (by the CPU each task is on at the end), summed over the CPUs:
	# a domain alone on a CPU has 1 whatever that CPU's speed. (With
	# equal speeds this is the ratio of the work itself.) This checks how
	# the CPUs are shared between domains; that a CPU with work never
	# idles is demo.t's check (share=, by the guest's own clock).
	my %cpu_time;
	for my $c (keys %on) {
		my $all = 0;
		$all += $_ for values %{$on{$c}};
		next unless $all > 0;
		$cpu_time{$_} += $on{$c}{$_} / $all for keys %{$on{$c}};
	}
	my ($mt, $ot) = ($cpu_time{many} // 0, $cpu_time{one} // 0);
	my $ratio = $mt ? $ot / $mt : 0;
	diag(sprintf('fairness: 1-task domain / 40-task domain = %.2f '
		. '(CPU time %.2f / %.2f; work %.2f)', $ratio, $ot, $mt, $m ? $o / $m : 0));
	ok($ratio >= 0.6 && $ratio <= 1.6, sprintf('a 1-task domain gets about the CPU of a 40-task domain (ratio %.2f)', $ratio));
	ok(keys(%cpus) >= 2, 'the workers run on both CPUs (' . join(',', sort keys %cpus) . ')');
	like(scalar $t->cmd('cat /proc/sched'), qr/^cpu1 /m, '/proc/sched has a line per CPU');
	$t->cmd('echo 1 > /cgroup/many/cgroup.kill');
	$t->cmd('echo 1 > /cgroup/one/cgroup.kill');
	ok($t->until_true(20, sub { my $r = ps(); $r && !grep { $_->{domain} =~ m{^/cgroup/(many|one)$} } @$r }),
		'41 workers killed and reaped');
	is($t->cmd('rmdir /cgroup/many'), '', 'rmdir many');
	is($t->cmd('rmdir /cgroup/one'), '', 'rmdir one');
}

# bomb(n, kb_limit) - a fork bomb in /cgroup/bomb up to n stacks; then
# kill it all; every stack page must come back.
sub bomb {
	my ($n, $limit, $what) = @_;
	my $free = $t->memfree_kb;
	$t->cmd('mkdir /cgroup/bomb');
	$t->cmd("echo $limit > /cgroup/bomb/memory.kmem.limit_in_bytes");
	ok($t->run_pid('bomb forkbomb'), "$what: the fork bomb starts");
	my $stacks = $t->until_true(60, sub {
		my $s = $t->stat_of('/cgroup/bomb', 'kernel_stack') // 0;
		$s / 16384 >= $n ? $s / 16384 : 0 });
	ok($stacks, "$what: $n tasks forked (kernel_stack counts their stacks)");
	# tasks lists them all, one PID per line, however long the list (2000
	# PIDs are more than the shell's 8 KiB buffer: cat reads in pieces).
	my @pids = split /\n/, $t->cmd('cat /cgroup/bomb/tasks', 120) // '';
	my %distinct = map { $_ => 1 } @pids;
	cmp_ok(scalar(keys %distinct), '>=', $n, "$what: cat tasks lists every task ("
		. scalar(@pids) . ' lines, ' . length(join("\n", @pids)) . ' bytes)');
	is(scalar(grep { !/^\d+$/ } @pids), 0, "$what: one whole PID per line");
	# The shell answers during the bomb. How fast is reported, not
	# asserted: the host's clock counts the time a loaded host leaves
	# QEMU unscheduled (demo.t asserts the demonstration's 100 ms by the guest's
	# own ticks).
	my @times;
	my $answered = 0;
	for (1 .. 5) {
		$answered++ if ($t->cmd('pwd') // '') eq '/';
		push @times, $t->last_time // 99;
	}
	my ($max) = sort { $b <=> $a } @times;
	is($answered, 5, "$what: the shell answers every command while the bomb runs");
	note(sprintf('%s: slowest answer %.0f ms (host clock)', $what, 1000 * $max));
	my $limit_bytes = $t->cmd('cat /cgroup/bomb/memory.kmem.limit_in_bytes');
	my $usage = $t->cmd('cat /cgroup/bomb/memory.kmem.max_usage_in_bytes');
	ok($usage <= $limit_bytes, "$what: kmem usage never above the limit");
	is($t->cmd('echo 1 > /cgroup/bomb/cgroup.kill'), '', "$what: cgroup.kill");
	ok($t->until_true(60, sub { ($t->stat_of('/cgroup/bomb', 'kernel_stack') // 1) == 0 }),
		"$what: every stack freed (kernel_stack 0)");
	ok($t->until_true(30, sub { my $r = ps(); $r && !grep { $_->{domain} eq '/cgroup/bomb' || $_->{prog} eq 'forkbomb' } @$r }),
		"$what: no task left, no zombie");
	is($t->cmd('rmdir /cgroup/bomb'), '', "$what: rmdir");
	my $after = $t->memfree_kb;
	ok(defined $free && defined $after && $free - $after <= 256,
		"$what: MemFree back to within 256 KiB")
		or diag("MemFree before $free kB, after $after kB");
	$t->check_ok("after $what");
}

bomb(1000, '20M', '1000 tasks');
bomb(2000, '40M', '2000 tasks');

my $free1 = $t->memfree_kb;
ok(defined $free1 && $free0 - $free1 <= 256, 'MemFree at the end within 256 KiB of the start')
	or diag("MemFree at the start $free0 kB, at the end $free1 kB");
is($t->poweroff(60), 1, 'poweroff');
done_testing();
