#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/bench/domains.pl OUTDIR - the scale benchmarks of `make bench`:
# how the costs of a domain grow with the number of domains.
#
# Boots build/tally.elf under TCG with -icount shift=0,sleep=off (the TSC
# counts instructions: exact and repeatable), with 2 GiB of memory:
#   on 2 and on 8 CPUs, in both slab accounting designs (caches, objects):
#       `bench domains`      one line per count (1, 100, 1000, 10000) and
#                            shape (flat, tree)
#   on 2 CPUs, in both designs:
#       `bench domains_max`  domains made until mkdir fails, then `check`
#   on 8 CPUs (caches):
#       `bench drain`        one line per number of CPUs holding the charge
# and writes OUTDIR/domains.csv (design,cpus,n,shape,mkdir,rmdir,
# bytes_per_domain,root_stat,charge_hit,pages_back), OUTDIR/domains.md
# (the tables, for docs/benchmarks.md) and OUTDIR/domains.png (the curves
# against N). BENCH_DOMAINS=0 skips it all; BENCH_DOMAINS=replay draws
# the plot again from OUTDIR/domains.csv without booting anything.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../qemu/lib", $FindBin::Bin;
use Tally;
use Bench;

my $out = shift or die "usage: domains.pl OUTDIR\n";
exit 0 if defined $ENV{BENCH_DOMAINS} && $ENV{BENCH_DOMAINS} eq '0';
local $ENV{QEMU_ACCEL} = '-accel tcg';

