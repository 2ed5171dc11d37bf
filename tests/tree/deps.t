#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/deps.t - the dependencies of the source tree run one way.
#
# The folder graph: an edge A -> B for each `#include "B/..."` line in a
# file of folder A (comments do not count). It must have no cycle: every
# folder sits in one layer (docs/layout.md), and includes only its own
# layer and those below. A cycle is named with the include lines that
# make it. The base layer (kernel/base/, and arch/x86_64/asm/ below it)
# includes nothing but itself.
#
# Narrower rules, each naming the lines that break it:
#   - arch/ and drivers/ define no shell commands and include nothing
#     from the shell;
#   - nothing in kernel/, mm/ or drivers/ includes a file under tests/
#     (the host build chooses its platform stubs: -include in the
#     Makefile's HOST_CFLAGS);
#   - kernel/lib/ includes nothing from mm/;
#   - mm/ includes nothing from kernel/fs/ and makes no control files: its
#     /proc files are made in kernel/fs/ (kernel/fs allocates from mm/);
#   - the start-up order is kmain's and start_kernel_services()'s: the
#     scheduler (kernel/sched/sched.c, wait.c) starts no other subsystem
#     and makes no control files.
use strict;
use warnings;
use Test::More;
use File::Find;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my @TREE = grep { -d } qw(arch boot drivers kernel mm);

# sources(dir...) - the C, header and assembly files under each folder.
sub sources {
	my @files;
	find(sub { push @files, $File::Find::name if -f && /\.(c|h|S)$/ }, @_);
	return sort @files;
}

