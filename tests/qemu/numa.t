#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/numa.t - NUMA (mm/numa.h, the SRAT in arch/x86_64/acpi.c, the
# per-node buddy allocator): on QEMU's two-node machine
# (Tally::NUMA_TWO_NODES: CPUs 0-1 and 512 MiB on node 0, CPUs 2-3 and
# 512 MiB on node 1) /proc/numa names both nodes with their CPUs and
# sizes, /proc/buddyinfo has one line per node adding up to MemFree,
# MemTotal is what the same memory gives without NUMA, and the in-kernel
# case numa_local_alloc shows each CPU served from its own node (node 1's
# CPUs get node 1's frames) and frees going back to their own node.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

# The same CPUs and memory without a NUMA topology: MemTotal to compare.
my $flat = Tally->boot(smp => 4, mem => '1G', name => 'numa-flat');
is($flat->prompt(60), '/', 'flat machine: prompt') or BAIL_OUT('no prompt: ' . $flat->transcript);
my $flat_total = $flat->meminfo_kb('MemTotal');
my $flat_buddy = $flat->cmd('cat /proc/buddyinfo') // '';
is(scalar(() = $flat_buddy =~ /^Node /mg), 1, 'flat machine: one Node line in /proc/buddyinfo');
like($flat->cmd('cat /proc/numa') // '', qr/\Aavailable: 1 nodes \(0-0\)\nnode 0 cpus: 0 1 2 3\n/,
     'flat machine: /proc/numa has one node with every CPU');
is($flat->poweroff, 1, 'flat machine: poweroff');

my $t = Tally->boot(smp => 4, mem => '1G', qemu_args => [@Tally::NUMA_TWO_NODES],
		    timeout => 600);
is($t->prompt(60), '/', 'two-node machine: prompt') or BAIL_OUT('no prompt: ' . $t->transcript);
like($t->output, qr/tally \S+ cpus=4 mem=1024MiB/, 'banner: 4 CPUs, 1024 MiB');

# --- /proc/numa --------------------------------------------------------------
my $numa = $t->cmd('cat /proc/numa') // '';
like($numa, qr/\Aavailable: 2 nodes \(0-1\)$/m, '/proc/numa: 2 nodes');
like($numa, qr/^node 0 cpus: 0 1$/m, 'CPUs 0 and 1 are on node 0');
like($numa, qr/^node 1 cpus: 2 3$/m, 'CPUs 2 and 3 are on node 1');
my %size = $numa =~ /^node (\d) size: (\d+) MB$/mg;
# Node 0 loses the first MiB, the kernel, mem_map and the ACPI tables.
ok(($size{0} // 0) >= 480 && $size{0} <= 512, "node 0 size $size{0} MB: about 512")
	or diag($numa);
ok(($size{1} // 0) >= 500 && $size{1} <= 512, "node 1 size $size{1} MB: about 512")
	or diag($numa);

# --- /proc/buddyinfo and /proc/meminfo ----------------------------------------
my $total = $t->meminfo_kb('MemTotal');
is($total, $flat_total, "MemTotal $total kB: the same as without NUMA");
my $buddy = $t->cmd('cat /proc/buddyinfo') // '';
my $free = $t->meminfo_kb('MemFree');
my @lines = $buddy =~ /^(Node \d+, zone +Normal(?: +\d+){11} *)$/mg;
is(scalar @lines, 2, 'buddyinfo: two lines in Linux format') or diag($buddy);
like($lines[0] // '', qr/^Node 0, zone   Normal /, 'the first is node 0');
like($lines[1] // '', qr/^Node 1, zone   Normal /, 'the second is node 1');
my ($sum, %node_kb) = (0);
for my $l (@lines) {
	my ($nid, @counts) = $l =~ /(\d+)/g;
	my $kb = 0;
	$kb += $counts[$_] * (4 << $_) for 0 .. $#counts;
	$node_kb{$nid} = $kb;
	$sum += $kb;
}
# MemFree also counts the per-CPU lists, which buddyinfo leaves out (as
# Linux): at most high = 186 pages on each of the 4 CPUs with 1 GiB. The
# two files are read one after the other, so a few pages (the shell's
# buffers) may be taken or given back in between: 16 pages of slack.
my $pcp_max_kb = 4 * 186 * 4;
my $slack_kb = 16 * 4;
ok(defined $free && $sum <= $free + $slack_kb && $free - $sum <= $pcp_max_kb + $slack_kb,
   "buddyinfo's two nodes add up to MemFree $free kB ($sum kB, the rest on per-CPU lists)");
ok(($node_kb{1} // 0) > 400 * 1024, "node 1 has its memory free ($node_kb{1} kB)");

# --- allocation is node-local ---------------------------------------------------
my $kt = $t->cmd('ktest numa_local_alloc', 120) // '';
like($kt, qr/^ok 1 numa_local_alloc$/m, 'ktest numa_local_alloc passes') or diag($kt);
like($kt, qr/^# cpu 2 \(node 1\): order-0 pfn 0x([0-9a-f]+) node 1, order-2 pfn 0x([0-9a-f]+) node 1$/m,
     'CPU 2 (node 1) got node-1 frames');
if ($kt =~ /^# cpu 3 \(node 1\): order-0 pfn 0x([0-9a-f]+) node \d, order-2 pfn 0x([0-9a-f]+)/m) {
	# Node 1 is the second 512 MiB: frames 0x20000 and up.
	ok(hex($1) >= 0x20000 && hex($2) >= 0x20000, 'CPU 3 frames lie in the second 512 MiB');
} else {
	fail('CPU 3 frames lie in the second 512 MiB');
	diag($kt);
}
like($kt, qr/^# cpu 0 \(node 0\): order-0 pfn 0x[0-9a-f]+ node 0, order-2 pfn 0x[0-9a-f]+ node 0$/m,
     'CPU 0 (node 0) got node-0 frames');

# The rest of the mm cases on this topology (fallback when a node is empty:
# buddy_exhaust_recover takes every page of both nodes).
for my $case (qw(buddy_exhaust_recover pcp_batching)) {
	my $out = $t->cmd("ktest $case", 300) // '';
	like($out, qr/^ok 1 \Q$case\E$/m, "ktest $case on two nodes") or diag($out);
}
is($t->cmd('check', 60), 'check: ok', 'check: ok');
is($t->poweroff, 1, 'poweroff');
done_testing();
