#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/contain.t - the fork bomb contained four ways (`make
# contain`, docs/containment.md), each `contain` line checked for what
# its mechanism promises:
#
#   kmem (v1, 8M)         forks fail ENOMEM, nothing killed, and the
#                         2012 arithmetic: n tasks cost 4n stack pages
#                         and ceil(n/4) slab pages of task structs, so 8M
#                         (2048 pages) holds 481 (478 to 481 on 2 CPUs:
#                         each CPU may hold a partly used slab)
#   pids (v1, 481)        forks fail EAGAIN, nothing killed, never more
#                         than 481 tasks
#   max (v2, 8M)          OOM kills, no failed fork, and never more tasks
#                         than their 16 KiB stacks fit in 8M (512)
#   high (v2, 8M)         nothing killed, no failed fork
#   pids (v2, 481)        as on v1
#
# and for every line: the worker keeps at least 90% of its fair share,
# the shell answers within 100 ms, MemFree comes back within 2 pages once
# the bomb is removed, nr_dying_descendants 0, and check: ok. Three boots:
# contain-kmem, contain-pids, and contain-v2 (max, high, pids in one).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $LINE = qr/^(contain (\w+) limit=[^\r\n]*)(?=\r?\n)/m;
my @FIELDS = qw(limit tasks_peak tasks_end forks_ok forks_failed errno
		oom_kills worker_share_pct shell_max_ms contained_ms
		after_kill_pages dying);

# every_line - what holds for every mechanism.
sub every_line {
	my ($what, $f) = @_;
	is_deeply([grep { !defined $f->{$_} } @FIELDS], [], "$what: every field, in order")
		or return;
	cmp_ok($f->{worker_share_pct}, '>=', 90, "$what: the worker keeps >= 90% of its fair share");
	cmp_ok($f->{shell_max_ms}, '<=', 100, "$what: the shell answers within 100 ms");
	cmp_ok(abs($f->{after_kill_pages}), '<=', 2, "$what: MemFree back within 2 pages ($f->{after_kill_pages})");
	is($f->{dying}, 0, "$what: nr_dying_descendants 0");
	cmp_ok($f->{forks_ok}, '>=', $f->{tasks_peak} - 1, "$what: forks_ok counts every task the bomb made");
}

# boot_lines(script, append, n) - boot, collect n contain lines.
sub boot_lines {
	my ($script, $append, $n) = @_;
	my $t = Tally->boot(smp => 2, mem => '512M', timeout => 900,
			    append => "script=$script $append");
	my @lines;
	for (1 .. $n) {
		my ($line, $mech) = $t->wait_for($LINE, 300);
		last unless defined $line;
		my %f = $line =~ /(\w+)=(\S+)/g;
		my @order = $line =~ /(\w+)=/g;
		$f{_order_ok} = "@order" eq "@FIELDS";
		push @lines, [$mech, \%f];
		note($line);
	}
	is(scalar @lines, $n, "$script: $n contain line(s)")
		or diag($t->transcript);
	ok(defined $t->wait_for(qr/^check: ok\r?$/m, 120), "$script: check: ok");
	unlike($t->output, qr/panic/i, "$script: no panic");
	is($t->poweroff(60), 1, "$script: poweroff");
	return @lines;
}

my %seen;
for my $l (boot_lines('contain-kmem', '', 1), boot_lines('contain-pids', '', 1),
	   map { [$_->[0] . '-v2', $_->[1]] } boot_lines('contain-v2', 'cgroup=v2', 3)) {
	my ($mech, $f) = @$l;
	$seen{$mech} = 1;
	ok($f->{_order_ok}, "$mech: the fields in the documented order");
	every_line($mech, $f);
	if ($mech eq 'kmem') {
		is($f->{limit}, 8388608, 'kmem: limit 8M');
		is($f->{errno}, 'ENOMEM', 'kmem: forks fail with ENOMEM');
		is($f->{oom_kills}, 0, 'kmem: nothing killed');
		# 4n + ceil(n/4) <= 2048 pages: n = 481 (2045 pages).
		cmp_ok($f->{tasks_peak}, '<=', 481, 'kmem: at most 481 tasks (4n + ceil(n/4) <= 2048 pages)');
		cmp_ok($f->{tasks_peak}, '>=', 478, 'kmem: and the limit is reached (>= 478)');
	} elsif ($mech eq 'pids' || $mech eq 'pids-v2') {
		is($f->{limit}, 481, "$mech: pids.max 481");
		is($f->{errno}, 'EAGAIN', "$mech: forks fail with EAGAIN");
		is($f->{oom_kills}, 0, "$mech: nothing killed");
		cmp_ok($f->{tasks_peak}, '<=', 481, "$mech: never more than pids.max tasks");
		is($f->{tasks_end}, 481, "$mech: held at the limit");
		cmp_ok($f->{forks_failed}, '>', 0, "$mech: refused forks counted");
	} elsif ($mech eq 'max-v2') {
		is($f->{limit}, 8388608, 'max: memory.max 8M');
		cmp_ok($f->{oom_kills}, '>', 0, "max: OOM kills ($f->{oom_kills})");
		is($f->{forks_failed}, 0, 'max: no fork fails (the kills make room)');
		cmp_ok($f->{tasks_peak}, '<=', 8388608 / 16384, 'max: never more tasks than stacks fit in 8M');
		cmp_ok($f->{forks_ok}, '>', $f->{tasks_peak}, 'max: it keeps forking past the kills');
	} elsif ($mech eq 'high-v2') {
		is($f->{limit}, 8388608, 'high: memory.high 8M');
		is($f->{oom_kills}, 0, 'high: nothing killed');
		is($f->{forks_failed}, 0, 'high: no fork fails (it is throttled)');
	}
}
is_deeply([sort keys %seen], [qw(high-v2 kmem max-v2 pids pids-v2)],
	  'all four mechanisms, and pids on both trees');
done_testing();
