#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/pids.t - the pids controller on the v1 tree, checked from the
# shell as a user (or LTP's pids.sh, or kselftest's test_pids) checks it:
#
#   - every non-root domain has pids.max ("max"), pids.current, pids.peak,
#     pids.events and pids.events.local ("max 0"); the root has none;
#   - each bad write to pids.max gets its error (-1, 4194305, words, an
#     empty write: EINVAL; a number past 64 bits: ERANGE) and changes
#     nothing; 0 and 4194304 are taken; a limit below pids.current too;
#   - a fork bomb under pids.max=N never passes N tasks (pids.current,
#     the tasks file and pids.peak), its forks fail with EAGAIN (the
#     task:task_fork_refused trace event, and `run` into the domain),
#     pids.events counts them, nothing is killed, and one line
#     "cgroup: fork rejected by pids controller in /bomb" is printed;
#   - hierarchy: a parent's limit refuses its child's forks, counted in
#     the parent's events and events.local, not in the child's;
#   - a move into a domain at its limit is allowed (the count moves);
#   - the count goes when the task is reaped; check: ok after each;
#   - /proc/PID/oom_score_adj (-1000..1000, its errors, inherited at fork),
#     /proc/PID/cgroup, /sys/kernel/cgroup/features, /proc/swaps,
#     /proc/mounts and /proc/sys/vm/drop_caches read as Linux's do.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $t = Tally->boot(smp => 2, mem => '512M', timeout => 900);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt: ' . $t->transcript);

# error_of(cmd) - the ENAME of the error line cmd printed, or 'ok'.
sub error_of {
	my $out = $t->cmd($_[0]) // '';
	return $out =~ /^error: (E[A-Z0-9]+):/m ? $1 : 'ok';
}

sub count_lines { scalar grep { /^\d+$/ } split /\n/, $_[0] }

# --- the files ------------------------------------------------------------
$t->cmd('mkdir /cgroup/A');
my %want = ('pids.max' => 'max', 'pids.current' => '0', 'pids.peak' => '0',
	    'pids.events' => 'max 0', 'pids.events.local' => 'max 0');
for my $f (sort keys %want) {
	is($t->file("/cgroup/A/$f"), $want{$f}, "$f reads '$want{$f}'");
	is(error_of("cat /cgroup/$f"), 'ENOENT', "no $f in the root");
}
for my $f (qw(pids.current pids.peak pids.events pids.events.local)) {
	is(error_of("echo 1 > /cgroup/A/$f"), 'EINVAL', "$f is read-only");
}

# --- pids.max: what it takes and what it refuses -------------------------
for my $v (['0', '0'], ['4194304', '4194304'], ['0x10', '16'], ['max', 'max'],
	   ['12', '12']) {
	is(error_of("echo $v->[0] > /cgroup/A/pids.max"), 'ok', "pids.max takes $v->[0]");
	is($t->file('/cgroup/A/pids.max'), $v->[1], "and reads $v->[1]");
}
for my $bad ('-1', '4194305', 'abc', '1.5', '5k', 'max1', '') {
	my $show = length $bad ? $bad : '(empty)';
	is(error_of("echo $bad > /cgroup/A/pids.max"), 'EINVAL', "pids.max refuses $show: EINVAL");
	is($t->file('/cgroup/A/pids.max'), '12', 'and is unchanged');
}
is(error_of('echo 99999999999999999999 > /cgroup/A/pids.max'), 'ERANGE',
   'a number past 64 bits: ERANGE');
is($t->file('/cgroup/A/pids.max'), '12', 'and is unchanged');

# --- reaping gives the count back -----------------------------------------
my $spin = $t->run_pid('/cgroup/A spin');
ok($spin, 'run a task in A');
is($t->file('/cgroup/A/pids.current'), '1', 'pids.current 1');
is($t->file("/proc/$spin/cgroup"), '1:memory,pids:/A', '/proc/PID/cgroup names A (v1 hierarchy 1)');
# A limit below the count is allowed: it only refuses new forks.
is(error_of('echo 0 > /cgroup/A/pids.max'), 'ok', 'pids.max 0 below pids.current 1: allowed');
is(error_of('run /cgroup/A spin'), 'EAGAIN', 'then run into A: EAGAIN');
is($t->file('/cgroup/A/pids.events'), 'max 1', 'pids.events counts it');
$t->cmd("kill $spin");
ok($t->until_true(30, sub { $t->file('/cgroup/A/pids.current') eq '0' }),
   'killed and reaped: pids.current 0');
