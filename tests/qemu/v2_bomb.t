#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/v2_bomb.t - a fork bomb under cgroup v2's memory limits, in
# both slab accounting designs (a boot each):
#  - memory.max: the bomb's memory (stacks and task structs are its
#    kernel memory) never passes the limit, the OOM killer kills
#    (oom_kill > 0), and the survivors keep forking: new PIDs keep coming;
#  - memory.max with memory.oom.group 1: each OOM kills the whole cgroup
#    (oom_group_kill > 0, and oom_kill counts N+1 for a group of N);
#  - memory.high: nothing is killed, the bomb is throttled (high > 0).
# After each: cgroup.kill, rmdir as soon as the tasks are gone,
# nr_dying_descendants 0, MemFree back to within 2 pages of its value
# before the cgroup was made (after a first bomb of each kind has brought
# the kernel's caches to their working size), and check: ok.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Time::HiRes qw(sleep);
use Tally;

my $R = '/sys/fs/cgroup';
my $LIMIT = 4 * 1024 * 1024;

sub events {
	my ($t, $dir) = @_;
	return { $t->file("$dir/memory.events") =~ /^(\w+) (\d+)$/mg };
}

sub pids_of {
	my ($t, $dir) = @_;
	return grep { /^\d+$/ } split /\n/, $t->file("$dir/cgroup.procs");
}

# remove - cgroup.kill, then rmdir as soon as the cgroup is empty (as
# tools do, retrying on EBUSY); nothing left dying; MemFree back.
sub remove {
	my ($t, $dir, $free0, $what, $check_free) = @_;
	is($t->cmd("echo 1 > $dir/cgroup.kill"), '', "$what: cgroup.kill");
	ok($t->until_true(60, sub { $t->cmd("rmdir $dir", 60) eq '' }),
	   "$what: rmdir once its tasks are gone");
	ok($t->until_true(60, sub { $t->file("$R/cgroup.stat") =~
		/^nr_dying_descendants 0$/m }), "$what: nr_dying_descendants 0");
	if ($check_free) {
		my $free;
		$t->until_true(30, sub {
			$free = $t->memfree_kb;
			return defined $free && abs($free - $free0) <= 8;
		});
		cmp_ok(abs($free - $free0), '<=', 8,
		       "$what: MemFree back within 2 pages ($free0 -> $free "
		       . 'kB)');
	}
	$t->check_ok("after $what");
}

# max_round - a bomb under memory.max 4M (with memory.oom.group 1 if
# $group) for 3 s: held at the limit by OOM kills.
sub max_round {
	my ($t, $what, $group) = @_;
	my $dir = "$R/bomb";
	is($t->cmd("mkdir $dir"), '', "$what: mkdir");
	is($t->cmd("echo $LIMIT > $dir/memory.max"), '', "$what: memory.max 4M");
	if ($group) {
		is($t->cmd("echo 1 > $dir/memory.oom.group"), '',
		   "$what: memory.oom.group 1");
	}
	ok($t->run_pid("$dir forkbomb"), "$what: the bomb starts");
	my ($over, $max_pid_then, $max_pid_now) = (0, 0, 0);
	for my $i (1 .. 12) {
		sleep 0.25;
		# (An OOM line may come with the answer.)
		my ($cur) = $t->file("$dir/memory.current") =~ /^(\d+)$/m;
		$over++ if !defined $cur || $cur > $LIMIT;
		my @pids = sort { $a <=> $b } pids_of($t, $dir);
		$max_pid_then = $pids[-1] // 0 if $i == 6;
		$max_pid_now = $pids[-1] // 0;
	}
	my $ev = events($t, $dir);
	is($over, 0, "$what: memory.current never above memory.max");
	cmp_ok($t->file("$dir/memory.peak"), '<=', $LIMIT,
	       "$what: memory.peak <= memory.max");
	cmp_ok($ev->{oom_kill}, '>', 0,
	       "$what: the OOM killer killed ($ev->{oom_kill})");
	cmp_ok($ev->{max}, '>', 0, "$what: max counted ($ev->{max})");
	cmp_ok($ev->{oom}, '>', 0, "$what: oom counted ($ev->{oom})");
	if ($group) {
		cmp_ok($ev->{oom_group_kill}, '>', 0,
		       "$what: group OOMs ($ev->{oom_group_kill})");
		cmp_ok($ev->{oom_kill}, '>', $ev->{oom_group_kill},
		       "$what: each group kill counts its tasks and the "
		       . 'victim again');
	} else {
		is($ev->{oom_group_kill}, 0, "$what: no group OOM");
		cmp_ok($max_pid_now, '>', $max_pid_then,
		       "$what: the bomb keeps forking ($max_pid_then -> "
		       . "$max_pid_now)");
	}
	is($ev->{high}, 0, "$what: no memory.high, no high event");
}

# high_round - a bomb under memory.high 4M for 3 s: throttled, never
# killed.
sub high_round {
	my ($t, $what) = @_;
	my $dir = "$R/bomb";
	is($t->cmd("mkdir $dir"), '', "$what: mkdir");
	is($t->cmd("echo $LIMIT > $dir/memory.high"), '',
	   "$what: memory.high 4M");
	my $mark = length $t->transcript;
	ok($t->run_pid("$dir forkbomb"), "$what: the bomb starts");
	sleep 3;
	my $ev = events($t, $dir);
	cmp_ok($ev->{high}, '>', 0, "$what: high counted ($ev->{high})");
	is($ev->{$_}, 0, "$what: $_ 0") for qw(max oom oom_kill);
	cmp_ok(scalar(pids_of($t, $dir)), '>', 1,
	       "$what: the bomb lives on, slowed");
	unlike(substr($t->transcript, $mark), qr/out of memory/,
	       "$what: no OOM line");
}

for my $design (qw(objects caches)) {
	my $append = 'cgroup=v2' .
		($design eq 'caches' ? ' slab_accounting=caches' : '');
	my $t = Tally->boot(smp => 2, mem => '512M', append => $append,
			    timeout => 900);
	is($t->prompt(60), '/', "$design: prompt") or BAIL_OUT('no prompt');
	like($t->transcript, qr/^slab_accounting: $design /m,
	     "$design: the slab design");
	is($t->cmd("echo +memory > $R/cgroup.subtree_control"), '',
	   "$design: the root enables memory");

	# A first bomb of each kind brings the kernel's caches (slab pages
	# the CPUs keep, the PID table) to the size every later bomb uses;
	# MemFree is compared in the rounds after them.
	for my $round (qw(warm-max warm-high max group high)) {
		my $what = "$design $round";
		my $free0 = $t->memfree_kb;
		if ($round =~ /high/) {
			high_round($t, $what);
		} else {
			max_round($t, $what, $round eq 'group');
		}
		remove($t, "$R/bomb", $free0, $what, $round !~ /^warm/);
	}
	is($t->poweroff, 1, "$design: poweroff");
}
done_testing();
