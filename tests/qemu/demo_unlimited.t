#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/demo_unlimited.t - the same fork bomb with no kmem limit
# (script=demo-unlimited, GRUB's "demo without a kmem limit"): what the
# controller prevents. Kernel memory is not accounted (no kmem limit is
# set anywhere, so the static key is off); the bomb takes all memory, a
# fork in another domain fails with ENOMEM, the kernel survives, and
# cgroup.kill gives every page back (MemFree within 64 pages of before),
# nr_dying_descendants 0, check: ok.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $t = Tally->boot(smp => 2, mem => '512M', append => 'script=demo-unlimited',
		    timeout => 900);
my ($before) = $t->wait_for(qr/demo: worker pid \d+ in \/cgroup\/good: \d+ units\/s before the bomb \([^)]*\); MemFree (\d+) kB/, 120);
ok(defined $before, 'demo start: MemFree recorded')
	or BAIL_OUT('no demo start: ' . $t->transcript);

my $STATUS = qr/demo: t=(\d+)s bomb tasks=(\d+) kmem=(\d+)\/(\S+) kmem.failcnt=(\d+) worker rate=\d+% cpu=\d+% share=(\d+)% shell=\d+ms MemFree=(\d+) kB/;
my @status;
for my $s (1 .. 5) {
	my %m;
	@m{qw(t tasks kmem limit failcnt share free)} = $t->wait_for($STATUS, 300);
	push @status, \%m if defined $m{t} && $m{t} == $s;
}
is(scalar @status, 5, 'five status lines, t=1s..5s');
ok(!grep({ $_->{limit} ne 'unlimited' || $_->{kmem} != 0 || $_->{failcnt} != 0 } @status),
	'kernel memory not accounted: kmem 0/unlimited, failcnt 0');
my $last = $status[-1] // {};
cmp_ok($last->{free} // 1e9, '<', $before / 100, 'the bomb took all memory (MemFree under 1% of before)');
# Each task holds a 16 KiB stack: together, most of what was free.
cmp_ok(($last->{tasks} // 0) * 16, '>', $before * 0.8, 'in kernel stacks of its tasks');
# (Up to the end of the name or number: the answer may arrive in pieces.)
my ($fork) = $t->wait_for(qr/run \/cgroup\/good worker 1\r?\n(error: \w+(?=:)|pid \d+(?=\r?\n))/, 120);
is($fork, 'error: ENOMEM', 'a fork in another domain fails: ENOMEM, system-wide');
my ($diff, $dying) = $t->wait_for(qr/demo: bomb killed and removed in \d+ ms; MemFree \d+ kB, before the bomb \d+ kB \(([-+]\d+) pages\); nr_dying_descendants (\d+)(?=\r?\n)/, 300);
ok(defined $diff, 'demo stop: the bomb killed and removed (the kernel survived)');
cmp_ok(abs($diff // 1e9), '<=', 64, 'cgroup.kill gives every page back (MemFree within 64 pages)');
note("MemFree difference after the bomb: $diff pages") if defined $diff;
is($dying, 0, 'nr_dying_descendants 0');
ok(defined $t->wait_for(qr/^check: ok\r?$/m, 120), 'check: ok');
ok(defined $t->prompt(60), 'the demo ends at the prompt');
unlike($t->output, qr/panic|oom/i, 'no panic, no OOM kill');
my $run = $t->cmd('run /cgroup/good worker 1');
like($run // '', qr/^pid \d+$/m, 'after it, forks work again');
is($t->poweroff(60), 1, 'poweroff');
done_testing();
