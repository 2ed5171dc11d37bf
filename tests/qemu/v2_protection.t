#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/v2_protection.t - memory.min and memory.low (cgroup=v2), on
# the hierarchy of Linux's own tests of them (kselftest test_memcg_min
# and test_memcg_low, LTP memcontrol03 and memcontrol04), at a tenth of
# their sizes:
#
#   A      memory.max 20M
#   A/B    min (or low) 5M
#   A/B/C  7.5M, 5M of cache      -> keeps 5M x 5/7.5 = 3.3M
#   A/B/D  2.5M, 5M of cache      -> keeps 1.7M
#   A/B/E  500M, nothing          -> nothing
#   A/B/F  0,    5M of cache      -> loses it all
#   A/G    where the pressure comes from
#
# memory.min: reclaim for A leaves each domain its share, and a hog that
# would need the protected pages is OOM-killed instead. memory.low: the
# same shares hold while there is anything else to take; a hog that
# needs more gets it, and `low` is counted in C and D (not E nor F).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $t = Tally->boot(smp => 2, mem => '256M', append => 'cgroup=v2',
		    timeout => 900);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt');
my $R = '/sys/fs/cgroup';
my $MB = 1048576;

sub current { my ($d) = @_; my $v = $t->file("$R/$d/memory.current"); $v =~ /^\d+$/ ? $v : -1 }
sub cache_of { my ($d) = @_; ($t->file("$R/$d/memory.stat") =~ /^file (\d+)$/m)[0] // -1 }
sub anon_of { my ($d) = @_; ($t->file("$R/$d/memory.stat") =~ /^anon (\d+)$/m)[0] // -1 }
sub event { my ($d, $k) = @_; ($t->file("$R/$d/memory.events") =~ /^$k (\d+)$/m)[0] // -1 }

# close_to(GOT, WANT, PERCENT, WHAT) - within PERCENT of WANT.
sub close_to {
	my ($got, $want, $pct, $what) = @_;
	ok(abs($got - $want) <= $want * $pct / 100,
	   sprintf('%s: %.2fM, within %d%% of %.2fM', $what, $got / $MB, $pct,
		   $want / $MB));
}

# tree(TOP, KNOB) - the hierarchy above under TOP, the caches done, then
# the protection written (as the tests write it: after the caches).
sub tree {
	my ($top, $knob) = @_;
	is($t->cmd("mkdir $R/$top"), '', "mkdir $top");
	is($t->cmd("echo +memory > $R/$top/cgroup.subtree_control"), '', "$top: +memory");
	is($t->cmd("echo 20M > $R/$top/memory.max"), '', "$top: memory.max 20M");
	is($t->cmd("mkdir $R/$top/B"), '', "mkdir $top/B");
	is($t->cmd("echo +memory > $R/$top/B/cgroup.subtree_control"), '', "$top/B: +memory");
	is($t->cmd("mkdir $R/$top/G"), '', "mkdir $top/G");
	for my $leaf (qw(C D E F)) {
		is($t->cmd("mkdir $R/$top/B/$leaf"), '', "mkdir $top/B/$leaf");
		next if $leaf eq 'E';
		my $pid = $t->run_pid("$R/$top/B/$leaf cache 5M");
		ok($t->until_true(60, sub { ($t->cmd('ps', 60) // '') =~ /^\s*$pid\s.*\scache\s+[1-9]\d*\s*$/m }),
		   "$top/B/$leaf: 5M of cache");
	}
	my %setting = ('' => '5M', B => '5M', 'B/C' => '7680K', 'B/D' => '2560K',
		       'B/E' => '500M', 'B/F' => '0');
	for my $d (sort keys %setting) {
		my $path = $d eq '' ? $top : "$top/$d";
		is($t->cmd("echo $setting{$d} > $R/$path/memory.$knob"), '',
		   "$path: memory.$knob $setting{$d}");
	}
	close_to(current("$top/B"), 15 * $MB, 3, "$top/B before");
}

is($t->cmd("echo +memory > $R/cgroup.subtree_control"), '', 'the root enables memory');

# --- memory.min ---------------------------------------------------------------
tree('A', 'min');
like($t->cmd("echo 20M > $R/A/memory.reclaim"), qr/^error: EAGAIN: /,
     'A: reclaim 20M: EAGAIN, the rest is protected');
close_to(current('A/B'), 5 * $MB, 5, 'A/B keeps its memory.min');
close_to(current('A/B/C'), 5 * $MB * 5 / 7.5, 5, 'A/B/C its share');
close_to(current('A/B/D'), 5 * $MB * 2.5 / 7.5, 5, 'A/B/D its share');
is(current('A/B/E'), 0, 'A/B/E: nothing');
is(cache_of('A/B/F'), 0, 'A/B/F: no cache left (memory.min 0)');
my $hog = $t->run_pid("$R/A/G hog 17M");
ok($hog, 'A/G: a hog of 17M, more than A has unprotected');
ok($t->until_true(60, sub { $t->transcript =~ /^\[pid $hog killed\]$/m }),
   'the hog is OOM-killed: memory.min is not reclaimed');
is(event('A/G', 'oom_kill'), 1, 'A/G: oom_kill 1');
close_to(current('A/B'), 5 * $MB, 5, 'A/B still keeps its memory.min');
is(event("A/B/$_", 'low'), 0, "A/B/$_: no low event") for qw(C D E F);

# --- memory.low ---------------------------------------------------------------
tree('L', 'low');
my $hog1 = $t->run_pid("$R/L/G hog 12M");
ok($t->until_true(60, sub { anon_of('L/G') == 12 * $MB }),
   'L/G: a hog of 12M, less than L has unprotected');
is(event("L/B/$_", 'low'), 0, "L/B/$_: no low event yet") for qw(C D);
cmp_ok(current('L/B'), '>=', 5 * $MB, 'L/B: still at or above its memory.low');
my $hog2 = $t->run_pid("$R/L/G hog 6M");
ok($t->until_true(60, sub { anon_of('L/G') == 18 * $MB }),
   'L/G: a second hog of 6M gets its memory from below memory.low');
unlike($t->transcript, qr/^\[pid ($hog1|$hog2) killed\]$/m, 'nobody was killed');
cmp_ok(current('L/B'), '<', 5 * $MB, 'L/B: below its memory.low now');
cmp_ok(event("L/B/$_", 'low'), '>', 0, "L/B/$_: low counted") for qw(C D);
is(event("L/B/$_", 'low'), 0, "L/B/$_: no low event") for qw(E F);
cmp_ok(event('L/B', 'low'), '>', 0, 'L/B: low counted from its children');
is(event("L/B/$_", 'oom'), 0, "L/B/$_: no OOM") for qw(C D E F);

# --- gone ---------------------------------------------------------------------
for my $top (qw(A L)) {
	is($t->cmd("echo 1 > $R/$top/cgroup.kill"), '', "cgroup.kill $top");
	for my $d ("$top/B/C", "$top/B/D", "$top/B/E", "$top/B/F", "$top/B", "$top/G", $top) {
		ok($t->until_true(30, sub { $t->cmd("rmdir $R/$d") eq '' }), "rmdir $d");
	}
}
is($t->cmd('check', 60), 'check: ok', 'check: ok');

done_testing();
