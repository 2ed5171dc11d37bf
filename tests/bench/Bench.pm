# SPDX-License-Identifier: MIT
package Bench;

# tests/bench/Bench.pm - what `make bench` (tests/bench/collect.pl) and
# tests/qemu/bench.t share: the yardstick, and the parser of the lines
# that `bench` prints (docs/interface.md, "Bench lines").
#
# The yardstick. Inside the guest every benchmark reads the TSC. Under
# KVM on hardware virtualisation (vmx or svm) the TSC counts cycles. Under
# QEMU's TCG it follows the host's clock, which is no measure of the
# emulated code; but with `-icount shift=0,sleep=off` QEMU advances the
# guest's clock (and so its TSC) by exactly one per guest instruction, so
# the same fields count instructions, the same from run to run whatever
# the host's load. icount runs all vCPUs on one host thread, in turn, so
# it serves the 1-CPU benchmarks only.
#
# The lines (kernel/bench/):
#   bench NAME median_cycles=N p99_cycles=N ops=N [KEY=VALUE ...]
#   bench NAME node=N median_cycles=N p99_cycles=N ops=N [KEY=VALUE ...]
#   # NAME cpus=K median_cycles=N [KEY=VALUE ...]
# Fields past the ones named here (transfers_per_1k=N, ...) are kept, in
# the order printed, whatever they are.

use strict;
use warnings;

# The QEMU options of the instruction-counting yardstick.
our @ICOUNT = ('-icount', 'shift=0,sleep=off');

# hardware_virt - true when the host CPU has vmx or svm.
sub hardware_virt {
	open my $fh, '<', '/proc/cpuinfo' or return 0;
	while (<$fh>) {
		return 1 if /^flags\s*:.*\b(?:vmx|svm)\b/;
	}
	return 0;
}

# yardstick($kvm_usable) - 'cycles' when KVM is asked for and usable and
# the CPU has hardware virtualisation, else 'instructions' (TCG with
# icount). BENCH_YARDSTICK=instructions|cycles overrides.
sub yardstick {
	my ($kvm) = @_;
	my $o = $ENV{BENCH_YARDSTICK};
	if (defined $o && length $o) {
		die "BENCH_YARDSTICK must be instructions or cycles\n"
			unless $o eq 'instructions' || $o eq 'cycles';
		return $o;
	}
	return $kvm && hardware_virt() ? 'cycles' : 'instructions';
}

# parse_line($line) - a hash for a line of `bench` output, or undef for
# any other line:
#   { kind => 'bench' | 'node' | 'curve', name => NAME,
#     median => N (undef only for a curve line of other fields alone),
#     p99 => N or undef, ops => N or undef,
#     node => N or undef, cpus => K or undef,
#     extra => [[KEY, VALUE], ...] }       the fields not named above
sub parse_line {
	my ($l) = @_;
	$l =~ s/\r$//;
	my ($kind, $name, $rest);
	if ($l =~ /^bench (\S+)((?: [A-Za-z_]\w*=\S+)+)\s*$/) {
		($kind, $name, $rest) = ('bench', $1, $2);
	} elsif ($l =~ /^# (\S+)((?: [A-Za-z_]\w*=\S+)+)\s*$/) {
		($kind, $name, $rest) = ('curve', $1, $2);
	} else {
		return;
	}
	my (%f, @extra);
	for my $kv (split ' ', $rest) {
		my ($k, $v) = split /=/, $kv, 2;
		if ($k =~ /^(?:median_cycles|p99_cycles|ops|node|cpus)$/) {
			$f{$k} = $v;
		} else {
			push @extra, [$k, $v];
		}
	}
	if ($kind eq 'curve') {
		# A curve line may carry only other fields for a K
		# ("# NAME cpus=K transfers_per_1k=N"): median is then undef.
		return unless defined $f{cpus} && $f{cpus} =~ /^\d+$/;
		return unless defined $f{median_cycles} ? $f{median_cycles} =~ /^\d+$/ : @extra;
	} else {
		return unless defined $f{median_cycles} && $f{median_cycles} =~ /^\d+$/;
		return unless defined $f{p99_cycles} && defined $f{ops};
		$kind = 'node' if defined $f{node};
	}
	return { kind => $kind, name => $name, median => $f{median_cycles},
		 p99 => $f{p99_cycles}, ops => $f{ops}, node => $f{node},
		 cpus => $f{cpus}, extra => \@extra };
}

# spec9_ok($line) - whether a line is exactly a bench result line:
# "bench NAME median_cycles=N p99_cycles=N ops=N", then any KEY=VALUE
# (a KEY as parse_line reads one: slab_memory's slab_kB has a capital).
sub spec9_ok {
	my ($l) = @_;
	return $l =~ /^bench [a-z][a-z0-9_]* median_cycles=\d+ p99_cycles=\d+ ops=\d+(?: [A-Za-z_]\w*=\S+)*$/;
}

1;
