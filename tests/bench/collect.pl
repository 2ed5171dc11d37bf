#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/bench/collect.pl OUTDIR - boot the builds, run `bench`, print the
# tables, and write OUTDIR/results.csv, OUTDIR/table.md and OUTDIR/smp.md
# (the tables in Markdown, for docs/benchmarks.md), OUTDIR/pages.png and
# OUTDIR/smp.png.
#
# The yardstick (tests/bench/Bench.pm): with KVM on hardware
# virtualisation the TSC counts cycles; otherwise the 1-CPU benchmarks run
# under TCG with `-icount shift=0,sleep=off`, where it counts guest
# instructions, exactly and repeatably.
#
# Seven boots of tally, one after the other, then Linux's if it can:
#   kmem    build/tally.elf, 1 CPU, on the yardstick: the page and slab
#           benchmarks, fork_exit, fork_exit_accounted, timing_overhead,
#           each once, charge_depth and charge_steps (slab accounting: the
#           default design, caches)
#   objects the same kernel booted with slab_accounting=objects (the
#           other slab design, docs/slab.md): the slab benchmarks again;
#           skipped, as the objects boot on smp below, if the kernel
#           does not read slab_accounting= (its columns then stay empty)
#   nokmem  build/tally-nokmem.elf (make KMEM=0), the same: the
#           denominators of the ratios
#   notrace build/tally-notrace.elf (make TRACE=0): the page benchmarks,
#           for the cost of the tracepoints compiled in but off
#   smp     build/tally.elf on BENCH_SMP_CPUS CPUs (default 8), without
#           icount (it would run the vCPUs one at a time): `bench
#           charge_smp_*`, whose curve is K = 1 .. all CPUs, and `bench
#           slab_smp`; then booted again with slab_accounting=objects for
#           `bench slab_smp` alone (the row "slab_smp(objects)")
#   numa2   build/tally.elf on QEMU's two-node machine
#           (Tally::NUMA_TWO_NODES: 4 CPUs, 2 a node): the same
#   linux   tests/bench/linux/run: Debian's Linux on the icount yardstick,
#           the same page operations timed in a module, for the Linux
#           column (BENCH_LINUX=0 skips it; without a Debian kernel,
#           headers and busybox the column quotes figures measured by hand)
#
# results.csv has one row per figure:
#   build,machine,line,name,cpus,node,median_cycles,p99_cycles,ops,unit,accel,fields,design
# line: "bench" (a result line, docs/interface.md), "curve" (a "# NAME cpus=K" line: median
# only) or "node" (a per-node line); cpus: the CPUs taking part ("" for a
# 1-CPU benchmark); node: the node whose CPUs ran; unit: what the TSC
# counted ("instructions", "cycles", or "tcg_tsc", the host's clock as TCG
# shows it: not cycles); fields: any further KEY=VALUE fields the line
# carried (transfers_per_1k=N, ...), space-separated; design: the slab
# accounting design the kmem build was booted with ("caches", the
# default, or "objects"; "" for the other builds and Linux). An older
# results.csv without the design column replays as "caches".
# slab_memory prints one line per domain count: its rows keep the name
# slab_memory, with domains=N utilization_pct=P slab_kB=K in fields.
#
# BENCH_REPLAY=CSV prints the tables and draws the plots of an earlier
# run's results.csv without booting anything (to refresh docs/benchmarks.md).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../qemu/lib", $FindBin::Bin;
use Tally;
use Bench;

my $out = shift or die "usage: collect.pl OUTDIR\n";
my $replay = $ENV{BENCH_REPLAY};
my $build = Tally::build_dir();
my $smp_cpus = $ENV{BENCH_SMP_CPUS} || 8;

my @PAGES = qw(page_order0 page_order0_root page_order0_accounted
	       page_order0_nostock stack_order2_accounted);
my @SLAB = qw(kmalloc64 kmalloc64_root kmalloc64_accounted kmalloc64_churn
	      kmem_cache_task);
my @SLAB_MEMORY_DOMAINS = (1, 8, 64);
my @ONE_CPU = (@PAGES, @SLAB, 'slab_memory',
	       qw(fork_exit fork_exit_accounted timing_overhead));
my @DESIGNS = qw(caches objects);

# --- the yardstick ------------------------------------------------------------
# $unit: what the 1-CPU figures count; $smp_unit: what the SMP ones do.
# Without icount the TSC counts cycles only under KVM on vmx/svm; under
# TCG it is the host's clock ("tcg_tsc"), under a software hypervisor's
# KVM a TSC that is not cycle-accurate ("kvm_tsc").
my $kvm = Tally::kvm_usable();
my $hw = $kvm && Bench::hardware_virt();
my $unit = Bench::yardstick($kvm);
my $smp_unit = $hw ? 'cycles' : $kvm ? 'kvm_tsc' : 'tcg_tsc';
my ($one_accel, @one_args, $why);
if ($unit eq 'instructions') {
	$one_accel = '-accel tcg';
	@one_args = @Bench::ICOUNT;
	$why = ($hw ? 'BENCH_YARDSTICK=instructions: '
		: $kvm ? 'KVM is asked for, but the CPU has no vmx or svm '
		       . '(a software hypervisor): '
		: 'no hardware virtualisation: ')
	     . 'the 1-CPU benchmarks ran under TCG with -icount '
	     . 'shift=0,sleep=off, where the guest TSC counts instructions: '
	     . 'the figures are INSTRUCTIONS per operation, exact and '
	     . 'repeatable; they know nothing of caches, pipelines or cycles';
} else {
	$one_accel = $ENV{QEMU_ACCEL};
	$unit = $smp_unit;
	$why = $hw ? 'KVM on hardware virtualisation: the figures are TSC '
		   . 'CYCLES per operation'
	     : 'BENCH_YARDSTICK=cycles without KVM on vmx/svm: the TSC is '
	       . 'NOT cycle-accurate here (unit ' . $unit . ')';
}
my $smp_why = $smp_unit eq 'cycles' ? 'TSC cycles'
	: $smp_unit eq 'tcg_tsc'
	? 'TCG without icount (one host thread a vCPU): the TSC follows the '
	  . "host's clock, so these are host time in TSC ticks, not cycles, on "
	  . 'vCPUs that share the host\'s cores; read the shape and any counts'
	: 'KVM on a software hypervisor: TSC ticks, not cycle-accurate';

