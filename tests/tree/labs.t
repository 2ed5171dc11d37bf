#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/labs.t - the labs' manifests still fit the tree: every lab has
# a grade file and a handout, is on the teacher's page, and every function
# its labs/NAME/stubs.c names is defined exactly once in the file named
# with it (labs/stub --check). A function renamed or moved fails here,
# naming the lab and the function. The labs' grading is tests/qemu/labs.t.
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my @labs = map { m{^\d+\.\s+(\S+)} ? $1 : () } split /\n/, `perl labs/stub --list`;
cmp_ok(scalar @labs, '>=', 5, 'at least five labs: ' . join(' ', @labs));
my $readme = -f 'docs/labs/README.md' ? `cat docs/labs/README.md` : '';
for my $lab (@labs) {
	my $out = `perl labs/stub --check $lab 2>&1`;
	is($?, 0, "labs/$lab: every function it names is found") or diag($out);
	ok(-s "docs/labs/$lab.md", "labs/$lab: its handout docs/labs/$lab.md");
	like($readme, qr{\($lab\.md\)}, "labs/$lab: on the teacher's page docs/labs/README.md");
}

done_testing();