my (@rows, @max, @drain);
my $replay = ($ENV{BENCH_DOMAINS} // '') eq 'replay';
if ($replay) {
	open my $in, '<', "$out/domains.csv" or die "$out/domains.csv: $!\n";
	<$in>;
	push @rows, [split /,/] for map { chomp; $_ } <$in>;
	close $in;
}
for my $cpus ($replay ? () : (2, 8)) {
	for my $design (qw(caches objects)) {
		my $t = Tally->boot(smp => $cpus, mem => '2G', timeout => 3600,
				    name => "bench-domains-$design-$cpus",
				    append => "slab_accounting=$design",
				    qemu_args => [@Bench::ICOUNT]);
		defined $t->prompt(600) or die "domains: no prompt ($design, "
			. "$cpus CPUs)\n" . $t->transcript;
		my @cmds = ('bench domains');
		push @cmds, 'bench domains_max', 'check' if $cpus == 2;
		push @cmds, 'bench drain' if $cpus == 8 && $design eq 'caches';
		for my $cmd (@cmds) {
			my @o = $t->cmd($cmd, 3000);
			for (@o) {
				print "$design cpus=$cpus: $_\n";
				if (/^bench domains n=(\d+) shape=(\w+) mkdir=(\d+) rmdir=(\d+) bytes_per_domain=(\d+) root_stat=(\d+) charge_hit=(\d+) pages_back=(-?\d+)$/) {
					push @rows, [$design, $cpus, $1, $2, $3,
						     $4, $5, $6, $7, $8];
				} elsif (/^bench domains_max made=(\d+) next=(\w+)$/) {
					push @max, [$design, $1, $2];
				} elsif (/^check: (.*)$/) {
					$max[-1][3] = $1 if @max;
				} elsif (/^bench drain cpus=(\d+) median_cycles=(\d+) cpus_interrupted=(\d+)$/) {
					push @drain, [$1, $2, $3];
				}
			}
		}
		$t->poweroff;
	}
}

open my $csv, '>', $replay ? '/dev/null' : "$out/domains.csv"
	or die "$out/domains.csv: $!\n";
print $csv "design,cpus,n,shape,mkdir,rmdir,bytes_per_domain,root_stat,"
	. "charge_hit,pages_back\n";
print $csv join(',', @$_), "\n" for @rows;
close $csv;

# --- the tables ----------------------------------------------------------------
open my $md, '>', "$out/domains.md" or die "$out/domains.md: $!\n";
print $md "Instructions (TCG -icount); bytes from MemFree and the slab "
	. "objects in use.\n\n";
print $md "| design | CPUs | shape | N | mkdir | rmdir | bytes/domain | "
	. "root memory.stat (per domain) | stock-hit charge | pages not back |\n";
print $md "|---|---|---|---|---|---|---|---|---|---|\n";
for my $r (@rows) {
	my ($d, $c, $n, $s, $mk, $rm, $b, $st, $h, $back) = @$r;
	printf $md "| %s | %d | %s | %d | %d | %d | %d | %d (%d) | %d | %d |\n",
		$d, $c, $s, $n, $mk, $rm, $b, $st, $st / $n, $h, $back;
}
print $md "\n| design | domains_max | next mkdir | check |\n|---|---|---|---|\n";
printf $md "| %s | %d | %s | %s |\n", $_->[0], $_->[1], $_->[2],
	$_->[3] // '?' for @max;
print $md "\n| CPUs holding the charge | drain (instructions) | CPUs "
	. "interrupted |\n|---|---|---|\n";
printf $md "| %d | %d | %d |\n", @$_ for @drain;
close $md;
open $md, '<', "$out/domains.md" or die;
print <$md>;
close $md;

# --- the plot: four panels against N, for 2 CPUs, caches and objects ----------
my %dat;
for my $r (@rows) {
	my ($d, $c, $n, $s, $mk, $rm, $b, $st, $h) = @$r;
	next unless $c == 2;
	my $file = "$out/domains-$d-$s.dat";
	push @{$dat{$file}}, sprintf "%d %d %d %d %.1f %d", $n, $mk, $rm, $b,
		$st / $n, $h;
}
for my $file (keys %dat) {
	open my $f, '>', $file or die "$file: $!\n";
	print $f "$_\n" for @{$dat{$file}};
	close $f;
}
my @series = map { my ($d, $s) = @$_; ["$out/domains-$d-$s.dat", "$d $s"] }
	grep { -f "$out/domains-$_->[0]-$_->[1].dat" }
	map { my $d = $_; map { [$d, $_] } qw(flat tree) } qw(caches objects);
exit 0 unless @series;
my @style = ("lc rgb '#1a9850' pt 7", "lc rgb '#d73027' pt 5",
	     "lc rgb '#4575b4' pt 9", "lc rgb '#984ea3' pt 11");
sub plot_col {
	my ($col, $extra) = @_;
	my $i = 0;
	return 'plot ' . join(', ', map {
		"'$_->[0]' using 1:$col title '$_->[1]' with linespoints lw 2 "
		. $style[$i++ % @style] } @series) . ($extra // '') . "\n";
}
open my $gp, '|-', 'gnuplot' or die "gnuplot: $!\n";
print $gp "set termoption noenhanced\n"
	. "set terminal png size 1300,900 noenhanced\n"
	. "set output '$out/domains.png'\n"
	. "set logscale x 10\nset xrange [0.7:15000]\nset yrange [0:*]\n"
	. "set xlabel 'N, domains alive'\nset grid ytics\nset key bottom right\n"
	. "set multiplot layout 2,2 title 'What a domain costs against the "
	. "number of domains (2 CPUs, instructions under TCG -icount)'\n"
	. "set title 'mkdir (solid) and rmdir (dashed), instructions'\n"
	. plot_col(2, ', ' . join(', ', map {
		"'$_->[0]' using 1:3 notitle with linespoints lw 1 dt 2 "
		. $style[$_->[2]] } map { [@{$series[$_]}, $_] } 0 .. $#series))
	. "set title 'bytes per domain (Linux 6.1: 37.9 KB on 2 CPUs)'\n"
	. plot_col(4, ", 4096 title '4096' with lines lc rgb 'gray' dt 3")
	. "set title \"root's memory.stat, instructions per domain (log "
	. "scale; must be <= 1000 at 10000)\"\nset logscale y 10\n"
	. "set yrange [10:*]\n"
	. plot_col(5, ", 1000 title '1000' with lines lc rgb 'gray' dt 3")
	. "unset logscale y\nset yrange [0:*]\n"
	. "set title 'stock-hit charge+uncharge, instructions'\n"
	. plot_col(6)
	. "unset multiplot\n";
close $gp or warn "gnuplot failed\n";
unlink keys %dat;
print "\nresults: $out/domains.csv, $out/domains.md; plot: $out/domains.png\n";
