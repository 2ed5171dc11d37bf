#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/layout.t - the folder rules of the source tree, by counting:
# the top of kernel/ holds at most 25 files, and no folder of arch/, drivers/,
# kernel/ or mm/ holds more than 15 source files (.c and .S; each header
# lives beside its .c and is not counted again).
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my @top = grep { -f } glob 'kernel/*';
cmp_ok(scalar @top, '<=', 25, 'files at the top of kernel/: ' . scalar @top);

my @dirs = grep { -d } map { chomp; $_ } `find arch drivers kernel mm -type d`;
ok(@dirs >= 10, scalar(@dirs) . ' folders under arch/, drivers/, kernel/, mm/');
for my $d (sort @dirs) {
	my @src = grep { -f } glob "$d/*.c $d/*.S";
	cmp_ok(scalar @src, '<=', 15, "$d: " . scalar(@src) . ' source files');
}

done_testing();
