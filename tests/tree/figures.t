#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/figures.t - every benchmark figure in README.md and docs/ is
# the one docs/bench-results.csv gives, the results make bench writes and
# the tree keeps (tests/bench/figures.pl reads the figures' markers).
#
# It fails when a figure differs from the results (one edited by hand, or
# results from a new run not written into the docs: make figures), when a
# marker names a figure the results do not have, when a table that shows
# marked figures has a number without a marker, or when the chapters that
# quote benchmarks lose their markers. It also changes a figure in a copy
# and checks that the check sees it, so that it can fail.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $script = 'tests/bench/figures.pl';

ok(-f 'docs/bench-results.csv', 'docs/bench-results.csv is in the tree');

my $out = `perl $script 2>&1`;
is($? >> 8, 0, 'every marked figure is the one the results give')
	or diag($out);
my ($n) = $out =~ /figures: (\d+) figures checked/;
cmp_ok($n // 0, '>=', 100, 'README.md and docs/ mark their figures')
	or diag($out);

# The files that quote benchmarks, each with at least this many figures.
my %floor = ('README.md' => 3, 'docs/benchmarks.md' => 80,
	     'docs/tracing.md' => 10);
for my $f (sort keys %floor) {
	my $o = `perl $script $f 2>&1`;
	my ($k) = $o =~ /figures: (\d+) figures checked/;
	cmp_ok($k // 0, '>=', $floor{$f}, "$f: at least $floor{$f} figures marked")
		or diag($o);
}

# In a table row that shows a marked figure, every cell but the first (the
# row's label: a name, a depth, a count of domains) that is a number (a
# count, a ratio, a percentage) is marked too: a figure cannot be left out
# of the check by leaving out its marker.
my @bare;
for my $f ('README.md', glob('docs/*.md')) {
	open my $fh, '<', $f or die "$f: $!";
	my $ln = 0;
	while (my $l = <$fh>) {
		$ln++;
		next unless $l =~ /^\|/ && $l =~ /<!--fig /;
		my (undef, undef, @cells) = split /\|/, $l;
		for my $cell (@cells) {
			(my $c = $cell) =~ s/\d[\d.]*<!--fig [^>]*-->//g;
			$c =~ s/`[^`]*`//g;     # names: kmalloc64, K=8
			push @bare, "$f:$ln: '$cell'"
				if $c =~ /(?<![\w=<>(-])\d[\d.]*(?:%|\s|\)|$)/
				   && $c !~ /^\s*(?:<=|>=)/;
		}
	}
}
is(scalar @bare, 0, 'no unmarked number in a table of figures')
	or diag(join "\n", @bare);

# The check can fail: a figure changed by one in a copy of a chapter is
# reported, with its file and line.
my $dir = tempdir(CLEANUP => 1);
open my $in, '<', 'docs/benchmarks.md' or die $!;
my $text = do { local $/; <$in> };
close $in;
ok($text =~ s/(\d+)(<!--fig kmem:page_order0_accounted-->)/($1 + 1) . $2/e,
   'a copy of benchmarks.md with one figure changed');
open my $o, '>', "$dir/changed.md" or die $!;
print $o $text;
close $o;
my $bad = `perl $script $dir/changed.md 2>&1`;
isnt($? >> 8, 0, 'the changed figure fails the check');
like($bad, qr{changed\.md:\d+: \d+, but the results give \d+}, 'and is named');

done_testing();
