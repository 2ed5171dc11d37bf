#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/domains.t - many domains, as a user sees them.
#
# The limit: booted with memcg_id_max=20 (the same code as the 65535 of
# the default, reached in a few mkdirs), 20 domains are made at the shell
# and the 21st mkdir fails with ENOSPC and changes nothing (no directory,
# nr_domains as before, check ok); once one is removed a mkdir works
# again. A bad memcg_id_max is told at boot and ignored.
#
# The costs, on 2 CPUs under TCG with -icount shift=0,sleep=off (the TSC
# counts instructions, exactly): `bench domains` prints its eight lines
# in their format, and its figures are flat in the number of domains:
# mkdir and rmdir at 10000 domains cost at most 1.2 times what they cost
# at 100, a stock-hit charge beside 10000 domains is within 2% of one
# beside one, a domain takes at most 4096 bytes, the root's memory.stat
# costs at most 1000 instructions per domain at 10000, and removing the
# domains gives their memory back (at most 8 pages kept as empty slabs)
# with no domain left dying. `bench domains_max` then makes 65535
# domains, gets ENOSPC for the next, and removes them; check is ok. The
# same in both slab accounting designs, with 2 GiB of memory.
#
# The drain, on 8 CPUs: `bench drain` interrupts exactly the CPUs whose
# stock holds the domain's charge, 1 to 8.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib", "$FindBin::Bin/../bench";
use Test::More;
use Tally;
use Bench;

