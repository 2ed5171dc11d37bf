#!/usr/bin/perl
# tests/bench/collect.pl OUTDIR - boot both builds, run `bench`, and write
# OUTDIR/results.csv, OUTDIR/pages.png and OUTDIR/smp.png; print the table.
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

my %builds = (kmem => "$build/tally.elf", nokmem => "$build/tally-nokmem.elf");
my (%result, %curve);

for my $b (sort keys %builds) {
	local $ENV{ELF} = $builds{$b};
	my $t = Tally->boot(smp => $cpus, mem => '1G', timeout => 900,
			    name => "bench-$b");
	$t->prompt(120) or die "bench: $b: no prompt\n" . $t->transcript;
	my $text = $t->cmd('bench', 600);
	die "bench: $b: the bench command failed\n" . $t->transcript
		unless defined $text;
	for (split /\n/, $text) {
		if (/^bench (\S+) median_cycles=(\d+) p99_cycles=(\d+) ops=(\d+)$/) {
			$result{$b}{$1} = [$2, $3, $4];
		} elsif (/^# (charge_smp_\w+) cpus=(\d+) median_cycles=(\d+)/) {
			$curve{$b}{$1}{$2} = $3;
		}
	}
	$t->poweroff;
}

my $accel = Tally::accel_name();
open my $csv, '>', "$out/results.csv" or die "$out/results.csv: $!\n";
print $csv "build,name,median_cycles,p99_cycles,ops,accel\n";
for my $b (sort keys %result) {
	for my $n (sort keys %{$result{$b}}) {
		print $csv join(',', $b, $n, @{$result{$b}{$n}}, $accel), "\n";
	}
}
for my $b (sort keys %curve) {
	for my $n (sort keys %{$curve{$b}}) {
		for my $c (sort { $a <=> $b } keys %{$curve{$b}{$n}}) {
			print $csv join(',', $b, "${n}_cpus$c",
					$curve{$b}{$n}{$c}, '', '', $accel), "\n";
		}
	}
}
close $csv;

print "tally benchmarks, $cpus CPUs, $accel";
print $accel eq 'TCG' ? " (software emulation: the cycle counts are NOT meaningful)\n" : "\n";
printf "%-24s %14s %14s %8s\n", 'name', 'kmem cycles', 'KMEM=0 cycles', 'ratio';
my @pages = qw(page_order0 page_order0_root page_order0_accounted
	       page_order0_nostock stack_order2_accounted);
for my $n (sort keys %{$result{kmem}}) {
	my $k = $result{kmem}{$n}[0];
	my $z = $result{nokmem}{$n} ? $result{nokmem}{$n}[0] : undef;
	my $r = defined $z && $z > 0 ? sprintf('%.3f', $k / $z) : '-';
	printf "%-24s %14d %14s %8s\n", $n, $k, defined $z ? $z : '-', $r;
}
for my $n (sort keys %{$curve{kmem} // {}}) {
	my $c = $curve{kmem}{$n};
	my $one = $c->{1};
	for my $k (sort { $a <=> $b } keys %$c) {
		printf "%-24s cpus=%-2d %8d cycles/op, per-CPU throughput %.0f%% of one CPU's\n",
			$n, $k, $c->{$k}, $c->{$k} ? 100 * $one / $c->{$k} : 0;
	}
}

# Plots, with gnuplot.
open my $dat, '>', "$out/pages.dat" or die;
my $i = 0;
for my $n (@pages) {
	next unless $result{kmem}{$n};
	printf $dat "%d %s %d %d\n", $i++, $n, $result{kmem}{$n}[0],
		$result{nokmem}{$n} ? $result{nokmem}{$n}[0] : 0;
}
close $dat;
open $dat, '>', "$out/smp.dat" or die;
for my $k (sort { $a <=> $b } keys %{$curve{kmem}{charge_smp_stock} // {}}) {
	printf $dat "%d %d %d\n", $k, $curve{kmem}{charge_smp_stock}{$k},
		$curve{kmem}{charge_smp_nostock}{$k} // 0;
}
close $dat;
open my $gp, '|-', 'gnuplot' or die "gnuplot: $!\n";
print $gp <<"GP";
set terminal png size 900,500
set output '$out/pages.png'
set title 'Page allocation: cycles per alloc+free ($accel, $cpus CPUs)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'median cycles'
set xtics rotate by -20
set yrange [0:*]
plot '$out/pages.dat' using 3:xtic(2) title 'kmem accounting built in', '' using 4 title 'KMEM=0 (compiled out)'
set output '$out/smp.png'
set title 'Charging one domain from N CPUs at once: cycles per charge+uncharge'
set style data linespoints
set xlabel 'CPUs charging'
set ylabel 'median cycles per operation, per CPU'
set xtics 1
set xtics norotate
plot '$out/smp.dat' using 1:2 title 'with per-CPU stock' lw 2, '' using 1:3 title 'without stock' lw 2
GP
close $gp or warn "gnuplot failed\n";
print "results: $out/results.csv, plots: $out/pages.png $out/smp.png\n";
