#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/transcripts.t - the transcripts the docs show are what a real
# boot prints. A transcript is an indented block of README.md or docs/*.md
# right after a comment line that says how to boot for it:
#
#     <!--transcript smp=2 mem=512M append=script=demo-->
#
# (numa=2 boots QEMU's two-node machine, with smp=4 mem=1G.)
# With a boot script (append=script=NAME) the kernel types the commands
# itself; otherwise the test types each command line of the block (the
# lines that start with the prompt "tally:/# "). Then the block is
# compared, line by line, with what the serial line printed, from the
# block's first line on. Whitespace runs count as one space; a doc line
# may start with a reader's mark "(N)"; a doc line that starts with "..."
# or is all in parentheses stands for any lines the doc leaves out.
# Only the values that differ from boot to boot of the same kernel may
# differ: times and rates (trace timestamps, units/s, rate=, cpu=, share=,
# shell=NNms, "in NN ms"), failure counts (failcnt=N, and the line a
# failcnt file reads), and kernel text addresses (they move with every
# build).
#
# TRANSCRIPTS_ONLY=FILE checks the blocks of one file alone.
# TRANSCRIPTS_WRITE=1 writes the real lines into the docs instead (a
# block with no left-out lines is replaced whole; in one with, each line
# keeps its mark and takes the real text, timestamps too), for a kernel whose
# output has changed on purpose; read the diff before committing it.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

chdir "$FindBin::Bin/../.." or die "chdir: $!";
my $write = $ENV{TRANSCRIPTS_WRITE};

# --- the blocks --------------------------------------------------------------
my @blocks;
# TRANSCRIPTS_ONLY=FILE checks only that file's blocks.
my @files = ('README.md', sort glob('docs/*.md'));
@files = grep { $_ eq $ENV{TRANSCRIPTS_ONLY} } @files
	if $ENV{TRANSCRIPTS_ONLY};
