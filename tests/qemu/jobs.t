#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/jobs.t - where users tread: the shell's jobs (docs/interface.md:
# a task started with `run` is reaped by the shell when it ends, with
# "[pid N exited]" or "[pid N killed]" before a prompt, and its removed
# domain is freed without `wait`), the OOM killer choosing tasks that hold
# no user memory yet (docs/design.md, memory.oom_control's oom_kill), lines the
# kernel prints on its own while the shell waits for input (each followed
# by a prompt and the partly typed line), kill's ESRCH and ps's columns.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $t = Tally->boot(smp => 2, mem => '256M', timeout => 900);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt: ' . $t->transcript);

# ps_pid - ps's row of a PID as its six fields, or undef.
sub ps_pid {
	my ($pid) = @_;
	for (grep { /^\d+\s/ } $t->cmd('ps', 60)) {
		my @f = split ' ';
		return \@f if $f[0] == $pid;
	}
	return undef;
}

# --- 1. jobs are reaped by the shell ------------------------------------------
{
	is($t->cmd('mkdir /cgroup/D'), '', 'mkdir /cgroup/D');
	is($t->cmd('echo 1M > /cgroup/D/memory.kmem.limit_in_bytes'), '', 'kmem limit 1M');
	my $p = $t->run_pid('/cgroup/D spin');
	ok($p, 'run /cgroup/D spin');
	is($t->cmd("echo $p > /cgroup/tasks"), '', 'move it to the root');
	is($t->cmd('rmdir /cgroup/D'), '', 'rmdir /cgroup/D (its task struct page keeps it dying)');
	is($t->cmd("kill $p"), '', 'kill it, no wait typed');
	ok($t->job_notice($p, 30), "the shell says [pid $p killed]")
		or diag('notices: ' . join(', ', $t->notices));
	is(($t->notices)[-1], "[pid $p killed]", 'the notice says killed');
	# One second by the kernel's own clock.
	$t->cmd('sleep 1000');
	is($t->dying, 0, 'a second later, without wait: nr_dying_descendants 0');
	ok(!ps_pid($p), 'no zombie left in ps');
	is($t->cmd("wait $p"), '', 'wait on the reaped job answers at once');

	# A job that ends by itself, while the shell waits at the prompt.
	my $w = $t->run_pid('/cgroup worker 200');
	ok($t->job_notice($w, 60), "[pid $w exited] for a job that ended by itself");
	is(($t->notices)[-1], "[pid $w exited]", 'the notice says exited');

	# wait on a job that is running: it waits, and the job is not announced
	# again afterwards.
	my $r = $t->run_pid('/cgroup worker 3000');
	is($t->cmd("wait $r", 120), '', "wait $r on a running job returns when it ends");
	ok(!ps_pid($r), 'reaped');
	is($t->cmd('pwd'), '/', 'the next command is answered normally');

	my $help = $t->cmd('help kill');
	unlike($help, qr/zombie|until wait/, 'help kill no longer speaks of a zombie until wait');
	like($help, qr/^kill PID\s+\S/, 'help kill explains kill');
	like(scalar $t->cmd('help wait'), qr/^wait PID\s+\S/, 'help wait explains wait');
}

