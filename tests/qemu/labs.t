#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/labs.t - the labs grade what they should. On this tree every
# lab scores full (make grade). Then, for each lab, its starting tree -
# made by make lab-start in a temporary clone of the committed HEAD, so
# that this repository is untouched - builds, boots and scores less than
# full: its tests see the missing code.
#
# To stay affordable, each clone reuses this tree's build: newlib is
# linked, and the kernel's and the host's objects are copied, so that make
# rebuilds only what the stubs change. (Not when this tree has changes git
# has not committed: the objects would be of sources the clone lacks.)
# LABS_ONLY="a b" grades only those.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);

my $root = abs_path("$FindBin::Bin/../..");
chdir $root or die "chdir: $!";
my $build = abs_path($ENV{BUILD} // 'build');

my @labs = map { m{^\d+\.\s+(\S+)} ? $1 : () } split /\n/, `perl labs/stub --list`;
@labs = grep { my $l = $_; grep { $_ eq $l } split ' ', $ENV{LABS_ONLY} } @labs
	if $ENV{LABS_ONLY};
ok(@labs >= 1, 'labs to grade: ' . join(' ', @labs));

# grade DIR, BUILD, LABS... - run labs/grade in DIR with its build folder
# BUILD; (exit status, output, N, M).
sub grade {
	my ($dir, $b, @which) = @_;
	my $start = time;
	local $ENV{BUILD} = $b;
	delete local $ENV{ELF};
	my $out = `cd $dir && perl labs/grade @which 2>&1`;
	my $rc = $? >> 8;
	my ($n, $m) = $out =~ /^Score: (\d+)\/(\d+)$/m;
	note("labs/grade @which in $dir: " . (time - $start) . 's');
	return ($rc, $out, $n // -1, $m // -1);
}

# --- this tree: full marks -------------------------------------------------------
{
	my ($rc, $out, $n, $m) = grade($root, $build, @labs);
	ok($rc == 0 && $n == $m && $m > 0, "this tree scores full: $n/$m") or diag($out);
}

# --- each lab's starting tree: builds, boots, scores less ---------------------------
my $tmp = tempdir('tally-labs-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $committed = `git status --porcelain --untracked-files=no` eq '';
note('this tree has uncommitted changes: each clone builds from scratch') unless $committed;
for my $lab (@labs) {
	my $dir = "$tmp/$lab";
	my $start = time;
	system('git', 'clone', '-q', '--shared', $root, $dir) == 0
		or do { fail("$lab: clone"); next };
	system('mkdir', '-p', "$dir/build/host") == 0 or die;
	symlink("$build/newlib", "$dir/build/newlib") or die "symlink: $!";
	# Copies, not -p: newer than the clone's sources, so up to date, and
	# older than the files the stubs rewrite next.
	for my $d ('obj', 'host/obj') {
		system('cp', '-R', "$build/$d", "$dir/build/$d") if $committed && -d "$build/$d";
	}
	sleep 1;  # the stubbed files' times must be later than the copies'
	my $out = `cd $dir && make -s lab-start LAB=$lab 2>&1`;
	is($?, 0, "$lab: make lab-start in a fresh clone") or do { diag($out); next };
	my $branch = `cd $dir && git rev-parse --abbrev-ref HEAD`;
	chomp $branch;
	is($branch, "lab/$lab", "$lab: the clone is on branch lab/$lab");
	my $clean = `cd $dir && git status --porcelain --untracked-files=no`;
	is($clean, '', "$lab: the stubs are committed");

	my ($rc, $gout, $n, $m) = grade($dir, 'build', $lab);
	unlike($gout, qr/the build failed/, "$lab: its starting tree builds") or diag($gout);
	unlike($gout, qr/no prompt after boot|QEMU did not start/,
		"$lab: its starting tree boots to the prompt") or diag($gout);
	ok($rc != 0 && $n >= 0 && $n < $m, "$lab: its starting tree scores less than full: $n/$m")
		or diag($gout);
	note("$lab: " . (time - $start) . 's in all');
	system('rm', '-rf', $dir);
}

done_testing();
