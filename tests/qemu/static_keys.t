#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/static_keys.t - /proc/static_keys (docs/interface.md,
# "/proc/static_keys") from the outside: its format; every key off and every
# site the NOP at boot; memcg_kmem_enabled_key switched on by the first kmem
# limit (count=1, every site jmp) and off again when the domain is freed after
# rmdir (count=0, nop); a second key, debug_check_on_free_key, switched
# by /proc/sys/debug_check_on_free. The sites listed are the same
# addresses throughout, in kernel text.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $KEY = 'memcg_kmem_enabled_key';
my $DEBUG = 'debug_check_on_free_key';

# keys($t) - /proc/static_keys parsed: { name => { count, sites, site => [[addr, state]] } },
# and the lines that did not parse.
sub keys_now {
	my ($t) = @_;
	my @out = $t->cmd('cat /proc/static_keys');
	my (%k, @bad, $cur);
	for my $l (@out) {
		if ($l =~ /^(\S+) count=(\d+) sites=(\d+)$/) {
			$cur = $k{$1} = { count => $2, sites => $3, site => [] };
		} elsif (defined $cur && $l =~ /^  (0x[0-9a-f]+) (nop|jmp)$/) {
			push @{$cur->{site}}, [$1, $2];
		} else {
			push @bad, $l;
		}
	}
	return (\%k, \@bad);
}

# states(key) - "nop" or "jmp" if every site is that, else "mixed" (or
# "none" without sites).
sub states {
	my ($k) = @_;
	my %s = map { $_->[1] => 1 } @{$k->{site}};
	return 'none' unless %s;
	return keys %s == 1 ? (keys %s)[0] : 'mixed';
}

sub addrs { join ' ', map { $_->[0] } @{$_[0]{site}} }

# wait_count($t, key, count) - poll until the key has that count (a removed
# domain is freed when its last reference goes). Returns the last parse.
sub wait_count {
	my ($t, $key, $want) = @_;
	my $k;
	for (1 .. 20) {
		($k) = keys_now($t);
		last if $k->{$key} && $k->{$key}{count} == $want;
		select(undef, undef, undef, 0.25 * Tally->scale);
	}
	return $k;
}

my $t = Tally->boot(smp => 2, mem => '512M', timeout => 300);
ok(defined $t->prompt(60), 'prompt reached') or BAIL_OUT('no prompt');

# --- at boot ---------------------------------------------------------------
my ($k0, $bad) = keys_now($t);
ok($t->last_ok, 'cat /proc/static_keys answers');
is_deeply($bad, [], 'every line is a key line or an indented site line')
	or diag(join("\n", @$bad));
ok($k0->{$KEY}, "$KEY is listed") or BAIL_OUT('no memcg key: ' . $t->transcript);
ok($k0->{$DEBUG}, "$DEBUG is listed");
for my $name (sort keys %$k0) {
	my $k = $k0->{$name};
	is($k->{sites}, scalar @{$k->{site}}, "$name: sites=N matches the site lines");
	is($k->{count}, 0, "$name: count=0 at boot");
	ok($k->{sites} == 0 || states($k) eq 'nop', "$name: every site nop at boot");
	ok(!grep({ $_->[0] !~ /^0xffffffff8[0-9a-f]{7}$/ } @{$k->{site}}),
		"$name: sites are kernel-text addresses");
}
ok($k0->{$KEY}{sites} >= 1, "$KEY has at least one site (the kmem hooks)");

# --- the first kmem limit switches the hooks on -------------------------------
SKIP: {
	my $mk = $t->cmd('mkdir /cgroup/A');
	skip("no /cgroup to make a domain in: $mk", 10)
		unless $t->last_ok && $mk eq '';
	my ($k) = keys_now($t);
	is($k->{$KEY}{count}, 0, 'mkdir alone: still count=0');
	is(states($k->{$KEY}), 'nop', '... and nop');

	is($t->cmd('echo 8M > /cgroup/A/memory.kmem.limit_in_bytes'), '',
		'echo 8M > memory.kmem.limit_in_bytes');
	($k) = keys_now($t);
	is($k->{$KEY}{count}, 1, 'first kmem limit: count=1');
	is(states($k->{$KEY}), 'jmp', '... every site jmp');
	is(addrs($k->{$KEY}), addrs($k0->{$KEY}), '... at the same addresses');

	# A second domain with a limit takes a second reference.
	$t->cmd('mkdir /cgroup/B');
	$t->cmd('echo 4M > /cgroup/B/memory.kmem.limit_in_bytes');
	$t->cmd('rmdir /cgroup/B');
	$k = wait_count($t, $KEY, 1);
	is($k->{$KEY}{count}, 1, 'second domain removed: count back to 1, still on');

	is($t->cmd('rmdir /cgroup/A'), '', 'rmdir /cgroup/A');
	$k = wait_count($t, $KEY, 0);
	is($k->{$KEY}{count}, 0, 'domain freed: count=0');
	is(states($k->{$KEY}), 'nop', '... every site nop again');
	is(addrs($k->{$KEY}), addrs($k0->{$KEY}), '... at the same addresses');
}

# --- a second key: /proc/sys/debug_check_on_free ------------------------------
is($t->cmd('cat /proc/sys/debug_check_on_free'), '0', 'debug_check_on_free is 0');
is($t->cmd('echo 1 > /proc/sys/debug_check_on_free'), '', 'echo 1 > it');
my ($k) = keys_now($t);
is($k->{$DEBUG}{count}, 1, "$DEBUG count=1");
is(states($k->{$DEBUG}), 'jmp', '... every site jmp');
is(states($k->{$KEY}), 'nop', "... $KEY untouched");
like($t->cmd('cat /proc/meminfo') // '', qr/^MemFree:/m,
	'the machine allocates and frees with the checks on');
like($t->cmd('echo 2 > /proc/sys/debug_check_on_free') // '',
	qr/\Aerror: EINVAL: \S[^\n]*\z/, 'echo 2: one EINVAL error line');
is($t->cmd('echo 0 > /proc/sys/debug_check_on_free'), '', 'echo 0 > it');
($k) = keys_now($t);
is($k->{$DEBUG}{count}, 0, "$DEBUG count=0");
is(states($k->{$DEBUG}), 'nop', '... every site nop');

like($t->cmd('check', 60) // '', qr/^check: ok$/m, 'check: ok');
is($t->poweroff(30), 1, 'poweroff exits with status 1');
$t->stop;
done_testing();
