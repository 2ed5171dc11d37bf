#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/labs.t - the labs' manifests still fit the tree: every lab has
# a grade file and a handout, is on the labs' page and the teacher's page,
# and every function its labs/NAME/stubs.c names is defined exactly once in
# the file named with it (labs/stub --check). A function renamed or moved
# fails here, naming the lab and the function.
#
# Then make lab-pack, for the stock lab (LABS_PACK="a b" for others; the
# pack of every lab is graded by tests/qemu/labs.t, and labs/pack checks
# every object of each pack it writes): the student's repository holds
# the stubs, and no commit, reflog entry, object or file of it holds a
# body the lab removed; and lab-pack refuses a folder that is not empty,
# or a lab that does not exist, writing nothing.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);

chdir "$FindBin::Bin/../.." or die "chdir: $!";
require './labs/stub';  # manifest, find_bodies

my @labs = map { m{^\d+\.\s+(\S+)} ? $1 : () } split /\n/, `perl labs/stub --list`;
cmp_ok(scalar @labs, '>=', 5, 'at least five labs: ' . join(' ', @labs));
my $readme = -f 'docs/labs/README.md' ? `cat docs/labs/README.md` : '';
my $teaching = -f 'docs/labs/teaching.md' ? `cat docs/labs/teaching.md` : '';
for my $lab (@labs) {
	my $out = `perl labs/stub --check $lab 2>&1`;
	is($?, 0, "labs/$lab: every function it names is found") or diag($out);
	ok(-s "docs/labs/$lab.md", "labs/$lab: its handout docs/labs/$lab.md");
	like($readme, qr{\($lab\.md\)}, "labs/$lab: on the labs' page docs/labs/README.md");
	like($teaching, qr{^### .*\b$lab\b}m,
		"labs/$lab: its wrong answers on the teacher's page docs/labs/teaching.md");
}

# --- make lab-pack ------------------------------------------------------------
my $tmp = tempdir('tally-lab-pack-XXXXXX', TMPDIR => 1, CLEANUP => 1);

# squeeze TEXT - TEXT without its white space: a body found however the
# pack's files are laid out or wrapped.
sub squeeze { my $t = shift; $t =~ s/\s+//g; $t }

for my $lab (split ' ', $ENV{LABS_PACK} // 'stock') {
	my $dir = "$tmp/$lab";
	my $out = `make -s lab-pack LAB=$lab DIR=$dir 2>&1`;
	is($?, 0, "$lab: make lab-pack") or do { diag($out); next };
	my @removed;
	for my $e (@{manifest($lab)}) {
		my ($file, $fn) = @$e;
		my $text = `git show HEAD:$file`;
		my ($b) = @{find_bodies($text, $fn)};
		push @removed, [$fn, squeeze(substr($text, $b->[0], $b->[1] - $b->[0] + 1))];
		my $packed = `cat $dir/$file`;
		my ($pb) = @{find_bodies($packed, $fn)};
		ok($pb && index(squeeze($packed), $removed[-1][1]) < 0,
			"$lab: $file: $fn has the stub's body in the pack");
	}
	my $git = "git -C $dir";
	is(`$git rev-list --all --count` + 0, 1, "$lab: the pack's history is one commit");
	is(`$git tag` . `$git stash list`, '', "$lab: no tag, no stash");
	ok(!-e "$dir/.git/objects/info/alternates", "$lab: no alternates: its objects are its own");
	my $fsck = `$git fsck --lost-found 2>&1`;
	is($?, 0, "$lab: git fsck --lost-found") or diag($fsck);
	ok(!grep({ -s } glob "$dir/.git/lost-found/*/*"), "$lab: nothing lost or dangling");
	my %where = (
		'git log --all -p' => scalar `$git log --all -p --reflog`,
		'the reflogs' => scalar(`$git reflog --all 2>&1`)
			. scalar(`cat $dir/.git/logs/HEAD`),
		'the work tree' => scalar `cd $dir && git ls-files -z | xargs -0 cat`,
		'every object' => scalar `$git cat-file --batch-all-objects --batch`,
	);
	for my $w (sort keys %where) {
		my $s = squeeze($where{$w});
		my @in = map { $_->[0] } grep { index($s, $_->[1]) >= 0 } @removed;
		ok(!@in && length $s, "$lab: $w holds no removed body")
			or diag("found the body of: @in");
	}
}

my $full = "$tmp/not-empty";
mkdir $full or die;
open my $fh, '>', "$full/keep" or die;
close $fh;
my $refused = `make -s lab-pack LAB=stock DIR=$full 2>&1`;
ok($? != 0 && $refused =~ /not empty/, 'lab-pack refuses a folder that is not empty')
	or diag($refused);
ok(-f "$full/keep" && !-e "$full/.git", 'and writes nothing there');
$refused = `make -s lab-pack LAB=nosuch DIR=$tmp/nosuch 2>&1`;
ok($? != 0 && $refused =~ /no lab 'nosuch'/ && !-e "$tmp/nosuch",
	'lab-pack refuses a lab that does not exist, writing nothing') or diag($refused);

done_testing();
