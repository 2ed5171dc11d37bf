#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/shell.t - the shell protocol (docs/interface.md), from the
# outside: the prompt, the echo, one "error: ENAME: ..." line per failure,
# line ends, line editing, over-long lines, bytes that are not text.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

my %ENAME = map { $_ => 1 }
	qw(EINVAL EBUSY ENOENT EEXIST ENOMEM ENOTDIR EISDIR EPERM ESRCH ENOSPC E2BIG);

my $t = Tally->boot(smp => 2, mem => '512M', timeout => 600);
is($t->prompt(60), '/', 'first prompt is tally:/# ')
	or BAIL_OUT('no prompt: ' . $t->transcript);

# one_error(output, ENAME) - the output is exactly one error line naming
# ENAME (or any name of the list if ENAME is undef), with an explanation.
sub one_error {
	my ($out, $want, $what) = @_;
	my @l = defined $out ? split(/\n/, $out, -1) : ();
	my $ok = @l == 1 && $l[0] =~ /^error: (E[A-Z0-9]+): \S/
		&& $ENAME{$1} && (!defined $want || $1 eq $want);
	ok($ok, $what) or diag("got: " . (defined $out ? "'$out'" : 'no prompt'));
}

# --- prompt, echo, cd, pwd, ls ---------------------------------------------
is($t->cmd('pwd'), '/', 'pwd prints /');
is($t->last_echo, 'pwd', 'the line typed is echoed');

is($t->cmd('cd /cgroup'), '', 'cd /cgroup prints nothing');
is($t->cwd, '/cgroup', 'prompt becomes tally:/cgroup# ');
is($t->cmd('pwd'), '/cgroup', 'pwd prints /cgroup');
is($t->cmd('cd ..'), '', 'cd .. prints nothing');
is($t->cwd, '/', 'cd .. returns to /');

one_error(scalar $t->cmd('cd /nonexistent'), 'ENOENT', 'cd to a missing directory: ENOENT');
is($t->cwd, '/', 'a failed cd leaves the CWD alone');
one_error(scalar $t->cmd('cd /proc/meminfo'), 'ENOTDIR', 'cd to a file: ENOTDIR');

my @ls = map { s{/$}{}r } map { split ' ' } $t->cmd('ls /');
ok((grep { $_ eq 'cgroup' } @ls), 'ls / lists cgroup') or diag("ls /: @ls");
ok((grep { $_ eq 'proc' } @ls), 'ls / lists proc');

# --- errors -----------------------------------------------------------------
one_error(scalar $t->cmd('cat /proc/no-such-file'), 'ENOENT',
	'cat of a missing file: one line error: ENOENT: ...');
one_error(scalar $t->cmd('cat /proc'), 'EISDIR', 'cat of a directory: EISDIR');
one_error(scalar $t->cmd('frobnicate now'), undef,
	'an unknown command: one line error: E...: ...');

# Lines longer than 255 bytes are rejected with E2BIG; 255 is accepted.
my $long = 'pwd' . (' ' x 253);      # 256 bytes
one_error(scalar $t->cmd($long), 'E2BIG', 'a 256-byte line: E2BIG');
one_error(scalar $t->cmd('echo ' . ('x' x 295)), 'E2BIG', 'a 300-byte line: E2BIG');
is($t->cmd('pwd' . (' ' x 252)), '/', 'a 255-byte line is accepted');
one_error(scalar $t->cmd('x' x 1000), 'E2BIG', 'a 1000-byte line: E2BIG');
is($t->cmd('pwd'), '/', 'the shell answers after over-long lines');

# --- line ends ----------------------------------------------------------------
is($t->cmd('pwd', 30, "\n"), '/', 'a line ended by LF runs');
is($t->cmd('pwd', 30, "\r"), '/', 'a line ended by CR runs');
is($t->cmd('pwd', 30, "\r\n"), '/', 'a line ended by CR LF runs');
is($t->drain(1), '', 'CR LF counts once: no second prompt');
is($t->cmd(''), '', 'an empty line prints nothing but the prompt');
$t->send("pwd\r\npwd\r\n");
my ($c1) = $t->wait_for($Tally::PROMPT_AT_RE, 30);
my ($c2) = $t->wait_for($Tally::PROMPT_AT_RE, 30);
ok(defined $c1 && defined $c2, 'two lines typed at once give two prompts');
is($t->drain(1), '', '... and not four');

# --- editing and bytes that are not text ----------------------------------
is($t->cmd("pwdx\x7f"), '/', 'DEL erases the character before it ("pwdx" DEL runs pwd)');
is($t->last_echo, 'pwd', 'the echo shows the erased character gone');
is($t->cmd("pwdx\x08"), '/', 'backspace (^H) erases too');
is($t->cmd("\x7f\x7fpwd"), '/', 'DEL on an empty line does nothing');
is($t->cmd("cd /cgrouX\x7fp"), '', 'editing inside an argument');
is($t->cwd, '/cgroup', '... cd went to the edited path');
$t->cmd('cd /');
is($t->cmd("\x00p\x01w\x02d\x07\x0c\x1b\x80\xff"), '/',
	'control bytes and bytes above 0x7e are ignored');
is($t->last_echo, 'pwd', 'ignored bytes are not echoed as text');

# A shell never crashes on any input: lines of random bytes (no line ends,
# no erasing) behind a digit, so none of them names a command.
srand(7);
my $garbage_ok = 1;
for my $i (1 .. 20) {
	my $line = '9' . join '', map {
		my $b; do { $b = int rand 256 } while $b == 10 || $b == 13
			|| $b == 8 || $b == 127;
		chr $b } 1 .. 60;
	my $out = $t->cmd($line, 30);
	my @l = defined $out ? split /\n/, $out : ();
	next if @l == 1 && $l[0] =~ /^error: (E[A-Z0-9]+): / && $ENAME{$1};
	$garbage_ok = 0;
	diag('line ' . Tally::_printable($line) . ' gave: '
		. (defined $out ? Tally::_printable($out) : 'no prompt'));
	last unless $t->last_ok;
}
ok($garbage_ok, 'random bytes: each line one error line, then a prompt');

# --- help, sleep ----------------------------------------------------------------
my $help = $t->cmd('help');
ok(defined $help && length $help, 'help prints something');
my @missing = grep { ($help // '') !~ /(?:^|\s)\Q$_\E\b/m }
	qw(help ls cd pwd cat echo mkdir rmdir run ps kill wait sleep check
	   ktest bench poweroff);
ok(!@missing, 'help lists every command of the interface')
	or diag("help does not list: @missing");

$t->cmd('sleep 100', 30);
ok($t->last_ok, 'sleep 100 returns a prompt');
# By the host's clock, with 5% for the guest's: the kernel calibrates its
# timer against the PIT at boot, and under a loaded TCG host that comes out
# a few parts per thousand fast (99.6 ms was seen).
cmp_ok($t->last_time // 0, '>=', 0.095, 'sleep 100 takes at least 100 ms (within the clocks\' agreement)');
cmp_ok($t->last_time // 99, '<', 5 * Tally::scale(), 'sleep 100 takes less than 5 s');
$t->cmd('sleep 0', 30);
ok($t->last_ok, 'sleep 0 returns');

# --- still answering ----------------------------------------------------------------
is($t->cmd('pwd'), '/', 'after all of it the shell still answers');
is($t->poweroff(30), 1, 'poweroff exits with status 1');
$t->stop;

done_testing();
