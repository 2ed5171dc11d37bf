#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/v2_stress.t - `stress SECONDS` on 4 CPUs booted with
# cgroup=v2, in both slab accounting designs: random mkdir and rmdir under
# /sys/fs/cgroup, memory.max and memory.high changes (below the usage:
# reclaim and OOM kills), +memory/-memory in cgroup.subtree_control,
# runs, kills, moves through cgroup.procs, cgroup.kill, cgroup.freeze,
# and bombs held by memory.max; then check: ok, the stress tree gone, no
# task left, nothing dying and MemFree back to within 256 KiB.
#
# STRESS_SECONDS (default 10) sets the duration.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $SECONDS = $ENV{STRESS_SECONDS} || 10;
my $R = '/sys/fs/cgroup';

# summary - every line is the summary, the per-operation counts, or an
# OOM kill in the stress tree; the operation count, or -1.
sub summary {
	my ($out) = @_;
	my @bad = grep {
		!/^stress: \d+ s on \d+ CPUs: \d+ operations, \d+ unexpected errors$/ &&
		!/^stress:( \S+ \d+)+$/ &&
		!m{^memcg: \Q$R\E/s\d(/s\d)*: out of memory: killed task \d+ }
	} split /\n/, $out;
	diag("unexpected output: $_") for @bad;
	return -1 if @bad;
	return $out =~ /^stress: $SECONDS s on 4 CPUs: (\d+) operations, 0 unexpected errors$/m
		? $1 : -1;
}

sub user_tasks {
	my ($t) = @_;
	my @tasks = grep { /^\d+\s/ } split /\n/, ($t->cmd('ps') // '');
	return grep { !/\s(reaper|shell)\s/ } @tasks;
}

for my $design (qw(objects caches)) {
	my $append = 'cgroup=v2' .
		($design eq 'caches' ? ' slab_accounting=caches' : '');
	my $t = Tally->boot(smp => 4, mem => '512M', append => $append,
			    timeout => 600 + 10 * $SECONDS);
	is($t->prompt(60), '/', "$design: prompt") or BAIL_OUT('no prompt');
	like($t->transcript, qr/^slab_accounting: \Q$design\E /m,
	     "$design: booted in the $design design");
	my $before = $t->memfree_kb // -1;
	is($t->cmd("echo +memory > $R/cgroup.subtree_control"), '',
	   "$design: the root enables memory");
	my $out = $t->cmd("stress $SECONDS", 120 + 5 * $SECONDS);
	ok($t->last_ok, "$design: stress $SECONDS came back to the prompt");
	my $ops = summary($out // '');
	cmp_ok($ops, '>', 100,
	       "$design: stress on 4 CPUs: $ops operations, 0 unexpected errors");
	my ($runs) = ($out // '') =~ / run (\d+)/;
	cmp_ok($runs // 0, '>', 0, "$design: it started tasks");
	like($out // '', qr/ subtree_control [1-9]/,
	     "$design: it changed cgroup.subtree_control");
	like($out // '', qr/ cgroup\.freeze [1-9]/,
	     "$design: it froze and thawed cgroups");
	for (1 .. 60) {
		last unless user_tasks($t) || $t->file("$R/cgroup.stat") ne
			"nr_descendants 0\nnr_dying_descendants 0";
		sleep 1;
	}
	$t->check_ok("after stress ($design)", 120);
	my @left = grep { /^s\d$/ } split /\n/, ($t->cmd("ls $R") // '');
	is("@left", '', "$design: the stress tree is gone");
	is($t->file("$R/cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 0",
	   "$design: no cgroup left, none dying");
	my @user = user_tasks($t);
	is(scalar @user, 0, "$design: only the system's tasks are left")
		or diag(join "\n", @user);
	my $after = $t->memfree_kb // -1;
	cmp_ok(abs($after - $before), '<=', 256,
	       "$design: MemFree $after kB, before $before kB: within 256 KiB");
	is($t->poweroff(30), 1, "$design: poweroff");
}
done_testing();