is($t->file('/cgroup/A/pids.peak'), '1', 'pids.peak keeps 1');
$t->check_ok('after the count went back');

# --- moving ignores the limit ---------------------------------------------
$spin = $t->run_pid('/cgroup spin');
is(error_of("echo $spin > /cgroup/A/tasks"), 'ok', 'move a task into A at pids.max 0: allowed');
is($t->file('/cgroup/A/pids.current'), '1', 'its count moved with it');
is($t->file('/cgroup/A/pids.events'), 'max 1', 'not a refusal');
is(error_of("echo $spin > /cgroup/tasks"), 'ok', 'back to the root');
is($t->file('/cgroup/A/pids.current'), '0', 'and its count with it');
$t->cmd("kill $spin");
$t->cmd('rmdir /cgroup/A');

# --- a fork bomb under pids.max=20 ----------------------------------------
my $N = 20;
$t->cmd('mkdir /cgroup/bomb');
$t->cmd("echo $N > /cgroup/bomb/pids.max");
$t->cmd('echo task:task_fork_refused > /sys/kernel/tracing/set_event');
my $bomb = $t->run_pid('/cgroup/bomb forkbomb');
ok($bomb, 'the bomb runs');
ok($t->until_true(60, sub { $t->file('/cgroup/bomb/pids.current') eq $N }),
   "the bomb reaches $N tasks");