# --- the limit, at the shell --------------------------------------------------
{
	my $t = Tally->boot(smp => 2, mem => '512M', timeout => 300,
			    append => 'memcg_id_max=20');
	is($t->prompt(60), '/', 'limit: prompt')
		or BAIL_OUT('no prompt: ' . $t->transcript);
	my $made = 0;
	for my $i (1 .. 20) {
		last unless ($t->cmd("mkdir /cgroup/d$i") // 'x') eq '';
		$made++;
	}
	is($made, 20, 'limit: 20 domains made');
	my $stat = $t->file('/cgroup/cgroup.stat');
	like($stat, qr/^nr_domains 21$/m, 'limit: nr_domains 21 (the root too)');
	my $ls = $t->cmd('ls /cgroup');
	like($t->cmd('mkdir /cgroup/one_more') // '',
	     qr/^error: ENOSPC: /, 'limit: the 21st mkdir fails with ENOSPC');
	is($t->file('/cgroup/cgroup.stat'), $stat,
	   'limit: cgroup.stat unchanged');
	is($t->cmd('ls /cgroup'), $ls, 'limit: /cgroup unchanged');
	$t->check_ok('limit: after the refused mkdir');
	is($t->cmd('rmdir /cgroup/d7'), '', 'limit: rmdir one');
	is($t->cmd('mkdir /cgroup/one_more'), '',
	   'limit: then a mkdir works again');
	is($t->cmd('rmdir /cgroup/one_more'), '', 'limit: and its rmdir');
	my $removed = 0;
	for my $i (grep { $_ != 7 } 1 .. 20) {
		$removed++ if ($t->cmd("rmdir /cgroup/d$i") // 'x') eq '';
	}
	is($removed, 19, 'limit: the others removed');
	like($t->file('/cgroup/cgroup.stat'), qr/^nr_domains 1$/m,
	     'limit: nr_domains 1');
	$t->check_ok('limit: all removed');
	$t->poweroff;
}
{
	my $t = Tally->boot(smp => 1, mem => '512M', timeout => 120,
			    append => 'memcg_id_max=lots');
	is($t->prompt(60), '/', 'bad value: prompt')
		or BAIL_OUT('no prompt: ' . $t->transcript);
	like($t->seen, qr/^memcg_id_max: error: EINVAL: "lots" /m,
	     'bad value: told at boot');
	$t->poweroff;
}

# --- the costs and the 65535, on the instruction yardstick -------------------

# field($line, $key) - the number of KEY=N in a bench line.
sub field {
	my ($line, $key) = @_;
	return $line =~ /\b\Q$key\E=(-?\d+)/ ? $1 : undef;
}

local $ENV{QEMU_ACCEL} = '-accel tcg';
my $LINE = qr/^bench domains n=(\d+) shape=(flat|tree) mkdir=\d+ rmdir=\d+ bytes_per_domain=\d+ root_stat=\d+ charge_hit=\d+ pages_back=-?\d+$/;
for my $design (qw(caches objects)) {
	my $t = Tally->boot(smp => 2, mem => '2G', timeout => 1500,
			    append => "slab_accounting=$design",
			    qemu_args => [@Bench::ICOUNT]);
	is($t->prompt(300), '/', "$design: prompt under -icount")
		or BAIL_OUT('no prompt: ' . $t->transcript);
	my @out = $t->cmd('bench domains', 900);
	my %at;
	for my $l (grep { /^bench / } @out) {
		like($l, $LINE, "$design: a domains line: $l");
		$at{"$2 $1"} = $l if $l =~ $LINE;
	}
	is(scalar(keys %at), 8, "$design: eight lines, flat and tree at 1, "
	   . '100, 1000, 10000') or diag(join "\n", @out);
	for my $shape (qw(flat tree)) {
		my ($l100, $l10k, $l1) = map { $at{"$shape $_"} // '' }
					 (100, 10000, 1);
		for my $op (qw(mkdir rmdir)) {
			my ($a, $b) = (field($l100, $op), field($l10k, $op));
			ok(defined $a && defined $b && $a > 0 && $b <= 1.2 * $a,
			   "$design $shape: $op at 10000 ("
			   . ($b // '?') . ") <= 1.2 x at 100 (" . ($a // '?')
			   . ')');
		}
		my ($h1, $h) = (field($l1, 'charge_hit'),
				field($l10k, 'charge_hit'));
		ok(defined $h1 && defined $h && $h1 > 0 &&
		   abs($h - $h1) <= 0.02 * $h1,
		   "$design $shape: stock-hit charge beside 10000 ("
		   . ($h // '?') . ") within 2% of beside 1 (" . ($h1 // '?')
		   . ')');
		for my $l (grep { $_ } map { $at{"$shape $_"} }
			   (1, 100, 1000, 10000)) {
			my $n = field($l, 'n');
			my $bytes = field($l, 'bytes_per_domain');
			ok($bytes > 0 && $bytes <= 4096,
			   "$design $shape n=$n: $bytes bytes a domain");
			my $back = field($l, 'pages_back');
			ok($back <= 8, "$design $shape n=$n: $back pages not "
			   . 'back (at most the empty slabs caches keep)');
		}
		my $stat = field($l10k, 'root_stat') // 1e12;
		ok($stat <= 1000 * 10000, "$design $shape: the root's "
		   . "memory.stat at 10000: $stat instructions, "
		   . int($stat / 10000) . ' a domain');
	}
	my @dying = grep { /^# bench domains / } @out;
	is(scalar(grep { /nr_dying_descendants=0$/ } @dying), 8,
	   "$design: no domain left dying after each count");

	my $max = $t->cmd('bench domains_max', 900) // '';
	is($max, 'bench domains_max made=65535 next=ENOSPC',
	   "$design: 65535 domains, then ENOSPC");
	like($t->file('/cgroup/cgroup.stat'), qr/^nr_domains 1\nnr_dying_descendants 0$/m,
	     "$design: all removed, none dying");
	$t->check_ok("$design: after domains_max", 300);
	$t->poweroff;
}

# --- the drain ---------------------------------------------------------------
{
	my $t = Tally->boot(smp => 8, mem => '512M', timeout => 600,
			    qemu_args => [@Bench::ICOUNT]);
	is($t->prompt(300), '/', 'drain: prompt on 8 CPUs')
		or BAIL_OUT('no prompt: ' . $t->transcript);
	my @out = grep { /^bench drain/ } $t->cmd('bench drain', 300);
	is(scalar @out, 8, 'drain: eight lines');
	for my $c (1 .. 8) {
		my $l = $out[$c - 1] // '';
		like($l, qr/^bench drain cpus=$c median_cycles=[1-9]\d* cpus_interrupted=$c$/,
		     "drain: $c CPUs hold the charge, $c drain: $l");
	}
	$t->check_ok('drain: after');
	$t->poweroff;
}

done_testing();