for my $f (@files) {
	open my $fh, '<', $f or die "$f: $!";
	my @l = map { s/\r?\n$//r } <$fh>;
	close $fh;
	for my $i (0 .. $#l) {
		next unless $l[$i] =~ /^<!--transcript\s+(.*?)\s*-->\s*$/;
		my %o = map { /^(\w+)=(.*)$/ ? ($1, $2) : () } split /\s+/, $1;
		my $j = $i + 1;
		$j++ while $j <= $#l && $l[$j] eq '';
		my $first = $j;
		$j++ while $j <= $#l && $l[$j] =~ /^    /;
		push @blocks, {file => $f, line => $first + 1, opts => \%o,
			       from => $first, to => $j - 1,
			       lines => [map { substr $_, 4 } @l[$first .. $j - 1]]};
	}
}
cmp_ok(scalar @blocks, '>=', $ENV{TRANSCRIPTS_ONLY} ? 1 : 4,
	'the docs mark their transcripts')
	or diag('found: ' . join ', ', map { "$_->{file}:$_->{line}" } @blocks);

# --- comparing -----------------------------------------------------------------
sub norm {
	my ($s) = @_;
	$s =~ s/\s+/ /g;
	$s =~ s/^ | $//g;
	return $s;
}

# A doc line without its reader's mark.
sub unmarked { norm($_[0]) =~ s/^\(\d+\) //r }

sub gap {
	my $s = norm($_[0]);
	return $s =~ /^\.\.\./ || ($s =~ /^\(.*\)$/ && $s !~ /^\(\d+\) /);
}

# The values that may differ from boot to boot.
sub masked {
	my ($s) = @_;
	$s =~ s/\b\d+\.\d{6}:/T:/g;                     # trace timestamps
	$s =~ s/\b\d+ units\/s/N units\/s/g;
	$s =~ s/\b(rate|cpu|share)=\d+%/$1=N%/g;
	$s =~ s/\bshell=\d+ms/shell=Nms/g;
	$s =~ s/\bin \d+ ms\b/in N ms/g;
	$s =~ s/\b(failcnt[=:]? ?)\d+/${1}N/g;
	$s =~ s/\b0xffffffff[0-9a-f]{8}\b/ADDR/g;
	return $s;
}

# Every number masked: to find where a line belongs.
sub loose { masked($_[0]) =~ s/\d+/N/gr }

# compare(\@doc, \@real) - (list of differences, [doc index => real line]).
sub compare {
	my ($doc, $real) = @_;
	my @d = @$doc;
	# The block starts where its first line does.
	my $first = unmarked($d[0]);
	my $j = 0;
	$j++ while $j < @$real && loose(norm($real->[$j])) ne loose($first);
	return (["the first line, '$d[0]', is not in the output"], {})
		if $j >= @$real;
	my (@diff, %aligned);
	for (my $i = 0; $i < @d; $i++) {
		if (gap($d[$i])) {
			# Left out: skip to the next doc line's match.
			next if $i == $#d;
			my $want = loose(unmarked($d[$i + 1]));
			my $k = $j;
			$k++ while $k < @$real && loose(norm($real->[$k])) ne $want;
			if ($k >= @$real) {
				push @diff, "after '$d[$i]': '$d[$i + 1]' never comes";
				last;
			}
			$j = $k;
			next;
		}
		if ($j >= @$real) {
			push @diff, "doc: '$d[$i]'; the output ended";
			last;
		}
		my $r = norm($real->[$j]);
		$aligned{$i} = $real->[$j];
		# What a failcnt file reads is a count of refusals: it varies.
		my $count = $i > 0 && $d[$i - 1] =~ /failcnt\s*$/;
		my ($dm, $rm) = (masked(unmarked($d[$i])), masked($r));
		($dm, $rm) = (loose($dm), loose($rm)) if $count;
		push @diff, "doc:  $d[$i]\nboot: $r" if $dm ne $rm;
		$j++;
	}
	return (\@diff, \%aligned);
}

# --- booting -------------------------------------------------------------------
my %rewrite;    # file => [[from, to, new lines]]
for my $b (@blocks) {
	my %o = %{$b->{opts}};
	my $name = "$b->{file}:$b->{line}";
	# numa=2: QEMU's two-node machine (tests/qemu/numa.t's).
	my @numa = ($o{numa} // '') eq '2'
		? (qemu_args => [@Tally::NUMA_TWO_NODES]) : ();
	my $t = Tally->boot(smp => $o{smp} // 2, mem => $o{mem} // '512M',
			    defined $o{append} ? (append => $o{append}) : (),
			    @numa, timeout => 900, name => 'transcript');
	my @cmds = map { /^tally:\S*# (.+)$/ ? $1 : () } @{$b->{lines}};
	my $ok = 1;
	if (($o{append} // '') =~ /\bscript=/) {
		# The script types the commands: wait for each one's echo in
		# turn, then for the prompt after the last.
		for my $c (@cmds) {
			$ok &&= defined $t->wait_for(qr/tally:\S*# \Q$c\E\n/, 300);
		}
		$ok &&= defined $t->prompt(120);
	} else {
		$ok = defined $t->prompt(120);
		for my $c (@cmds) {
			last unless $ok;
			$t->cmd($c, 300);
			$ok = $t->last_ok;
		}
	}
	my @real = split /\n/, $t->seen;
	$t->poweroff;
	if (!$ok) {
		fail("$name: the boot ran the block's commands");
		diag($t->transcript);
		next;
	}
	my ($diff, $aligned) = compare($b->{lines}, \@real);
	if ($write) {
		my @new;
		if (!grep { gap($_) } @{$b->{lines}}) {
			# The whole block, from its first line to the last
			# prompt the boot printed.
			my $first = unmarked($b->{lines}[0]);
			my ($s) = grep { loose(norm($real[$_])) eq loose($first) } 0 .. $#real;
			my $e = $#real;
			$e-- while $e > $s && $real[$e] !~ /^tally:\S*#/;
			# That last prompt, bare, only says the last command
			# is done: kept if the block ended with one.
			$e-- if $e > $s && $real[$e] =~ /^tally:\S*#\s*$/ &&
				unmarked($b->{lines}[-1]) !~ /^tally:\S*#\s*$/;
			@new = map { '    ' . ($_ =~ s/\s+$//r) } @real[$s .. $e];
		} else {
			for my $i (0 .. $#{$b->{lines}}) {
				my $d = $b->{lines}[$i];
				my $r = $aligned->{$i};
				if (defined $r && unmarked($d) ne norm($r)) {
					my ($mark) = $d =~ /^(\s*(?:\(\d+\)\s*)?)/;
					$d = $mark . norm($r);
				}
				push @new, "    $d";
			}
		}
		push @{$rewrite{$b->{file}}}, [$b->{from}, $b->{to}, \@new];
		pass("$name: written from a real boot");
		next;
	}
	is(scalar @$diff, 0, "$name: the transcript is what a boot prints")
		or diag(join("\n", @$diff) . "\n--- the boot printed:\n"
			. join("\n", @real));
}

for my $f (sort keys %rewrite) {
	open my $fh, '<', $f or die "$f: $!";
	my @l = map { s/\r?\n$//r } <$fh>;
	close $fh;
	for my $r (sort { $b->[0] <=> $a->[0] } @{$rewrite{$f}}) {
		splice @l, $r->[0], $r->[1] - $r->[0] + 1, @{$r->[2]};
	}
	open $fh, '>', $f or die "$f: $!";
	print $fh "$_\n" for @l;
	close $fh;
	diag("$f: transcripts written from a real boot");
}

done_testing();
