#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/sentences.t - every sentence of the tree is our own. Facts and
# designs come from Linux and xv6; their words do not. The sentences below
# are ones once found copied from Linux nearly word for word (the
# buddy allocator's free-path comment of mm/page_alloc.c, the
# consume_stock kerneldoc and a comment of mm/memcontrol.c): each is
# searched for, case-insensitively, in every file git tracks, and any file
# that still holds one fails the test, naming the file and line.
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

# This file quotes the sentences, so it does not search itself.
my $self = 'tests/tree/sentences.t';
my @files = grep { $_ ne $self && -f } split /\n/, `git ls-files`;
ok(@files > 200, scalar(@files) . ' files tracked');

my @sentences = (
	'Freeing function for a buddy system allocator',
	'The concept of a buddy system is to maintain direct-mapped table',
	'try to consume stocked charge on this CPU',
	'Failure to service an allocation will refill the stock',
	'need to call res_counter_charge',
);

# Comments wrap lines: match across a line break and a comment's " * ".
my %found;
for my $f (@files) {
	open my $fh, '<', $f or next;
	my $text = do { local $/; <$fh> };
	next if $text =~ /\0/;  # not text
	for my $s (@sentences) {
		my $re = join '\s+(?:(?:\*|//|#)\s+)?', map { quotemeta } split / /, $s;
		while ($text =~ /$re/gi) {
			my $line = 1 + (() = substr($text, 0, $-[0]) =~ /\n/g);
			push @{$found{$s}}, "$f:$line";
		}
	}
}
for my $s (@sentences) {
	my @where = @{$found{$s} // []};
	is(scalar @where, 0, "nowhere: \"$s\"") or diag("found in: @where");
}

done_testing();