my @runs = (
	{build => 'kmem', machine => 'one', elf => "$build/tally.elf",
	 smp => 1, mem => '512M', accel => $one_accel, args => [@one_args],
	 unit => $unit, design => 'caches',
	 cmds => [map { "bench $_" } @ONE_CPU, 'charge_depth', 'charge_steps']},
	{build => 'kmem', machine => 'one', elf => "$build/tally.elf",
	 smp => 1, mem => '512M', accel => $one_accel, args => [@one_args],
	 unit => $unit, design => 'objects',
	 append => 'slab_accounting=objects',
	 cmds => [map { "bench $_" } @SLAB, 'slab_memory']},
	{build => 'nokmem', machine => 'one', elf => "$build/tally-nokmem.elf",
	 smp => 1, mem => '512M', accel => $one_accel, args => [@one_args],
	 unit => $unit, cmds => [map { "bench $_" } @ONE_CPU]},
	{build => 'notrace', machine => 'one', elf => "$build/tally-notrace.elf",
	 smp => 1, mem => '512M', accel => $one_accel, args => [@one_args],
	 unit => $unit, cmds => [map { "bench $_" } @PAGES]},
	{build => 'kmem', machine => 'smp', elf => "$build/tally.elf",
	 smp => $smp_cpus, mem => '1G', unit => $smp_unit, design => 'caches',
	 cmds => ['bench charge_smp_*', 'bench slab_smp']},
	{build => 'kmem', machine => 'smp', elf => "$build/tally.elf",
	 smp => $smp_cpus, mem => '1G', unit => $smp_unit, design => 'objects',
	 append => 'slab_accounting=objects', cmds => ['bench slab_smp']},
	{build => 'kmem', machine => 'numa2', elf => "$build/tally.elf",
	 smp => 4, mem => '1G', args => [@Tally::NUMA_TWO_NODES],
	 unit => $smp_unit, design => 'caches',
	 cmds => ['bench charge_smp_*', 'bench slab_smp']},
);

# $one{build}{name} = parsed line              1-CPU figures; the kmem
#                                              build booted with the
#                                              objects design is build
#                                              "objects" here;
#                                              slab_memory's lines are
#                                              "slab_memory domains=N"
# $curve{machine}{name}{cpus} = parsed line    "# NAME cpus=K" lines, with
#                                              the all-CPU line's extra fields
# $node{name}{nid} = parsed line               numa2's per-node lines
# @smp_names{machine} = [names in the order printed]
my (%one, %curve, %node, %smp_names, %seen, @rows, @replayed);

