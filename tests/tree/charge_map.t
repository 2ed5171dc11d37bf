#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/charge_map.t - the map of the charge path at the top of
# mm/memcg/memcg_charge.c stays true: every function it names is defined
# in the file the same line names, and the map fits a screen (at most 40
# lines, 80 columns).
#
# The form: the map lies between " * MAP BEGIN" and " * MAP END". A line
# that names functions (each as its name and "()") ends with the file
# that defines them, a path from the top of the tree or "here"
# (mm/memcg/memcg_charge.c); a line that ends with a file may name no
# function (it only says where).
# A definition is a line that starts at column 0 (a type, or the name
# itself after a type on the line before) and has NAME( in it.
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my $here = 'mm/memcg/memcg_charge.c';
open my $fh, '<', $here or die "$here: $!";
my @lines = <$fh>;
close $fh;
chomp @lines;

my ($begin) = grep { $lines[$_] =~ /^ \* MAP BEGIN$/ } 0 .. $#lines;
my ($end) = grep { $lines[$_] =~ /^ \* MAP END$/ } 0 .. $#lines;
ok(defined $begin && defined $end && $end > $begin,
   "$here has a map between MAP BEGIN and MAP END") or BAIL_OUT('no map');
my @map = @lines[$begin .. $end];
ok(@map <= 40, 'the map is ' . scalar(@map) . ' lines (at most 40)');
my @wide = grep { length > 80 } @map;
is(scalar @wide, 0, 'no line of the map is over 80 columns')
	or diag(join "\n", @wide);

my %text;
sub defines {
	my ($file, $name) = @_;
	$text{$file} //= do {
		open my $f, '<', $file or return 0;
		local $/;
		<$f>;
	};
	return $text{$file} =~ /^(?:[A-Za-z_][^\n;]*[\s*])?\Q$name\E\(/m;
}

my ($named, @bad) = (0);
for my $l (@map[1 .. $#map - 1]) {
	my @fns = $l =~ /\b(\w+)\(\)/g;
	my ($file) = $l =~ /\s(here|[\w.\/-]+\/[\w.-]+\.[ch])$/;
	if (@fns && !defined $file) {
		push @bad, "names @fns but no file: '$l'";
		next;
	}
	next unless defined $file;
	$file = $here if $file eq 'here';
	if (!-f $file) {
		push @bad, "$file does not exist: '$l'";
		next;
	}
	for my $fn (@fns) {
		$named++;
		push @bad, "$fn() is not defined in $file" unless defines($file, $fn);
	}
}
ok($named >= 20, "the map names $named functions");
is(scalar @bad, 0, 'every function the map names is defined where it says')
	or diag(join "\n", @bad);

done_testing();