my ($most_current, $most_tasks) = (0, 0);
for (1 .. 5) {
	my $c = $t->file('/cgroup/bomb/pids.current');
	my $n = count_lines($t->file('/cgroup/bomb/tasks'));
	$most_current = $c if $c > $most_current;
	$most_tasks = $n if $n > $most_tasks;
}
cmp_ok($most_current, '<=', $N, "pids.current never passes $N");
cmp_ok($most_tasks, '<=', $N, "the tasks file never lists more than $N");
is($t->file('/cgroup/bomb/pids.peak'), $N, "pids.peak is $N");
my ($refused) = $t->file('/cgroup/bomb/pids.events') =~ /^max (\d+)$/;
cmp_ok($refused // 0, '>', 0, "pids.events counts refused forks ($refused)");
$t->cmd('echo 0 > /sys/kernel/tracing/tracing_on');
my $trace = $t->file('/sys/kernel/tracing/trace', 60);
my $eagain = () = $trace =~ /task_fork_refused: domain=\/cgroup\/bomb err=EAGAIN/g;
my $other = () = $trace =~ /task_fork_refused: .*err=(?!EAGAIN)/g;
cmp_ok($eagain, '>', 0, "the bomb's forks fail with EAGAIN ($eagain traced)");
is($other, 0, 'and with nothing else');
$t->cmd('echo > /sys/kernel/tracing/set_event');
$t->cmd('echo > /sys/kernel/tracing/trace');
$t->cmd('echo 1 > /sys/kernel/tracing/tracing_on');
is(error_of('run /cgroup/bomb spin'), 'EAGAIN', 'run into the full domain: EAGAIN');
like($t->file('/cgroup/bomb/memory.oom_control'), qr/^oom_kill 0$/m, 'nothing OOM-killed');
is(scalar(() = $t->output =~ /^cgroup: fork rejected by pids controller in \/bomb\r?$/mg), 1,
   'one "fork rejected by pids controller in /bomb" line');
is(error_of('run /cgroup worker 1'), 'ok', 'a fork elsewhere still works');
$t->check_ok('with the bomb at its limit');
$t->cmd('echo 1 > /cgroup/bomb/cgroup.kill');
ok($t->until_true(60, sub { $t->file('/cgroup/bomb/pids.current') eq '0' }),
   'cgroup.kill: every task reaped, pids.current 0');
# (Read once the bomb is gone: while it runs, each read sees more.)
my $events = $t->file('/cgroup/bomb/pids.events');
is($t->file('/cgroup/bomb/pids.events.local'), $events,
   "all refused by its own limit: events.local = events ($events)");
is(error_of('rmdir /cgroup/bomb'), 'ok', 'rmdir');
ok($t->until_true(30, sub { $t->dying == 0 }), 'nr_dying_descendants 0');
$t->check_ok('after the bomb');

# --- hierarchy: the parent's limit ----------------------------------------
$t->cmd('mkdir /cgroup/P');
$t->cmd('mkdir /cgroup/P/C');
$t->cmd('echo 3 > /cgroup/P/pids.max');
ok($t->run_pid('/cgroup/P/C forkbomb'), 'a bomb in P/C, with pids.max 3 in P');
ok($t->until_true(60, sub {
	my ($n) = $t->file('/cgroup/P/pids.events') =~ /^max (\d+)$/;
	($n // 0) > 0 }), "P's limit refuses C's forks");
is($t->file('/cgroup/P/C/pids.current'), '3', 'C holds 3 tasks');
is($t->file('/cgroup/P/pids.current'), '3', 'counted in P too');
is(scalar(() = $t->output =~ /^cgroup: fork rejected by pids controller in \/P\/C\r?$/mg), 1,
   'one line, naming the forking domain: /P/C');
$t->cmd('echo 1 > /cgroup/P/cgroup.kill');
ok($t->until_true(60, sub { $t->file('/cgroup/P/pids.current') eq '0' }),
   'killed: P and C back to 0');
$events = $t->file('/cgroup/P/pids.events');
is($t->file('/cgroup/P/pids.events.local'), $events,
   "P's events.local counts them all: its limit refused ($events)");
is($t->file('/cgroup/P/C/pids.events'), 'max 0', "C's events: 0 (not C's limit)");
is($t->file('/cgroup/P/C/pids.events.local'), 'max 0', "C's events.local: 0");
$t->cmd('rmdir /cgroup/P/C');
$t->cmd('rmdir /cgroup/P');
$t->check_ok('after the hierarchy');

# --- /proc/PID/oom_score_adj, inherited at fork ---------------------------
$t->cmd('mkdir /cgroup/Q');
$t->cmd('echo 1 > /cgroup/Q/pids.max');
my $parent = $t->run_pid('/cgroup/Q forkbomb');
ok($parent, 'a bomb held at one task (pids.max 1)');
is($t->file("/proc/$parent/oom_score_adj"), '0', 'oom_score_adj starts at 0');
for my $bad ('1001', '-1001', 'abc', '', '1.5') {
	my $show = length $bad ? $bad : '(empty)';
	is(error_of("echo $bad > /proc/$parent/oom_score_adj"), 'EINVAL', "oom_score_adj refuses $show: EINVAL");
}
is(error_of("echo 99999999999 > /proc/$parent/oom_score_adj"), 'ERANGE', 'past an int: ERANGE');
is($t->file("/proc/$parent/oom_score_adj"), '0', 'and is unchanged');
is(error_of("echo 300 > /proc/$parent/oom_score_adj"), 'ok', 'oom_score_adj takes 300');
is(error_of("echo -1000 > /proc/1/oom_score_adj"), 'ok', 'and -1000 (the reaper)');
is($t->file('/proc/1/oom_score_adj'), '-1000', 'which reads back');
$t->cmd('echo 0 > /proc/1/oom_score_adj');
$t->cmd('echo 2 > /cgroup/Q/pids.max');
ok($t->until_true(30, sub { $t->file('/cgroup/Q/pids.current') eq '2' }), 'room for one child: it forks');
my ($child) = grep { /^\d+$/ && $_ != $parent } split /\n/, $t->file('/cgroup/Q/tasks');
is($t->file("/proc/$child/oom_score_adj"), '300', 'the child inherits oom_score_adj 300');
is($t->file("/proc/$child/cgroup"), '1:memory,pids:/Q', "the child's /proc/PID/cgroup");
$t->cmd('echo 1 > /cgroup/Q/cgroup.kill');
ok($t->until_true(30, sub { $t->file('/cgroup/Q/pids.current') eq '0' }), 'killed and reaped');
is(error_of("cat /proc/$child/oom_score_adj"), 'ENOENT', 'a reaped task has no /proc files');
$t->cmd('rmdir /cgroup/Q');

# --- the other files tools read -------------------------------------------
is($t->file('/sys/kernel/cgroup/features'), 'pids_localevents', '/sys/kernel/cgroup/features');
is($t->file('/proc/swaps'), "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority",
   '/proc/swaps: the header only');
like($t->file('/proc/mounts'), qr{^cgroup /cgroup cgroup \S*\bmemory,pids\b\S* 0 0$}m,
     '/proc/mounts: the v1 tree with memory and pids');
is(error_of('echo 2 > /proc/sys/vm/drop_caches'), 'ok', 'drop_caches takes 2');
is(error_of('echo 5 > /proc/sys/vm/drop_caches'), 'EINVAL', 'and refuses 5');
$t->check_ok('at the end');

unlike($t->output, qr/panic|oom_kill [1-9]/i, 'no panic, no OOM kill');
is($t->poweroff(60), 1, 'poweroff');
done_testing();
