#!/usr/bin/perl
# tests/qemu/tasks.t - tasks and the scheduler from the shell (SPEC 6,
# 7.3): run / ps / kill / wait, killing a task asleep and one running,
# moving tasks between domains, fairness between domains on two CPUs,
# the shell's answer time under a fork bomb, and that a thousand tasks -
# then two thousand - started, killed and reaped give back every page
# (MemFree to within 256 KiB, kernel_stack 0, check ok).
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

sub memfree_kb {
	my $m = $t->cmd('cat /proc/meminfo');
	return defined $m && $m =~ /^MemFree:\s+(\d+) kB$/m ? $1 : undef;
}

# ps - the rows of ps, as hashes; undef if the header is not SPEC 7.3's.
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

# run - `run DOMAIN PROG ARGS`: the PID it prints, or undef.
sub run {
	my ($line) = @_;
	my $out = $t->cmd("run $line");
	return defined $out && $out =~ /^pid (\d+)$/ ? $1 : undef;
}

# stat - a field of a domain's memory.stat.
sub stat_of {
	my ($dir, $name) = @_;
	my $s = $t->cmd("cat $dir/memory.stat");
	return defined $s && $s =~ /^\Q$name\E (\d+)$/m ? $1 : undef;
}

# until_true(secs, sub) - poll sub until it is true (or time, scaled, runs
# out); returns its last value.
sub until_true {
	my ($secs, $f) = @_;
	my $end = time + $secs * $scale;
	my $v;
	while (1) {
		$v = $f->();
		return $v if $v || time > $end || !$t->alive;
		sleep 0.2;
	}
}

