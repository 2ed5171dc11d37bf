#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/slab.t - slab accounting seen from the shell (docs/slab.md):
# /proc/slabinfo in Linux's 2.1 format with each domain's child caches as
# name(domain); /tmp and its directories (ls, cd, mkdir, rmdir, rm -r);
# a fork charged for its stack and its struct task (kernel_stack + slab =
# kmem, exactly); the 2012 cover letter's `while true; do mkdir x; cd x;
# done` (mkdirloop) stopped at a 4M kmem limit with the rest of the machine
# unaffected, and `rm -r` giving every page back; and a domain removed while
# its child caches hold objects, dying until they are freed; a
# /proc/slabinfo of 24 domains' child caches, longer than one 8 KiB read,
# printed whole. MemFree and `check` before and after. Every scenario
# runs in both slab accounting designs (docs/slab.md), booted with
# slab_accounting=caches and =objects: in `objects` no child cache is
# made, objects are charged by the byte (memory.stat slab is their
# bytes, kmem usage the whole pages charged for them), and a removed
# domain is freed at once, its objects charged to its parent (here the
# root, which is charged nothing).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

# The timeout of each file this test reads ($t->file, $t->stat_of, ...,
# Tally.pm), in seconds.
my $T = 60;
my $t;

# slabinfo() - { name => {active, num, objsize, perslab, pages, slabs} }
# from /proc/slabinfo, or undef if a line is not in Linux's format.
my $LINE_RE = qr/^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+) : tunables\s+\d+\s+\d+\s+\d+ : slabdata\s+(\d+)\s+(\d+)\s+\d+$/;
sub slabinfo {
	my @l = split /\n/, $t->file('/proc/slabinfo', $T);
	return undef unless @l >= 2 && $l[0] eq 'slabinfo - version: 2.1'
		&& $l[1] eq '# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>';
	my %c;
	for (@l[2 .. $#l]) {
		my @m = $_ =~ $LINE_RE or return undef;
		$c{$m[0]} = { active => $m[1], num => $m[2], objsize => $m[3],
			perslab => $m[4], pages => $m[5], active_slabs => $m[6], slabs => $m[7] };
	}
	return \%c;
}

# pages(bytes) - the whole pages that bytes charged by the byte take.
sub pages { my ($b) = @_; return int(($b + 4095) / 4096) * 4096 }

for my $design (qw(caches objects)) {
my $objects = $design eq 'objects';
$t = Tally->boot(smp => 2, mem => '512M', timeout => 900,
		 append => "slab_accounting=$design");
is($t->prompt(60), '/', "$design: prompt") or BAIL_OUT('no prompt: ' . $t->transcript);
like($t->seen, qr/^slab_accounting: \Q$design\E /m, "$design: booted in the $design design");

my $free0 = $t->memfree_kb($T);
ok(defined $free0, 'MemFree readable');

# --- /proc/slabinfo -------------------------------------------------------------
{
	my $si = slabinfo();
	ok($si, '/proc/slabinfo: the 2.1 header and every line in Linux\'s format')
		or diag($t->file('/proc/slabinfo', $T));
	ok($si && $si->{task_struct} && $si->{tmpfs_inode} && $si->{'kmalloc-128'},
		'task_struct, tmpfs_inode and the kmalloc caches are listed');
	ok($si && !grep(/\(/, keys %$si), 'no child cache before any domain allocates');
	like(scalar $t->cmd('echo 1 > /proc/slabinfo'), qr/^error: EINVAL: /, 'slabinfo cannot be written');
}

# --- /tmp from the shell --------------------------------------------------------
{
	ok(grep({ $_ eq 'tmp' } split /\n/, $t->cmd('ls /') // ''), 'ls / shows tmp');
	is($t->cmd('ls /tmp'), '', '/tmp starts empty');
	is($t->cmd('mkdir /tmp/a'), '', 'mkdir /tmp/a');
	is($t->cmd('cd /tmp/a'), '', 'cd /tmp/a');
	is($t->cmd('pwd'), '/tmp/a', 'pwd /tmp/a');
	is($t->cmd('mkdir b'), '', 'mkdir b (relative)');
	is($t->cmd('mkdir b/c'), '', 'mkdir b/c');
	is($t->cmd('ls'), 'b', 'ls shows b');
	like(scalar $t->cmd('mkdir b'), qr/^error: EEXIST: /, 'mkdir of an existing directory: EEXIST');
	like(scalar $t->cmd('mkdir nosuch/d'), qr/^error: ENOENT: /, 'mkdir under a missing directory: ENOENT');
	like(scalar $t->cmd('cat b'), qr/^error: EISDIR: /, 'cat of a directory: EISDIR');
	like(scalar $t->cmd('echo 1 > /tmp/file'), qr/^error: ENOENT: /, 'no files in /tmp: echo > a new name is ENOENT');
	like(scalar $t->cmd('rmdir /tmp/a'), qr/^error: EBUSY: /, 'rmdir of a non-empty directory: EBUSY');
	like(scalar $t->cmd('rmdir /tmp'), qr/^error: EBUSY: /, 'rmdir /tmp: EBUSY');
	like(scalar $t->cmd('rm -r /tmp'), qr/^error: EBUSY: /, 'rm -r /tmp: EBUSY');
	like(scalar $t->cmd('rm /tmp/a'), qr/^error: EINVAL: /, 'rm without -r: EINVAL');
	like(scalar $t->cmd('rm -r /cgroup'), qr/^error: (EPERM|EBUSY): /, 'rm -r /cgroup is refused');
	like(scalar $t->cmd('rm -r /tmp/nosuch'), qr/^error: ENOENT: /, 'rm -r of a missing directory: ENOENT');
	is($t->cmd('ls /tmp/a/b'), 'c', 'nothing changed: /tmp/a/b/c still there');
	is($t->cmd('cd /'), '', 'cd /');
	is($t->cmd('rmdir /tmp/a/b/c'), '', 'rmdir /tmp/a/b/c');
	is($t->cmd('rm -r /tmp/a'), '', 'rm -r /tmp/a');
	is($t->cmd('ls /tmp'), '', '/tmp empty again');
	like(scalar $t->cmd('run /cgroup mkdirloop /cgroup'), qr/^error: EINVAL: /, 'mkdirloop outside /tmp: EINVAL');
	my $si = slabinfo();
	ok($si && !grep(/\(/, keys %$si), 'the shell (a system task) is charged nothing: still no child cache');
}

# --- a fork is charged for its stack and its struct task -------------------------
{
	my $n = 10;
	$t->cmd('mkdir /cgroup/F');
	$t->cmd('echo 64M > /cgroup/F/memory.kmem.limit_in_bytes');
	my @pids = grep { defined } map { $t->run_pid('F spin') } 1 .. $n;
	is(scalar @pids, $n, "$n spin tasks in /cgroup/F");
	my $si = slabinfo();
	my $c = $si && $si->{'task_struct(F)'};
	if ($objects) {
	ok(!$c, 'objects: no child cache task_struct(F); the root cache serves F');
	my $size = $si && $si->{task_struct} ? $si->{task_struct}{objsize} : 0;
	# kmem = N stacks + the whole pages charged for the task structs'
	# bytes (the byte stocks are given back before a usage is read)
	my $want = $n * 16384 + pages($n * $size);
	is($t->file('/cgroup/F/memory.kmem.usage_in_bytes', $T), $want,
		"kmem usage = $n x 16384 + the pages of $n x $size bytes = $want");
	is($t->stat_of('/cgroup/F', 'kernel_stack', $T), $n * 16384, 'memory.stat kernel_stack: the stacks');
	is($t->stat_of('/cgroup/F', 'slab', $T), $n * $size, "memory.stat slab: $n task structs of $size bytes");
	} else {
	ok($c, '/proc/slabinfo shows the child cache task_struct(F)');
	$c //= { active => 0, perslab => 1, pages => 1, slabs => 0 };
	is($c->{active}, $n, "task_struct(F) holds the $n task structs");
	my $slabs = int(($n + $c->{perslab} - 1) / $c->{perslab});
	is($c->{slabs}, $slabs, "in ceil($n / $c->{perslab}) = $slabs slabs: no other domain's objects, no spare slab");
	# kmem = N stacks + the slabs of their task structs, to the byte
	my $want = $n * 16384 + $slabs * $c->{pages} * 4096;
	is($t->file('/cgroup/F/memory.kmem.usage_in_bytes', $T), $want,
		"kmem usage = $n x 16384 + $slabs x $c->{pages} x 4096 = $want");
	is($t->stat_of('/cgroup/F', 'kernel_stack', $T), $n * 16384, 'memory.stat kernel_stack: the stacks');
	is($t->stat_of('/cgroup/F', 'slab', $T), $slabs * $c->{pages} * 4096, 'memory.stat slab: the task-struct slabs');
	is(($t->stat_of('/cgroup/F', 'kernel_stack', $T) // 0) + ($t->stat_of('/cgroup/F', 'slab', $T) // 0),
		$t->stat_of('/cgroup/F', 'kmem', $T), 'kernel_stack + slab = kmem');
	}
	is($t->stat_of('/cgroup', 'total_slab', $T) >= $t->stat_of('/cgroup/F', 'slab', $T) ? 1 : 0, 1,
		'the root\'s total_slab includes F\'s');
	$t->check_ok('with the tasks');
	is($t->cmd('echo 1 > /cgroup/F/cgroup.kill'), '', 'cgroup.kill');
	# The CPU slabs stay (mm/slab_alloc.c): a slab per CPU at most, 2 CPUs;
	# in objects they are charged to nobody.
	my $spare = $objects ? 0 : 2 * $c->{pages} * 4096;
	ok($t->until_true(30, sub { $t->file('/cgroup/F/memory.kmem.usage_in_bytes', $T) <= $spare }),
		"every stack and task struct freed: kmem usage at most the CPU slabs ($spare)");
	$si = slabinfo();
	my $left = $si && $si->{'task_struct(F)'} ? $si->{'task_struct(F)'} : { active => -1, slabs => -1 };
	ok($objects ? !$si->{'task_struct(F)'} : ($left->{active} == 0 && $left->{slabs} >= 0 && $left->{slabs} <= 2),
	   $objects ? 'still no task_struct(F)' : "task_struct(F) keeps no object and at most a slab per CPU ($left->{slabs})");
	is($t->cmd('rmdir /cgroup/F'), '', 'rmdir F');
	is($t->dying($T), 0, 'F is freed at once (nr_dying_descendants 0)');
	$si = slabinfo();
	ok($si && !$si->{'task_struct(F)'}, 'its child cache went with it');
}

# --- mkdirloop under a 4M kmem limit ----------------------------------------------
{
	my $free = $t->memfree_kb($T);
	$t->cmd('mkdir /cgroup/D');
	is($t->cmd('echo 4M > /cgroup/D/memory.kmem.limit_in_bytes'), '', 'kmem limit 4M on /cgroup/D');
	my $pid = $t->run_pid('D mkdirloop');
	ok($pid, 'run D mkdirloop');
	# (Its WORK went with it: the shell reaps its jobs. The directories
	# it made are counted by the objects they hold.)
	is($t->job_notice($pid, 120), "[pid $pid exited]", 'mkdirloop stops (exits) at the first ENOMEM');
	my $si0 = slabinfo();
	# (objects: the root cache holds them, and /tmp's own inode)
	my $made = $objects ? ($si0 && $si0->{tmpfs_inode} ? $si0->{tmpfs_inode}{active} - 1 : 0)
		: ($si0 && $si0->{'tmpfs_inode(D)'} ? $si0->{'tmpfs_inode(D)'}{active} : 0);
	cmp_ok($made, '>', 1000, "it made $made directories");
	my $limit = 4 * 1024 * 1024;
	my $max = $t->file('/cgroup/D/memory.kmem.max_usage_in_bytes', $T);
	cmp_ok($max, '<=', $limit, "kmem usage never above 4M (max_usage $max)");
	# it stopped when one more page (a slab, or a page of bytes) did not fit
	cmp_ok($max, '>', $limit - 4096 * ($objects ? 2 : 1), 'it stopped within a page of the limit');
	cmp_ok($t->file('/cgroup/D/memory.kmem.failcnt', $T), '>=', 1, 'kmem.failcnt counts the refusal');
	is($t->file('/cgroup/D/memory.failcnt', $T), '0', 'the user counter never refused');
	my $si = slabinfo();
	if ($objects) {
	ok($si && !grep(/\(/, keys %$si), 'objects: no child cache at all');
	my $slab = $t->stat_of('/cgroup/D', 'slab', $T) // 0;
	my $each = $si->{tmpfs_inode}{objsize} + $si->{'kmalloc-128'}{objsize};
	is($slab, $made * $each, "memory.stat slab of D: $made directories of $each bytes");
	} else {
	ok($si && $si->{'tmpfs_inode(D)'} && $si->{'kmalloc-128(D)'},
		'/proc/slabinfo shows the child caches tmpfs_inode(D) and kmalloc-128(D)');
	is($si && $si->{'kmalloc-128(D)'}{active}, $made, 'kmalloc-128(D): one directory entry per inode in tmpfs_inode(D)');
	is($si && $si->{tmpfs_inode}{active}, 1, 'the root cache holds only /tmp\'s own inode');
	}
	is($t->cmd('ls /tmp'), 'x', 'ls /tmp: x');
	is($t->cmd('ls /tmp/x/x/x/x'), 'x', 'the chain goes on: ls /tmp/x/x/x/x');

	# the rest of the machine is unaffected
	my $e = do { $t->cmd('mkdir /cgroup/E'); $t->cmd('echo 4M > /cgroup/E/memory.kmem.limit_in_bytes'); $t->run_pid('E spin') };
	ok($e, 'another domain still forks');
	is($t->cmd('mkdir /tmp/other'), '', 'the shell still makes directories in /tmp');
	is($t->cmd('rmdir /tmp/other'), '', 'and removes them');
	my $mid = $t->memfree_kb($T);
	cmp_ok($free - $mid, '<=', 4096 + 512, 'MemFree fell by about the 4M limit, no more ('
		. ($free - $mid) . ' kB)');
	$t->check_ok('at the limit');
	$t->cmd("kill $e");
	$t->job_notice($e, 30);

	# removing the domain: it stays dying while its directories exist
	is($t->cmd("wait $pid", 30), '', 'wait on the reaped mkdirloop answers at once');
	is($t->cmd('rmdir /cgroup/D'), '', 'rmdir D while its directories hold kernel memory');
	if ($objects) {
	is($t->dying($T), 0, 'objects: D is freed at once (its owner record went to the root)');
	is($t->cmd('ls /tmp/x/x'), 'x', 'and its directories live on');
	} else {
	is($t->dying($T), 1, 'D is dying (nr_dying_descendants 1)');
	$si = slabinfo();
	ok($si && $si->{'tmpfs_inode(D)'}, 'its child caches still hold the directories');
	}
	is($t->cmd('rm -r /tmp/x', 120), '', 'rm -r /tmp/x');
	is($t->cmd('ls /tmp'), '', '/tmp is empty');
	ok($t->until_true(10, sub { $t->dying($T) == 0 }), 'every page given back: D is freed (nr_dying_descendants 0)');
	$si = slabinfo();
	ok($si && !grep(/\(D\)$/, keys %$si), 'D\'s child caches are gone');
	my $after = $t->memfree_kb($T);
	ok(defined $after && abs($free - $after) <= 256, 'MemFree back to within 256 KiB')
		or diag("MemFree before $free kB, after $after kB");
	is($t->cmd('rmdir /cgroup/E'), '', 'rmdir E');
	$t->check_ok('after rm -r');
}

# --- a domain dies while a child cache still holds an object ----------------------
# A task of Z moved out of it keeps its struct task in task_struct(Z): Z,
# removed, lingers until the task ends and the shell's job is reaped. (In
# `objects` the struct task goes up with Z's owner record, and the task's
# stack, whole pages charged to Z, is what keeps Z.)
{
	$t->cmd('mkdir /cgroup/Z');
	$t->cmd('echo 8M > /cgroup/Z/memory.kmem.limit_in_bytes');
	my $pid = $t->run_pid('Z spin');
	ok($pid, 'a spin task in /cgroup/Z');
	is($t->cmd("echo $pid > /cgroup/tasks"), '', 'moved out of Z, to the root');
	my $si = slabinfo();
	is($si && $si->{'task_struct(Z)'} && $si->{'task_struct(Z)'}{active}, 1,
		'its struct task is still in task_struct(Z)') unless $objects;
	is($t->cmd('rmdir /cgroup/Z'), '', 'rmdir Z');
	ok(!grep({ $_ eq 'Z' } split /\n/, $t->cmd('ls /cgroup') // ''), 'Z is gone from the tree');
	# (objects: its struct task moved to the root with Z's record, but
	# the task's stack is whole pages charged to Z: they keep it dying)
	is($t->dying($T), 1, 'Z is dying: nr_dying_descendants 1');
	$t->cmd('sleep 500');
	is($t->dying($T), 1, $objects ? 'and stays dying while the task\'s stack lives'
		: 'and stays dying while the object lives');
	is($t->cmd("kill $pid"), '', 'kill the task (no wait)');
	ok($t->job_notice($pid, 30), 'the shell reaps it: [pid N killed]');
	ok($t->until_true(10, sub { $t->dying($T) == 0 }), 'Z disappears: nr_dying_descendants 0');
	$si = slabinfo();
	ok($si && !$si->{'task_struct(Z)'}, 'task_struct(Z) is gone');
	$t->check_ok('after the dying domain');
}

# --- a /proc/slabinfo longer than one read ----------------------------------------
# 24 domains, each with three child caches: a mkdirloop under a 64K kmem
# limit, in a directory of its own, leaves task_struct(d) (empty once the
# task is reaped: a child cache stays until its domain goes),
# tmpfs_inode(d) and kmalloc-128(d) (its directories). Their
# 72 lines and the root caches' are well past the shell's 8 KiB buffer:
# cat reads the file in pieces, and every line must be there, once, whole.
{
	my $n = 24;
	my @doms = map { sprintf('long_slabinfo_%02d', $_) } 1 .. $n;
	my $free = $t->memfree_kb($T);
	my %pid;
	for my $d (@doms) {
		$t->cmd("mkdir /cgroup/$d");
		$t->cmd("echo 64K > /cgroup/$d/memory.kmem.limit_in_bytes");
		$t->cmd("mkdir /tmp/$d");
		$pid{$d} = $t->run_pid("$d mkdirloop /tmp/$d");
	}
	is(scalar(grep { defined } values %pid), $n, "$n mkdirloops, one per domain");
	my $stopped = grep { defined $t->job_notice($_, 120) } grep { defined } values %pid;
	is($stopped, $n, 'each stops (exits) at its kmem limit');

	my $text = $t->file('/proc/slabinfo', $T);
	if ($objects) {
	# No child caches: each domain's directories are its slab bytes.
	my $si = slabinfo();
	my $each = $si->{tmpfs_inode}{objsize} + $si->{'kmalloc-128'}{objsize};
	my @wrong = grep { my $b = $t->stat_of("/cgroup/$_", 'slab', $T) // 0; $b == 0 || $b % $each } @doms;
	is(scalar(@wrong), 0, "objects: each domain's slab is a whole number of directories of $each bytes")
		or diag('wrong: ' . join(' ', @wrong));
	ok($si && !grep(/\(/, keys %$si), 'objects: no child cache');
	} else {
	cmp_ok(length $text, '>', 8192, 'slabinfo is longer than 8 KiB (' . length($text) . ' bytes)');
	my @lines = split /\n/, $text;
	my $si = slabinfo();
	ok($si, 'every line in Linux\'s format: none cut') or diag($text);
	like($lines[-1] // '', $LINE_RE, 'it ends with a whole cache line');
	is(scalar(@lines), 2 + scalar(keys %{$si // {}}), 'each cache once: no line repeated');
	my @missing;
	for my $d (@doms) {
		for my $c ('task_struct', 'tmpfs_inode', 'kmalloc-128') {
			push @missing, "$c($d)" unless $si && $si->{"$c($d)"};
		}
	}
	is(scalar(@missing), 0, "all ${\ (3 * $n)} child caches of the $n domains are listed")
		or diag('missing: ' . join(' ', @missing));
	my @wrong = grep {
		my $w = $si && $si->{"kmalloc-128($_)"} ? $si->{"kmalloc-128($_)"}{active} : -1;
		!($si && $si->{"tmpfs_inode($_)"} && $si->{"tmpfs_inode($_)"}{active} == $w && $w > 0)
	} @doms;
	is(scalar(@wrong), 0, 'each tmpfs_inode(d) holds the directories its mkdirloop made (one kmalloc-128(d) entry each)')
		or diag('wrong: ' . join(' ', @wrong));
	ok($si && $si->{"task_struct($doms[-1])"} && $si->{'task_struct'},
		'the root caches are listed too');
	}

	for my $d (@doms) {
		$t->cmd("wait $pid{$d}", 30) if $pid{$d};
		$t->cmd("rm -r /tmp/$d", 120);
		$t->cmd("rmdir /cgroup/$d");
	}
	ok($t->until_true(30, sub { $t->dying($T) == 0 }), 'every domain freed (nr_dying_descendants 0)');
	my $si = slabinfo();
	ok($si && !grep(/\(long_slabinfo_\d+\)$/, keys %$si), 'their child caches are gone');
	cmp_ok(length($t->file('/proc/slabinfo', $T)), '<', 8192, 'slabinfo is short again');
	my $after = $t->memfree_kb($T);
	ok(defined $free && defined $after && abs($free - $after) <= 256, 'MemFree back to within 256 KiB')
		or diag("MemFree before $free kB, after $after kB");
	$t->check_ok('after the long slabinfo');
}

my $free1 = $t->memfree_kb($T);
ok(defined $free1 && abs($free0 - $free1) <= 256, 'MemFree at the end within 256 KiB of the start')
	or diag("MemFree at the start $free0 kB, at the end $free1 kB");
is($t->poweroff(60), 1, 'poweroff');
$t->diag_transcript unless Test::More->builder->is_passing;
}
done_testing();
