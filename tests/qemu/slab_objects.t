#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/slab_objects.t - the two slab accounting designs side by side
# (docs/slab.md), booted with slab_accounting=caches and =objects: the
# boot line that names the design; a mkdirloop in P/A, P with
# use_hierarchy and a kmem limit; memory.stat slab of A; then A killed
# and removed while its directories live on. In `objects` A is freed at
# once (its owner record moves to P, nr_dying_descendants 0) and P's kmem
# usage still counts the directories; in `caches` A lingers, dying, until
# they are removed. Either way `rm -r` gives P's kmem usage back to 0,
# and `check` is ok throughout. A bad value of the option: an error line,
# and the default design.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $T = 60;  # the timeout of each file read, in seconds

for my $design (qw(caches objects)) {
	my $t = Tally->boot(smp => 2, mem => '512M', timeout => 900,
			    append => "slab_accounting=$design");
	is($t->prompt(60), '/', "$design: prompt")
		or BAIL_OUT('no prompt: ' . $t->transcript);
	like($t->seen, qr/^slab_accounting: \Q$design\E \(/m,
	     "$design: the boot line names the design");

	$t->cmd('mkdir /cgroup/P');
	is($t->cmd('echo 1 > /cgroup/P/memory.use_hierarchy'), '',
	   "$design: use_hierarchy on P");
	is($t->cmd('echo 16M > /cgroup/P/memory.kmem.limit_in_bytes'), '',
	   "$design: kmem limit 16M on P");
	is($t->cmd('mkdir /cgroup/P/A'), '', "$design: mkdir P/A");
	is($t->cmd('mkdir /tmp/a'), '', "$design: mkdir /tmp/a");
	my $pid = $t->run_pid('P/A mkdirloop /tmp/a');
	ok($pid, "$design: run P/A mkdirloop /tmp/a");
	sleep 3;
	my $slab = $t->stat_of('/cgroup/P/A', 'slab', $T) // 0;
	cmp_ok($slab, '>', 0, "$design: memory.stat slab of A is $slab bytes");
	my $kmem = $t->file('/cgroup/P/A/memory.kmem.usage_in_bytes', $T);
	cmp_ok($kmem, '>=', $slab, "$design: A's kmem usage ($kmem) includes its slab bytes");
	cmp_ok($t->stat_of('/cgroup/P/A', 'kmem', $T) // 0, '>=', $slab,
	       "$design: so does memory.stat kmem");
	$t->check_ok("$design: with the loop running");

	is($t->cmd('echo 1 > /cgroup/P/A/cgroup.kill'), '', "$design: cgroup.kill A");
	ok($t->job_notice($pid, 60), "$design: the mkdirloop is killed and reaped");
	is($t->cmd('rmdir /cgroup/P/A'), '', "$design: rmdir P/A while its directories live");
	my $want = $design eq 'objects' ? 0 : 1;
	is($t->dying($T), $want, "$design: nr_dying_descendants $want at once");
	my $pk = $t->file('/cgroup/P/memory.kmem.usage_in_bytes', $T);
	cmp_ok($pk, '>', 0, "$design: P's kmem usage ($pk) still counts the directories");
	if ($design eq 'objects') {
		cmp_ok($t->stat_of('/cgroup/P', 'slab', $T) // 0, '>', 0,
		       'objects: P\'s memory.stat slab counts them (its record now)');
	}
	$t->check_ok("$design: A removed, its directories alive");

	is($t->cmd('rm -r /tmp/a', 300), '', "$design: rm -r /tmp/a");
	ok($t->until_true(10, sub { $t->dying($T) == 0 }),
	   "$design: nothing dying");
	is($t->file('/cgroup/P/memory.kmem.usage_in_bytes', $T), 0,
	   "$design: P's kmem usage is 0");
	is($t->stat_of('/cgroup/P', 'slab', $T), 0, "$design: P's slab is 0");
	is($t->cmd('rmdir /cgroup/P'), '', "$design: rmdir P");
	$t->check_ok("$design: at the end");
	is($t->poweroff(30), 1, "poweroff");
}

# A bad value: an error line, and the default design.
{
	my $t = Tally->boot(smp => 1, mem => '512M', timeout => 300,
			    append => 'slab_accounting=bytes');
	is($t->prompt(60), '/', 'bad value: prompt');
	like($t->seen, qr/^slab_accounting: error: EINVAL: .*bytes/m,
	     'bad value: an error line names it');
	like($t->seen, qr/^slab_accounting: caches \(/m,
	     'bad value: the default, caches, is kept');
	$t->check_ok('bad value');
	is($t->poweroff(30), 1, "poweroff");
}

done_testing();
