#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/v2_files.t - booted with cgroup=v2: the unified tree at
# /sys/fs/cgroup, every cgroup.* and memory.* file read in Linux's format,
# and every bad write refused with Linux's error and nothing changed -
# what Linux's selftests (test_core, test_memcontrol) and LTP check of
# the same files. Then the cgroups are emptied and removed: no dying
# descendant left, and check: ok.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $t = Tally->boot(smp => 2, mem => '256M', append => 'cgroup=v2',
		    timeout => 900);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt');
my $R = '/sys/fs/cgroup';

# refused(ENAME, command...) - each command answers exactly one line
# "error: ENAME: <explanation>".
sub refused {
	my ($name, @cmds) = @_;
	for my $c (@cmds) {
		like($t->cmd($c, 60) // 'no prompt', qr/^error: $name: \S.*$/,
		     "'$c': $name");
	}
}

sub reads {
	my ($path, $want, $what) = @_;
	is($t->file($path), $want, $what // "$path reads '$want'");
}

# --- the tree ---------------------------------------------------------------
like($t->transcript, qr/^cgroup: v2 \(one unified tree at \/sys\/fs\/cgroup\)$/m,
     'the boot says v2');
like($t->transcript, qr/^slab_accounting: objects /m,
     'v2 defaults to the objects slab design');
refused('ENOENT', 'ls /cgroup', 'mkdir /cgroup/A');
like($t->file('/proc/mounts'),
     qr{^cgroup2 /sys/fs/cgroup cgroup2 \S+ 0 0$}m, '/proc/mounts lists cgroup2');

# --- the root ---------------------------------------------------------------
reads("$R/cgroup.controllers", 'memory pids');
reads("$R/cgroup.subtree_control", '', 'the root enables nothing at boot');
reads("$R/cgroup.stat", "nr_descendants 0\nnr_dying_descendants 0");
reads("$R/cgroup.max.descendants", 'max');
reads("$R/cgroup.max.depth", 'max');
like($t->file("$R/cgroup.procs"), qr/\A(\d+\n)*\d+\z/, 'root cgroup.procs: PIDs');
refused('ENOENT', map { "cat $R/$_" } qw(cgroup.events cgroup.type
	memory.current memory.max memory.events pids.max pids.current));
like($t->cmd("ls $R") // '', qr/^memory\.reclaim$/m,
     'the root has memory.reclaim, whatever it enables');
refused('EINVAL', "echo 1 > $R/cgroup.controllers");

# memory.stat: Linux's v2 keys, in Linux's order, and only numbers.
my @keys = qw(anon file kernel kernel_stack pagetables percpu sock vmalloc
	shmem file_mapped file_dirty file_writeback inactive_anon active_anon
	inactive_file active_file unevictable slab_reclaimable
	slab_unreclaimable slab);
sub stat_keys_ok {
	my ($dir) = @_;
	my @lines = split /\n/, $t->file("$dir/memory.stat");
	is(join(' ', map { (split ' ')[0] } @lines), "@keys",
	   "$dir/memory.stat: Linux's keys in Linux's order");
	is(scalar(grep { !/^\w+ \d+$/ } @lines), 0,
	   "$dir/memory.stat: every line 'key bytes'");
}
stat_keys_ok($R);

# --- a child, before and after memory is enabled -----------------------------
is($t->cmd("mkdir $R/A"), '', 'mkdir A');
reads("$R/A/cgroup.controllers", '', 'A may enable nothing yet');
reads("$R/A/cgroup.type", 'domain');
reads("$R/A/cgroup.events", "populated 0\nfrozen 0");
reads("$R/A/cgroup.procs", '', 'A has no task');
refused('ENOENT', "cat $R/A/memory.max", "cat $R/A/pids.max");

# subtree_control: the grammar, all or nothing.
refused('EINVAL', map { "echo $_ > $R/cgroup.subtree_control" }
	'memory', '+foo', '+memory +foo', 'memory+', '+', '-', '++memory');
reads("$R/cgroup.subtree_control", '', 'bad writes enabled nothing');
is($t->cmd("echo +memory +pids > $R/cgroup.subtree_control"), '',
   'the root enables memory and pids');
reads("$R/cgroup.subtree_control", 'memory pids');
reads("$R/A/cgroup.controllers", 'memory pids', 'A may enable both');
reads("$R/A/pids.$_", 'max') for qw(max);
reads("$R/A/pids.$_", '0') for qw(current peak);
reads("$R/A/pids.events", 'max 0');
reads("$R/A/pids.events.local", 'max 0');
is($t->cmd("echo +memory > $R/cgroup.subtree_control"), '',
   'enabling it again changes nothing');

# The memory files of a fresh cgroup.
reads("$R/A/memory.current", '0', 'a fresh cgroup has memory.current 0');
reads("$R/A/memory.$_", 'max') for qw(high max swap.max);
reads("$R/A/memory.$_", '0') for qw(min low peak swap.current oom.group);
my $events0 = "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0";
reads("$R/A/memory.events", $events0);
reads("$R/A/memory.events.local", $events0);
stat_keys_ok("$R/A");

# Sizes: max or bytes as Linux's memparse reads them (C's notation, k to e),
# rounded down to pages; from the largest page multiple a counter holds
# (PAGE_COUNTER_MAX pages) up, max.
for (['1M', 1048576], ['4097', 4096], ['8195', 8192], ['0x2000', 8192],
     ['64k', 65536], ['2G', 2147483648], ['1T', 1099511627776],
     ['2t', 2199023255552], ['1p', 1125899906842624], ['020000', 8192],
     ['1e', 1152921504606846976], ['9223372036854771711', 9223372036854767616],
     ['9223372036854771712', 'max'], ['9223372036854775807', 'max'],
     ['18446744073709551615', 'max'], ['8e', 'max'], ['max', 'max']) {
	my ($in, $out) = @$_;
	is($t->cmd("echo $in > $R/A/memory.max"), '', "memory.max $in");
	reads("$R/A/memory.max", $out, "memory.max $in reads back $out");
}
is($t->cmd("echo 3M > $R/A/memory.high"), '', 'memory.high 3M');
is($t->cmd("echo 2M > $R/A/memory.max"), '', 'memory.max 2M');
for my $f (qw(min low)) {
	is($t->cmd("echo 1M > $R/A/memory.$f"), '', "memory.$f 1M");
	reads("$R/A/memory.$f", '1048576', "memory.$f reads back");
}
refused('EINVAL', map { my $f = $_; map { "echo $_ > $R/A/memory.$f" }
	'xx', '1.0', '1xx', '-1', '+1', '1kk', '1KiB', 'maxx', '0x', '08',
	'18446744073709551616', '16e' } qw(max high min low));
refused('EINVAL', map { "echo $_ > $R/A/memory.oom.group" } '2', '-1', 'x',
	'0x2', '1.0', '99999999999999999999');
refused('EINVAL', map { "echo $_ > $R/A/memory.swap.max" } '1M', 'x');
refused('EINVAL', map { "echo 1 > $R/A/memory.$_" }
	qw(current peak events events.local stat swap.current));
reads("$R/A/memory.max", '2097152', 'bad writes left memory.max');
reads("$R/A/memory.high", '3145728', 'bad writes left memory.high');
reads("$R/A/memory.min", '1048576', 'bad writes left memory.min');
reads("$R/A/memory.oom.group", '0', 'bad writes left memory.oom.group');
is($t->cmd("echo 1 > $R/A/memory.oom.group"), '', 'memory.oom.group 1');
reads("$R/A/memory.oom.group", '1');
# C's notation, as Linux's kstrtoint reads it.
is($t->cmd("echo +0 > $R/A/memory.oom.group"), '', 'memory.oom.group +0');
reads("$R/A/memory.oom.group", '0');
is($t->cmd("echo 0x1 > $R/A/memory.oom.group"), '', 'memory.oom.group 0x1');
reads("$R/A/memory.oom.group", '1');
is($t->cmd("echo 0 > $R/A/memory.swap.max"), '', 'memory.swap.max 0');
reads("$R/A/memory.swap.max", '0');

# --- tasks: cgroup.procs, no internal processes -----------------------------
is($t->cmd("mkdir $R/A/B"), '', 'mkdir A/B');
refused('ENOENT', "cat $R/A/B/memory.max",
	"echo +memory > $R/A/B/cgroup.subtree_control");
my $pid = $t->run_pid("$R/A spin");
ok($pid, "a task in A (pid $pid)");
reads("$R/A/cgroup.procs", $pid);
reads("$R/A/cgroup.events", "populated 1\nfrozen 0");
reads("$R/A/pids.current", '1', 'pids.current counts it');
refused('EBUSY', "echo +memory > $R/A/cgroup.subtree_control");
reads("$R/A/cgroup.subtree_control", '', 'no internal processes: refused');
is($t->cmd("echo +pids > $R/A/cgroup.subtree_control"), '',
   'pids alone may be enabled over tasks');
reads("$R/A/cgroup.subtree_control", 'pids');
reads("$R/A/B/cgroup.controllers", 'pids');
reads("$R/A/B/pids.max", 'max', 'A/B has the pids files');
refused('ENOENT', "cat $R/A/B/memory.max");
refused('EBUSY', "run $R/A spin", "echo $pid > $R/A/cgroup.procs",
	"echo -pids > $R/cgroup.subtree_control",
	"echo -memory -pids > $R/cgroup.subtree_control");
reads("$R/cgroup.subtree_control", 'memory pids', 'nothing was disabled');
refused('EINVAL', map { "echo $_ > $R/A/B/cgroup.procs" } 'x', '1x', '-1', '1.0',
	'0x', '2147483648', '99999999999999999999');
refused('ESRCH', "echo 99999 > $R/A/B/cgroup.procs", "echo 0x7fffffff > $R/A/B/cgroup.procs");
is($t->cmd("echo +$pid > $R/A/B/cgroup.procs"), '', 'move the task to A/B (+PID, as kstrtoint takes it)');
reads("$R/A/B/cgroup.procs", $pid, 'A/B has it');
reads("$R/A/cgroup.procs", '', 'A has it no more');
reads("$R/A/cgroup.events", "populated 1\nfrozen 0", 'A: populated below');
reads("$R/A/B/pids.current", '1', "the task's count moved with it");
reads("$R/A/pids.current", '1', 'and counts in A still');

# --- cgroup.max.*, cgroup.kill, cgroup.type ---------------------------------
for my $f (qw(descendants depth)) {
	refused('EINVAL', map { "echo $_ > $R/A/cgroup.max.$f" } 'x', '1x', '0x', '');
	refused('ERANGE', map { "echo $_ > $R/A/cgroup.max.$f" } '-1', '2147483648',
		'99999999999999999999');
	reads("$R/A/cgroup.max.$f", 'max', "bad writes left cgroup.max.$f");
	# C's notation, as Linux's kstrtoint reads it; INT_MAX is max.
	for (['0x5', '5'], ['+7', '7'], ['010', '8'], ['2147483646', '2147483646'],
	     ['2147483647', 'max'], ['max', 'max']) {
		is($t->cmd("echo $_->[0] > $R/A/cgroup.max.$f"), '', "cgroup.max.$f $_->[0]");
		reads("$R/A/cgroup.max.$f", $_->[1], "cgroup.max.$f $_->[0] reads back $_->[1]");
	}
}
is($t->cmd("echo 1 > $R/A/cgroup.max.descendants"), '', 'A: max.descendants 1');
reads("$R/A/cgroup.max.descendants", '1');
refused('EAGAIN', "mkdir $R/A/C");
is($t->cmd("echo max > $R/A/cgroup.max.descendants"), '', 'back to max');
is($t->cmd("echo 1 > $R/A/cgroup.max.depth"), '', 'A: max.depth 1');
refused('EAGAIN', "mkdir $R/A/B/D");
is($t->cmd("mkdir $R/A/C"), '', 'a sibling at depth 1 is allowed');
is($t->cmd("rmdir $R/A/C"), '', 'rmdir A/C');
reads("$R/cgroup.stat", "nr_descendants 2\nnr_dying_descendants 0");
reads("$R/A/cgroup.stat", "nr_descendants 1\nnr_dying_descendants 0");

refused('EINVAL', "echo x > $R/A/B/cgroup.kill", "echo 1x > $R/A/B/cgroup.kill",
	"echo domain > $R/A/B/cgroup.type");
refused('ERANGE', "echo 2 > $R/A/B/cgroup.kill", "echo 0 > $R/A/B/cgroup.kill",
	"echo 0x2 > $R/A/B/cgroup.kill", "echo 4294967297 > $R/A/B/cgroup.kill");
refused('EOPNOTSUPP', "echo threaded > $R/A/B/cgroup.type");
reads("$R/A/B/cgroup.type", 'domain', 'still a domain');
reads("$R/A/B/cgroup.procs", $pid, 'bad kills killed nothing');

# --- the OOM killer and oom_score_adj ---------------------------------------
# A hog over memory.max is killed, and a task with oom_score_adj 1000
# beside it (worth more than the whole limit); one with -1000 is spared.
is($t->cmd("mkdir $R/O"), '', 'mkdir O');
is($t->cmd("echo 1M > $R/O/memory.max"), '', 'O: memory.max 1M');
my $immune = $t->run_pid("$R/O spin");
my $first = $t->run_pid("$R/O spin");
is($t->cmd("echo -1000 > /proc/$immune/oom_score_adj"), '', 'spin: -1000');
is($t->cmd("echo 1000 > /proc/$first/oom_score_adj"), '', 'spin: 1000');
my $hog = $t->run_pid("$R/O hog 2M");
ok($hog, 'a hog of 2M under 1M');
ok($t->until_true(30, sub { $t->file("$R/O/cgroup.procs") eq $immune }),
   'the hog and the task with 1000 were killed, the immune one was not');
# The shell prints a job's notice when it sees the job end, which may be
# just after cgroup.procs has changed.
ok($t->until_true(30, sub { $t->transcript =~ /^\[pid $first killed\]$/m }),
   'the 1000 task killed');
ok($t->until_true(30, sub { $t->transcript =~ /^\[pid $hog killed\]$/m }),
   'the hog killed');
my %ev = $t->file("$R/O/memory.events") =~ /^(\w+) (\d+)$/mg;
is($ev{oom_kill}, 2, 'O: oom_kill 2');
cmp_ok($ev{oom}, '>=', 2, "O: oom $ev{oom}");
cmp_ok($ev{max}, '>=', 2, "O: max $ev{max}");
cmp_ok($t->file("$R/O/memory.current"), '<=', 1048576, 'O: within 1M');
is($t->cmd("echo 1 > $R/O/cgroup.kill"), '', 'cgroup.kill O');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/O") eq '' }), 'rmdir O');

# --- memory.max below usage, with memory.oom.group ----------------------------
# Writing memory.max below usage OOM-kills as a charge over it does: the
# victim (the hog, the highest score) and then its whole group, a task
# at -1000 spared; one OOM, oom_kill counting the victim twice. Without
# the group, killing the hog alone would have been enough.
is($t->cmd("mkdir $R/G"), '', 'mkdir G');
is($t->cmd("echo 1 > $R/G/memory.oom.group"), '', 'G: memory.oom.group 1');
my $gimmune = $t->run_pid("$R/G spin");
is($t->cmd("echo -1000 > /proc/$gimmune/oom_score_adj"), '', 'G: a spin at -1000');
my @gspins = map { $t->run_pid("$R/G spin") } 1 .. 2;
$t->run_pid("$R/G hog 1M");
ok($t->until_true(30, sub { $t->file("$R/G/memory.stat") =~ /^anon 1048576$/m }),
   'G: a hog of 1M beside three spins');
is($t->cmd("echo 512K > $R/G/memory.max"), '', 'G: memory.max 512K, below usage');
ok($t->until_true(30, sub { $t->file("$R/G/cgroup.procs") eq $gimmune }),
   'the hog and its group were killed, the -1000 spin was not');
my %gev = $t->file("$R/G/memory.events") =~ /^(\w+) (\d+)$/mg;
is("$gev{oom} $gev{oom_kill} $gev{oom_group_kill}", '1 4 1',
   'G: oom 1, oom_kill 4 (the hog twice, two spins), oom_group_kill 1');
ok($t->until_true(30, sub { $t->file("$R/G/memory.current") <= 524288 }),
   'G: within 512K once they are gone');
is($t->cmd("echo 1 > $R/G/cgroup.kill"), '', 'cgroup.kill G');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/G") eq '' }), 'rmdir G');

# --- memory.high within one long allocation ---------------------------------
# Linux handles memory.high inside a charge once a batch of pages is over
# it (test_memcg_high's check): one allocation of 3M under a high of 1M is
# pulled back to about 1M, and high is counted.
is($t->cmd("mkdir $R/H"), '', 'mkdir H');
is($t->cmd("echo 1M > $R/H/memory.high"), '', 'H: memory.high 1M');
my $cache = $t->run_pid("$R/H cache 3M");
ok($t->until_true(30, sub { $t->file("$R/H/memory.events") =~ /^high [1-9]/m }),
   'one cache 3M counts high');
ok($t->until_true(30, sub { $t->file("$R/H/memory.stat") =~ /^file [1-9]/m }),
   'its cache pages are charged');
# Once it is done: at most the pages since its last look at high (64) and
# a stock's batch charged ahead (32) above it; without the looks, 3M.
# (ps's last column, WORK, is the pages it holds once it is done.)
ok($t->until_true(30, sub { ($t->cmd('ps', 60) // '') =~ /^\s*$cache\s.*\scache\s+[1-9]\d*\s*$/m }),
   'the cache is done');
cmp_ok($t->file("$R/H/memory.current"), '<=', 1048576 + (64 + 32) * 4096,
       'and held within 96 pages of memory.high');
like($t->file("$R/H/memory.events"), qr/^max 0\noom 0\noom_kill 0$/m, 'nothing killed');
is($t->cmd("echo 1 > $R/H/cgroup.kill"), '', 'cgroup.kill H');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/H") eq '' }), 'rmdir H');

# --- memory.reclaim ----------------------------------------------------------
# Reclaim asked for ahead of need (test_memcg_reclaim's file): cache pages
# go, as many as asked; asking for more than there are drops what there is
# and answers EAGAIN; a hog's pages are not cache and stay.
is($t->cmd("mkdir $R/M"), '', 'mkdir M');
my $mcache = $t->run_pid("$R/M cache 2M");
ok($t->until_true(30, sub { ($t->cmd('ps', 60) // '') =~ /^\s*$mcache\s.*\scache\s+[1-9]\d*\s*$/m }),
   'M: cache 2M is done');
my $stat_file = sub { ($t->file("$R/M/memory.stat") =~ /^file (\d+)$/m)[0] };
is($stat_file->(), 2097152, 'M: 2M of cache');
my $current = $t->file("$R/M/memory.current");
refused('EINVAL', map { "echo $_ > $R/M/memory.reclaim" } 'x', '1x', '-1',
	'max', '1M2');
is($stat_file->(), 2097152, 'bad writes reclaimed nothing');
is($t->cmd("echo 0 > $R/M/memory.reclaim"), '', 'reclaim 0: nothing to do');
is($t->cmd("echo 1M > $R/M/memory.reclaim"), '', 'reclaim 1M');
is($stat_file->(), 1048576, '1M of cache left');
is($t->file("$R/M/memory.current"), $current - 1048576,
   'memory.current fell by 1M');
is($t->cmd("echo 6000 > $R/M/memory.reclaim"), '',
   'reclaim 6000 bytes: one whole page');
is($stat_file->(), 1048576 - 4096, 'one page less');
# The root's memory.reclaim reaches every cgroup's cache (M's is the only
# cache now).
refused('EINVAL', "echo x > $R/memory.reclaim");
is($t->cmd("echo 8k > $R/memory.reclaim"), '', 'the root: reclaim 8k');
is($stat_file->(), 1048576 - 3 * 4096, "two of M's pages less");
refused('EAGAIN', "echo 2M > $R/M/memory.reclaim");
is($stat_file->(), 0, 'EAGAIN, but the cache that was there is dropped');
my $mhog = $t->run_pid("$R/M hog 1M");
ok($t->until_true(30, sub { $t->file("$R/M/memory.stat") =~ /^anon 1048576$/m }),
   'M: a hog of 1M');
refused('EAGAIN', "echo 4k > $R/M/memory.reclaim");
like($t->file("$R/M/memory.stat"), qr/^anon 1048576$/m, "the hog's pages stay");
like($t->file("$R/M/memory.events"), qr/^max 0\noom 0\noom_kill 0$/m,
     'reclaim counts no event and kills nothing');
is($t->cmd("echo 1 > $R/M/cgroup.kill"), '', 'cgroup.kill M');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/M") eq '' }), 'rmdir M');

# --- cgroup.freeze ------------------------------------------------------------
# A frozen cgroup's tasks stop where they hold nothing, and stay stopped
# until the thaw; what enters a frozen cgroup stops too; a frozen fork
# bomb forks no more and dies where it stands (what kselftest's
# test_freezer checks: simple, mkdir, migrate, forkbomb).
# work_of(PID) - ps's STATE and WORK of the task.
sub work_of {
	my ($pid) = @_;
	my ($state, $work) = ($t->cmd('ps', 60) // '') =~
		/^\s*$pid\s+\S+\s+\d+\s+(\S+)\s+\S+\s+(\d+)\s*$/m;
	return ($state // '?', $work // -1);
}
my $frozen = sub { my ($dir) = @_; $t->file("$R/$dir/cgroup.events") =~ /^frozen 1$/m };
refused('ENOENT', "cat $R/cgroup.freeze");
is($t->cmd("mkdir $R/Z"), '', 'mkdir Z');
reads("$R/Z/cgroup.freeze", '0', 'Z: not frozen');
refused('ERANGE', map { "echo $_ > $R/Z/cgroup.freeze" } '2', '-1', '4294967297');
refused('EINVAL', map { "echo $_ > $R/Z/cgroup.freeze" } 'x', '1x', 'max');
reads("$R/Z/cgroup.freeze", '0', 'bad writes froze nothing');
my $zw = $t->run_pid("$R/Z worker");
ok($t->until_true(30, sub { (work_of($zw))[1] > 0 }), 'Z: a worker works');
is($t->cmd("echo 1 > $R/Z/cgroup.freeze"), '', 'freeze Z');
reads("$R/Z/cgroup.freeze", '1');
ok($t->until_true(30, sub { $frozen->('Z') }), 'Z: frozen 1');
my ($zstate, $zwork) = work_of($zw);
is($zstate, 'S', 'the worker sleeps');
$t->cmd('sleep 500');
is((work_of($zw))[1], $zwork, 'and does no work in half a second');
my $zw2 = $t->run_pid("$R/Z worker");
ok($zw2, 'a task started in a frozen cgroup');
$t->cmd('sleep 300');
is((work_of($zw2))[1], 0, 'does not start its work');
like($t->file("$R/Z/cgroup.events"), qr/^populated 1\nfrozen 1$/, 'Z: still frozen');
is($t->cmd("mkdir $R/Z/Y"), '', 'mkdir Z/Y');
reads("$R/Z/Y/cgroup.events", "populated 0\nfrozen 1", 'a child of a frozen cgroup is frozen');
reads("$R/Z/Y/cgroup.freeze", '0', 'by its parent, not by itself');
is($t->cmd("mkdir $R/T"), '', 'mkdir T');
is($t->cmd("echo $zw2 > $R/T/cgroup.procs"), '', 'move the second worker out');
ok($t->until_true(30, sub { (work_of($zw2))[1] > 0 }), 'out of the frozen cgroup, it works');
is($t->cmd("echo $zw2 > $R/Z/Y/cgroup.procs"), '', 'and into Z/Y');
ok($t->until_true(30, sub { $frozen->('Z/Y') }), 'Z/Y: frozen 1 with the task in it');
is($t->cmd("echo 0 > $R/Z/cgroup.freeze"), '', 'thaw Z');
like($t->file("$R/Z/Y/cgroup.events"), qr/^frozen 0$/m, 'Z/Y thawed with it');
ok($t->until_true(30, sub { (work_of($zw))[1] > $zwork }), 'the first worker works again');
ok($t->until_true(30, sub { (work_of($zw2))[1] > 0 && (work_of($zw2))[0] eq 'R' }),
   'so does the second');
is($t->cmd("echo 1 > $R/Z/cgroup.kill"), '', 'cgroup.kill Z');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/Z/Y") eq '' }), 'rmdir Z/Y');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/Z") eq '' }), 'rmdir Z');
is($t->cmd("rmdir $R/T"), '', 'rmdir T');
# A fork bomb held by pids.max, frozen: no more forks are tried (its
# refusals stop), and the kill takes it as it stands.
is($t->cmd("mkdir $R/K"), '', 'mkdir K');
is($t->cmd("echo 20 > $R/K/pids.max"), '', 'K: pids.max 20');
my $bomb = $t->run_pid("$R/K forkbomb");
ok($t->until_true(30, sub { $t->file("$R/K/pids.events") =~ /^max [1-9]/ }),
   'K: the bomb meets pids.max');
is($t->cmd("echo 1 > $R/K/cgroup.freeze"), '', 'freeze K');
ok($t->until_true(30, sub { $frozen->('K') }), 'K: frozen 1');
my $refused = $t->file("$R/K/pids.events");
$t->cmd('sleep 500');
is($t->file("$R/K/pids.events"), $refused, 'frozen, the bomb tries no fork');
reads("$R/K/pids.current", '20', 'and holds its 20 tasks');
is($t->cmd("echo 1 > $R/K/cgroup.kill"), '', 'cgroup.kill K, frozen');
ok($t->until_true(30, sub { $t->file("$R/K/pids.current") eq '0' }),
   'every frozen task dies');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/K") eq '' }), 'rmdir K');

# --- a controller turned off, then on again -------------------------------
# Linux gives the child a new css of the controller: the limit goes with
# the files, and the events and the peak start again; the tasks stay.
is($t->cmd("mkdir $R/P"), '', 'mkdir P');
is($t->cmd("echo +memory +pids > $R/P/cgroup.subtree_control"), '',
   'P enables memory and pids');
is($t->cmd("mkdir $R/P/C"), '', 'mkdir P/C');
is($t->cmd("echo 1 > $R/P/C/pids.max"), '', 'P/C: pids.max 1');
my $c1 = $t->run_pid("$R/P/C spin");
ok($c1, 'a task in P/C');
# (The first refusal also prints the "fork rejected" line.)
like($t->cmd("run $R/P/C spin"), qr/^error: EAGAIN: /m, 'a second task: EAGAIN');
reads("$R/P/C/pids.events", 'max 1', 'the refusal is counted');
is($t->cmd("echo -pids > $R/P/cgroup.subtree_control"), '', 'P turns pids off');
refused('ENOENT', "cat $R/P/C/pids.max");
my $c2 = $t->run_pid("$R/P/C spin");
ok($c2, 'pids off: P/C is no longer held to one task');
is($t->cmd("echo +pids > $R/P/cgroup.subtree_control"), '', 'pids on again');
reads("$R/P/C/pids.max", 'max', 'pids.max starts again at max');
reads("$R/P/C/pids.events", 'max 0', 'pids.events at 0');
reads("$R/P/C/pids.events.local", 'max 0', 'pids.events.local at 0');
reads("$R/P/C/pids.current", '2', 'pids.current counts the two tasks');
is($t->cmd("echo 1M > $R/P/C/memory.max"), '', 'P/C: memory.max 1M');
my $hog2 = $t->run_pid("$R/P/C hog 2M");
ok($t->until_true(30, sub { $t->transcript =~ /^\[pid $hog2 killed\]$/m }),
   'a hog of 2M in P/C is OOM-killed');
like($t->file("$R/P/C/memory.events"), qr/^oom_kill 1$/m, 'oom_kill 1');
is($t->cmd("echo -memory > $R/P/cgroup.subtree_control"), '', 'P turns memory off');
refused('ENOENT', "cat $R/P/C/memory.max");
is($t->cmd("echo +memory > $R/P/cgroup.subtree_control"), '', 'memory on again');
reads("$R/P/C/memory.max", 'max', 'memory.max starts again at max');
reads("$R/P/C/memory.events", $events0, 'memory.events at 0');
reads("$R/P/C/memory.events.local", $events0, 'memory.events.local at 0');
is($t->file("$R/P/C/memory.peak"), $t->file("$R/P/C/memory.current"),
   'memory.peak starts again at memory.current');
is($t->cmd("echo 1 > $R/P/C/cgroup.kill"), '', 'cgroup.kill P/C');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/P/C") eq '' }), 'rmdir P/C');
is($t->cmd("rmdir $R/P"), '', 'rmdir P');

# --- removal ----------------------------------------------------------------
refused('EBUSY', "rmdir $R/A", "rmdir $R/A/B");
is($t->cmd("echo 1 > $R/A/B/cgroup.kill"), '', 'cgroup.kill A/B');
ok($t->until_true(30, sub { $t->file("$R/A/cgroup.events") =~ /^populated 0$/m }),
   'A is no longer populated');
ok($t->until_true(30, sub { $t->cmd("rmdir $R/A/B") eq '' }), 'rmdir A/B');
is($t->cmd("rmdir $R/A"), '', 'rmdir A');
ok($t->until_true(30, sub { $t->file("$R/cgroup.stat") eq
	"nr_descendants 0\nnr_dying_descendants 0" }), 'nothing left dying');
$t->check_ok('after the v2 files');
is($t->poweroff, 1, 'poweroff');
done_testing();
