#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/labs.t - the labs grade what they should.
#
#  1. On this tree every lab scores full (make grade).
#  2. Each lab's student repository, as make lab-pack writes it, builds,
#     boots and scores less than full: its tests see the missing code.
#  3. make grade-class over a class of three packed students of the fork
#     lab: one untouched, one who edited labs/grade and the lab's tests to
#     print full marks, one with this tree's bodies copied in. The first
#     two score the same, below full; the third full; scores.csv says so.
#     (In the second student's own tree, its edited grader does print full
#     marks: the class grade does not read it.)
#
# To stay affordable, each pack reuses this tree's build: newlib is
# linked, and the kernel's and the host's objects are copied, so that make
# rebuilds only what the stubs change. (Not when this tree has changes git
# has not committed: the objects would be of sources the pack lacks.)
# LABS_ONLY="a b" grades only those in 1 and 2.
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

my $committed = `git status --porcelain --untracked-files=no` eq '';
note('this tree has uncommitted changes: each pack builds from scratch') unless $committed;

# pack_lab LAB, DIR, BUILD - make lab-pack; with BUILD, this tree's build
# reused in it. True if made.
sub pack_lab {
	my ($lab, $dir, $with_build) = @_;
	my $out = `make -s lab-pack LAB=$lab DIR=$dir 2>&1`;
	is($?, 0, "$lab: make lab-pack DIR=$dir") or do { diag($out); return 0 };
	return 1 unless $with_build;
	system('mkdir', '-p', "$dir/build/host") == 0 or die;
	symlink("$build/newlib", "$dir/build/newlib") or die "symlink: $!";
	# Copies, not -p: newer than the pack's sources, so up to date. The
	# stubbed files were written before, so they are older: touch them.
	for my $d ('obj', 'host/obj') {
		system('cp', '-R', "$build/$d", "$dir/build/$d") if $committed && -d "$build/$d";
	}
	sleep 1;
	system('touch', map { "$dir/$_" } split /\n/, `perl labs/stub --files $lab`);
	return 1;
}

# --- 1. this tree: full marks ----------------------------------------------------
{
	my ($rc, $out, $n, $m) = grade($root, $build, @labs);
	ok($rc == 0 && $n == $m && $m > 0, "this tree scores full: $n/$m") or diag($out);
}

# --- 2. each lab's packed starting tree: builds, boots, scores less -------------
my $tmp = tempdir('tally-labs-XXXXXX', TMPDIR => 1, CLEANUP => 1);
for my $lab (@labs) {
	my $dir = "$tmp/$lab";
	my $start = time;
	pack_lab($lab, $dir, 1) or next;
	my ($rc, $gout, $n, $m) = grade($dir, 'build', $lab);
	unlike($gout, qr/the build failed/, "$lab: its starting tree builds") or diag($gout);
	unlike($gout, qr/no prompt after boot|QEMU did not start/,
		"$lab: its starting tree boots to the prompt") or diag($gout);
	ok($rc != 0 && $n >= 0 && $n < $m, "$lab: its starting tree scores less than full: $n/$m")
		or diag($gout);
	note("$lab: " . (time - $start) . 's in all');
	system('rm', '-rf', $dir);
}

# --- 3. a class -------------------------------------------------------------------
my $class = "$tmp/class";
my $lab = 'fork';
my %made = map { $_ => pack_lab($lab, "$class/$_", 0) } qw(untouched bent copied);
SKIP: {
	skip('the class could not be packed', 9) if grep { !$_ } values %made;
	# bent: the grader, the grade file and the scenarios all say "full".
	my $b = "$class/bent";
	open my $g, '>', "$b/labs/grade" or die;
	print $g "#!/usr/bin/perl\nprint \"PASS everything (100/100)\\nScore: 100/100\\n\";\nexit 0;\n";
	close $g;
	open $g, '>', "$b/labs/$lab/grade" or die;
	print $g "order: 4\ntitle: t\ntime: 1h\nscenario stack_charged 100 anything\n";
	close $g;
	open $g, '>', "$b/labs/$lab/scenarios.pl" or die;
	print $g "return { map { \$_ => sub { (1, '') } } qw(stack_charged "
		. "refused_task_undoes_stack killed_task_uncharges) };\n";
	close $g;
	system("cd $b && git commit -qam 'full marks' --author='s <s\@s>' >/dev/null 2>&1");
	my $own = `cd $b && perl labs/grade $lab 2>&1`;
	like($own, qr{^Score: 100/100$}m, "bent: its own edited grader prints full marks");
	# copied: this tree's file with the bodies.
	system('cp', "$root/$_", "$class/copied/$_") == 0 or die
		for split /\n/, `perl labs/stub --files $lab`;

	my $start = time;
	my $out = `make -s grade-class LAB=$lab DIR=$class 2>&1`;
	is($?, 0, 'make grade-class LAB=fork over three students') or diag($out);
	note('grade-class: ' . (time - $start) . 's');
	my %score = map { /^(\S+) Score: (\d+)\/(\d+)$/ ? ($1 => [$2, $3]) : () }
		split /\n/, $out;
	my ($u, $bt, $c) = map { $score{$_} // [-1, -1] } qw(untouched bent copied);
	ok($u->[0] >= 0 && $u->[0] < $u->[1], "untouched: below full, $u->[0]/$u->[1]")
		or diag($out);
	my $report = -f "$class/untouched.grade" ? `cat $class/untouched.grade` : '';
	unlike($report, qr/the build failed|no prompt after boot/,
		'untouched: built and booted by grade-class') or diag($report);
	is("$bt->[0]/$bt->[1]", "$u->[0]/$u->[1]",
		'bent: the same as untouched: its edited grader and tests are not read');
	ok($c->[1] > 0 && $c->[0] == $c->[1], "copied: full, $c->[0]/$c->[1]")
		or diag(`cat $class/copied.grade`);
	my @csv = split /\n/, (-f "$class/scores.csv" ? `cat $class/scores.csv` : '');
	like($csv[0] // '', qr/^student,score,out_of,/, 'scores.csv: its header');
	my %row = map { my @f = split /,/; ($f[0] => "$f[1]/$f[2]") } @csv[1 .. $#csv];
	is_deeply(\%row, { untouched => "$u->[0]/$u->[1]", bent => "$bt->[0]/$bt->[1]",
		copied => "$c->[0]/$c->[1]" }, 'scores.csv: a row per student, as printed');
	ok(-s "$class/untouched.grade", 'each report kept: untouched.grade');
}

done_testing();
