#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/gdb.t - `make gdb` works: QEMU started with -S (stopped before
# the first instruction) and a gdb server, and gdb run as docs/reliability.md
# says, with the repository's .gdbinit:
#
#   gdb -batch -nx -ex 'set $tally_gdb_port=PORT' -x .gdbinit \
#       -ex 'hbreak kmain' -ex continue
#
# must load build/tally.elf's symbols, connect, and stop in kmain, at the
# address the ELF gives kmain, before the kernel has printed anything. Once
# gdb detaches, the kernel runs on: banner, prompt, poweroff with status 1.
# The server listens on a free port, not 1234, so that the test does not
# meet someone's `make gdb`.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use IO::Socket::INET;
use Tally;

diag('accelerator: ' . Tally::accel_name() . ', timeouts x' . Tally::scale());

my $root = $Tally::ROOT;
chdir $root or die "chdir $root: $!";
my $elf = Tally::elf_path();
ok(-f '.gdbinit', 'the repository has a .gdbinit');
ok(system('sh', '-c', 'command -v gdb >/dev/null') == 0, 'gdb is installed')
	or BAIL_OUT('gdb is missing: make deps');

# The address of kmain in the image, from its symbol table.
# (Addresses stay strings of hex digits: they do not fit a 32-bit perl.)
my ($kmain) = map { /^0*([0-9a-f]+) T kmain$/ ? $1 : () } `nm $elf`;
like($kmain // '', qr/^ffffffff8[0-9a-f]{7}$/,
     "kmain is in the higher half of $elf (" . ($kmain // 'none') . ')');

# A port nobody listens on: bind port 0, read the port, let it go.
my $probe = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
				  Proto => 'tcp', Listen => 1)
	or die "no free port: $!";
my $port = $probe->sockport;
close $probe;

my $t = Tally->boot(smp => 2, mem => '512M', timeout => 180,
		    qemu_args => ['-S', '-gdb', "tcp:127.0.0.1:$port"]);
is($t->drain(1), '', 'with -S the kernel has printed nothing');

# What `make gdb` tells the user to type, for this port: the echo line of
# its recipe, run by the shell as make would run it, then split into words.
my ($echo) = grep { /^echo "\s+gdb / } `make --no-print-directory -n gdb GDBPORT=$port 2>/dev/null`;
my $told = defined $echo ? `$echo` : '';
$told =~ s/^\s+|\s+$//g;
is($told, "gdb -ex 'set \$tally_gdb_port=$port' -x .gdbinit",
   'make gdb prints the gdb command for its port');
my @told = split /\n/, `sh -c 'for w in "\$@"; do echo "\$w"; done' sh $told`;
@told = ('gdb', '-ex', "set \$tally_gdb_port=$port", '-x', '.gdbinit')
	unless @told >= 3 && $told[0] eq 'gdb';

my $scale = Tally::scale();
my @gdb = ('timeout', 60 * $scale, 'gdb', '-batch', '-nx', @told[1 .. $#told]);
# .gdbinit loads build/tally.elf; a test run on another image says so.
push @gdb, '-ex', "file $elf" if $elf ne "$root/build/tally.elf";
push @gdb, '-ex', 'hbreak kmain', '-ex', 'continue',
	   '-ex', 'printf "rip=%#lx\n", $pc', '-ex', 'bt 1';
my $out = '';
if (open my $fh, '-|', @gdb) {
	local $/;
	$out = <$fh> // '';
	close $fh;
} else {
	$out = "cannot run gdb: $!";
}
my $status = $? >> 8;

unlike($out, qr/Error in sourced command file|No symbol table|Connection refused/,
      '.gdbinit runs without an error: symbols loaded, connected')
	or diag($out);
like($out, qr/Hardware assisted breakpoint 1 at 0x[0-9a-f]+: file kernel\/init\/main\.c/,
     'hbreak kmain is placed, with kmain found in the symbols (kernel/init/main.c)')
	or diag($out);
like($out, qr/Breakpoint 1, kmain \(magic=\d+, info_phys=\d+\) at kernel\/init\/main\.c:\d+/,
     'continue stops in kmain, with its arguments')
	or diag($out);
my ($rip) = $out =~ /^rip=0x0*([0-9a-f]+)$/m;
is($rip // 'none', $kmain // 'no kmain',
   'the CPU is at the first instruction of kmain')
	or diag($out);
like($out, qr/^#0\s+kmain \(/m, 'the backtrace starts in kmain') or diag($out);
is($status, 0, 'gdb exits 0 (it did not time out)') or diag($out);

# gdb detached: the kernel goes on as if nothing happened.
my $line = $t->wait_for($Tally::BANNER_RE, 60);
ok(defined $line, 'after gdb detaches, the kernel prints its banner');
ok(defined $t->prompt(120), 'and reaches the prompt');
is($t->poweroff, 1, 'poweroff exits QEMU with status 1');

done_testing();