# code(file) - its lines with comments blanked out (line numbers kept).
sub code {
	my ($f) = @_;
	open my $fh, '<', $f or die "$f: $!";
	my $text = do { local $/; <$fh> };
	$text =~ s{/\*.*?\*/}{ (my $c = $&) =~ s/[^\n]//g; $c }gse;
	$text =~ s{//[^\n]*}{}g;
	return split /\n/, $text, -1;
}

# offending(regex, files) - "file:line: text" of each line that matches.
sub offending {
	my ($re, @files) = @_;
	my @hits;
	for my $f (@files) {
		my $n = 0;
		for my $line (code($f)) {
			$n++;
			push @hits, "$f:$n: $line" if $line =~ $re;
		}
	}
	return @hits;
}

sub none {
	my ($name, @hits) = @_;
	is(scalar @hits, 0, $name) or diag(join "\n", @hits);
}

sub folder { my ($p) = @_; $p =~ s{/[^/]+$}{}; return $p }

# --- the folder graph ------------------------------------------------------
my %edge;    # $edge{A}{B} = ["file:line: #include ...", ...]
for my $f (sources(@TREE)) {
	(my $file = $f) =~ s{^\./}{};
	my $n = 0;
	for my $line (code($file)) {
		$n++;
		next unless $line =~ /^\s*#\s*include\s*"([^"]+)"/;
		my $to = $1;
		next unless -f $to;
		my ($a, $b) = (folder($file), folder($to));
		push @{$edge{$a}{$b}}, "$file:$n: $line" if $a ne $b;
	}
}
ok(keys %edge >= 15, scalar(keys %edge) . ' folders include another');

# cycles(skip) - each strongly connected set of folders (Tarjan), as
# [folders, one cycle through them as a list of folders].
sub cycles {
	my ($skip) = @_;
	my (%index, %low, %on, @stack, @sets);
	my $i = 0;
	my $out = sub {
		my ($v) = @_;
		return grep { !$skip || !$skip->($v, $_) } sort keys %{$edge{$v} || {}};
	};
	my $visit;
	$visit = sub {
		my ($v) = @_;
		$index{$v} = $low{$v} = $i++;
		push @stack, $v;
		$on{$v} = 1;
		for my $w ($out->($v)) {
			if (!defined $index{$w}) {
				$visit->($w);
				$low{$v} = $low{$w} if $low{$w} < $low{$v};
			} elsif ($on{$w}) {
				$low{$v} = $index{$w} if $index{$w} < $low{$v};
			}
		}
		return if $low{$v} != $index{$v};
		my @set;
		my $w;
		do { $w = pop @stack; $on{$w} = 0; push @set, $w } while ($w ne $v);
		push @sets, [sort @set] if @set > 1;
	};
	my %all = map { $_ => 1 } keys %edge, map { keys %$_ } values %edge;
	$visit->($_) for grep { !defined $index{$_} } sort keys %all;
	# One cycle in each set: a shortest way back to its first folder.
	my @found;
	for my $set (@sets) {
		my %in = map { $_ => 1 } @$set;
		my $start = $set->[0];
		my %prev = ($start => undef);
		my @queue = ($start);
		my $end;
		while (defined(my $v = shift @queue)) {
			for my $w (grep { $in{$_} } $out->($v)) {
				if ($w eq $start) { $end = $v; @queue = (); last }
				next if exists $prev{$w};
				$prev{$w} = $v;
				push @queue, $w;
			}
		}
		my @path;
		for (my $v = $end; defined $v; $v = $prev{$v}) {
			unshift @path, $v;
		}
		push @found, [$set, [@path, $start]];
	}
	return @found;
}

# describe(cycle) - the cycle, and the include lines of each of its edges.
sub describe {
	my ($set, $path) = @{$_[0]};
	my @lines = ("folders in one cycle: @$set",
		     'a cycle: ' . join(' -> ', @$path));
	for my $k (0 .. $#$path - 1) {
		my ($a, $b) = @$path[$k, $k + 1];
		my @inc = @{$edge{$a}{$b}};
		push @lines, "  $a -> $b:", map { "    $_" } @inc[0 .. ($#inc < 2 ? $#inc : 2)];
		push @lines, '    ... (' . scalar(@inc) . ' lines)' if @inc > 3;
	}
	return join "\n", @lines;
}

my @all = cycles(undef);
is(scalar @all, 0, 'no include cycle between folders')
	or diag(join "\n", map { describe($_) } @all);

# The base layer includes nothing above it.
my %base = map { $_ => 1 } qw(kernel/base arch/x86_64/asm);
my @up = map { my $a = $_; map { @{$edge{$a}{$_}} } grep { !$base{$_} } keys %{$edge{$a}} }
	grep { $base{$_} } keys %edge;
none('kernel/base/ and arch/x86_64/asm/ include nothing above them', sort @up);
none('arch/x86_64/asm/ includes nothing above it',
     map { @{$edge{'arch/x86_64/asm'}{$_}} } keys %{$edge{'arch/x86_64/asm'} || {}});
ok(!-d 'arch/x86_64/drivers' && !grep({ -d } glob 'arch/*/pci arch/*/usb arch/*/*/pci arch/*/*/usb'),
   'no PCI or USB folder under arch/');
none('the APIC code names no driver',
     offending(qr/#\s*include\s*"drivers\/|\b(xhci|pci|serial|keyboard|vga|fb)_\w+\s*\(/,
	       grep { /\/[il]?apic\.[ch]$|\/lapic\.[ch]$|\/ioapic\.[ch]$/ } sources('arch')));
none('no weak symbols', offending(qr/\bweak\b/, sources(@TREE)));

# --- the narrower rules ------------------------------------------------------
my @arch = sources('arch', 'drivers');
my @kernel_mm = sources('kernel', 'mm', 'drivers');
my @lib = sources('kernel/lib');
my @mm = sources('mm');
my @sched = grep { m{/(sched|wait)\.[ch]$} } sources('kernel/sched');
ok(@arch > 10 && @kernel_mm > 100 && @lib >= 4 && @mm > 20 && @sched >= 4,
   'the folders the rules are about hold sources');

none('arch/ and drivers/ define no shell commands',
     offending(qr/\bSHELL_COMMAND\s*\(|#\s*include\s*"kernel\/shell\//, @arch));
none('nothing in kernel/, mm/ or drivers/ includes a file under tests/',
     offending(qr/#\s*include\s*[<"]tests\//, @kernel_mm));
none('kernel/lib/ includes nothing from mm/',
     offending(qr/#\s*include\s*[<"]mm\//, @lib));
none('mm/ includes nothing from kernel/fs/',
     offending(qr/#\s*include\s*[<"]kernel\/fs\//, @mm));
none('mm/ makes no control files',
     offending(qr/\bctl_(create_file|create_dir|create_dir_gfp|lookup)\s*\(/, @mm));
none('the scheduler makes no control files',
     offending(qr/\bctl_(create_file|create_dir|create_dir_gfp|lookup)\s*\(/, @sched));
none('the scheduler starts no other subsystem',
     offending(qr/\b(task_table_init|reaper_start|console_sleep_on_input|proc_init|proc_mm_init)\s*\(|\bconsole_(wait|wake)_hook\b/,
	       grep { !/\.h$/ } @sched));

# The order itself is written in start_kernel_services(), in this order.
open my $bt, '<', 'kernel/init/boot_tasks.c' or die "kernel/init/boot_tasks.c: $!";
my $boot = do { local $/; <$bt> };
my ($body) = $boot =~ /\bstart_kernel_services\(void\)\s*\{(.*?)\n\}/s;
ok(defined $body, 'kernel/init/boot_tasks.c defines start_kernel_services()');
my @order = qw(proc_init proc_mm_init task_table_init sched_start reaper_start
	       console_sleep_on_input task_spawn_system cpu_idle_loop);
my @at = map { my $i = index($body // '', "$_("); $i } @order;
my @missing = map { $order[$_] } grep { $at[$_] < 0 } 0 .. $#order;
is("@missing", '', 'start_kernel_services() calls each start-up step');
my @wrong = map { "$order[$_ - 1] after $order[$_]" }
	grep { $at[$_ - 1] >= 0 && $at[$_] >= 0 && $at[$_ - 1] > $at[$_] } 1 .. $#order;
is("@wrong", '', 'start_kernel_services() calls them in start-up order');

done_testing();
