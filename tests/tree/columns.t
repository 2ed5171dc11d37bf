#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/columns.t - every line of kernel/, mm/, arch/ and drivers/
# fits in 80 columns (tests/lint/columns.pl, which `make lint` runs too).
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my @out = `perl tests/lint/columns.pl kernel mm arch drivers`;
chomp @out;
is(scalar @out, 0, 'no source line over 80 columns')
	or diag(join "\n", @out);

done_testing();
