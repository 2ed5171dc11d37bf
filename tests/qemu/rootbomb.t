#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/rootbomb.t - a fork bomb in the root domain, which no
# limit stops. It forks until memory runs out; the kernel survives, and so
# does the shell, which answers from the reserve kept for system tasks
# (mm/watermark.c): it reads files, makes and removes a domain, and
# refuses to start a new user task (ENOMEM). Then
# `echo 1 > /cgroup/cgroup.kill` ends the bomb, every page comes back
# (MemFree within 256 KiB of where it was) and `check: ok`.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Time::HiRes qw(time);
use Tally;

my $t = Tally->boot(smp => 2, mem => '128M', timeout => 900);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt');

my $before = $t->meminfo(60);
my $total = $before->{MemTotal};
ok($before->{MemFree} > 100 * 1024, "MemFree $before->{MemFree} kB before the bomb");

like($t->cmd('run /cgroup forkbomb'), qr/^pid \d+$/, 'a forkbomb in the root domain');

# Wait until memory is out: MemFree below 2% of MemTotal and no longer
# falling (the bomb's forks are refused).
my ($low, $last, $steady) = (1e12, -1, 0);
my $deadline = time + 300 * Tally->scale;
while (time < $deadline) {
	my $free = $t->meminfo(60)->{MemFree} // -1;
	last if $free < 0;
	$low = $free if $free < $low;
	$steady = ($free == $last || $free < $total / 100) ? $steady + 1 : 0;
	$last = $free;
	last if $free < $total / 50 && $steady >= 3;
	$t->cmd('sleep 500', 60);
}
cmp_ok($low, '<', $total / 50, "memory ran out: MemFree down to $low kB of $total kB");
cmp_ok($low, '>=', 256, 'but the bomb never took the system tasks\' reserve (at least 512 KiB; the shell may use a little)');

# The shell still works, from the system tasks' reserve.
my $answered = 0;
for (1 .. 3) {
	my $m = $t->cmd('cat /proc/meminfo', 60);
	$answered++ if defined $m && $m =~ /^MemFree:/m;
}
is($answered, 3, 'the shell answers cat /proc/meminfo while memory is out');
is($t->cmd('mkdir /cgroup/during', 60), '', 'mkdir works while memory is out');
is($t->cmd('echo 1M > /cgroup/during/memory.kmem.limit_in_bytes', 60), '', 'and a limit can be set');
is($t->cmd('rmdir /cgroup/during', 60), '', 'and rmdir');
like($t->cmd('run /cgroup spin', 60), qr/^error: ENOMEM: /,
	'a new user task cannot start: ENOMEM (the reserve is for the system)');
like($t->output, qr/tally:\/# $/, 'the prompt is there');
unlike($t->output, qr/panic/, 'no panic');

# End it.
is($t->cmd('echo 1 > /cgroup/cgroup.kill', 120), '', 'echo 1 > /cgroup/cgroup.kill');
my $after = -1;
$deadline = time + 120 * Tally->scale;
while (time < $deadline) {
	$after = $t->meminfo(60)->{MemFree} // -1;
	last if abs($after - $before->{MemFree}) <= 256;
	$t->cmd('sleep 500', 60);
}
cmp_ok(abs($after - $before->{MemFree}), '<=', 256,
	"every page came back: MemFree $after kB, before $before->{MemFree} kB");
my @tasks = grep { /^\d+\s/ } split /\n/, ($t->cmd('ps', 60) // '');
is(scalar(grep { !/\s(reaper|shell)\s/ } @tasks), 0, 'no bomb task left');
is($t->cmd('check', 60), 'check: ok', 'check: ok');
is($t->cmd('cat /cgroup/cgroup.stat'), "nr_domains 1\nnr_dying_descendants 0", 'no domain left');
unlike($t->output, qr/panic/, 'no panic');
is($t->poweroff(30), 1, 'poweroff');
done_testing();
