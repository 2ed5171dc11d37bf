#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/spdx.t - every source file of the repository starts with an
# SPDX-License-Identifier: MIT line (after a #! line, if it has one), and
# the LICENSE it names is there.
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

ok(-f 'LICENSE' && `head -n 1 LICENSE` =~ /^MIT License/, 'LICENSE is the MIT license');

# Source files: everything git tracks but prose, pictures, benchmark
# results (data: docs/bench-results.csv) and fuzz inputs.
my @files = grep {
	!m{^tests/fuzz/corpus-} && !/\.(md|png|csv)$/ && !m{(^|/)(LICENSE|\.gitignore|\.clang-format|\.editorconfig|\.gdbinit)$}
} split /\n/, `git ls-files`;
ok(@files > 200, scalar(@files) . ' source files tracked');

my @lacking;
for my $f (@files) {
	open my $fh, '<', $f or do { push @lacking, "$f (unreadable)"; next };
	my $first = <$fh> // '';
	$first = <$fh> // '' if $first =~ /^#!/;
	push @lacking, $f unless $first =~ /SPDX-License-Identifier: MIT\b/;
}
is(scalar @lacking, 0, 'files without an SPDX line at the top: ' . scalar @lacking)
	or diag("lacking: @lacking");

done_testing();
