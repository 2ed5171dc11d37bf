#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/badinput.t - bad input at the shell gets its one line
# `error: ENAME: explanation` and changes nothing. Every command with
# missing, extra and malformed arguments; paths that are files, files that
# are directories, paths that do not exist; every control file with values
# it must refuse; `rm -r` and /tmp; then every file and directory the
# tree has, walked with ls: each file as a directory and with values it
# cannot take, each directory as a file; lines over 255 bytes (E2BIG) and
# control bytes (ignored).
# After each group, the state it could have changed is read back; at the
# end `check: ok` and the kernel is still there.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my $t = Tally->boot(smp => 2, mem => '256M', timeout => 900);
is($t->prompt(60), '/', 'prompt') or BAIL_OUT('no prompt');

# refused(ENAME, command...) - each command answers exactly one line
# "error: ENAME: <explanation>".
sub refused {
	my ($name, @cmds) = @_;
	for my $c (@cmds) {
		my $out = $t->cmd($c, 60);
		my $shown = Tally::_printable(length $c > 60 ? substr($c, 0, 57) . '...' : $c);
		like($out // 'no prompt', qr/^error: $name: \S.*$/, "'$shown': $name");
	}
}

# --- the state that bad input must not change -------------------------------------
$t->cmd('mkdir /cgroup/A');
is($t->cmd('echo 1M > /cgroup/A/memory.limit_in_bytes'), '', 'A: limit 1M');
is($t->cmd('echo 512K > /cgroup/A/memory.kmem.limit_in_bytes'), '', 'A: kmem limit 512K');
my $pid = $t->run_pid('/cgroup/A spin');
ok($pid, 'a spin task in A');
my $tree = $t->cmd('ls /cgroup');
my $ps = $t->cmd('ps');
# memory.stat less its stock lines: the stock is the CPUs' cache of charge
# taken ahead, which reading a usage file or refusing a limit below usage
# gives back (mm/memcg/memcontrol.c); every other line must not move.
sub stat_but_stock { join "\n", grep { !/^(total_)?stock / } split /\n/, $t->file('/cgroup/A/memory.stat') }
my $stat = stat_but_stock();

sub unchanged {
	my ($what) = @_;
	is($t->file('/cgroup/A/memory.limit_in_bytes'), '1048576', "after $what: A's limit reads back 1M");
	is($t->file('/cgroup/A/memory.kmem.limit_in_bytes'), '524288', "after $what: A's kmem limit reads back 512K");
	is($t->file('/cgroup/A/memory.use_hierarchy'), '0', "after $what: use_hierarchy 0");
	is($t->file('/cgroup/A/tasks'), $pid, "after $what: A's tasks are the spin task");
	is($t->cmd('ls /cgroup'), $tree, "after $what: the tree is the same");
	is($t->cmd('pwd'), '/', "after $what: the current directory is /");
	my @now = map { (split ' ')[0] } grep { /^\d/ } split /\n/, $t->cmd('ps') // '';
	my @was = map { (split ' ')[0] } grep { /^\d/ } split /\n/, $ps;
	is("@now", "@was", "after $what: the same tasks");
}

# --- commands: arguments ----------------------------------------------------------
refused('EINVAL',
	'help x y', 'ls a b', 'cd', 'cd a b', 'pwd x', 'cat', 'cat a b',
	'mkdir', 'mkdir a b', 'rmdir', 'rmdir a b',
	'sleep', 'sleep x', 'sleep -1', 'sleep 1 2', 'sleep 99999999999', 'sleep 1.5',
	'poweroff x', 'reboot x', 'ps x', 'check x',
	'run', 'run /cgroup/A', 'run /cgroup/A hog', 'run /cgroup/A hog xx',
	'run /cgroup/A hog -1', 'run /cgroup/A cache 1.0', 'run /cgroup/A kmemhog 1 2',
	'run /cgroup/A worker x', 'run /cgroup/A worker 0', 'run /cgroup/A stress x',
	'run /cgroup/A stress 0', 'run /cgroup/A stress 99999',
	'kill', 'kill x', 'kill 1 2', 'kill -1', 'kill 1x', 'kill +5', 'kill 0x10',
	'wait', 'wait x', 'wait 1 2', 'wait -5',
	'ktest a b', 'bench a b', 'stress', 'stress x', 'stress 0', 'stress 1 2',
	'demo', 'demo x', 'demo start', 'demo watch', 'demo watch /cgroup/A x', 'demo stop',
	'echo x >', 'echo x > a > b', 'echo x > a b', 'pwd > /cgroup/A/tasks',
	'cat /cgroup/A/tasks > /cgroup/A/tasks');
refused('ENOENT',
	'nosuch', 'help nosuch', 'ktest nosuch', 'bench nosuch', 'run /cgroup/A nosuch',
	'run /cgroup/nonexist spin', 'run nonexist spin', 'run /proc spin',
	'demo start /cgroup/nonexist', 'locktest order', '> x', 'cgroup.kill');
refused('ESRCH', 'kill 30000', 'wait 30000', 'kill 99999', 'wait 99999',
	'kill 99999999999999999999', 'wait 99999999999999999999');
refused('EPERM', 'kill 1', 'kill 2', 'wait 1', 'wait 2');
unchanged('bad arguments');

# --- paths: missing, files as directories, directories as files ---------------------
refused('ENOENT', 'ls /nonexist', 'cd /nonexist', 'cd /cgroup/A/nonexist',
	'cat /nonexist', 'cat /cgroup/A/nonexist', 'echo 1 > /nonexist',
	'echo 1 > /cgroup/A/nonexist', 'mkdir /nonexist/x', 'mkdir /cgroup/nonexist/x',
	'rmdir /cgroup/nonexist', 'rmdir /nonexist');
refused('ENOTDIR', 'ls /cgroup/A/tasks/', 'ls /proc/meminfo/x', 'cd /proc/meminfo',
	'cd /cgroup/A/tasks', 'cat /cgroup/A/tasks/x', 'mkdir /cgroup/A/tasks/x',
	'rmdir /cgroup/A/tasks', 'rmdir /proc/meminfo', 'run /cgroup/A/tasks spin',
	'echo 1 > /cgroup/A/tasks/x');
refused('EISDIR', 'cat /cgroup', 'cat /cgroup/A', 'cat /proc', 'cat /',
	'echo 1 > /cgroup', 'echo 1 > /cgroup/A', 'echo 1 > /');
refused('EEXIST', 'mkdir /cgroup/A', 'mkdir /cgroup/A/tasks', 'mkdir /cgroup',
	'mkdir /', 'mkdir /cgroup/.', 'mkdir /cgroup/A/..');
refused('EPERM', 'mkdir /proc/x', 'mkdir /x', 'rmdir /proc');
refused('EBUSY', 'rmdir /cgroup', 'rmdir /', 'rmdir /cgroup/A',
	'echo 1 > /cgroup/A/memory.force_empty', 'echo 4K > /cgroup/A/memory.kmem.limit_in_bytes');
refused('EINVAL', 'mkdir /cgroup/' . ('x' x 64), 'rmdir /cgroup/A/.', 'rmdir /cgroup/A/..');
refused('ENOENT', 'cat /cgroup/' . ('x' x 200), 'cd /cgroup/' . ('x/' x 100));
unchanged('bad paths');

# --- control files: values --------------------------------------------------------
my @sizes = ('1xx', '', '1 2', '-2', '-0', '1.0', 'xx', '0x', '1kk', '+1', '1T',
	'99999999999999999999', '0x8000000000000000');
refused('EINVAL', map({ "echo $_ > /cgroup/A/memory.limit_in_bytes" } @sizes),
	map({ "echo $_ > /cgroup/A/memory.kmem.limit_in_bytes" } @sizes));
refused('EINVAL',
	'echo 2 > /cgroup/A/memory.use_hierarchy', 'echo x > /cgroup/A/memory.use_hierarchy',
	'echo > /cgroup/A/memory.use_hierarchy', 'echo 1 1 > /cgroup/A/memory.use_hierarchy',
	'echo x > /cgroup/A/memory.oom_control', 'echo 2 > /cgroup/A/memory.oom_control',
	'echo 5 > /cgroup/A/memory.failcnt', 'echo x > /cgroup/A/memory.kmem.failcnt',
	'echo 5 > /cgroup/A/memory.max_usage_in_bytes', 'echo 1 > /cgroup/A/memory.kmem.max_usage_in_bytes',
	'echo 1 > /cgroup/A/memory.usage_in_bytes', 'echo 1 > /cgroup/A/memory.kmem.usage_in_bytes',
	'echo 1 > /cgroup/A/memory.stat', 'echo 1 > /cgroup/cgroup.stat',
	'echo x > /cgroup/A/tasks', 'echo > /cgroup/A/tasks', 'echo -1 > /cgroup/A/tasks',
	'echo 1 > /cgroup/A/tasks',
	'echo 2 > /cgroup/A/cgroup.kill', 'echo x > /cgroup/A/cgroup.kill', 'echo > /cgroup/A/cgroup.kill',
	'echo 1M > /cgroup/memory.limit_in_bytes', 'echo 1M > /cgroup/memory.kmem.limit_in_bytes',
	'echo 1 > /cgroup/memory.force_empty',
	'echo 1 > /proc/meminfo', 'echo 1 > /proc/buddyinfo', 'echo 1 > /proc/static_keys',
	'echo x > /proc/sys/debug_check_on_free', 'echo x > /proc/fail_page_alloc',
	'cat /cgroup/cgroup.kill', 'cat /cgroup/A/memory.force_empty');
refused('ESRCH', 'echo 30000 > /cgroup/A/tasks');
is($t->file('/proc/sys/debug_check_on_free'), '0', 'debug_check_on_free still 0');
is($t->file('/proc/fail_page_alloc'), '0', 'fail_page_alloc still 0');
is($t->file('/cgroup/A/memory.oom_control'), "oom_kill_disable 0\nunder_oom 0\noom_kill 0", 'oom_control unchanged');
is(stat_but_stock(), $stat, 'memory.stat unchanged (but for the stock)');
unchanged('bad values');

# --- rm, and /tmp -------------------------------------------------------------------
is($t->cmd('mkdir /tmp/keep'), '', 'mkdir /tmp/keep');
refused('EINVAL', 'rm', 'rm /tmp/keep', 'rm -r', 'rm -r /tmp/keep x', 'rm -f /tmp/keep',
	'rm -rf /tmp/keep');
refused('ENOENT', 'rm -r /nonexist', 'rm -r -r', 'rm -r /tmp/nonexist', 'rm -r /tmp/keep/nonexist',
	'mkdir /tmp/nonexist/x', 'rmdir /tmp/nonexist');
refused('ENOTDIR', 'rm -r /proc/meminfo', 'rm -r /cgroup/A/tasks');
refused('EPERM', 'rm -r /proc', 'rm -r /cgroup/A', 'rm -r /cgroup', 'rm -r /proc/sys');
refused('EBUSY', 'rm -r /tmp', 'rm -r /', 'rmdir /tmp');
refused('EEXIST', 'mkdir /tmp/keep', 'mkdir /tmp');
is($t->cmd('ls /tmp'), 'keep', '/tmp still holds keep');
unchanged('bad rm');

# --- every file and every directory, as ls shows the tree ---------------------------
# Whatever files the kernel has, each is refused as a directory and with a
# value it cannot take, and each directory is refused as a file: the tree
# is walked, not listed here, so a new file is tested when it is added.
my (@files, @dirs);
my @todo = ('/');
while (defined(my $d = shift @todo)) {
	push @dirs, $d;
	for my $name (split /\n/, $t->cmd("ls $d") // '') {
		my $path = ($d eq '/' ? '' : $d) . "/$name";
		next if $path eq '/tmp/keep';
		my $out = $t->cmd("cat $path", 60) // '';
		if ($out =~ /^error: EISDIR: /) { push @todo, $path } else { push @files, $path }
	}
}
ok(scalar(grep { $_ eq '/cgroup/A' } @dirs) && scalar(grep { $_ eq '/proc/sys' } @dirs),
	'the walk found /cgroup/A and /proc/sys: ' . scalar(@dirs) . ' directories');
ok(scalar(grep { $_ eq '/cgroup/A/memory.stat' } @files) && scalar(grep { $_ eq '/proc/meminfo' } @files),
	'the walk found the control files: ' . scalar(@files) . ' files');
for my $f (@files) {
	refused('ENOTDIR', "cd $f", "ls $f/x", "cat $f/x", "mkdir $f/x", "rmdir $f",
		"echo 1 > $f/x", "rm -r $f");
	# memory.force_empty takes any value (as Linux's): A has a task, the root
	# cannot be emptied.
	my $name = $f eq '/cgroup/A/memory.force_empty' ? 'EBUSY' : 'EINVAL';
	refused($name, "echo x > $f", "echo 1 2 > $f");
}
for my $d (@dirs) {
	refused('EISDIR', "cat $d", "echo 1 > $d", "echo x > $d");
}
is($t->file('/proc/sys/debug_check_on_free'), '0', 'after the walk: debug_check_on_free still 0');
is($t->file('/proc/fail_page_alloc'), '0', 'after the walk: fail_page_alloc still 0');
is($t->cmd('ls /tmp'), 'keep', 'after the walk: /tmp holds keep');
unchanged('every file and directory');
is($t->cmd('rm -r /tmp/keep'), '', 'rm -r /tmp/keep');

# --- lines: too long, control bytes -------------------------------------------------
my $echo255 = 'echo ' . ('y' x 250);
is($t->cmd($echo255), 'y' x 250, 'a line of 255 bytes is run');
refused('E2BIG', $echo255 . 'y', 'x' x 300, 'echo 2M > /cgroup/A/memory.limit_in_bytes' . (' ' x 250),
	'mkdir /cgroup/' . ('B' x 300), 'x' x 2000);
is($t->cmd("\x01\x02pw\x7fwd"), '/', 'control bytes are ignored, DEL erases: pwd');
is($t->cmd("p\x00w\x1bd\x07"), '/', 'NUL, ESC and BEL are ignored');
is($t->cmd("\x03\x04\x1a"), '', 'a line of control bytes only is an empty line');
is($t->cmd("echo \x80\xff\xfeok"), 'ok', 'bytes above 0x7e are ignored');
refused('ENOENT', "\x1b[A");  # an arrow key: ESC ignored, "[A" is not a command
unchanged('long lines and control bytes');

# --- demo stop without demo start: it stops, and says it has nothing to compare --
is($t->cmd('mkdir /cgroup/nostart'), '', 'mkdir /cgroup/nostart');
like($t->cmd('demo stop /cgroup/nostart'),
	qr/^demo: bomb killed and removed in \d+ ms; MemFree \d+ kB, no 'demo start' before: nothing to compare; nr_dying_descendants 0$/,
	'demo stop without demo start: no "before" figure made up');
refused('ENOENT', 'ls /cgroup/nostart');

# --- the end ---------------------------------------------------------------------
is($t->cmd("kill $pid"), '', 'kill the spin task');
$t->job_notice($pid, 60);
is($t->cmd('rmdir /cgroup/A'), '', 'rmdir A');
is($t->cmd('check'), 'check: ok', 'check: ok');
unlike($t->output, qr/panic/, 'no panic');
is($t->poweroff(30), 1, 'poweroff');
done_testing();
