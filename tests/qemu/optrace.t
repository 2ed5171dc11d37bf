#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/optrace.t - tests/bench/optrace, the per-instruction profile
# of one benchmark operation, agrees with the benchmark: the instructions
# it single-steps through one alloc+free of `bench page_order0` are the
# figure `bench page_order0` prints under -icount (the operation's own,
# give or take the few of the loop around it), and they run through the
# functions of the raw path in order.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib", "$FindBin::Bin/../bench";
use Test::More;
use Tally;
use Bench;

my $elf = $ENV{ELF} // Tally::build_dir() . '/tally.elf';
local $ENV{QEMU_ACCEL} = '-accel tcg';
my $t = Tally->boot(smp => 1, mem => '512M', timeout => 300,
		    qemu_args => [@Bench::ICOUNT]);
$t->prompt(120) or BAIL_OUT('no prompt under -icount');
my $r = Bench::parse_line(($t->cmd('bench page_order0', 120))[0] // '');
ok($r && $r->{median} > 0, 'bench page_order0 under -icount: '
   . ($r ? $r->{median} : 'no figure') . ' instructions');
$t->poweroff;

my @out = `bash tests/bench/optrace $elf page_order0 2>&1`;
chomp @out;
my ($total) = map { /^total\t(\d+)$/ ? $1 : () } @out;
ok(defined $total, 'optrace printed its total') or diag(join "\n", @out[-5 .. -1]);
my @fn = map { (split /\t/)[0] } grep { !/^total\t/ } @out;
is(scalar @fn, $total // -1, 'one line per instruction');
ok($r && defined $total && abs($total - $r->{median}) <= 3,
   "the profile's " . ($total // '?') . ' instructions are the benchmark\'s '
   . ($r ? $r->{median} : '?'));
my @order = do { my %seen; grep { !$seen{$_}++ } @fn };
is_deeply([grep { /^(op_page_order0|alloc_pages|alloc_pages_uncharged|free_pages)$/ } @order],
	  [qw(op_page_order0 alloc_pages alloc_pages_uncharged free_pages)],
	  'through op_page_order0, alloc_pages, alloc_pages_uncharged, free_pages, in order: '
	  . join(' ', @order));
done_testing();
