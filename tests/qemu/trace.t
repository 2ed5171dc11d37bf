#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/trace.t - tracing the accounting path (docs/tracing.md)
# from the outside, through /sys/kernel/tracing:
#   - the control files and their bad input (error: EINVAL lines);
#   - with every event off, every tracepoint's key is count=0 and each of
#     its sites reads nop in /proc/static_keys; an event turned on patches
#     its own key's sites to jmp, and only those;
#   - the trace of one accounted fork holds, in order: the domain chosen,
#     a stock miss, the batch tried on both counters (kmem declines it
#     under a 32K limit), the exact charges of res and kmem, the commit; the trace of a refused fork names the counter (kmem) and the
#     domain that refused it, and the refused fork;
#   - `echo > trace` clears it; tracing_on 0 stops recording;
#   - trace_pipe prints the entries and takes them out, until a key;
#   - every event on during `stress 10` on 4 CPUs: `check: ok`, and the
#     trace's header counts the events lost to overwriting.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $T = '/sys/kernel/tracing';
my $STRESS = $ENV{STRESS_SECONDS} || 10;

# trace_keys($t) - the tracepoints' keys in /proc/static_keys:
# { name => { count, sites => [states] } }.
sub trace_keys {
	my ($t) = @_;
	my (%k, $cur);
	for my $l ($t->cmd('cat /proc/static_keys')) {
		if ($l =~ /^(\S+) count=(\d+) sites=(\d+)$/) {
			my ($name, $count) = ($1, $2);
			$cur = $name =~ /^trace_\w+_key$/ ? ($k{$name} = { count => $count, sites => [] }) : undef;
		} elsif ($cur && $l =~ /^  (0x[0-9a-f]+) (nop|jmp)$/) {
			push @{$cur->{sites}}, $2;
			push @{$cur->{addrs}}, $1;
		}
	}
	return \%k;
}

# all_sites($keys, $state) - does every site of every key read $state?
sub all_sites {
	my ($k, $state) = @_;
	my @bad = grep { grep({ $_ ne $state } @{$k->{$_}{sites}}) } sort keys %$k;
	diag("not $state: @bad") if @bad;
	return !@bad;
}