# take($r, $line) - one line of `bench` output from run $r, if a result.
sub take {
	my ($r, $l) = @_;
	my $p = Bench::parse_line($l) or return 0;
	# charge_depth: one line per depth and stock, each a name of its own.
	if ($p->{name} eq 'charge_depth') {
		my %e = map { @$_ } @{$p->{extra}};
		$p->{name} = "charge_depth depth=$e{depth} stock=$e{stock}";
		$p->{extra} = [];
	}
	my $fields = join ' ', map { "$_->[0]=$_->[1]" } @{$p->{extra}};
	my $csv_name = $p->{name};
	# slab_memory: one line per domain count, each a name of its own
	# here; results.csv keeps the name and the fields.
	if ($p->{name} eq 'slab_memory') {
		my %e = map { @$_ } @{$p->{extra}};
		return 0 unless defined $e{domains};
		$p->{name} = "slab_memory domains=$e{domains}";
		$p->{fields} = \%e;
	}
	my $design = $r->{design} // '';
	my $key = $design eq 'objects' ? 'objects' : $r->{build};
	# slab_smp of the objects design: a row of its own in the SMP table.
	$p->{name} .= '(objects)'
		if $design eq 'objects' && $r->{machine} ne 'one';
	my $cpus = $p->{kind} eq 'curve' ? $p->{cpus}
		 : $r->{machine} eq 'one' ? ''
		 : $p->{kind} eq 'node' ? $r->{smp} / 2   # 2 CPUs a node
		 : $r->{smp};
	push @rows, [$r->{build}, $r->{machine}, $p->{kind}, $csv_name,
		     $cpus, $p->{node} // '', $p->{median} // '',
		     $p->{p99} // '', $p->{ops} // '', $r->{unit},
		     $r->{accel} // $ENV{QEMU_ACCEL} // '', $fields, $design];
	if ($r->{machine} eq 'one') {
		$one{$key}{$p->{name}} = $p if $p->{kind} eq 'bench';
		return 1;
	}
	my $m = $r->{machine};
	push @{$smp_names{$m}}, $p->{name} unless $seen{$m}{$p->{name}}++;
	if ($p->{kind} eq 'curve') {
		# Two lines for one K (a median, then other fields): merged.
		my $c = $curve{$m}{$p->{name}}{$p->{cpus}} //= {%$p, extra => []};
		$c->{median} //= $p->{median};
		my %have = map { $_->[0] => 1 } @{$c->{extra}};
		push @{$c->{extra}}, grep { !$have{$_->[0]} } @{$p->{extra}};
	} elsif ($p->{kind} eq 'node') {
		$node{$p->{name}}{$p->{node}} = $p;
	} else {
		# The all-CPU line: its extra fields complete the curve's
		# last point if that lacks them.
		my $c = $curve{$m}{$p->{name}}{$r->{smp}} //= {%$p, extra => []};
		my %have = map { $_->[0] => 1 } @{$c->{extra}};
		push @{$c->{extra}}, grep { !$have{$_->[0]} } @{$p->{extra}};
	}
	return 1;
}

if ($replay) {
	# BENCH_REPLAY=CSV: the tables and plots of an earlier run, from its
	# results.csv, without booting anything.
	open my $in, '<', $replay or die "$replay: $!\n";
	<$in>;
	# The accel column (the 11th of 13) may hold commas: read the two
	# after it from the right.
	my @old = map {
		chomp;
		my @f = split /,/, $_, -1;
		[@f[0 .. 9], join(',', @f[10 .. $#f - 2]), @f[-2, -1]]
	} <$in>;
	@replayed = @old;
	my %smp;
	for (grep { $_->[2] eq 'bench' && $_->[1] ne 'one' } @old) {
		$smp{$_->[1]} = $_->[4];
	}
	for my $o (grep { $_->[0] ne 'linux' } @old) {
		my ($b, $m, $kind, $n, $cpus, $nid, $med, $p99, $ops, $u, $acc,
		    $f, $d) = @$o;
		$d = $b eq 'kmem' ? 'caches' : ''
			unless defined $d && length $d;
		$unit = $u if $m eq 'one';
		$smp_unit = $u if $m ne 'one';
		my $l = $kind eq 'curve' ? "# $n cpus=$cpus" . (length $med ? " median_cycles=$med" : '')
		      : "bench $n" . ($kind eq 'node' ? " node=$nid" : '')
			. " median_cycles=$med p99_cycles=$p99 ops=$ops";
		$l .= " $f" if defined $f && length $f;
		take({build => $b, machine => $m, smp => $smp{$m} // 1, unit => $u,
		      accel => $acc, design => $d}, $l);
	}
	$smp_cpus = $smp{smp} // $smp_cpus;
	$why = "replayed from $replay";
	$smp_why = $smp_unit eq 'tcg_tsc'
		? 'TCG without icount: host time in TSC ticks, not cycles'
		: 'TSC cycles';
}

# reads_option($elf, $key) - whether the kernel in $elf looks $key up on
# its command line: the key, a string of its own, is in the image. A
# kernel ignores an option it does not read, so a boot with
# slab_accounting=objects of a kernel without that design would put the
# default design's figures in the objects columns.
sub reads_option {
	my ($elf, $key) = @_;
	open my $fh, '<:raw', $elf or die "$elf: $!\n";
	my $image = do { local $/; <$fh> };
	close $fh;
	return index($image, "$key\0") >= 0;
}

for my $r ($replay ? () : @runs) {
	local $ENV{ELF} = $r->{elf};
	local $ENV{QEMU_ACCEL} = $r->{accel} // $ENV{QEMU_ACCEL};
	my $label = "$r->{build}-$r->{machine}";
	$label .= "-$r->{design}" if ($r->{design} // '') eq 'objects';
	my ($key) = ($r->{append} // '') =~ /^(\w+)=/;
	if (defined $key && !reads_option($r->{elf}, $key)) {
		print "bench: $label: skipped: $r->{elf} does not read $key=\n";
		next;
	}
	my $t = Tally->boot(smp => $r->{smp}, mem => $r->{mem}, timeout => 1800,
			    name => "bench-$label",
			    defined $r->{append}
				? (append => $r->{append}) : (),
			    @{$r->{args} // []} ? (qemu_args => $r->{args}) : ());
	$t->prompt(120) or die "bench: $label: no prompt\n" . $t->transcript;
	print "bench: $label: $r->{smp} CPU(s), ",
		join(' ', Tally::accel_args(), @{$r->{args} // []},
		     defined $r->{append} ? ('-append', $r->{append}) : ()),
		"\n";
	for my $cmd (@{$r->{cmds}}) {
		my $text = $t->cmd($cmd, 900);
		die "bench: $label: '$cmd' did not finish\n" . $t->transcript
			unless defined $text;
		my $got = 0;
		$got += take($r, $_) for split /\n/, $text;
		warn "bench: $label: '$cmd' printed no result line\n" unless $got;
	}
	$t->poweroff;
}

# --- Linux, on the same yardstick ----------------------------------------------
# tests/bench/linux/run boots Debian's kernel under icount and times the
# same page operations in a module: run when its kernel, headers and
# busybox are there (BENCH_LINUX=0 skips it), else the table quotes the
# figures measured by hand the same way. %linux_fig: name => median, $linux_source: where they come
# from.
my %LINUX_NAME = ('raw 0' => 'page_order0', 'root 0' => 'page_order0_root',
		  'accounted 0' => 'page_order0_accounted',
		  'raw 2' => 'stack_order2', 'root 2' => 'stack_order2_root',
		  'accounted 2' => 'stack_order2_accounted',
		  'raw kmalloc64' => 'kmalloc64_raw',
		  'root kmalloc64' => 'kmalloc64_root',
		  'accounted kmalloc64' => 'kmalloc64_accounted',
		  'raw task' => 'kmem_cache_task_raw',
		  'accounted task' => 'kmem_cache_task');
my (%linux_fig, $linux_source);

sub linux_take {
	my ($name, $med, $p99, $ops, $kernel) = @_;
	$linux_fig{$name} = $med;
	$linux_source = "measured by this run: Debian's Linux $kernel, "
		. 'tests/bench/linux/run';
	push @rows, ['linux', 'one', 'bench', $name, '', '', $med, $p99, $ops,
		     'instructions', "-accel tcg @Bench::ICOUNT",
		     "kernel=$kernel", ''];
}

if ($replay) {
	# Rows marked quoted= are the hand-measured figures a run without
	# Linux wrote for the docs (docs/bench-results.csv): not a measurement.
	for (grep { $_->[0] eq 'linux' && ($_->[11] // '') !~ /quoted=/ } @replayed) {
		my ($kernel) = ($_->[11] // '') =~ /kernel=(\S+)/;
		linux_take(@$_[3, 6, 7, 8], $kernel // '?');
	}
	$linux_source =~ s/this run/the run replayed/ if $linux_source;
} elsif (($ENV{BENCH_LINUX} // '') ne '0') {
	print "bench: linux: tests/bench/linux/run (Debian's kernel, 1 CPU, @Bench::ICOUNT)\n";
	my @out = `sh tests/bench/linux/run 2>&1`;
	my $kernel = '?';
	for (@out) {
		$kernel = $1 if /^linux: Linux (\S+)/;
		if (/^linux: bench (\w+) (?:order|slab)=(\w+) median_cycles=(\d+) p99_cycles=(\d+) ops=(\d+)/) {
			my $n = $LINUX_NAME{"$1 $2"} or next;
			linux_take($n, $3, $4, $5, $kernel);
		}
	}
	print "bench: linux: not run, the figures are quoted: ",
		(grep { /linux bench: no/ } @out)[0] // "no result line\n"
		unless $linux_source;
}


# --- the 1-CPU table ----------------------------------------------------------
# Linux 6.1's figures: measured above if tests/bench/linux/run could run;
# otherwise as they were measured by hand the same way (Debian's 6.1
# kernel, init_on_alloc=0, QEMU TCG -icount shift=0,sleep=off, 1 CPU),
# quoted. Keys as in @table below; Linux's raw figures (GFP_KERNEL) stand
# beside the KMEM=0 rows.
my %LINUX = (
	'kmalloc64 (KMEM=0)'              => 260,
	kmalloc64                         => 260,
	kmalloc64_accounted               => 689,
	'kmem_cache_task (KMEM=0)'        => 238,
	kmem_cache_task                   => 669,
	'page_order0 (KMEM=0)'            => 704,
	page_order0                       => 704,
	page_order0_root                  => 797,
	page_order0_accounted             => 1218,
	'stack_order2_accounted (KMEM=0)' => 816,
	stack_order2_accounted            => 1331,
);
my $linux_quoted = !$linux_source;
if (!$linux_quoted) {
	# Measured figures replace the quoted ones they stand for; a slab
	# figure the module could not measure stays quoted.
	my %slab = map { $_ => $LINUX{$_} } grep { /kmalloc|kmem_cache/ } keys %LINUX;
	%LINUX = map { $_ => $linux_fig{$_} } grep { defined $linux_fig{$_} }
		qw(page_order0 page_order0_root page_order0_accounted stack_order2_accounted
		   kmalloc64_root kmalloc64_accounted kmem_cache_task);
	$LINUX{'page_order0 (KMEM=0)'} = $linux_fig{page_order0};
	$LINUX{'stack_order2_accounted (KMEM=0)'} = $linux_fig{stack_order2};
	$LINUX{'kmalloc64 (KMEM=0)'} = $LINUX{kmalloc64} = $linux_fig{kmalloc64_raw};
	$LINUX{'kmem_cache_task (KMEM=0)'} = $linux_fig{kmem_cache_task_raw};
	delete $LINUX{$_} for grep { !defined $LINUX{$_} } keys %LINUX;
	%LINUX = (%slab, %LINUX);
}
$linux_source //= "quoted: measured by hand on Debian's 6.1 "
	. 'the same way (tests/bench/linux/run could not run here)';

# --- results.csv ------------------------------------------------------------
# Without a Linux run, the quoted figures are rows too (fields quoted=hand),
# so that the docs' Linux figures come from the same file as tally's
# (tests/bench/figures.pl).
my %QUOTED_NAME = ('page_order0 (KMEM=0)' => 'page_order0',
	'stack_order2_accounted (KMEM=0)' => 'stack_order2',
	'kmalloc64 (KMEM=0)' => 'kmalloc64_raw',
	'kmem_cache_task (KMEM=0)' => 'kmem_cache_task_raw');
if ($linux_quoted) {
	for my $k (sort keys %LINUX) {
		next if $k eq 'page_order0' || $k eq 'kmalloc64';
		push @rows, ['linux', 'one', 'bench', $QUOTED_NAME{$k} // $k,
			     '', '', $LINUX{$k}, '', '', 'instructions',
			     "-accel tcg @Bench::ICOUNT", 'quoted=hand', ''];
	}
}
open my $csv, '>', "$out/results.csv" or die "$out/results.csv: $!\n";
print $csv "build,machine,line,name,cpus,node,median_cycles,p99_cycles,ops,unit,accel,fields,design\n";
print $csv join(',', @$_), "\n" for @rows;
close $csv;

# Each row: [the figure's build, its name, what it is, the raw figure it is
# divided by (from the KMEM=0 build), the ceiling for the ratio: a
# ceiling to stay under, not a figure to reach].
# The raw figures are rows of their own.
my @ROWS = (
	['nokmem', 'page_order0', 'order-0 alloc+free, compiled out', 'page_order0'],
	['kmem', 'page_order0', 'static key off', 'page_order0', 1.02],
	['kmem', 'page_order0_root', 'key on, root task', 'page_order0', 1.10],
	['kmem', 'page_order0_accounted', 'accounted domain, stock hit', 'page_order0', 1.50],
	['kmem', 'page_order0_nostock', 'accounted, no stock', 'page_order0', 2.2],
	['nokmem', 'stack_order2_accounted', 'order-2 stack, compiled out', 'stack_order2_accounted'],
	['kmem', 'stack_order2_accounted', 'order-2 stack, accounted', 'stack_order2_accounted', 1.45],
	['nokmem', 'kmalloc64', 'kmalloc(64)+kfree, compiled out', 'kmalloc64'],
	['kmem', 'kmalloc64', 'static key off', 'kmalloc64', 1.03],
	['kmem', 'kmalloc64_root', 'key on, root task', 'kmalloc64', 1.10],
	['kmem', 'kmalloc64_accounted', 'accounted, another object alive', 'kmalloc64', 1.40],
	['kmem', 'kmalloc64_churn', "accounted, the domain's only object", 'kmalloc64', 1.6],
	['nokmem', 'kmem_cache_task', 'task_struct cache, compiled out', 'kmem_cache_task'],
	['kmem', 'kmem_cache_task', 'task_struct cache, accounted', 'kmem_cache_task', 1.45],
	['nokmem', 'fork_exit', 'fork+exit+reap, compiled out', 'fork_exit'],
	['kmem', 'fork_exit', 'fork+exit+reap, root domain', 'fork_exit'],
	['kmem', 'fork_exit_accounted', 'the same, kmem-limited domain', 'fork_exit'],
	['kmem', 'timing_overhead', 'nothing: the timing itself', undef],
);

sub fig { my ($b, $n) = @_; $one{$b}{$n} ? $one{$b}{$n}{median} : undef }
sub ratio { my ($a, $b) = @_; defined $a && defined $b && $b > 0 ? $a / $b : undef }
sub r3 { defined $_[0] ? sprintf('%.3f', $_[0]) : '-' }

my $accel_note = $unit eq 'instructions' ? 'QEMU TCG, -icount shift=0,sleep=off'
	: $unit eq 'cycles' ? 'KVM' : 'NOT cycles';
print "\ntally benchmarks, 1 CPU: median $unit per operation ($accel_note)\n";
print wrap("($why)"), "\n";
print "  ratio: to the raw figure of the KMEM=0 build (accounting compiled out).\n";
print wrap("Linux 6.1: Debian's kernel with init_on_alloc=0, its page allocator "
	   . 'timed the same way in a module, in instructions under QEMU TCG '
	   . "-icount shift=0,sleep=off on 1 CPU; $linux_source"
	   . ($unit eq 'instructions' ? '' : "; not this run's unit: compare the ratios only")
	   . '. Its raw rows are GFP_KERNEL allocations (Linux cannot compile '
	   . 'accounting out).'), "\n\n";

my @hdr = ('name', 'what', $unit, 'p99', 'ratio', 'Linux 6.1', 'ratio',
	   'target');
my @table;
for my $row (@ROWS) {
	my ($b, $n, $what, $raw, $target) = @$row;
	my $k = fig($b, $n);
	next unless defined $k;
	my $key = $b eq 'nokmem' ? "$n (KMEM=0)" : $n;
	my $ratio = defined $raw ? ratio($k, fig('nokmem', $raw)) : undef;
	my ($lx, $lratio) = ('-', '-');
	if (defined $LINUX{$key}) {
		$lx = $LINUX{$key};
		$lratio = r3(ratio($lx, $LINUX{"$raw (KMEM=0)"}));
	}
	my $t = '';
	if ($n eq 'kmalloc64' && $b eq 'nokmem') {
		$t = sprintf('<= 130 %s', $k <= 130 ? 'met' : 'not met');
	} elsif ($n eq 'fork_exit_accounted' && $b eq 'kmem') {
		my $f = ratio($k, fig('kmem', 'fork_exit'));
		$t = sprintf('%s x fork_exit: <= 1.05 %s', r3($f),
			     $f <= 1.05 ? 'met' : 'not met') if defined $f;
	} elsif (defined $target) {
		$t = sprintf('<= %.2f %s', $target,
			     defined $ratio && $ratio <= $target ? 'met' : 'not met');
	}
	push @table, [$key, $what, $k, $one{$b}{$n}{p99}, r3($ratio), $lx, $lratio, $t];
}
my @w = map { my $i = $_; my $m = length $hdr[$i];
	      for (@table) { $m = length $_->[$i] if length $_->[$i] > $m } $m } 0 .. $#hdr;
my $fmt = join(' ', map { $_ < 2 || $_ == $#hdr ? "%-$w[$_]s" : "%$w[$_]s" } 0 .. $#hdr) . "\n";
(my $line = sprintf $fmt, @hdr) =~ s/ +$//;
print $line;
for (@table) { ($line = sprintf $fmt, @$_) =~ s/ +$//; print $line }

# The same in Markdown, for docs/benchmarks.md.
open my $md, '>', "$out/table.md" or die "$out/table.md: $!\n";
print $md "| name | case | tally, $unit | ratio | Linux 6.1 | ratio |\n";
print $md "|---|---|---:|---:|---:|---:|\n";
print $md "| `$_->[0]` | $_->[1] | $_->[2] | $_->[4] | $_->[5] | $_->[6] |\n"
	for @table;
close $md;

# --- the slab benchmarks in both designs ---------------------------------------
# Each slab benchmark of the kmem build, booted in each slab accounting
# design (docs/slab.md: caches, the default and the 2012 design; objects,
# Linux 5.9's), beside the raw figure of the KMEM=0 build. A column's
# target: the caches design's are those of the table above; the objects
# design's, where one is set, below.
my %OBJECTS_TARGET = (kmalloc64_accounted => 1.90);
my %CACHES_TARGET = map { $_->[1] => $_->[4] }
	grep { $_->[0] eq 'kmem' && defined $_->[4] } @ROWS;
my %RAW_OF = map { $_->[1] => $_->[3] } grep { $_->[0] eq 'kmem' } @ROWS;

# target_text($ratio, $target) - "<= T met|not met" ("no figure" if the
# run printed none), or '' without a target.
sub target_text {
	my ($r, $t) = @_;
	return '' unless defined $t;
	return sprintf('<= %.2f %s', $t, !defined $r ? 'no figure'
				       : $r <= $t ? 'met' : 'not met');
}

my @design_table;
for my $n (@SLAB) {
	my $raw = fig('nokmem', $RAW_OF{$n} // $n);
	my @cols = ($n, $raw // '-');
	my @targets;
	for my $d (@DESIGNS) {
		my $k = fig($d eq 'caches' ? 'kmem' : 'objects', $n);
		my $r = ratio($k, $raw);
		push @cols, $k // '-', r3($r);
		my $t = target_text($r, $d eq 'caches' ? $CACHES_TARGET{$n}
						       : $OBJECTS_TARGET{$n});
		push @targets, "$d $t" if length $t;
	}
	next unless grep { $_ ne '-' } @cols[2, 4];
	push @design_table, [@cols, join('; ', @targets)];
}
if (@design_table) {
	print "\nslab benchmarks in both slab accounting designs\n";
	print wrap("median $unit per operation; ratio: to the raw figure of "
		   . 'the KMEM=0 build'), "\n";
	my @h = ('name', 'KMEM=0', 'caches', 'ratio', 'objects', 'ratio',
		 'target');
	my $f = "%-20s %8s %8s %7s %8s %7s  %s\n";
	(my $l = sprintf $f, @h) =~ s/ +$//;
	print $l;
	for (@design_table) { ($l = sprintf $f, @$_) =~ s/ +$//; print $l }
}

# slab_memory: object bytes over slab bytes, N domains each holding the
# same mix of objects, per design; Linux's published figures beside
# (Roman Gushchin's series that brought the objects design, Linux 5.9:
# with per-memcg caches the slab utilization was 45-65%, with object
# accounting in the high 90s, and slab memory 30-45% smaller).
# smem($key, $domains) - that line's fields, or undef.
sub smem {
	my ($k, $d) = @_;
	my $p = $one{$k}{"slab_memory domains=$d"} or return;
	return $p->{fields} // { map { @$_ } @{$p->{extra}} };
}
my @smem_table;
for my $d (@SLAB_MEMORY_DOMAINS) {
	my @f = map { scalar smem($_, $d) } qw(nokmem kmem objects);
	next unless grep { defined } @f;
	my @cols = ($d);
	for (@f) {
		push @cols, $_ ? ("$_->{utilization_pct}%", $_->{slab_kB})
			       : ('-', '-');
	}
	my ($c, $o) = @f[1, 2];
	push @cols, $c && $o && $c->{slab_kB} > 0
		? sprintf('%.0f%% less',
			  100 * (1 - $o->{slab_kB} / $c->{slab_kB}))
		: '-';
	push @smem_table, \@cols;
}
my $smem_target;
if (@smem_table) {
	my $o = smem('objects', $SLAB_MEMORY_DOMAINS[-1]);
	$smem_target = sprintf('slab_memory, %d domains, objects: utilization '
		. '>= 90%%: %s', $SLAB_MEMORY_DOMAINS[-1],
		!$o ? 'no figure'
		    : $o->{utilization_pct} >= 90 ? 'met' : 'not met');
	print "\nslab memory: N domains each holding the same mix of objects\n";
	print wrap('utilization = object bytes / slab bytes, kB = the '
		   . 'slab pages the objects added '
		   . '(kernel/bench/bench_slab.c)'), "\n";
	my $f = "%-8s %8s %8s %8s %8s %8s %8s  %s\n";
	printf $f, '', 'KMEM=0', '', 'caches', '', 'objects', '', 'objects';
	printf $f, 'domains', 'util', 'kB', 'util', 'kB', 'util', 'kB',
		'vs caches';
	printf $f, @$_ for @smem_table;
	printf $f, 'Linux', '-', '-', '45-65%', '-', 'high 90s', '-',
		'30-45% less';
	print "  Linux: published with the objects design (Linux 5.9), "
		. "measured on\n  production hosts, not this mix\n";
	print "  $smem_target\n";
}

# The same in Markdown, after the 1-CPU table.
if (@design_table || @smem_table) {
	open $md, '>>', "$out/table.md" or die "$out/table.md: $!\n";
	if (@design_table) {
		print $md "\n| slab benchmark | KMEM=0, $unit | caches | ratio "
			. "| objects | ratio | target |\n";
		print $md "|---|---:|---:|---:|---:|---:|---|\n";
		print $md "| `$_->[0]` | " . join(' | ', @$_[1 .. 6]) . " |\n"
			for @design_table;
	}
	if (@smem_table) {
		print $md "\n| `slab_memory` domains | KMEM=0 utilization | "
			. "kB | caches utilization | kB | objects utilization "
			. "| kB | objects against caches |\n";
		print $md "|---:|---:|---:|---:|---:|---:|---:|---|\n";
		print $md '| ' . join(' | ', @$_) . " |\n" for @smem_table;
		print $md "| Linux (published, 5.9) | | | 45-65% | | high 90s "
			. "| | 30-45% less |\n";
		print $md "\n$smem_target\n";
	}
	close $md;
}

# --- tracepoints compiled in, but off --------------------------------------------
# Each page benchmark of the kmem build against the same build with the
# tracepoints compiled out (TRACE=0): what the NOPs of the sites cost
# while no event is on: reported, not held to a target (the sites sit
# on the one charge path, as Linux's do).
my @trace_rows = grep { defined fig('kmem', $_) && defined fig('notrace', $_) } @PAGES;
if (@trace_rows) {
	print "
tracepoints compiled in but off, against TRACE=0 ($unit per operation)
";
	printf "%-24s %9s %9s %8s\n", 'name', 'TRACE=0', 'traced', 'cost';
	open my $tmd, '>', "$out/trace.md" or die "$out/trace.md: $!\n";
	print $tmd "| name | TRACE=0 | tracepoints in, off | cost |\n|---|---:|---:|---:|\n";
	for my $n (@trace_rows) {
		my ($off, $in) = (fig('notrace', $n), fig('kmem', $n));
		my $cost = 100 * ($in - $off) / $off;
		printf "%-24s %9d %9d %7.2f%%\n", $n, $off, $in, $cost;
		printf $tmd "| `%s` | %d | %d | %+.2f%% |\n", $n, $off, $in, $cost;
	}
	close $tmd;
}

# --- the charge's cost against the depth of the domain ----------------------------
my @depth_dat;
my @depths = grep { defined fig('kmem', "charge_depth depth=$_ stock=1") } 1, 2, 4, 8, 16;
if (@depths) {
	print "\ncharge+uncharge of one page, D levels below the root ($unit per operation)\n";
	printf "%-6s %9s %9s %9s\n", 'depth', 'stock', 'no stock', 'stock/d1';
	open my $dmd, '>', "$out/depth.md" or die "$out/depth.md: $!\n";
	print $dmd "| depth | stock | no stock |\n|---:|---:|---:|\n";
	my $d1 = fig('kmem', 'charge_depth depth=1 stock=1');
	for my $d (@depths) {
		my ($s, $n) = map { fig('kmem', "charge_depth depth=$d stock=$_") } 1, 0;
		printf "%-6d %9s %9s %9s\n", $d, $s, $n // '-', r3(ratio($s, $d1));
		printf $dmd "| %d | %s | %s |\n", $d, $s, $n // '-';
		push @depth_dat, "$d $s " . ($n // '-');
	}
	my $r = ratio(fig('kmem', "charge_depth depth=$depths[-1] stock=1"), $d1);
	printf "  with the stock, depth %d within 5%% of depth 1: %s\n", $depths[-1],
		defined $r && $r <= 1.05 ? 'met' : 'not met';
	close $dmd;
}

# wrap($text) - into lines of at most 78 columns, indented by 2, then 3.
sub wrap {
	my @l = ('  ');
	for my $word (split ' ', $_[0]) {
		push @l, '   ' if length($l[-1]) + 1 + length($word) > 78 && $l[-1] =~ /\S/;
		$l[-1] .= ($l[-1] =~ /\S$/ ? ' ' : '') . $word;
	}
	return join "\n", @l;
}

# --- the SMP tables ------------------------------------------------------------
# per_cpu_pct - per-CPU throughput at K CPUs as a % of one CPU's; undef
# for a benchmark run at one K only (slab_smp runs on all CPUs at once).
sub per_cpu_pct {
	my ($c, $k) = @_;
	return $c->{1} && $c->{1}{median} && $c->{$k} && $c->{$k}{median}
		? 100 * $c->{1}{median} / $c->{$k}{median} : undef;
}
# with_pct($median, $pct) - "N (P%)", or "N" without a one-CPU figure.
sub with_pct {
	my ($median, $pct) = @_;
	return defined $pct ? sprintf('%d (%.0f%%)', $median, $pct) : $median;
}
for my $m (qw(smp numa2)) {
	my $cm = $curve{$m} or next;
	my %ks = map { %$_ } values %$cm;
	my @all = sort { $a <=> $b } keys %ks;
	my $max = $all[-1];
	# The flat machine: K = 1, 2, 4, 8 and all; the two-node one: each K.
	my @ks = $m eq 'numa2' ? @all
		: grep { my $k = $_; $k == $max || grep { $_ == $k } 1, 2, 4, 8 } @all;
	print "\ncharging one domain from K CPUs at once, ",
		$m eq 'smp' ? "$smp_cpus CPUs, one node"
			    : '2 nodes x 2 CPUs (CPUs 0-1 node 0, 2-3 node 1)', "\n";
	print wrap("median per charge, per CPU, and per-CPU throughput as % of "
		   . "one CPU's ($smp_why); then any other field the lines carry"), "\n";
	printf "%-24s" . (" %16s" x @ks) . "\n", 'K =', @ks;
	for my $n (@{$smp_names{$m}}) {
		my $c = $cm->{$n} or next;
		printf "%-24s", $n;
		printf " %16s", $c->{$_} && defined $c->{$_}{median}
			? with_pct($c->{$_}{median}, per_cpu_pct($c, $_)) : '-'
			for @ks;
		print "\n";
		my @keys;
		for my $k (@ks) {
			for my $e (@{$c->{$k} ? $c->{$k}{extra} : []}) {
				push @keys, $e->[0] unless grep { $_ eq $e->[0] } @keys;
			}
		}
		for my $key (@keys) {
			printf "%-24s", "  $key";
			for my $k (@ks) {
				my ($e) = grep { $_->[0] eq $key } @{$c->{$k} ? $c->{$k}{extra} : []};
				printf " %16s", $e ? $e->[1] : '-';
			}
			print "\n";
		}
	}
}
# The same in Markdown, for docs/benchmarks.md: K = 1, 2, 3, 4, 8 (those run).
open $md, '>', "$out/smp.md" or die "$out/smp.md: $!\n";
my @mk = grep { my $k = $_; grep { $curve{$_} && grep { $_->{$k} } values %{$curve{$_}} } qw(smp numa2) }
	1, 2, 3, 4, 8;
print $md "| $smp_unit per charge, per CPU (per-CPU throughput) | ",
	join(' | ', map { "K=$_" } @mk), " |\n|---|", '---:|' x @mk, "\n";
for my $m (qw(smp numa2)) {
	my $label = $m eq 'smp' ? "$smp_cpus CPUs" : '2 nodes';
	for my $n (@{$smp_names{$m} // []}) {
		my $c = $curve{$m}{$n} or next;
		print $md "| $label: `$n` |", join('', map {
			$c->{$_} && defined $c->{$_}{median}
				? ' ' . with_pct($c->{$_}{median},
						 per_cpu_pct($c, $_)) . ' |'
				: ' |'
		} @mk), "\n";
		my @keys;
		for my $k (@mk) {
			for my $e (@{$c->{$k} ? $c->{$k}{extra} : []}) {
				push @keys, $e->[0] unless grep { $_ eq $e->[0] } @keys;
			}
		}
		for my $key (@keys) {
			print $md "| $label: `$n` $key |", join('', map {
				my $k = $_;
				my ($e) = grep { $_->[0] eq $key } @{$c->{$k} ? $c->{$k}{extra} : []};
				$e ? " $e->[1] |" : ' |';
			} @mk), "\n";
		}
	}
}
close $md;

if (%node) {
	print "\nthe same, each node's CPUs alone (2-node machine):\n";
	for my $n (@{$smp_names{numa2}}) {
		next unless $node{$n};
		printf "%-24s", $n;
		for my $nid (sort keys %{$node{$n}}) {
			my $p = $node{$n}{$nid};
			printf " node %d: %8d (p99 %d)%s", $nid, $p->{median}, $p->{p99},
				join('', map { " $_->[0]=$_->[1]" } @{$p->{extra}});
		}
		print "\n";
	}
}

# --- the plots, with gnuplot ---------------------------------------------------------
# pages.png: left, the figures against the raw one of the KMEM=0 build;
# right, the ratios, tally's beside Linux 6.1's (quoted, instructions).
open my $dat, '>', "$out/pages.dat" or die "$out/pages.dat: $!\n";
for my $n (@PAGES, @SLAB) {
	my ($raw) = map { $_->[3] } grep { $_->[0] eq 'kmem' && $_->[1] eq $n } @ROWS;
	my ($k, $z) = (fig('kmem', $n), fig('nokmem', $raw));
	next unless defined $k;
	my $l = defined $LINUX{$n} && $LINUX{"$raw (KMEM=0)"}
		? $LINUX{$n} / $LINUX{"$raw (KMEM=0)"} : undef;
	printf $dat "%s %d %s %s %s\n", $n, $k, $z // '-', r3(ratio($k, $z)),
		defined $l ? sprintf('%.3f', $l) : '-';
}
close $dat;

# smp.png: one panel per machine, per-CPU throughput against K.
my @panels;
my @palette = ("lc rgb '#1a9850' pt 7", "lc rgb '#d73027' pt 5",
	       "lc rgb '#4575b4' pt 9", "lc rgb '#984ea3' pt 11",
	       "lc rgb '#ff7f00' pt 13");
for my $m (qw(smp numa2)) {
	my $cm = $curve{$m} or next;
	my @lines = ("80 title '80% of one CPU' with lines lc rgb 'gray' dt 3");
	my $i = 0;
	for my $n (@{$smp_names{$m}}) {
		my $c = $cm->{$n} or next;
		# A curve needs the one-CPU figure: slab_smp has none.
		my @k = grep { defined per_cpu_pct($c, $_) }
			sort { $a <=> $b } keys %$c;
		next unless @k;
		my $file = "$out/smp-$m-$n.dat";
		open $dat, '>', $file or die "$file: $!\n";
		printf $dat "%d %.1f\n", $_, per_cpu_pct($c, $_) for @k;
		close $dat;
		push @lines, "'$file' using 1:2 title '$n' with linespoints lw 2 "
			. $palette[$i++ % @palette];
	}
	my $title = $m eq 'smp' ? "$smp_cpus CPUs, one node"
				: '2 nodes: CPUs 0-1 node 0, 2-3 node 1';
	push @panels, "set title '$title'\nplot " . join(', ', @lines) . "\n";
}
my $panels = join('', @panels);
my $smp_label = $smp_unit eq 'cycles' ? 'cycles' : "$smp_unit, not cycles: shape only";
my $layout = sprintf "set multiplot layout 1,%d title 'Charging one domain "
	. "from K CPUs at once (%s)'", scalar(@panels) || 1, $smp_label;
my $pages_title = $unit eq 'instructions'
	? 'Page and slab allocation, alloc+free of one block or object: instructions (QEMU TCG -icount shift=0, 1 CPU)'
	: "Page and slab allocation, alloc+free of one block or object: $unit (1 CPU)";
my $linux_plot = $unit eq 'instructions'
	? ", '' using 5 title 'Linux 6.1" . ($linux_quoted ? ' (quoted)' : '')
	  . "' lc rgb '#999999'" : '';

open my $gp, '|-', 'gnuplot' or die "gnuplot: $!\n";
print $gp <<"GP";
set termoption noenhanced
set terminal png size 1300,540 noenhanced
set output '$out/pages.png'
set datafile missing '-'
set bmargin 6
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -20 scale 0
set yrange [0:*]
set key top left
set grid ytics
set multiplot layout 1,2 title "$pages_title"
set title 'per alloc+free'
set ylabel 'median $unit'
plot '$out/pages.dat' using 2:xtic(1) title 'tally (make)' lc rgb '#4575b4', '' using 3 title 'tally compiled out (make KMEM=0), raw' lc rgb '#fdae61'
set title 'ratio to the raw allocator (1 = accounting free)'
set ylabel 'ratio'
plot '$out/pages.dat' using 4:xtic(1) title 'tally' lc rgb '#4575b4'$linux_plot, 1 notitle with lines lc rgb 'black' dt 2
unset multiplot
set terminal png size 1100,520 noenhanced
set output '$out/smp.png'
set xlabel 'K, CPUs charging at once'
set ylabel "per-CPU throughput, % of one CPU's"
set xtics 1 norotate
set yrange [0:*]
set key bottom left
set grid ytics
$layout
$panels
unset multiplot
GP
if (@depth_dat) {
	open $dat, '>', "$out/depth.dat" or die "$out/depth.dat: $!\n";
	print $dat "$_\n" for @depth_dat;
	close $dat;
	print $gp <<"GP";
reset
set termoption noenhanced
set terminal png size 800,480 noenhanced
set output '$out/depth.png'
set datafile missing '-'
set title 'Kernel charge+uncharge of one page against the depth of the domain ($unit, 1 CPU)'
set xlabel 'depth below the root (use_hierarchy)'
set ylabel 'median $unit'
set logscale x 2
set xtics (1, 2, 4, 8, 16)
set xrange [0.8:20]
set yrange [0:*]
set key top left
set grid ytics
plot '$out/depth.dat' using 1:2 title 'per-CPU stock' with linespoints lw 2 lc rgb '#1a9850' pt 7, '' using 1:3 title 'no stock' with linespoints lw 2 lc rgb '#d73027' pt 5
GP
}
close $gp or warn "gnuplot failed\n";
unlink "$out/pages.dat", "$out/depth.dat", glob("$out/smp-*.dat");
print "\nresults: $out/results.csv, $out/table.md, $out/trace.md, $out/smp.md, $out/depth.md; plots: $out/pages.png, $out/smp.png, $out/depth.png\n";
