#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/file_size.t - no .c file under mm/ (its subfolders included)
# is over 700 lines: a file that grows past that holds more than one
# concept, and is split by concept (as the slab allocator is: mm/slab.c,
# mm/slab_alloc.c, mm/slab_check.c, mm/slab_internal.h), not trimmed.
use strict;
use warnings;
use Test::More;
use File::Find;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my $MAX = 700;

my @files;
find(sub { push @files, $File::Find::name if -f && /\.c$/ }, 'mm');
ok(@files >= 10, scalar(@files) . ' .c files under mm/');

for my $f (sort @files) {
	open my $fh, '<', $f or die "$f: $!";
	my $n = 0;
	$n++ while <$fh>;
	close $fh;
	cmp_ok($n, '<=', $MAX, "$f: $n lines");
}

done_testing();
