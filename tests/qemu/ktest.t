#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/ktest.t - the in-kernel tests: `ktest` at the prompt prints
# KTAP (Linux Documentation/dev-tools/ktap.rst), passed through here as one
# TAP subtest with one ok / not ok per KTAP case. Then a deliberate fault:
# `ktest panic_page_fault` dereferences a bad address and must end QEMU
# with status 3 (docs/interface.md) after a "panic: " line and a report naming
# the vector, the error code, RIP, CR2 and a backtrace.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

# --- ktest: every case -------------------------------------------------------
{
	my $t = Tally->boot(smp => 2, mem => '512M', timeout => 900);
	ok(defined $t->prompt(60), 'prompt reached') or BAIL_OUT('no prompt');
	my $free0 = $t->memfree_kb;

	my @out = $t->cmd('ktest', 300);
	my $answered = $t->last_ok;
	ok($answered, 'ktest ran to the next prompt (no crash, no hang)');
	if (!$answered) {
		# Report the cases that did finish: what came after the echo.
		my ($after) = $t->output =~ /.*tally:\/[^#\n]*# ktest\n(.*)\z/s;
		@out = split /\n/, $after // '';
		diag('ktest stopped after: ' . ($out[-1] // 'nothing'));
	}

	subtest 'ktest (KTAP)' => sub {
		# Top-level KTAP lines have no indentation; nested suites' lines
		# are indented and are shown as diagnostics.
		my ($version, $plan, @results, @noise);
		for my $l (@out) {
			if (!defined $version && $l =~ /^KTAP version (\d+)\s*$/) {
				$version = $1;
			} elsif (!defined $plan && !@results && $l =~ /^1\.\.(\d+)\s*$/) {
				$plan = $1;
			} elsif ($l =~ /^(not )?ok (\d+)\s*(?:-\s*)?([^#]*?)\s*(?:#\s*(.*))?$/) {
				push @results, { ok => !$1, n => $2, name => $3, directive => $4 // '' };
			} elsif ($l =~ /^\s*#/ || $l =~ /^\s+/) {
				note($l);
			} elsif (length $l) {
				push @noise, $l;
			}
		}
		ok(defined $version, 'KTAP version line first');
		ok(defined $plan, 'KTAP plan 1..N') or diag("ktest printed:\n" . join("\n", @out));
		my $n = 0;
		for my $r (@results) {
			$n++;
			my $name = "ktest $r->{n} $r->{name}";
			if ($r->{directive} =~ /^SKIP\b\s*(.*)/i) {
				SKIP: { skip("$r->{name}: $1", 1) }
				next;
			}
			ok($r->{ok}, $name);
			diag("case $r->{n} out of sequence (expected $n)") if $r->{n} != $n;
		}
		is(scalar @results, $plan // -1, 'as many results as the plan says');
		ok($plan // 0, 'at least one in-kernel test exists');
		# Cases are found in the kernel's table, not listed here; these
		# must be among them (a file left out of the build would not
		# fail otherwise).
		for my $case (qw(slab_alloc_free memcg_child_cache)) {
			ok(scalar(grep { $_->{name} eq $case } @results), "case $case ran");
		}
		my @seq = map { $_->{n} } @results;
		is_deeply(\@seq, [1 .. scalar @results], 'cases numbered 1..N in order');
		diag("other output: $_") for @noise;
		done_testing();
	};

	SKIP: {
		skip('ktest did not return to the prompt', 3) unless $answered;
		my $check = $t->cmd('check', 60);
		like($check // '', qr/^check: ok$/m, 'check: ok after ktest');
		my $free1 = $t->memfree_kb;
		ok(defined $free0 && defined $free1, 'MemFree readable before and after');
		ok(defined $free0 && defined $free1 && $free0 - $free1 <= 256,
			'MemFree back to within 256 KiB after ktest')
			or diag('MemFree before ' . ($free0 // '?') . ' kB, after ' . ($free1 // '?') . ' kB');
		my $unknown = $t->cmd('ktest no_such_test_case', 30);
		like($unknown // '', qr/\Aerror: E[A-Z0-9]+: \S[^\n]*\z/,
			'ktest of an unknown name: one error line');
	}
	is($t->poweroff(30), 1, 'poweroff exits with status 1') if $t->alive;
	$t->stop;
}

# --- a deliberate page fault must panic ------------------------------------
{
	my $t = Tally->boot(smp => 2, mem => '512M', timeout => 300);
	ok(defined $t->prompt(60), 'prompt reached (panic test)') or BAIL_OUT('no prompt');
	$t->send_line('ktest panic_page_fault');
	my $status = $t->wait_exit(60);
	is($status, 3, 'ktest panic_page_fault: QEMU exits with status 3');
	my $out = $t->output;
	my ($report) = $out =~ /^(panic: .*)\z/ms;
	ok(defined $report, 'a line starting "panic: " is printed')
		or $report = '';
	like($report, qr/\b(?:vector|#PF|page fault)\b/i, 'report names the vector');
	like($report, qr/\b(?:14|0x0*e|#PF)\b/i, '... which is 14 (#PF)');
	like($report, qr/\berr(?:or)?[ _]?(?:code)?[ \t]*[:=]?[ \t]*(?:0x[0-9a-f]+|\d+)\b/i,
		'report shows the error code');
	like($report, qr/\bRIP\b\s*[:=]?\s*(?:0x)?ffffffff8[0-9a-f]{7}\b/i,
		'report shows RIP, a kernel address');
	like($report, qr/\bCR2\b[ \t]*[:=]?[ \t]*(?:0x[0-9a-f]+|[0-9a-f]{4,})\b/i, 'report shows CR2');
	like($report, qr/(?:backtrace|call trace|stack trace)[^\n]*\n(?:[^\n]*\n)*?[^\n]*(?:0x)?ffffffff8[0-9a-f]{7}/i,
		'report has a backtrace of kernel addresses');
	$t->stop;
}

done_testing();
