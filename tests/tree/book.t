#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/book.t - the docs read as a book: every chapter of docs/ is
# linked from docs/README.md (the reading order), every relative link of
# README.md and docs/ leads to a file, troubleshooting.md is linked from
# both READMEs, README.md stays within 300 lines, and the chapters hold
# their drawings (fenced text blocks of at most 80 columns).
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Basename qw(dirname);

chdir "$FindBin::Bin/../.." or die "chdir: $!";

sub slurp {
	my ($f) = @_;
	open my $fh, '<', $f or die "$f: $!";
	local $/;
	return scalar <$fh>;
}

my $index = slurp('docs/README.md');
my @chapters = (grep({ $_ ne 'docs/README.md' } glob('docs/*.md')),
		'docs/labs/README.md');
my @unlinked = grep {
	(my $rel = $_) =~ s{^docs/}{};
	$index !~ /\]\(\Q$rel\E\)/;
} @chapters;
is(scalar @unlinked, 0, 'docs/README.md links every chapter')
	or diag("not linked: @unlinked");

# Every relative link leads somewhere.
my @broken;
for my $f ('README.md', 'tests/README.md', glob('docs/*.md')) {
	my $text = slurp($f);
	while ($text =~ /\]\(([^)\s#]+)(?:#[^)]*)?\)/g) {
		my $target = $1;
		next if $target =~ m{^[a-z]+:};
		push @broken, "$f: $target"
			unless -e dirname($f) . "/$target";
	}
}
is(scalar @broken, 0, 'every relative link leads to a file')
	or diag(join "\n", @broken);

ok(slurp('README.md') =~ m{\]\(docs/troubleshooting\.md\)},
   'README.md links docs/troubleshooting.md');
ok($index =~ m{\]\(troubleshooting\.md\)},
   'docs/README.md links troubleshooting.md');

my $lines = () = slurp('README.md') =~ /\n/g;
cmp_ok($lines, '<=', 300, "README.md is $lines lines, at most 300");

# Drawings: fenced blocks without a language, in the chapters, each line
# within 80 columns.
my ($drawings, @wide) = (0);
for my $f (glob('docs/*.md')) {
	my @l = split /\n/, slurp($f);
	for (my $i = 0; $i < @l; $i++) {
		next unless $l[$i] eq '```';
		$drawings++;
		my $j = $i + 1;
		for (; $j < @l && $l[$j] ne '```'; $j++) {
			push @wide, "$f:" . ($j + 1) if length $l[$j] > 80;
		}
		$i = $j;
	}
}
cmp_ok($drawings, '>=', 5, "the chapters hold $drawings drawings");
is(scalar @wide, 0, 'every drawing within 80 columns') or diag("@wide");

done_testing();
