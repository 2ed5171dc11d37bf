#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/bench/collect.pl OUTDIR - boot the builds, run `bench`, and write
# OUTDIR/results.csv, OUTDIR/pages.png and OUTDIR/smp.png; print the table.
#
# Three boots, one after the other:
#   kmem    build/tally.elf, as many CPUs as the host has (2..8), 1 GiB:
#           every benchmark
#   nokmem  build/tally-nokmem.elf (make KMEM=0), the same machine: every
#           benchmark; the page benchmarks and fork_exit are the
#           denominators of the ratios
#   numa2   build/tally.elf on QEMU's two-node machine
#           (Tally::NUMA_TWO_NODES: 4 CPUs, 2 per node): the charge_smp
#           benchmarks, whose scaling curve then runs from one node's CPUs
#           to both nodes', plus their per-node lines
#           (bench NAME node=N ..., kernel/bench/bench_charge.c)
#
# results.csv has one row per figure:
#   build,machine,line,name,cpus,node,median_cycles,p99_cycles,ops,accel
# where line is "bench" (a SPEC 9 line), "curve" (a "# NAME cpus=K" line:
# median only) or "node" (a per-node line), cpus the number of CPUs taking
# part ("" for a single-CPU benchmark) and node the node whose CPUs ran
# ("" for none in particular).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../qemu/lib";
use Tally;

my $out = shift or die "usage: collect.pl OUTDIR\n";
my $build = Tally::build_dir();
my $cpus = `nproc` + 0;
$cpus = 2 if $cpus < 2;
$cpus = 8 if $cpus > 8;

my @PAGES = qw(page_order0 page_order0_root page_order0_accounted
	       page_order0_nostock stack_order2_accounted);
my @RATIOS = (@PAGES, 'fork_exit');   # compared with the KMEM=0 build
my @SMP = qw(charge_smp_stock charge_smp_nostock charge_smp_kmem);

my @runs = (
	{build => 'kmem', machine => 'flat', elf => "$build/tally.elf",
	 smp => $cpus, cmds => ['bench']},
	{build => 'nokmem', machine => 'flat', elf => "$build/tally-nokmem.elf",
	 smp => $cpus, cmds => ['bench']},
	{build => 'kmem', machine => 'numa2', elf => "$build/tally.elf",
	 smp => 4, qemu_args => [@Tally::NUMA_TWO_NODES],
	 cmds => [map { "bench $_" } @SMP]},
);

# $single{build}{name} = [median, p99, ops]       all-CPU or one-CPU lines
# $curve{machine}{name}{cpus} = median            "# NAME cpus=K" lines
# $node{name}{nid} = [median, p99, ops]           numa2's per-node lines
my (%single, %curve, %node, @rows);

for my $r (@runs) {
	local $ENV{ELF} = $r->{elf};
	my $label = "$r->{build}-$r->{machine}";
	my $t = Tally->boot(smp => $r->{smp}, mem => '1G', timeout => 1800,
			    name => "bench-$label",
			    $r->{qemu_args} ? (qemu_args => $r->{qemu_args}) : ());
	$t->prompt(120) or die "bench: $label: no prompt\n" . $t->transcript;
	for my $cmd (@{$r->{cmds}}) {
		my $text = $t->cmd($cmd, 900);
		die "bench: $label: '$cmd' did not finish\n" . $t->transcript
			unless defined $text;
		for (split /\n/, $text) {
			if (/^bench (\S+) median_cycles=(\d+) p99_cycles=(\d+) ops=(\d+)$/) {
				my $smp = grep { $_ eq $1 } @SMP;
				$single{$r->{build}}{$1} = [$2, $3, $4]
					if $r->{machine} eq 'flat';
				push @rows, [$r->{build}, $r->{machine}, 'bench', $1,
					     $smp ? $r->{smp} : '', '', $2, $3, $4];
			} elsif (/^bench (\S+) node=(\d+) median_cycles=(\d+) p99_cycles=(\d+) ops=(\d+)$/) {
				$node{$1}{$2} = [$3, $4, $5];
				push @rows, [$r->{build}, $r->{machine}, 'node', $1,
					     $r->{smp} / 2, $2, $3, $4, $5];  # 2 CPUs a node
			} elsif (/^# (charge_smp_\w+) cpus=(\d+) median_cycles=(\d+)$/) {
				$curve{$r->{machine}}{$1}{$2} = $3
					if $r->{build} eq 'kmem';
				push @rows, [$r->{build}, $r->{machine}, 'curve', $1,
					     $2, '', $3, '', ''];
			}
		}
	}
	$t->poweroff;
}

# --- where the cycles come from ---------------------------------------------
my $accel = Tally::accel_name();
my $why;
if ($accel eq 'TCG') {
	$why = 'TCG, software emulation: the TSC follows the host clock, not the '
	     . 'emulated instructions, so the cycle counts are NOT meaningful; '
	     . 'read the ratios and the shape of the curves only';
} elsif (!system(q{grep -qwE 'vmx|svm' /proc/cpuinfo})) {
	$why = 'KVM with hardware virtualisation: cycle counts are meaningful';
} else {
	$why = 'KVM without vmx/svm (a software hypervisor such as PVM): the '
	     . 'cycle counts are NOT cycle-accurate';
}

