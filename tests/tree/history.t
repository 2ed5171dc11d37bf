#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/history.t - the project's files speak of the project. Two
# kinds of sentence fail the test, each named by file and line:
#
#   - a citation of an outside specification: the word SPEC in capitals
#     ("SPEC 7.2", "SPEC section 3", "SPEC's"): a reader of this tree
#     cannot follow it; cite the docs/ chapter that describes the thing;
#   - a past work item named by its number ("issue 20", "session 8",
#     "helper-3", "stop 2", "ticket #4", "PR #12"): the history lives in
#     git, and the code says what it does now and why;
#   - a sentence that tells what was before ("previously", "formerly",
#     "used to be", "was before", "since the earlier runs").
#
# A phrase may run across a line break, comment markers and all ("issue"
# at the end of one comment line, "23" at the start of the next): each
# line is read joined to the next too. Every file git tracks is read (text
# only; fuzz inputs are data), but for this file, which has to spell the
# patterns out.
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my $self = 'tests/tree/history.t';
my @files = grep { $_ ne $self && !m{^tests/fuzz/corpus-} && -f }
	split /\n/, `git ls-files`;
ok(@files > 200, scalar(@files) . ' files tracked');

# Capitals only, as a word of its own: "spec9_ok" (a function's name) and
# "SPEC_CTRL" (an MSR) are not citations.
my $spec = qr/\bSPEC\b/;
# A work item and its number: the word, then an optional space, dash or
# '#', then digits. "issues 3" counts too; "stops at 15" or "Rounds 5"
# do not (no number right after the word, or not a work item).
my $item = qr/\b(?:issue|session|helper|stop|ticket)s?[ \t]?[-#]?[ \t]?\d+\b|\b(?:PR|pull request)[ \t]*#\d+\b/i;

my $before = qr/\b(?:previously|formerly|used[ \t]+to[ \t]+be|was[ \t]+before|since[ \t]+the[ \t]+earlier[ \t]+runs?)\b/i;

# continued($line) - a line as the continuation of the one above: without
# the comment markers and indentation it starts with (# // * ; -- >).
sub continued {
	my ($l) = @_;
	$l =~ s{^[ \t]*(?:(?://|#+|\*|;+|--|>)[ \t]*)?}{};
	return $l;
}

my (@spec, @items, @before, @split);
for my $f (@files) {
	open my $fh, '<', $f or next;
	my $text = do { local $/; <$fh> };
	next if $text =~ /\0/;  # not text
	my @lines = split /\n/, $text;
	for my $i (0 .. $#lines) {
		my ($line, $n) = ($lines[$i], $i + 1);
		push @spec, "$f:$n: $line" if $line =~ $spec;
		push @items, "$f:$n: $line" if $line =~ $item;
		push @before, "$f:$n: $line" if $line =~ $before;
		next if $i == $#lines;
		# Across the break: the end of this line, a space, the start
		# of the next. A match found on either line alone is reported
		# above; one found only in the joined text spans the break.
		my $next = continued($lines[$i + 1]);
		my $joined = "$line $next";
		for my $re ($item, $before) {
			next unless $joined =~ $re;
			next if $line =~ $re || $next =~ $re;
			push @split, "$f:$n-" . ($n + 1) . ": $line / $next";
		}
	}
}
is(scalar @spec, 0, 'no file cites SPEC sections') or diag(join "\n", @spec);
is(scalar @items, 0, 'no file names past work items by number')
	or diag(join "\n", @items);
is(scalar @before, 0, 'no file tells what was before')
	or diag(join "\n", @before);
is(scalar @split, 0, 'neither across a line break')
	or diag(join "\n", @split);

done_testing();
