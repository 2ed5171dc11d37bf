#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/lint/columns.pl [FOLDER...] - every line of the C, header and
# assembly sources under the folders (default: kernel mm arch drivers) fits
# in 80 columns, tabs counted to the next multiple of 8. A line that holds
# a NOLINT directive is let through: the checker reads it whole.
#
# Prints "file:line: N columns" for each line that does not fit, and exits
# 1 if there is one. `make lint` runs it; tests/tree/columns.t checks the
# same.
use strict;
use warnings;
use File::Find;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

# columns(line) - how wide the line is on a screen with tabs of 8.
sub columns {
	my ($line) = @_;
	my $c = 0;
	for my $ch (split //, $line) {
		$c = $ch eq "\t" ? $c + 8 - $c % 8 : $c + 1;
	}
	return $c;
}

my @dirs = @ARGV ? @ARGV : grep { -d } qw(kernel mm arch drivers);
my @files;
find(sub { push @files, $File::Find::name if -f && /\.(c|h|S)$/ }, @dirs);

my $bad = 0;
for my $f (sort @files) {
	open my $fh, '<', $f or die "$f: $!";
	while (my $line = <$fh>) {
		chomp $line;
		my $c = columns($line);
		next if $c <= 80 || $line =~ /NOLINT/;
		(my $path = $f) =~ s{^\./}{};
		print "$path:$.: $c columns\n";
		$bad = 1;
	}
}
exit $bad;
