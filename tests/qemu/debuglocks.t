#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/debuglocks.t - the lock-debugging build (make DEBUG=1,
# build/tally-debug.elf, kernel/locking/lock_debug.c). It runs the real workload
# (domains, a contained fork bomb, stress, the in-kernel tests) without a
# complaint, and it catches each rule broken on purpose (`locktest`) with
# a panic that names the lock and the rule (QEMU exit status 3). The
# normal build has no `locktest`.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $debug_elf = Tally::build_dir() . '/tally-debug.elf';
ok(-f $debug_elf, "$debug_elf is built (make debug)") or BAIL_OUT("no $debug_elf");

# The normal build: no such command.
{
	my $t = Tally->boot(smp => 2, mem => '128M');
	is($t->prompt(60), '/', 'normal build: prompt');
	like($t->cmd('locktest order'), qr/^error: ENOENT: unknown command/,
		'normal build: no locktest');
	is($t->poweroff(30), 1, 'normal build: poweroff');
}

local $ENV{ELF} = $debug_elf;

# The debug build under a real workload: nothing to report.
{
	my $t = Tally->boot(smp => 2, mem => '256M', timeout => 900);
	is($t->prompt(60), '/', 'debug build: prompt');
	$t->cmd('mkdir /cgroup/A');
	is($t->cmd('echo 1M > /cgroup/A/memory.kmem.limit_in_bytes'), '', 'kmem limit 1M');
	like($t->cmd('run /cgroup/A forkbomb'), qr/^pid \d+$/, 'a contained fork bomb');
	$t->cmd('sleep 1000');
	is($t->cmd('echo 1 > /cgroup/A/cgroup.kill'), '', 'cgroup.kill');
	like($t->cmd('stress 5', 600) // '', qr/^stress: 5 s on 2 CPUs: \d+ operations, 0 unexpected errors$/m,
		'stress 5: 0 unexpected errors');
	like($t->cmd('ktest', 600) // '', qr/^# ktest: \d+ passed, 0 failed$/m, 'ktest passes');
	for (1 .. 50) { last if $t->cmd('rmdir /cgroup/A') eq ''; $t->cmd('sleep 100') }
	is($t->cmd('check'), 'check: ok', 'check: ok');
	unlike($t->output, qr/panic/, 'no panic: no false alarm from the checker');
	is($t->poweroff(30), 1, 'poweroff');
}

# Each rule broken on purpose.
my %rules = (
	order     => qr/^panic: spin_lock: lock order: CPU \d+ takes kernel\/shell\/cmd_locktest\.c:\d+ while holding kernel\/shell\/cmd_locktest\.c:\d+, .*\(rule: two locks are always taken in the same order; this is an AB-BA deadlock\)/m,
	recursive => qr/^panic: spin_lock: recursive locking: CPU \d+ takes kernel\/shell\/cmd_locktest\.c:\d+, which it already holds \(rule: a spinlock is not recursive/m,
	sleep     => qr/^panic: schedule: sleeping while atomic: task \d+ \(shell\) sleeps holding spinlock kernel\/shell\/cmd_locktest\.c:\d+ \(rule: a task never sleeps with a spinlock held\)/m,
	crosscall => qr/^panic: smp_call_function_all: CPU \d+ \(called from 0x[0-9a-f]+\) waits for every other CPU while it holds spinlock kernel\/shell\/cmd_locktest\.c:\d+ \(rule: no spinlock is held across a cross-CPU call/m,
	# A deadlock: the lock named with the CPU that holds it, then where
	# the panic's NMI found each other CPU.
	stuck     => qr/^panic: spin_lock: CPU (\d+) has spun 20 s for kernel\/shell\/cmd_locktest\.c:\d+, which has not changed hands, held by CPU \1 \(rule: a lock is held only for a moment; this is a deadlock.*\r?\n(?:.*\r?\n)*?cpu \d+ was stopped at:\r?\nbacktrace:\r?\n  ffffffff8[0-9a-f]{7}/m,
);
for my $rule (sort keys %rules) {
	my $t = Tally->boot(smp => 2, mem => '128M');
	is($t->prompt(60), '/', "locktest $rule: prompt");
	$t->send_line("locktest $rule");
	ok(defined $t->wait_for(qr/panic: [^\n]*\n/, 120), "locktest $rule: a panic");
	# (The whole report, with the other CPUs', is out once QEMU exits.)
	is($t->wait_exit(30), 3, "locktest $rule: QEMU exits with status 3");
	like($t->output, $rules{$rule}, "locktest $rule: it names the lock and the rule");
}

done_testing();
