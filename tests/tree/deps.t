#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/deps.t - the dependencies of the source tree run one way. Each
# rule is checked by reading the files, and names the lines that break it:
#
#   - arch/ defines no shell commands and includes nothing from the shell;
#   - nothing in kernel/ or mm/ includes a file under tests/ (the host build
#     chooses its platform stubs: -include in the Makefile's HOST_CFLAGS);
#   - kernel/lib/ includes nothing from mm/;
#   - mm/ includes nothing from kernel/fs/ and makes no control files: its
#     /proc files are made in kernel/fs/ (kernel/fs allocates from mm/);
#   - the start-up order is kmain's and start_kernel_services()'s: the
#     scheduler (kernel/sched/) starts no other subsystem and makes no
#     control files.
use strict;
use warnings;
use Test::More;
use File::Find;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

# sources(dir...) - the C, header and assembly files under each folder.
sub sources {
	my @files;
	find(sub { push @files, $File::Find::name if -f && /\.(c|h|S)$/ }, @_);
	return sort @files;
}

# offending(regex, files) - "file:line: text" of each line that matches;
# comments are not code, so lines inside /* */ or after // do not count.
sub offending {
	my ($re, @files) = @_;
	my @hits;
	for my $f (@files) {
		open my $fh, '<', $f or die "$f: $!";
		my $text = do { local $/; <$fh> };
		# Blank out comments, keeping the line breaks so numbers stay right.
		$text =~ s{/\*.*?\*/}{ (my $c = $&) =~ s/[^\n]//g; $c }gse;
		$text =~ s{//[^\n]*}{}g;
		my $n = 0;
		for my $line (split /\n/, $text, -1) {
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

my @arch = sources('arch');
my @kernel_mm = sources('kernel', 'mm');
my @lib = sources('kernel/lib');
my @mm = sources('mm');
my @sched = grep { m{/(sched|wait)\.[ch]$} } sources('kernel/sched');
ok(@arch > 10 && @kernel_mm > 100 && @lib >= 4 && @mm > 20 && @sched >= 4,
   'the folders the rules are about hold sources');

none('arch/ defines no shell commands',
     offending(qr/\bSHELL_COMMAND\s*\(|#\s*include\s*"kernel\/shell\//, @arch));
none('nothing in kernel/ or mm/ includes a file under tests/',
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