open my $csv, '>', "$out/results.csv" or die "$out/results.csv: $!\n";
print $csv "build,machine,line,name,cpus,node,median_cycles,p99_cycles,ops,accel\n";
print $csv join(',', @$_, $accel), "\n" for @rows;
close $csv;

# --- the table -----------------------------------------------------------------
print "\ntally benchmarks: $cpus CPUs (and a 2-node, 4-CPU machine), $accel\n";
print "  ($why)\n\n";
printf "%-24s %12s %12s %8s %8s\n", 'name (median cycles)', 'kmem', 'KMEM=0',
	'ratio', 'p99';
for my $n (@RATIOS, 'timing_overhead') {
	my $k = $single{kmem}{$n} or next;
	my $z = $single{nokmem}{$n};
	my $ratio = $z && $z->[0] > 0 ? sprintf('%.3f', $k->[0] / $z->[0]) : '-';
	printf "%-24s %12d %12s %8s %8d\n", $n, $k->[0], $z ? $z->[0] : '-',
		$ratio, $k->[1];
}

sub per_cpu_pct {
	my ($c, $k) = @_;
	return $c->{1} && $c->{$k} ? 100 * $c->{1} / $c->{$k} : 0;
}
for my $m (qw(flat numa2)) {
	my $c = $curve{$m} or next;
	my @ks = sort { $a <=> $b } keys %{$c->{charge_smp_stock} // {}};
	print "\ncharging one domain from K CPUs at once, ",
		$m eq 'flat' ? "$cpus CPUs" : '2 nodes x 2 CPUs (CPUs 0-1 node 0, 2-3 node 1)',
		": median cycles per charge, per CPU\n";
	print "  (per-CPU throughput as % of one CPU's)\n";
	printf "%-20s" . (" %16s" x @ks) . "\n", 'K =', @ks;
	for my $n (@SMP) {
		next unless $c->{$n};
		printf "%-20s", $n;
		printf " %8d (%4.0f%%)", $c->{$n}{$_} // 0, per_cpu_pct($c->{$n}, $_)
			for @ks;
		print "\n";
	}
}
if (%node) {
	print "\nthe same, each node's CPUs alone (2-node machine):\n";
	for my $n (@SMP) {
		next unless $node{$n};
		printf "%-20s", $n;
		printf " node %d: %6d cycles (p99 %d)", $_, @{$node{$n}{$_}}[0, 1]
			for sort keys %{$node{$n}};
		print "\n";
	}
}

# --- the plots, with gnuplot -------------------------------------------------------
open my $dat, '>', "$out/pages.dat" or die "$out/pages.dat: $!\n";
for my $n (@PAGES) {
	next unless $single{kmem}{$n};
	printf $dat "%s %d %d\n", $n, $single{kmem}{$n}[0],
		$single{nokmem}{$n} ? $single{nokmem}{$n}[0] : 0;
}
close $dat;

# smp.png: one panel per machine, per-CPU throughput against K.
my @panels;
for my $m (qw(flat numa2)) {
	my $c = $curve{$m} or next;
	my @lines = ("80 title '80% of one CPU' with lines lc rgb 'gray' dt 3");
	my %style = (charge_smp_stock => "lc rgb '#1a9850' pt 7",
		     charge_smp_nostock => "lc rgb '#d73027' pt 5",
		     charge_smp_kmem => "lc rgb '#4575b4' pt 9");
	for my $n (@SMP) {
		next unless $c->{$n};
		my $file = "$out/smp-$m-$n.dat";
		open $dat, '>', $file or die "$file: $!\n";
		printf $dat "%d %.1f %d\n", $_, per_cpu_pct($c->{$n}, $_), $c->{$n}{$_}
			for sort { $a <=> $b } keys %{$c->{$n}};
		close $dat;
		push @lines, "'$file' using 1:2 title '$n' with linespoints lw 2 $style{$n}";
	}
	my $title = $m eq 'flat' ? "$cpus CPUs, one node"
				 : '2 nodes: CPUs 0-1 node 0, 2-3 node 1';
	push @panels, "set title '$title'\nplot " . join(', ', @lines) . "\n";
}
my $panels = join('', @panels);
my $layout = @panels > 1 ? "set multiplot layout 1,2 title 'Charging one domain "
	. "from K CPUs at once ($accel)'" : "set multiplot layout 1,1 title "
	. "'Charging one domain from K CPUs at once ($accel)'";
my $caveat = $accel eq 'TCG' ? ' (cycles not meaningful: compare the bars)' : '';

open my $gp, '|-', 'gnuplot' or die "gnuplot: $!\n";
print $gp <<"GP";
set termoption noenhanced
set terminal png size 900,520 noenhanced
set output '$out/pages.png'
set title "Page allocation, alloc+free of one block: median cycles, $accel$caveat"
set bmargin 5
set rmargin 9
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'median cycles per alloc+free'
set xtics rotate by -15 scale 0
set yrange [0:*]
set key top left
set grid ytics
plot '$out/pages.dat' using 2:xtic(1) title 'kmem accounting built in (make)' lc rgb '#4575b4', '' using 3 title 'compiled out (make KMEM=0)' lc rgb '#fdae61'
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
close $gp or warn "gnuplot failed\n";
unlink "$out/pages.dat", glob("$out/smp-*.dat");
print "\nresults: $out/results.csv; plots: $out/pages.png, $out/smp.png\n";