sub check_ok {
	my ($what) = @_;
	like(scalar($t->cmd('check', 60)) // '', qr/^check: ok$/, "check: ok $what");
}

my $free0 = memfree_kb();
ok(defined $free0, 'MemFree readable');

# --- run, ps, errors ----------------------------------------------------------
{
	my $rows = ps();
	ok($rows, 'ps prints the SPEC 7.3 header and six columns per task');
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

	my $p1 = run('A spin');
	my $p2 = run('/cgroup/A spin');
	ok($p1 && $p2 && $p2 > $p1, 'run prints "pid N"; PIDs increase') or diag("pids $p1 $p2");
	my $r = until_true(5, sub { my $r = ps_pid($p1); $r && $r->{state} eq 'S' ? $r : undef });
	ok($r, 'spin sleeps: state S');
	is($r && $r->{domain}, '/cgroup/A', 'ps shows its domain');
	is($r && $r->{prog}, 'spin', 'ps shows its program');
	is($t->cmd("kill $p1"), '', 'kill PID prints nothing');
	$r = until_true(5, sub { my $r = ps_pid($p1); $r && $r->{state} eq 'Z' ? $r : undef });
	ok($r, 'a task killed while asleep is a zombie until waited for');
	is($t->cmd("wait $p1"), '', 'wait PID reaps it');
	ok(!ps_pid($p1), 'reaped: ps no longer shows it');
	like(scalar $t->cmd("wait $p1"), qr/^error: ESRCH: /, 'wait again: ESRCH');

	# kill during run
	my $w = run('A worker');
	$r = until_true(5, sub { my $r = ps_pid($w); $r && $r->{work} > 0 ? $r : undef });
	ok($r && $r->{state} eq 'R', 'worker runs: state R, WORK grows');
	is($t->cmd("kill $w"), '', 'kill a running worker');
	is($t->cmd("wait $w", 30), '', 'wait for it returns');
	ok(!ps_pid($w), 'gone');

	# a worker with a fixed amount of work exits by itself
	my $f = run('A worker 50');
	is($t->cmd("wait $f", 60), '', 'worker 50 exits by itself; wait reaps it');
	# cgroup.kill: the zombies are reaped at once by the reaper
	is($t->cmd('echo 1 > /cgroup/A/cgroup.kill'), '', 'cgroup.kill');
	ok(until_true(5, sub { !ps_pid($p2) }), 'a task killed by cgroup.kill is reaped without wait');
	is($t->cmd('rmdir /cgroup/A'), '', 'rmdir the emptied domain');
}

# --- moves between domains ----------------------------------------------------
{
	$t->cmd('mkdir /cgroup/M1');
	$t->cmd('mkdir /cgroup/M2');
	$t->cmd('echo 64M > /cgroup/M1/memory.kmem.limit_in_bytes');
	my $p = run('M1 spin');
	ok($p, 'a task in M1');
	my $k1 = $t->cmd('cat /cgroup/M1/memory.kmem.usage_in_bytes');
	ok(defined $k1 && $k1 >= 16384, 'its 16 KiB stack is charged to M1 (kmem usage ' . ($k1 // '?') . ')');
	is(stat_of('/cgroup/M1', 'kernel_stack'), 16384, 'M1 kernel_stack 16384');
	# Its struct task is charged too, as one slab page of M1's own
	# task_struct(M1) cache: kmem = 16384 + 4096, and nothing else.
	is(stat_of('/cgroup/M1', 'slab'), 4096, 'M1 slab 4096: the page of its task struct');
	is($k1, 16384 + 4096, 'M1 kmem usage = stack + task-struct slab (20480)');
	is($t->cmd("echo $p > /cgroup/M2/tasks"), '', 'echo PID > M2/tasks');
	is(ps_pid($p)->{domain}, '/cgroup/M2', 'ps shows it in M2');
	is($t->cmd('cat /cgroup/M1/tasks'), '', 'M1 has no task');
	is($t->cmd('cat /cgroup/M2/tasks'), $p, 'M2 lists it');
	is($t->cmd('cat /cgroup/M1/memory.kmem.usage_in_bytes'), $k1,
		'the stack stays charged to M1 after the move');
	my $q = run('M1 worker');
	is($t->cmd("echo $q > /cgroup/M2/tasks"), '', 'move a running task');
	is($t->cmd("echo $q > /cgroup/M1/tasks"), '', '... and back');
	is(ps_pid($q)->{domain}, '/cgroup/M1', 'it is in M1 again');
	$t->cmd("kill $_") for $p, $q;
	$t->cmd("wait $_", 30) for $p, $q;
	is(stat_of('/cgroup/M1', 'kernel_stack'), 0, 'stacks freed: M1 kernel_stack 0');
	is($t->cmd('rmdir /cgroup/M1'), '', 'rmdir M1');
	is($t->cmd('rmdir /cgroup/M2'), '', 'rmdir M2');
	check_ok('after the moves');
}

# --- fairness: 40 workers in one domain, 1 in another, on 2 CPUs -------------
{
	$t->cmd('mkdir /cgroup/many');
	$t->cmd('mkdir /cgroup/one');
	my @many = map { run('many worker') } 1 .. 40;
	my $one = run('one worker');
	is(scalar(grep { defined } @many, $one), 41, '41 workers started');
	sleep 1 * $scale;  # let the balancer settle
	my $before = ps();
	sleep 3 * $scale;
	my $after = ps();
	my %w0 = map { $_->{pid} => $_->{work} } @{$before || []};
	my (%got, %cpus);
	for my $r (@{$after || []}) {
		next unless $r->{domain} =~ m{^/cgroup/(many|one)$};
		$got{$1} += $r->{work} - ($w0{$r->{pid}} // 0);
		$cpus{$r->{cpu}}++;
	}
	my ($m, $o) = ($got{many} // 0, $got{one} // 0);
	ok($m > 0 && $o > 0, "both domains progress (many +$m, one +$o)");
	my $ratio = $m ? $o / $m : 0;
	diag(sprintf('fairness: 1-task domain / 40-task domain = %.2f', $ratio));
	ok($ratio >= 0.6 && $ratio <= 1.6, sprintf('a 1-task domain gets about the CPU of a 40-task domain (ratio %.2f)', $ratio));
	ok(keys(%cpus) >= 2, 'the workers run on both CPUs (' . join(',', sort keys %cpus) . ')');
	like(scalar $t->cmd('cat /proc/sched'), qr/^cpu1 /m, '/proc/sched has a line per CPU');
	$t->cmd('echo 1 > /cgroup/many/cgroup.kill');
	$t->cmd('echo 1 > /cgroup/one/cgroup.kill');
	ok(until_true(20, sub { my $r = ps(); $r && !grep { $_->{domain} =~ m{^/cgroup/(many|one)$} } @$r }),
		'41 workers killed and reaped');
	is($t->cmd('rmdir /cgroup/many'), '', 'rmdir many');
	is($t->cmd('rmdir /cgroup/one'), '', 'rmdir one');
}

# bomb(n, kb_limit) - a fork bomb in /cgroup/bomb up to n stacks; then
# kill it all; every stack page must come back.
sub bomb {
	my ($n, $limit, $what) = @_;
	my $free = memfree_kb();
	$t->cmd('mkdir /cgroup/bomb');
	$t->cmd("echo $limit > /cgroup/bomb/memory.kmem.limit_in_bytes");
	ok(run('bomb forkbomb'), "$what: the fork bomb starts");
	my $stacks = until_true(60, sub {
		my $s = stat_of('/cgroup/bomb', 'kernel_stack') // 0;
		$s / 16384 >= $n ? $s / 16384 : 0 });
	ok($stacks, "$what: $n tasks forked (kernel_stack counts their stacks)");
	# The shell answers during the bomb. How fast is reported, not
	# asserted: the host's clock counts the time a loaded host leaves
	# QEMU unscheduled (demo.t asserts SPEC 8's 100 ms by the guest's
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
	ok(until_true(60, sub { (stat_of('/cgroup/bomb', 'kernel_stack') // 1) == 0 }),
		"$what: every stack freed (kernel_stack 0)");
	ok(until_true(30, sub { my $r = ps(); $r && !grep { $_->{domain} eq '/cgroup/bomb' || $_->{prog} eq 'forkbomb' } @$r }),
		"$what: no task left, no zombie");
	is($t->cmd('rmdir /cgroup/bomb'), '', "$what: rmdir");
	my $after = memfree_kb();
	ok(defined $free && defined $after && $free - $after <= 256,
		"$what: MemFree back to within 256 KiB")
		or diag("MemFree before $free kB, after $after kB");
	check_ok("after $what");
}

bomb(1000, '20M', '1000 tasks');
bomb(2000, '40M', '2000 tasks');

my $free1 = memfree_kb();
ok(defined $free1 && $free0 - $free1 <= 256, 'MemFree at the end within 256 KiB of the start')
	or diag("MemFree at the start $free0 kB, at the end $free1 kB");
is($t->poweroff(60), 1, 'poweroff');
done_testing();
