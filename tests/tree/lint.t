#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/lint.t - `make lint` (cppcheck and clang-tidy over the kernel
# and host sources) exits 0 and says it is clean: a finding fails the test
# with the analyser's message.
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my $build = $ENV{BUILD} // 'build';
my $out = `make -s BUILD=$build lint 2>&1`;
my $rc = $? >> 8;
is($rc, 0, 'make lint exits 0') or diag($out);
like($out, qr/^lint: clean \(cppcheck, and clang-tidy on \d+ kernel and \d+ host files\)$/m,
	'make lint reports clean');

done_testing();