# --- 2. the OOM killer chooses a task with no user memory yet -----------------
{
	is($t->cmd('mkdir /cgroup/O'), '', 'mkdir /cgroup/O');
	is($t->cmd('echo 0 > /cgroup/O/memory.limit_in_bytes'), '', 'user limit 0');
	is($t->file('/cgroup/O/memory.oom_control'), "oom_kill_disable 0\nunder_oom 0\noom_kill 0",
		'memory.oom_control: oom_kill 0 before any kill');
	my $n = 0;
	for my $prog ('hog 4096', 'cache 4096') {
		my $p = $t->run_pid("O $prog");
		ok($p, "run O $prog");
		ok($t->job_notice($p, 60), "$prog under a limit of 0 is killed: [pid $p killed]")
			or diag(scalar $t->cmd("cat /cgroup/O/memory.failcnt"));
		like($t->output, qr{^memcg: /cgroup/O: out of memory: killed task $p\b}m,
			"$prog: the OOM kill is reported");
		$n++;
		like($t->file('/cgroup/O/memory.oom_control'), qr/^oom_kill $n$/m,
			"memory.oom_control: oom_kill $n");
	}

	# oom_kill_disable: the task waits, and runs on when the limit is raised.
	is($t->cmd('echo 1 > /cgroup/O/memory.oom_control'), '', 'oom_kill_disable 1');
	my $p = $t->run_pid('O hog 4096');
	ok($t->until_true(30, sub { $t->file('/cgroup/O/memory.oom_control') =~ /^under_oom 1$/m }),
		'the task waits: under_oom 1');
	my $row = ps_pid($p);
	is($row && $row->[3], 'S', 'it sleeps (ps: S)');
	is($t->cmd('echo 1M > /cgroup/O/memory.limit_in_bytes'), '', 'raise the limit to 1M');
	ok($t->until_true(30, sub { ($t->stat_of('/cgroup/O', 'rss') // 0) == 4096 }),
		'it runs on: rss 4096');
	like($t->file('/cgroup/O/memory.oom_control'), qr/^under_oom 0$/m, 'under_oom 0');
	like($t->file('/cgroup/O/memory.oom_control'), qr/^oom_kill $n$/m, 'nobody else was killed');
	is($t->cmd("kill $p"), '', 'kill it');
	ok($t->job_notice($p, 30), "[pid $p killed]");
	ok($t->until_true(10, sub { $t->cmd('rmdir /cgroup/O') eq '' }), 'rmdir /cgroup/O');
}

# --- 3. a line the kernel prints on its own never leaves the prompt behind ----
{
	is($t->cmd('mkdir /cgroup/R'), '', 'mkdir /cgroup/R');
	is($t->cmd('echo 256K > /cgroup/R/memory.limit_in_bytes'), '', 'user limit 256K');
	my $rounds = 20;
	my ($killed, $followed) = (0, 0);
	for my $i (1 .. $rounds) {
		my $p = $t->run_pid('R hog 1M');
		next unless $p;
		my $re = qr{memcg: /cgroup/R: out of memory: killed task $p\b[^\n]*\n};
		if ($t->seen =~ $re) {
			# It came while run ran: before run's prompt.
			$killed++;
			$followed++;
		} elsif (defined $t->wait_for($re, 60)) {
			# It came while the shell waited at its prompt: a prompt
			# must follow it, with nothing typed.
			$killed++;
			$followed++ if defined $t->wait_for(qr{(?:^|\n)tally:/# }, 10);
		}
		$t->job_notice($p, 30);
		last if $i - $followed >= 3;  # (failing: no need to go on)
	}
	is($killed, $rounds, "$rounds OOM kills in one boot");
	is($followed, $rounds, 'every OOM message is followed by a prompt');
	is($t->cmd('pwd'), '/', 'a command typed afterwards is answered normally');

	# A partly typed line is redrawn after the message.
	my $w = $t->run_pid('/cgroup worker 20000');
	$t->send('pw');
	ok(defined $t->wait_for(qr/\[pid $w exited\]\ntally:\/# p?w?/, 300),
		'a job notice while a line is half typed: the prompt and the line follow')
		or diag($t->transcript);
	like($t->cmd('d'), qr/^\/$/, 'the line finished after it runs: pwd answers /');
	ok(!grep({ $_ eq 'p' || $_ eq 'pw' } $t->notices), 'the half-typed line is not taken for output');
	$t->cmd('echo 1 > /cgroup/R/cgroup.kill');
	ok($t->until_true(10, sub { $t->cmd('rmdir /cgroup/R') eq '' }), 'rmdir /cgroup/R');
}

# --- 5. kill's errors, ps's columns --------------------------------------------
{
	like(scalar $t->cmd('kill 99999'), qr/^error: ESRCH: /, 'kill 99999: ESRCH');
	like(scalar $t->cmd('kill 30000'), qr/^error: ESRCH: /, 'kill 30000: ESRCH');
	like(scalar $t->cmd('wait 99999'), qr/^error: ESRCH: /, 'wait 99999: ESRCH');
	like(scalar $t->cmd('kill x'), qr/^error: EINVAL: /, 'kill x: EINVAL');
	like(scalar $t->cmd('kill -3'), qr/^error: EINVAL: /, 'kill -3: EINVAL');
	like(scalar $t->cmd('kill 99999999999999999999'), qr/^error: ESRCH: /,
		'kill of a number too big for any PID: ESRCH (a number, naming no task)');
	like(scalar $t->cmd('kill 1x'), qr/^error: EINVAL: /, 'kill 1x: EINVAL');

	my $long = '/cgroup/a_domain_with_a_long_name/and_a_child';
	$t->cmd('mkdir /cgroup/a_domain_with_a_long_name');
	$t->cmd("mkdir $long");
	my $p = $t->run_pid("$long spin");
	my $q = $t->run_pid('/cgroup spin');
	my @ps = $t->cmd('ps');
	my $head = shift @ps;
	like($head, qr/^PID\s+DOMAIN\s+CPU\s+STATE\s+PROG\s+WORK$/, 'ps header: its six columns');
	my @starts;
	for my $line ($head, @ps) {
		my @s;
		push @s, $-[0] while $line =~ /\S+/g;
		push @starts, \@s;
	}
	is(scalar(grep { @$_ != 6 } @starts), 0, 'six whitespace-separated columns on every line');
	my $aligned = 1;
	for my $col (0 .. 5) {
		my %at = map { ($_->[$col] // -1) => 1 } @starts;
		$aligned = 0 if keys %at != 1;
	}
	ok($aligned, "every column starts at the same place on every line, with $long among them")
		or diag(join "\n", $head, @ps);
	ok((grep { /\Q$long\E/ } @ps), 'the long domain name is shown whole');
	$t->cmd("kill $_") for $p, $q;
	$t->job_notice($_, 30) for $p, $q;
	ok($t->until_true(10, sub { $t->cmd("rmdir $long") eq '' }), 'rmdir the long-named child');
	is($t->cmd('rmdir /cgroup/a_domain_with_a_long_name'), '', 'and its parent');
}

$t->check_ok('at the end');
is($t->poweroff(60), 1, 'poweroff');
done_testing();
