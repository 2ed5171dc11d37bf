#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/pids_objects.t - the pids controller in the other slab
# accounting design (slab_accounting=objects), where task structs are
# charged by the object from the root cache: a fork bomb under pids.max=20
# in a domain that also has a kmem limit never passes 20 tasks, its forks
# fail with EAGAIN (run into it too), pids.events counts them, nothing is
# killed, the domain's kmem usage is that of at most 20 tasks, and once
# the bomb is killed and removed the counts are 0, nothing is left dying,
# and check: ok. tests/qemu/pids.t covers the files in the default design.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $t = Tally->boot(smp => 2, mem => '512M', timeout => 900,
		    append => 'slab_accounting=objects');
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt: ' . $t->transcript);
like($t->output, qr/^slab_accounting: objects/m, 'booted in the objects design');

sub error_of {
	my $out = $t->cmd($_[0]) // '';
	return $out =~ /^error: (E[A-Z0-9]+):/m ? $1 : 'ok';
}

my $N = 20;
$t->cmd('mkdir /cgroup/bomb');
$t->cmd("echo $N > /cgroup/bomb/pids.max");
$t->cmd('echo 8M > /cgroup/bomb/memory.kmem.limit_in_bytes');
ok($t->run_pid('/cgroup/bomb forkbomb'), 'the bomb runs');
ok($t->until_true(60, sub { $t->file('/cgroup/bomb/pids.current') eq $N }),
   "it reaches $N tasks");
for (1 .. 3) {
	cmp_ok($t->file('/cgroup/bomb/pids.current'), '<=', $N, "pids.current <= $N");
}
is($t->file('/cgroup/bomb/pids.peak'), $N, "pids.peak $N");
is(error_of('run /cgroup/bomb spin'), 'EAGAIN', 'run into it: EAGAIN');
my ($refused) = $t->file('/cgroup/bomb/pids.events') =~ /^max (\d+)$/;
cmp_ok($refused // 0, '>', 0, 'pids.events counts the refusals');
is($t->file('/cgroup/bomb/memory.kmem.failcnt'), '0',
   'the kmem limit never refused: pids.max stops the forks first');
# Each task: a 16 KiB stack and its task struct, charged by the byte.
cmp_ok($t->file('/cgroup/bomb/memory.kmem.usage_in_bytes'), '<=', $N * (16384 + 4096),
       "kmem usage that of at most $N tasks");
like($t->file('/cgroup/bomb/memory.oom_control'), qr/^oom_kill 0$/m, 'nothing killed');
$t->check_ok('with the bomb at its limit');
$t->cmd('echo 1 > /cgroup/bomb/cgroup.kill');
ok($t->until_true(60, sub { $t->file('/cgroup/bomb/pids.current') eq '0' }),
   'killed and reaped: pids.current 0');
is(error_of('rmdir /cgroup/bomb'), 'ok', 'rmdir');
ok($t->until_true(30, sub { $t->dying == 0 }), 'nr_dying_descendants 0');
$t->check_ok('after the bomb');
unlike($t->output, qr/panic/i, 'no panic');
is($t->poweroff(60), 1, 'poweroff');
done_testing();
