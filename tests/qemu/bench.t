#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/bench.t - the yardstick of `make bench` holds: tally on 1 CPU
# under TCG with -icount shift=0,sleep=off (the guest TSC counts
# instructions) runs `bench page_order0` twice, and both lines are bench result
# lines whose median figures are identical and not zero. A determinism
# check, not a timing one: no figure is compared with a bound.
# `bench fork_exit_accounted` prints its line and leaves `check` ok;
# `bench slab_memory` prints its three lines (1, 8, 64 domains) and
# gives back what it took; and
# the harness's parser (tests/bench/Bench.pm) reads these lines, with any
# extra KEY=VALUE fields.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib", "$FindBin::Bin/../bench";
use Test::More;
use Tally;
use Bench;

# The parser, on lines as the SMP benchmarks print them.
my $p = Bench::parse_line('bench charge_smp_stock median_cycles=70 p99_cycles=71 ops=9 transfers_per_1k=3');
is_deeply([$p->{kind}, $p->{median}, $p->{extra}], ['bench', 70, [['transfers_per_1k', 3]]],
	  'parser: a result line and its extra field');
$p = Bench::parse_line('# charge_smp_stock cpus=4 median_cycles=80 transfers_per_1k=5');
is_deeply([$p->{kind}, $p->{cpus}, $p->{extra}], ['curve', 4, [['transfers_per_1k', 5]]],
	  'parser: a curve line');
ok(!Bench::parse_line('bench: no benchmark named x'), 'parser: an error is no result');

local $ENV{QEMU_ACCEL} = '-accel tcg';
my $t = Tally->boot(smp => 1, mem => '512M', timeout => 300,
		    qemu_args => [@Bench::ICOUNT]);
$t->prompt(120) or BAIL_OUT('no prompt under -icount');

my @median;
for my $run (1, 2) {
	my @out = $t->cmd('bench page_order0', 120);
	is(scalar @out, 1, "run $run: one line of output") or diag(join "\n", @out);
	my $line = $out[0] // '';
	ok(Bench::spec9_ok($line), "run $run: a result line: $line");
	my $r = Bench::parse_line($line);
	push @median, $r ? $r->{median} : undef;
	ok($r && $r->{median} > 0 && $r->{ops} > 0, "run $run: median and ops not zero");
}
ok(defined $median[0] && defined $median[1] && $median[0] == $median[1],
   'the two medians are identical: ' . join(' and ', map { $_ // 'none' } @median)
   . ' instructions');

my $fork = $t->cmd('bench fork_exit_accounted', 120) // '';
ok(Bench::spec9_ok($fork) && $fork =~ /^bench fork_exit_accounted median_cycles=[1-9]/,
   "fork_exit_accounted: $fork");
# slab_memory: one result line per domain count, with its fields, and
# nothing left behind (check, and no "not given back" diagnostic).
my @mem = $t->cmd('bench slab_memory', 300);
my @lines = grep { /^bench / } @mem;
is(scalar @lines, 3, 'slab_memory: three result lines')
	or diag(join "\n", @mem);
for my $i (0 .. 2) {
	my $d = (1, 8, 64)[$i];
	my $l = $lines[$i] // '';
	ok(Bench::spec9_ok($l)
	   && $l =~ /^bench\ slab_memory\ median_cycles=\d+\ p99_cycles=\d+
		     \ ops=\d+\ domains=$d\ utilization_pct=([1-9]\d*)
		     \ slab_kB=[1-9]\d*$/x
	   && $1 <= 100, "slab_memory, $d domains: $l");
}
ok(!grep({ /not given back|cannot remove|no memory/ } @mem),
   'slab_memory: cleaned up')
	or diag(join "\n", @mem);
$t->check_ok('after the benchmarks');
is($t->poweroff, 1, 'poweroff');

done_testing();