# trace($t) - (header lines, event lines) of cat trace; the event lines
# parsed as [task, pid, cpu, ts, event, fields].
sub trace {
	my ($t) = @_;
	my (@head, @ev);
	for my $l ($t->cmd("cat $T/trace", 120)) {
		if ($l =~ /^#/) { push @head, $l; next }
		if ($l =~ /^\s*(\S+)-(\d+)\s+\[(\d{3})\]\s+(\d+\.\d{6}): (\w+): (.*)$/) {
			push @ev, [$1, $2, $3, $4, $5, $6];
		} else {
			push @ev, ['?', 0, 0, 0, 'unparsed', $l];
		}
	}
	return (\@head, \@ev);
}

sub header_counts {
	my ($head) = @_;
	my $h = join "\n", @$head;
	my ($in, $written, $cpus) = $h =~ m{^# entries-in-buffer/entries-written: (\d+)/(\d+)\s+#P:(\d+)$}m;
	my ($lost) = $h =~ /^# events lost: (\d+)/m;
	return ($in, $written, $lost, $cpus);
}

# in_order($events, @matchers) - the index of each matcher's first event
# after the previous one's, or undef from the first that is missing.
sub in_order {
	my ($ev, @want) = @_;
	my $i = 0;
	for my $w (@want) {
		my ($name, $re) = @$w;
		$i++ while $i < @$ev && !($ev->[$i][4] eq $name && $ev->[$i][5] =~ $re);
		if ($i >= @$ev) {
			diag("missing in order: $name matching $re");
			return 0;
		}
		$i++;
	}
	return 1;
}

my $t = Tally->boot(smp => 2, mem => '256M', timeout => 600);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt');

# --- the directory ------------------------------------------------------------
is($t->cmd("ls $T"), "available_events\nset_event\ntracing_on\ntrace",
	"$T holds available_events, set_event, tracing_on, trace");
my @avail = $t->cmd("cat $T/available_events");
ok(@avail >= 12 && !grep({ !/^\w+:\w+$/ } @avail), scalar(@avail) . ' events, each system:name');
for my $e (qw(kmem:mm_page_alloc memcg:memcg_kmem_domain memcg:memcg_stock_consume
		memcg:memcg_stock_refill memcg:memcg_stock_drain memcg:res_counter_charge
		memcg:memcg_kmem_commit memcg:memcg_kmem_uncharge task:task_fork_refused
		memcg:memcg_domain_dying memcg:memcg_domain_free static_key:static_key_patch)) {
	ok(scalar(grep { $_ eq $e } @avail), "available_events lists $e");
}
is($t->cmd("cat $T/set_event"), '', 'set_event: nothing on at boot');
is($t->cmd("cat $T/tracing_on"), '1', 'tracing_on: 1 at boot');

# --- every event off: every site a NOP ------------------------------------------
my $k = trace_keys($t);
is(scalar(keys %$k), scalar(@avail), 'a key per event in /proc/static_keys (trace_EVENT_key)');
ok(!grep({ !@{$k->{$_}{sites}} } keys %$k), 'every event key has at least one site')
	or diag(join ' ', grep { !@{$k->{$_}{sites}} } sort keys %$k);
ok(!grep({ $k->{$_}{count} } keys %$k), 'every event key count=0');
ok(all_sites($k, 'nop'), 'every event off: every trace site reads nop');

# --- bad input ---------------------------------------------------------------------
for my $c ("echo nosuch > $T/set_event", "echo mm_page_alloc nosuch > $T/set_event",
		"echo kmem:nosuch > $T/set_event", "echo nosys:* > $T/set_event",
		"echo !nosuch > $T/set_event", "echo 2 > $T/tracing_on", "echo x > $T/tracing_on",
		"echo > $T/tracing_on", "echo 1 1 > $T/tracing_on", "echo x > $T/trace",
		"echo 0 > $T/trace", "echo 1 > $T/available_events", "cat $T/trace_pipe") {
	my $out = $t->cmd($c) // 'no prompt';
	my $name = $c =~ /trace_pipe/ ? 'ENOENT' : 'EINVAL';
	like($out, qr/\Aerror: $name: \S[^\n]*\z/, "'$c': one error: $name line");
}
is($t->cmd("cat $T/set_event"), '', 'after the bad input: still no event on (nothing half done)');
is($t->cmd("cat $T/tracing_on"), '1', '... and tracing_on still 1');
like($t->cmd('trace_pipe x') // '', qr/\Aerror: EINVAL: /, 'trace_pipe x: EINVAL');

# --- one event on: its own sites jmp, and only its --------------------------------
is($t->cmd("echo mm_page_alloc > $T/set_event"), '', 'echo mm_page_alloc > set_event');
is($t->cmd("cat $T/set_event"), 'kmem:mm_page_alloc', '... set_event lists it');
$k = trace_keys($t);
is($k->{trace_mm_page_alloc_key}{count}, 1, '... its key count=1');
ok(all_sites({ x => $k->{trace_mm_page_alloc_key} }, 'jmp'), '... every site of its key jmp');
# A site that several events share (the stock hit's, the unaccounted
# allocation's: static_branch_unlikely_any) is a jump while any of its
# keys is on; it is listed under each of its keys. Every other site of the
# other keys must still be the NOP.
my %mine = map { $_ => 1 } @{$k->{trace_mm_page_alloc_key}{addrs}};
delete $k->{trace_mm_page_alloc_key};
my @shared = grep { $mine{$_} } map { @{$_->{addrs}} } values %$k;
ok(@shared >= 2, '... its key shares sites with other events: ' . scalar(@shared))
	or diag('mm_page_alloc sites: ' . join(' ', sort keys %mine));
my @bad;
for my $name (sort keys %$k) {
	my ($a, $st) = ($k->{$name}{addrs}, $k->{$name}{sites});
	for my $i (0 .. $#$a) {
		my $want = $mine{$a->[$i]} ? 'jmp' : 'nop';
		push @bad, "$name $a->[$i] $st->[$i]" if $st->[$i] ne $want;
	}
}
ok(!@bad, '... every other trace site still nop, the shared ones jmp')
	or diag(join "\n", @bad);
is($t->cmd("echo !kmem:mm_page_alloc > $T/set_event"), '', 'echo !kmem:mm_page_alloc > set_event');
is($t->cmd("cat $T/set_event"), '', '... nothing on');
ok(all_sites(trace_keys($t), 'nop'), '... every trace site nop again');

# --- one accounted fork -------------------------------------------------------------
is($t->cmd("echo *:* > $T/set_event"), '', 'echo *:* > set_event');
is(scalar(my @on = $t->cmd("cat $T/set_event")), scalar(@avail), '... every event on');
ok(all_sites(trace_keys($t), 'jmp'), '... every trace site jmp');
is($t->cmd('mkdir /cgroup/T'), '', 'mkdir /cgroup/T');
is($t->cmd('echo 32K > /cgroup/T/memory.kmem.limit_in_bytes'), '', 'a 32K kmem limit');
my ($head, $ev) = trace($t);
ok(in_order($ev, ['static_key_patch', qr/^key=memcg_kmem_enabled_key sites=\d+ to=jmp$/]),
	'the first kmem limit: static_key_patch of memcg_kmem_enabled_key to jmp');
is($t->cmd("echo > $T/trace"), '', 'echo > trace');
($head, $ev) = trace($t);
my ($in, $written, $lost, $cpus) = header_counts($head);
ok(defined $in && defined $lost, 'the header: entries-in-buffer/entries-written, events lost')
	or diag(join "\n", @$head);
is($cpus, 2, '... #P:2');
cmp_ok($in // 99, '<=', 5, "... cleared: $in entries left (only what cat itself did)");
is($lost, 0, '... 0 lost after a clear');

my $pid = $t->run_pid('/cgroup/T spin');
ok($pid, "a fork into /cgroup/T: pid $pid");
is($t->cmd("echo 0 > $T/tracing_on"), '', 'echo 0 > tracing_on');
($head, $ev) = trace($t);
ok(!grep({ $_->[4] eq 'unparsed' } @$ev), 'every line: TASK-PID [CPU] TIMESTAMP: event: fields')
	or diag(join "\n", map { $_->[5] } grep { $_->[4] eq 'unparsed' } @$ev);
my @ts = map { $_->[3] } @$ev;
is_deeply(\@ts, [sort { $a <=> $b } @ts], 'entries in time order');
# The charge path: on a miss, a batch of 32 pages for both
# counters is tried first (res, then kmem); it does not fit under kmem's
# 32K, so kmem declines it quietly (no failcnt), res is given back, and
# the exact 4 pages are charged to res and then to kmem.
ok(in_order($ev,
	['memcg_kmem_domain', qr{^order=2 .*pays=/cgroup/T$}],
	['memcg_stock_consume', qr{^domain=/cgroup/T pages=4 kind=kmem miss }],
	['res_counter_charge', qr{^counter=res domain=/cgroup/T pages=32 .* charged$}],
	['res_counter_charge', qr{^counter=kmem domain=/cgroup/T pages=32 usage=\d+ limit=32768 declined }],
	['res_counter_charge', qr{^counter=res domain=/cgroup/T pages=4 .* charged$}],
	['res_counter_charge', qr{^counter=kmem domain=/cgroup/T pages=4 usage=\d+ limit=32768 charged$}],
	['memcg_kmem_commit', qr{^domain=/cgroup/T order=2 pfn=0x[0-9a-f]+$}],
	['mm_page_alloc', qr{^order=2 gfp=0x[0-9a-f]+ pfn=0x[0-9a-f]+$}]),
	'the fork: domain chosen, stock miss, the batch (res charged, kmem declines it), the exact res and kmem charges, commit, the page')
	or diag(join "\n", map { "$_->[4]: $_->[5]" } @$ev);
ok(!grep({ $_->[4] eq 'res_counter_charge' && $_->[5] =~ /REFUSED/ } @$ev),
	'... and no counter refused anything (the declined batch is not a refusal)');
my $n = () = $t->cmd("cat $T/trace");
my $again = () = $t->cmd("cat $T/trace");
is($again, $n, 'tracing_on 0: nothing more is recorded');

# --- a refused fork ------------------------------------------------------------------
is($t->cmd("echo > $T/trace"), '', 'echo > trace');
is($t->cmd("echo 1 > $T/tracing_on"), '', 'echo 1 > tracing_on');
like($t->cmd('run /cgroup/T spin') // '', qr/^error: ENOMEM: /, 'a second fork into /cgroup/T: ENOMEM');
is($t->cmd("echo 0 > $T/tracing_on"), '', 'echo 0 > tracing_on');
($head, $ev) = trace($t);
ok(in_order($ev,
	['memcg_kmem_domain', qr{^order=2 .*pays=/cgroup/T$}],
	['res_counter_charge', qr{^counter=kmem domain=/cgroup/T pages=4 usage=\d+ limit=32768 REFUSED$}],
	['task_fork_refused', qr{^domain=/cgroup/T err=ENOMEM$}]),
	'the refused fork: the kmem counter of /cgroup/T refused, then the fork')
	or diag(join "\n", map { "$_->[4]: $_->[5]" } @$ev);
is($t->file('/cgroup/T/memory.kmem.failcnt'), '1', 'memory.kmem.failcnt 1');

# --- trace_pipe: entries as they come, taken out; any key stops it --------------------
is($t->cmd("echo 1 > $T/tracing_on"), '', 'echo 1 > tracing_on');
like($t->cmd('run /cgroup/T spin') // '', qr/^error: ENOMEM: /, 'another refused fork, to trace');
$t->send_line('trace_pipe');
ok(defined $t->wait_for(qr/press any key to stop\r?\n/, 60), 'trace_pipe: started');
ok(defined $t->wait_for(qr/task_fork_refused: domain=\/cgroup\/T err=ENOMEM/, 60),
	'trace_pipe prints the refused fork');
$t->send('q');
my ($cwd) = $t->wait_for($Tally::PROMPT_AT_RE, 60);
is($cwd, '/', 'a key stops trace_pipe: the prompt is back');
like($t->before // '', qr/trace_pipe: stopped after [1-9]\d* events/, '... it says how many it printed');
is($t->cmd("echo 0 > $T/tracing_on"), '', 'echo 0 > tracing_on');
($head, $ev) = trace($t);
ok(!grep({ $_->[4] eq 'task_fork_refused' } @$ev), 'what trace_pipe printed is gone from trace');

# --- stock hits: what each leaves in the stock ------------------------------------------
# A domain with room for whole batches: after the first miss, the batch's
# surplus is stocked, and later charges on that CPU are served from it.
# The consume event's recorder works out a hit from the stock before the
# take: each hit must leave what the CPU's stock held, as the events
# before it said, less the pages it took.
is($t->cmd('mkdir /cgroup/H'), '', 'mkdir /cgroup/H');
is($t->cmd('echo 64M > /cgroup/H/memory.kmem.limit_in_bytes'), '', 'a 64M kmem limit');
is($t->cmd("echo > $T/trace"), '', 'echo > trace');
is($t->cmd("echo 1 > $T/tracing_on"), '', 'echo 1 > tracing_on');
my $hpid = $t->run_pid('/cgroup/H spin');
ok($hpid, "a fork into /cgroup/H: pid $hpid");
is($t->cmd("kill $hpid"), '', "kill $hpid");
is($t->cmd("echo 0 > $T/tracing_on"), '', 'echo 0 > tracing_on');
($head, $ev) = trace($t);
my (%stocked, %cached, @wrong);
my ($hits, $checked) = (0, 0);
for my $e (@$ev) {
	my ($cpu, $name, $f) = @$e[2, 4, 5];
	if ($name eq 'memcg_stock_drain') {
		delete $stocked{$cpu};
		delete $cached{$cpu};
	} elsif ($name eq 'memcg_stock_refill'
		 && $f =~ m{^domain=(\S+) pages=\d+ stock=(\d+) kind=(\w+)}) {
		$cached{$cpu} = $1;
		$stocked{$cpu}{$3} = $2;
	} elsif ($name eq 'memcg_stock_consume'
		 && $f =~ m{^domain=(\S+) pages=(\d+) kind=(\w+) (hit|miss) stock=(\d+) \((.*)\)$}) {
		my ($dom, $pages, $kind, $how, $left, $holds) = ($1, $2, $3, $4, $5, $6);
		next if $how ne 'hit';
		$hits++ if $dom eq '/cgroup/H';
		push @wrong, "$f: the stock holds $holds" if $holds ne 'this domain';
		my $before = $stocked{$cpu}{$kind};
		if (defined $before && ($cached{$cpu} // '') eq $dom) {
			$checked++;
			push @wrong, "$f: the stock of CPU $cpu held $before"
				if $left != $before - $pages;
		}
		$cached{$cpu} = $dom;
		$stocked{$cpu}{$kind} = $left;
	}
}
cmp_ok($hits, '>', 0, "/cgroup/H's charges served from the stock: $hits hits");
ok($checked && !@wrong,
	"... each hit leaves what the stock held less the pages it took ($checked followed)")
	or diag(join "\n", @wrong);
ok($t->until_true(30, sub { ($t->cmd('rmdir /cgroup/H') // 'error') !~ /error/ }), 'rmdir /cgroup/H');

# --- off again, and the domain's end ---------------------------------------------------
is($t->cmd("echo 1 > $T/tracing_on"), '', 'echo 1 > tracing_on');
is($t->cmd('echo 1 > /cgroup/T/cgroup.kill'), '', 'echo 1 > /cgroup/T/cgroup.kill');
ok($t->until_true(30, sub { ($t->cmd('cat /cgroup/T/tasks') // 'x') !~ /\d/ }),
	'/cgroup/T has no task left');
ok($t->until_true(30, sub { ($t->cmd('rmdir /cgroup/T') // 'error') !~ /error/ }), 'rmdir /cgroup/T');
ok($t->until_true(60, sub { $t->dying == 0 }), 'the domain is freed (nr_dying_descendants 0)');
($head, $ev) = trace($t);
ok(in_order($ev,
	['memcg_domain_dying', qr{^domain=/cgroup/T }],
	['memcg_domain_free', qr{^domain=/cgroup/T kmem_usage=0 res_usage=0$}],
	['static_key_patch', qr{^key=memcg_kmem_enabled_key sites=\d+ to=nop$}]),
	'rmdir: dying, then freed, then memcg_kmem_enabled_key back to nop')
	or diag(join "\n", map { "$_->[4]: $_->[5]" } @$ev);
ok(scalar(grep { $_->[4] eq 'memcg_kmem_uncharge' && $_->[5] =~ m{^domain=/cgroup/T order=2 pfn=0x} } @$ev),
	'the stack of the task uncharged from /cgroup/T');
is($t->cmd("echo > $T/set_event"), '', 'echo > set_event: every event off');
is($t->cmd("cat $T/set_event"), '', '... set_event is empty');
ok(all_sites(trace_keys($t), 'nop'), '... every trace site nop');
like($t->cmd('check', 60) // '', qr/^check: ok$/m, 'check: ok');
is($t->poweroff(30), 1, 'poweroff');
$t->stop;

# --- every event on during stress, on 4 CPUs -----------------------------------------------
$t = Tally->boot(smp => 4, mem => '512M', timeout => 900 + 10 * $STRESS);
is($t->prompt(60), '/', 'prompt (4 CPUs)') or BAIL_OUT('no prompt');
is($t->cmd("echo *:* > $T/set_event"), '', 'echo *:* > set_event');
my $out = $t->cmd("stress $STRESS", 120 + 5 * $STRESS * Tally->scale);
like($out // '', qr/^stress: $STRESS s on 4 CPUs: \d+ operations, 0 unexpected errors$/m,
	"stress $STRESS with every event on: 0 unexpected errors");
my $check = '';
for (1 .. 10) {
	$check = $t->cmd('check', 120) // '';
	last unless $check =~ /^error: ENOMEM/;
}
is($check, 'check: ok', 'check: ok');
is($t->cmd("echo 0 > $T/tracing_on"), '', 'echo 0 > tracing_on');
($head, $ev) = trace($t);
($in, $written, $lost, $cpus) = header_counts($head);
is($cpus, 4, 'the header: #P:4');
cmp_ok($lost // 0, '>', 0, "the rings overwrote the oldest: $lost events lost, counted in the header");
is($written - $in, $lost, "written ($written) - in the buffer ($in) = lost ($lost)");
is(scalar(@$ev), $in, "cat trace shows the $in entries the header counts");
ok(!grep({ $_->[4] eq 'unparsed' } @$ev), 'every line parses');
my %cpu = map { $_->[2] => 1 } @$ev;
is(scalar(keys %cpu), 4, 'entries from each of the 4 CPUs');
is($t->cmd("echo > $T/trace"), '', 'echo > trace');
($head) = trace($t);
($in, $written, $lost) = header_counts($head);
is("$in $lost", '0 0', 'cleared (tracing_on 0): 0 entries, 0 lost');
is($t->cmd("echo !*:* > $T/set_event"), '', 'echo !*:* > set_event');
ok(all_sites(trace_keys($t), 'nop'), 'every trace site nop');
is($t->poweroff(30), 1, 'poweroff');
$t->stop;
done_testing();
