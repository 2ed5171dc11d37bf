# SPDX-License-Identifier: MIT
package Tally;

# tests/qemu/lib/Tally.pm - the one QEMU driver that every tests/qemu/*.t
# shares. It boots tally with exactly the standard invocation
# (docs/interface.md, "Booting in QEMU"), talks to the serial console through
# pipes, and knows the shell protocol (docs/interface.md): a prompt
# "tally:CWD# " at the start of a line, the echo of each line typed, output,
# the next prompt.
#
#   use lib 'tests/qemu/lib';
#   use Tally;
#   my $t = Tally->boot(smp => 2, mem => '512M');
#   $t->prompt or BAIL_OUT('no prompt');
#   my $out = $t->cmd('cat /proc/meminfo');   # output lines, "\n"-joined
#   is($t->poweroff, 1, 'poweroff exits with status 1');
#
# The readings most tests make ($t->file, $t->memfree_kb, $t->stat_of,
# $t->run_pid, $t->until_true, $t->check_ok, ...) are methods too: see
# "what the scenario tests ask the shell" below.
#
# Every timeout is given in seconds as they would be under KVM and is
# multiplied by Tally->scale (1 under KVM, 4 under TCG; TALLY_TIMEOUT_SCALE
# overrides), so that a test passes under both. Each machine also has a
# lifetime (boot option "timeout"): past it, QEMU is killed and every wait
# fails at once. QEMU is always killed when the object goes away, and each
# run's transcript is kept in $BUILD/qemu-logs/.
#
# Perl core modules only.

use strict;
use warnings;

use Carp qw(croak);
use Cwd qw(abs_path);
use Errno qw(EAGAIN EINTR);
use Fcntl qw(F_GETFL F_SETFL O_NONBLOCK);
use File::Basename qw(basename dirname);
use File::Copy qw(copy);
use File::Path qw(make_path);
use File::Spec;
use File::Temp qw(tempdir);
use IO::Select;
use IPC::Open3 qw(open3);
use POSIX qw(WNOHANG);
use Scalar::Util qw(weaken);
use Symbol qw(gensym);
use Time::HiRes qw(sleep time);

# The repository root: this file is tests/qemu/lib/Tally.pm.
our $ROOT = abs_path(dirname(abs_path(__FILE__)) . '/../../..');

# The shell's prompt, at the start of a line, with nothing after it.
our $PROMPT_RE = qr/(?:^|\n)tally:(\/[^#\n]*)# $/;
# The same without "nothing after it", which is what the waits use: output
# may follow a prompt before the harness reads it (typing ahead, or a task
# that prints), and a prompt is never printed with anything on its line.
our $PROMPT_AT_RE = qr/(?:^|\n)tally:(\/[^#\n]*)# /;

# A job notice, a line of its own.
our $NOTICE_RE = qr/^\[pid (\d+) (?:exited|killed)\]$/;

# The banner: version, CPUs, memory in MiB.
our $BANNER_RE = qr/tally (\S+) cpus=(\d+) mem=(\d+)MiB/;

our $QEMU = 'qemu-system-x86_64';

# A two-node NUMA machine for qemu_args: 4 CPUs and 1 GiB, CPUs 0-1 and
# the first 512 MiB on node 0, CPUs 2-3 and the rest on node 1 (QEMU
# builds the ACPI SRAT from it). Boot it with smp => 4, mem => '1G'.
our @NUMA_TWO_NODES = (
	'-object', 'memory-backend-ram,id=m0,size=512M',
	'-object', 'memory-backend-ram,id=m1,size=512M',
	'-numa', 'node,nodeid=0,cpus=0-1,memdev=m0',
	'-numa', 'node,nodeid=1,cpus=2-3,memdev=m1',
);

# Firmware for iso => 'uefi': a single image for -bios (Debian's ovmf
# package ships /usr/share/ovmf/OVMF.fd), else a pflash CODE/VARS pair.
our @OVMF_BIOS = ('/usr/share/ovmf/OVMF.fd', '/usr/share/qemu/OVMF.fd');
our @OVMF_PFLASH = (
	['/usr/share/OVMF/OVMF_CODE_4M.fd', '/usr/share/OVMF/OVMF_VARS_4M.fd'],
	['/usr/share/OVMF/OVMF_CODE.fd', '/usr/share/OVMF/OVMF_VARS.fd'],
);

# Bytes written per chunk when typing, and the pause between chunks: the
# kernel's serial input is interrupt-driven into a ring buffer.
our $CHUNK = 16;
our $CHUNK_PAUSE = 0.002;

my %live;     # pid => machine, for clean-up on exit or signal
my $serial = 0;

$SIG{PIPE} = 'IGNORE';
for my $sig (qw(INT TERM HUP)) {
	$SIG{$sig} = sub { _kill_all(1); $SIG{$sig} = 'DEFAULT'; CORE::kill($sig, $$); };
}
END { local $?; _kill_all(0) }

sub _kill_all {
	my ($quiet) = @_;
	for my $m (values %live) {
		$m->stop(quiet => $quiet) if $m;
	}
}

# --- paths and the accelerator ---------------------------------------------

sub _abs {
	my ($p) = @_;
	return File::Spec->file_name_is_absolute($p) ? $p : "$ROOT/$p";
}

# build_dir, elf_path, iso_path - from BUILD and ELF as `make test` exports
# them, else build/ and build/tally.elf; relative to the repository root.
sub build_dir { _abs($ENV{BUILD} // 'build') }
sub elf_path  { _abs($ENV{ELF} // build_dir() . '/tally.elf') }
sub iso_path  { build_dir() . '/tally.iso' }

# accel_args - QEMU's accelerator options: $QEMU_ACCEL as the Makefile
# exports it ("-accel kvm -accel tcg", or "-accel tcg" for ACCEL=tcg).
sub accel_args {
	my $a = $ENV{QEMU_ACCEL};
	$a = `sh "$ROOT/tests/accel" auto` unless defined $a && $a =~ /\S/;
	return split ' ', $a;
}

# kvm_usable - true when KVM is asked for and /dev/kvm can be opened for
# reading and writing (QEMU falls back to TCG otherwise).
sub kvm_usable {
	my $asked = grep { /^kvm\b/ } accel_args();
	return 0 unless $asked;
	return (-r '/dev/kvm' && -w '/dev/kvm') ? 1 : 0;
}

# scale - the factor applied to every timeout.
sub scale {
	return $ENV{TALLY_TIMEOUT_SCALE} if $ENV{TALLY_TIMEOUT_SCALE};
	return kvm_usable() ? 1 : 4;
}

# accel_name - "KVM" or "TCG", for diagnostics.
sub accel_name { kvm_usable() ? 'KVM' : 'TCG' }

# --- starting a machine ---------------------------------------------------

# Tally->boot(%options) - start QEMU and return the machine. Options:
#   smp     => N            (-smp, default 2)
#   mem     => '512M'       (-m, default 512M)
#   append  => 'ARGS'       (-append, kernel command line; -kernel only)
#   iso     => 0 | 'bios' | 'uefi'
#                           (0: -kernel $ELF; else -cdrom $BUILD/tally.iso
#                            under SeaBIOS or OVMF)
#   timeout => seconds      (lifetime, scaled; default 300)
#   name    => 'label'      (for the log file name)
#   qemu_args => [...]      (more QEMU options after the standard ones,
#                            e.g. a NUMA topology: tests/qemu/numa.t)
#   firmware_tcg_fallback => 1
#                           (if KVM fails with "KVM internal error" before
#                            the banner, i.e. in the firmware, boot again
#                            under TCG: some hosts' KVM cannot run OVMF)
# Croaks if the image is missing or QEMU cannot be started.
sub boot {
	my ($class, %o) = @_;
	$o{smp} //= 2;
	$o{mem} //= '512M';
	$o{iso} ||= 0;
	croak "Tally->boot: iso must be 0, 'bios' or 'uefi'"
		unless !$o{iso} || $o{iso} eq 'bios' || $o{iso} eq 'uefi';
	croak 'Tally->boot: append is only for -kernel'
		if $o{iso} && defined $o{append};
	my $img = $o{iso} ? iso_path() : elf_path();
	croak "Tally->boot: $img is missing (run make" . ($o{iso} ? ' iso)' : ')')
		unless -f $img;

	my $script = basename($0);
	$script =~ s/\.t$//;
	my $self = bless {
		opts => \%o, smp => $o{smp}, mem => $o{mem}, iso => $o{iso},
		name => $o{name} // sprintf('%s-%d', $script, ++$serial),
		history => [], notes => [], earlier => '',
		failures_at_start => _failures(),
	}, $class;
	$self->_spawn([accel_args()]);
	return $self;
}

# _spawn(accel) - start (or start again) QEMU with these accelerator
# options; the output so far is kept for the transcript only.
sub _spawn {
	my ($self, $accel) = @_;
	my $o = $self->{opts};
	my @argv = ($QEMU, @$accel, '-smp', $o->{smp}, '-m', $o->{mem},
		'-display', 'none', '-serial', 'stdio', '-no-reboot',
		'-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04');
	push @argv, @{$o->{qemu_args}} if $o->{qemu_args};
	if ($o->{iso}) {
		if ($o->{iso} eq 'uefi') {
			my @fw = _ovmf_args(\$self->{tmp});
			croak 'Tally->boot: no OVMF firmware found (apt-get install ovmf)'
				unless @fw;
			push @argv, @fw;
		}
		push @argv, '-cdrom', iso_path();
	} else {
		push @argv, '-kernel', elf_path();
		push @argv, '-append', $o->{append} if defined $o->{append};
	}

	my ($in, $out, $err);
	$err = gensym;
	my $pid = eval { open3($in, $out, $err, @argv) };
	croak "Tally->boot: cannot start $QEMU: $@" unless $pid;
	for my $fh ($out, $err) {
		my $fl = fcntl($fh, F_GETFL, 0);
		fcntl($fh, F_SETFL, $fl | O_NONBLOCK);
	}
	binmode $_ for $in, $out, $err;

	if (defined $self->{argv}) {     # a second start: keep the first's record
		$self->{earlier} .= $self->_transcript_body;
		$self->{notes} = [];
	}
	my $scale = (grep { /^kvm\b/ } @$accel) ? scale() : _tcg_scale();
	%$self = (%$self,
		argv => \@argv, accel => $accel, scale => $scale,
		pid => $pid, in => $in, out => $out, err => $err,
		t0 => time, deadline => time + $scale * ($o->{timeout} // 300),
		raw => '', buf => '', pos => 0, stderr => '',
		status => undef, signal => undef, alive => 1, stopped => 0,
		boot_time => undef, cwd => undef, kvm_error => 0,
		last_time => undef, last_echo => undef, last_ok => 1);
	$live{$pid} = $self;
	weaken($live{$pid});
}

sub _tcg_scale { $ENV{TALLY_TIMEOUT_SCALE} || 4 }

sub _ovmf_args {
	my ($tmpref) = @_;
	for my $f (@OVMF_BIOS) {
		return ('-bios', $f) if -f $f;
	}
	for my $pair (@OVMF_PFLASH) {
		my ($code, $vars) = @$pair;
		next unless -f $code && -f $vars;
		$$tmpref = tempdir('tally-ovmf-XXXXXX', TMPDIR => 1, CLEANUP => 1);
		my $copy = "$$tmpref/" . basename($vars);
		copy($vars, $copy) or next;
		return ('-drive', "if=pflash,format=raw,unit=0,readonly=on,file=$code",
			'-drive', "if=pflash,format=raw,unit=1,file=$copy");
	}
	return ();
}

# --- reading ----------------------------------------------------------------

# _pump(seconds) - wait up to that long for output, append what came, and
# reap QEMU if it has exited. Returns true if anything happened.
sub _pump {
	my ($self, $wait) = @_;
	$wait = 0 if $wait < 0;
	if (!$self->{out} && !$self->{err}) {
		# Both pipes are closed: QEMU is exiting. Reap it, and never
		# return at once (callers loop on _pump).
		sleep($wait < 0.05 ? $wait : 0.05) unless $self->_reap(0);
		return 0;
	}
	my $sel = IO::Select->new(grep { defined } $self->{out}, $self->{err});
	my $got = 0;
	for my $fh ($sel->can_read($wait)) {
		while (1) {
			my $n = sysread($fh, my $data, 65536);
			if (!defined $n) {
				last if $! == EAGAIN || $! == EINTR;
				$n = 0;
			}
			if ($n == 0) {    # end of file
				if ($self->{out} && $fh == $self->{out}) {
					close $self->{out}; $self->{out} = undef;
				} else {
					close $self->{err}; $self->{err} = undef;
				}
				$got = 1;
				last;
			}
			$got = 1;
			if ($self->{out} && $fh == $self->{out}) {
				$self->{raw} .= $data;
				(my $norm = $data) =~ tr/\r//d;
				$self->{buf} .= $norm;
			} else {
				$self->{stderr} .= $data;
			}
		}
	}
	# KVM stops the machine on an emulation failure, and QEMU then waits
	# for ever: end it now.
	if (!$self->{kvm_error} && $self->{stderr} =~ /KVM internal error/) {
		$self->{kvm_error} = 1;
		$self->note('QEMU reports a KVM internal error: killing it');
		sleep 0.2;
		$self->kill;
	}
	$self->_reap(0) if !$self->{out} || !$got;
	return $got;
}

# _reap(block) - collect QEMU's exit status if it has exited.
sub _reap {
	my ($self, $block) = @_;
	return 1 unless $self->{alive};
	my $r = waitpid($self->{pid}, $block ? 0 : WNOHANG);
	return 0 if $r == 0;
	$self->{alive} = 0;
	$self->{end_time} = time;
	if ($r > 0) {
		if ($? & 127) { $self->{signal} = $? & 127 }
		else          { $self->{status} = $? >> 8 }
	}
	delete $live{$self->{pid}};
	# Drain what is left in the pipes.
	for (1 .. 100) { last unless ($self->{out} || $self->{err}) && $self->_pump(0.01) }
	return 1;
}

sub _deadline {
	my ($self, $timeout) = @_;
	my $d = time + $self->{scale} * ($timeout // 30);
	return $d < $self->{deadline} ? $d : $self->{deadline};
}

sub _expire {
	my ($self) = @_;
	return 0 unless time >= $self->{deadline};
	if ($self->{alive}) {
		$self->note(sprintf('lifetime of %.0fs over: killing QEMU',
			$self->{deadline} - $self->{t0}));
		$self->kill;
	}
	return 1;
}

# $t->wait_for(qr/.../, $timeout) - wait until the regex matches the serial
# output after what earlier waits consumed (CR removed), and consume up to
# the end of the match. In scalar context returns the matched text, in list
# context the regex's captures (or the matched text if it has none);
# undef / () on timeout or if QEMU exited first. The text skipped before
# the match is $t->before.
sub wait_for {
	my ($self, $re, $timeout) = @_;
	my $deadline = $self->_deadline($timeout);
	my $start = time;
	while (1) {
		# A match may begin with the newline just before the cursor, so
		# that (?:^|\n) still means "at the start of a line" there.
		my $from = $self->{pos};
		$from-- if $from > 0 && substr($self->{buf}, $from - 1, 1) eq "\n";
		# (A match that would consume nothing new is tried again from
		# the cursor itself.)
		pos($self->{buf}) = $from;
		my $hit = $self->{buf} =~ /\G.*?($re)/gs;
		if ($hit && $+[0] <= $self->{pos} && $from < $self->{pos}) {
			pos($self->{buf}) = $self->{pos};
			$hit = $self->{buf} =~ /\G.*?($re)/gs;
		}
		if ($hit) {
			my @cap;
			for my $i (2 .. $#-) {
				push @cap, defined $-[$i]
					? substr($self->{buf}, $-[$i], $+[$i] - $-[$i]) : undef;
			}
			my $text = $1;
			my $b = $-[1] > $self->{pos} ? $-[1] : $self->{pos};
			$self->{before} = substr($self->{buf}, $self->{pos}, $b - $self->{pos});
			$self->{pos} = $+[0] > $self->{pos} ? $+[0] : $self->{pos};
			return wantarray ? (@cap ? @cap : ($text)) : $text;
		}
		my $now = time;
		if (!$self->{alive} && !$self->{out} && $self->{kvm_error}
		    && $self->{opts}{firmware_tcg_fallback}
		    && $self->{buf} !~ $BANNER_RE) {
			$self->note('the KVM internal error came before the banner '
				. '(in the firmware): booting again under TCG');
			require Test::More;
			Test::More::diag("$self->{name}: KVM cannot run the firmware on this "
				. 'host (KVM internal error); booted again under TCG');
			$self->_spawn(['-accel', 'tcg']);
			$deadline = $self->_deadline($timeout);
			next;
		}
		if (!$self->{out}) {
			# The serial line is closed: nothing more can come. Give
			# QEMU a moment to exit, for the transcript.
			for (1 .. 40) { last if $self->_reap(0); sleep 0.05 }
			$self->note("waiting for $re: the serial line closed (QEMU " . $self->_how_exited . ")");
			return;
		}
		if ($now >= $deadline || $self->_expire) {
			$self->note(sprintf('waiting for %s: timed out after %.1fs',
				$re, $now - $start));
			return;
		}
		$self->_pump($deadline - $now < 0.2 ? $deadline - $now : 0.2);
	}
}

# $t->seen - the output consumed so far by the waits (CR removed).
sub seen { substr($_[0]->{buf}, 0, $_[0]->{pos}) }

# $t->before - the text that the last successful wait_for skipped.
sub before { $_[0]->{before} }

# $t->drain($seconds) - read for that long (scaled) and return, consumed,
# whatever arrived after what earlier waits consumed: to check that
# nothing more comes.
sub drain {
	my ($self, $secs) = @_;
	my $end = time + $self->{scale} * ($secs // 1);
	while ((my $left = $end - time) > 0) {
		last unless $self->{alive} || $self->{out};
		$self->_pump($left < 0.1 ? $left : 0.1);
	}
	my $rest = substr($self->{buf}, $self->{pos});
	$self->{pos} = length $self->{buf};
	return $rest;
}

# $t->prompt($timeout) - wait for the prompt; returns the CWD it shows, or
# undef. The first prompt records the boot time.
sub prompt {
	my ($self, $timeout) = @_;
	my ($cwd) = $self->wait_for($PROMPT_AT_RE, $timeout // 60);
	return unless defined $cwd;
	$self->{cwd} = $cwd;
	$self->{boot_time} //= time - $self->{t0};
	return $cwd;
}

# $t->boot_time - seconds from the start of QEMU to the first prompt.
sub boot_time { $_[0]->{boot_time} }

# $t->cwd - the CWD shown by the last prompt.
sub cwd { $_[0]->{cwd} }

# --- writing ----------------------------------------------------------------

# $t->send($bytes) - type bytes, in small chunks, reading output meanwhile.
sub send {
	my ($self, $bytes) = @_;
	return 0 unless $self->{alive} && $self->{in};
	for (my $i = 0; $i < length $bytes; $i += $CHUNK) {
		my $chunk = substr($bytes, $i, $CHUNK);
		while (length $chunk) {
			my $n = syswrite($self->{in}, $chunk);
			if (!defined $n) {
				next if $! == EINTR;
				$self->note("write to QEMU failed: $!");
				return 0;
			}
			substr($chunk, 0, $n) = '';
		}
		$self->_pump($CHUNK_PAUSE);
	}
	return 1;
}

# $t->send_line($line, $eol) - type a line and its end (default "\r", as a
# terminal's Enter key sends).
sub send_line {
	my ($self, $line, $eol) = @_;
	return $self->send($line . ($eol // "\r"));
}

# visible($text) - what a terminal would show of an echoed line:
# backspace ("\b" or DEL) erases the character before it; other control
# bytes and bytes above 0x7e are dropped.
sub visible {
	my ($s) = @_;
	my $r = '';
	for my $c (split //, $s) {
		if ($c eq "\b" || $c eq "\x7f") { chop $r }
		elsif (ord($c) >= 0x20 && ord($c) <= 0x7e) { $r .= $c }
	}
	return $r;
}

# $t->cmd($line, $timeout, $eol) - type a command line, wait for its echo
# and the next prompt, and return the output between them: in list context
# the lines, in scalar context the lines joined with "\n" (no final
# newline). On timeout or exit: undef / (), and $t->last_ok is false.
# $t->last_time is the seconds from the end of typing to the prompt,
# $t->last_echo the echoed line as a terminal shows it.
#
# Lines the kernel prints on its own (docs/interface.md) do not count as output:
#  - a job notice, "[pid N exited]" or "[pid N killed]", may come before
#    any prompt: it is left out of the lines returned (see $t->notices);
#  - a line printed while the shell waits for input is followed by the
#    prompt again and what had been typed so far. Such a prompt is not the
#    command's: it is passed over, and the echo after the last one is the
#    command's (the line typed so far, then the rest of it).
sub cmd {
	my ($self, $line, $timeout, $eol) = @_;
	$self->{last_ok} = 0;
	$self->{last_echo} = undef;
	$self->{last_time} = undef;
	my $first = !$self->{cmds_sent}++;
	$self->send_line($line, $eol) or return;
	my $start = time;
	my $want = visible($line);
	my $plain = $line !~ /[\r\n]/;
	my ($cwd, @lines);
	while (1) {
		($cwd) = $self->wait_for($PROMPT_AT_RE, $timeout // 30);
		last unless defined $cwd;
		@lines = split /\n/, $self->{before}, -1;
		my $echo = visible(@lines ? $lines[0] : '');
		# The echo is a beginning of the line only: the prompt was
		# printed again after a line from the kernel.
		next if $plain && $echo ne $want
			&& substr($want, 0, length $echo) eq $echo;
		# The whole line was typed when the kernel's line came: the
		# prompt printed again is followed at once by the line. (When
		# all the "output" is lines the kernel prints on its own, the
		# rest of the redrawn line is given a moment to arrive.)
		my @rest = @lines[1 .. $#lines];
		my $async = @rest && !grep { !/^(?:memcg: |\[pid \d+ (?:exited|killed)\]$)/ } @rest;
		# The first command after boot may meet the last boot notices
		# (lines of any form) just after its echo: its output is given
		# a moment to be followed by the line again, too.
		my $wait = $async ? 0.2 : $first && @rest ? 0.25 * $self->{scale} : 0;
		next if $plain && length $want && $self->_redrawn($want, $wait);
		last;
	}
	my $secs = time - $start;
	push @{$self->{history}}, [$line, defined $cwd ? $secs : undef];
	if (!defined $cwd) {
		$self->note("command '" . _printable($line) . "' got no prompt");
		return;
	}
	$self->{cwd} = $cwd;
	$self->{last_time} = $secs;
	$self->{last_ok} = 1;
	my $echo = @lines ? shift @lines : '';
	@lines = grep { !/$NOTICE_RE/ } @lines;
	$self->{last_echo} = visible($echo);
	$self->{last_lines} = [@lines];
	return wantarray ? @lines : join("\n", @lines);
}

# _redrawn($want, $wait) - whether what follows the prompt just consumed
# is the typed line again, that is, the prompt was a redrawn one; if
# nothing follows yet, wait up to $wait seconds for it.
sub _redrawn {
	my ($self, $want, $wait) = @_;
	my $end = time + $wait;
	while (length($self->{buf}) == $self->{pos} && time < $end) {
		last unless $self->{alive} || $self->{out};
		$self->_pump(0.01);
	}
	my ($after) = substr($self->{buf}, $self->{pos}) =~ /^([^\n]*)/;
	$after = visible($after // '');
	return length($after) && substr($want, 0, length $after) eq $after;
}

# $t->notices - every job notice printed so far, in order.
sub notices {
	my ($self) = @_;
	return grep { /$NOTICE_RE/ } split /\n/, $self->{buf};
}

# $t->job_notice($pid, $timeout) - wait for the job notice of $pid (it may
# have come already); returns the notice line, or undef on timeout.
sub job_notice {
	my ($self, $pid, $timeout) = @_;
	my ($seen) = grep { /^\[pid $pid (?:exited|killed)\]$/ } $self->notices;
	return $seen if defined $seen;
	my $got = $self->wait_for(qr/(?:^|\n)\[pid $pid (?:exited|killed)\]\n/, $timeout // 30);
	return unless defined $got;
	$got =~ s/^\n//;
	chomp $got;
	return $got;
}

sub last_ok   { $_[0]->{last_ok} }
sub last_time { $_[0]->{last_time} }
sub last_echo { $_[0]->{last_echo} }

# $t->history - [command, seconds or undef] for every cmd so far.
sub history { @{$_[0]->{history}} }

# --- what the scenario tests ask the shell ------------------------------------
#
# Small readings and checks that several tests/qemu/*.t share, kept here so
# that each is written (and fixed) once. Each takes an optional $timeout
# for its commands, in seconds as cmd takes it (scaled; default 30).

# $t->file($path, $timeout) - the contents of a file (`cat PATH`), lines
# joined with "\n"; '' if no prompt came back.
sub file {
	my ($self, $path, $timeout) = @_;
	my $v = $self->cmd("cat $path", $timeout);
	return defined $v ? $v : '';
}

# $t->meminfo($timeout) - /proc/meminfo as { field => kB } (empty if it
# could not be read).
sub meminfo {
	my ($self, $timeout) = @_;
	my %v = $self->file('/proc/meminfo', $timeout) =~ /^(\w+):\s+(\d+) kB$/mg;
	return \%v;
}

# $t->meminfo_kb($field, $timeout) - one field of /proc/meminfo in kB
# ('MemTotal', 'MemFree'), or undef.
sub meminfo_kb {
	my ($self, $field, $timeout) = @_;
	return $self->meminfo($timeout)->{$field};
}

# $t->memfree_kb($timeout) - MemFree in kB, or undef.
sub memfree_kb {
	my ($self, $timeout) = @_;
	return $self->meminfo_kb('MemFree', $timeout);
}

# $t->stat_of($dir, $name, $timeout) - the value of one line "NAME N" of
# the domain's DIR/memory.stat, or undef.
sub stat_of {
	my ($self, $dir, $name, $timeout) = @_;
	return $self->file("$dir/memory.stat", $timeout) =~ /^\Q$name\E (\d+)$/m
		? $1 : undef;
}

# $t->dying($timeout) - nr_dying_descendants of /cgroup/cgroup.stat: the
# removed domains not yet freed; -1 if it could not be read.
sub dying {
	my ($self, $timeout) = @_;
	return $self->file('/cgroup/cgroup.stat', $timeout)
		=~ /^nr_dying_descendants (\d+)$/m ? $1 : -1;
}

# $t->run_pid($args, $timeout) - `run ARGS` (DOMAIN PROGRAM [ARGS]): the
# PID of the task started, from its answer "pid N" (among the lines the
# kernel may print meanwhile); undef if there is no such line.
sub run_pid {
	my ($self, $args, $timeout) = @_;
	my @out = $self->cmd("run $args", $timeout);
	# (The task may be quick: a line it makes the kernel print - an OOM
	# kill - can come before run's answer, or after it.)
	my ($pid) = map { /^pid (\d+)$/ ? $1 : () } @out;
	return $pid;
}

# $t->until_true($secs, $sub) - call $sub every 0.2 s until it returns a
# true value, $secs (scaled) have passed, or QEMU has exited; returns its
# last value. For what the kernel does in its own time (reaping, freeing a
# removed domain).
sub until_true {
	my ($self, $secs, $f) = @_;
	my $end = time + $secs * $self->{scale};
	while (1) {
		my $v = $f->();
		return $v if $v || time > $end || !$self->alive;
		sleep 0.2;
	}
}

# $t->check_ok($what, $timeout) - a test (Test::More): `check` answers
# exactly "check: ok" (the kernel's consistency check, docs/reliability.md);
# named "check: ok WHAT". The timeout defaults to 60. Returns the test's result.
sub check_ok {
	my ($self, $what, $timeout) = @_;
	require Test::More;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	return Test::More::like(scalar($self->cmd('check', $timeout // 60)) // '',
		qr/^check: ok$/, "check: ok $what");
}

# --- ending -----------------------------------------------------------------

# $t->wait_exit($timeout) - wait for QEMU to exit and return its exit
# status (undef if it did not exit in time, which kills it, or if it was
# killed by a signal).
sub wait_exit {
	my ($self, $timeout) = @_;
	my $deadline = $self->_deadline($timeout // 30);
	while ($self->{alive}) {
		last if $self->_reap(0);
		if (time >= $deadline || $self->_expire) {
			$self->note('QEMU did not exit in time: killing it');
			$self->kill;
			return;
		}
		$self->_pump(0.1);
	}
	return $self->{status};
}

# $t->poweroff($timeout) - type "poweroff" and return QEMU's exit status
# (1 when the kernel powers off: docs/interface.md).
sub poweroff {
	my ($self, $timeout) = @_;
	$self->send_line('poweroff');
	return $self->wait_exit($timeout // 30);
}

# $t->exit_status - QEMU's exit status once it has exited, else undef.
sub exit_status {
	my ($self) = @_;
	$self->_reap(0) if $self->{alive};
	return $self->{status};
}

sub alive {
	my ($self) = @_;
	$self->_reap(0) if $self->{alive};
	return $self->{alive};
}

sub _how_exited {
	my ($self) = @_;
	return 'running' if $self->{alive};
	return "killed by signal $self->{signal}" if defined $self->{signal};
	return "exit status " . ($self->{status} // '?');
}

# $t->kill - end QEMU now (TERM, then KILL).
sub kill {
	my ($self) = @_;
	return unless $self->{alive};
	CORE::kill('TERM', $self->{pid});
	for (1 .. 30) {
		return if $self->_reap(0);
		sleep 0.1;
	}
	CORE::kill('KILL', $self->{pid});
	$self->_reap(1);
}

# $t->kvm - whether this machine really ran under KVM: asked for, /dev/kvm
# usable, and QEMU did not report falling back.
sub kvm {
	my ($self) = @_;
	return kvm_usable() unless ref $self;
	$self->_pump(0) if $self->{alive};
	return 0 unless kvm_usable() && grep { /^kvm\b/ } @{$self->{accel}};
	return 0 if $self->{kvm_error};
	return $self->{stderr} =~ /failed to initialize kvm|Could not access KVM|kvm.*(?:not supported|unavailable)/i
		? 0 : 1;
}

# $t->kvm_error - whether QEMU stopped on a "KVM internal error".
sub kvm_error { $_[0]->{kvm_error} }

# $t->note($text) - a line added to the transcript (harness events).
sub note {
	my ($self, $text) = @_;
	push @{$self->{notes}}, sprintf('[%.2fs] %s', time - $self->{t0}, $text);
}

sub _printable {
	my ($s) = @_;
	$s =~ s/([^\n\t\x20-\x7e])/sprintf('\\x%02x', ord $1)/ge;
	return $s;
}

# $t->output - all serial output so far (CR removed).
sub output {
	my ($self) = @_;
	$self->_pump(0) if $self->{alive};
	return $self->{buf};
}

# $t->transcript - the command line, serial output (control bytes shown as
# \xNN), QEMU's stderr, harness notes and the exit: for diagnostics.
sub transcript {
	my ($self) = @_;
	$self->_pump(0) if $self->{alive};
	return $self->{earlier} . $self->_transcript_body;
}

sub _transcript_body {
	my ($self) = @_;
	my $s = "QEMU: @{$self->{argv}}\n";
	$s .= sprintf("accelerator: %s\n", $self->kvm ? 'KVM' : 'TCG');
	$s .= "--- serial output\n" . _printable($self->{buf});
	$s .= "\n--- end of serial output\n";
	$s .= "--- QEMU stderr\n$self->{stderr}" if length $self->{stderr};
	$s .= "--- harness\n" . join("\n", @{$self->{notes}}) . "\n"
		if @{$self->{notes}};
	$s .= '--- QEMU ' . $self->_how_exited . "\n";
	return $s;
}

# $t->diag_transcript($max_lines) - print the transcript as TAP "# "
# comments (its last max_lines lines, default 150).
sub diag_transcript {
	my ($self, $max) = @_;
	$max //= 150;
	my @l = split /\n/, $self->transcript;
	if (@l > $max) {
		my $cut = @l - $max;
		@l = ("[... $cut lines cut; the whole transcript is in "
			. $self->log_path . ']', @l[-$max .. -1]);
	}
	require Test::More;
	Test::More::diag(join("\n", "transcript of $self->{name}:", @l));
}

sub log_path {
	my ($self) = @_;
	return build_dir() . "/qemu-logs/$self->{name}.log";
}

sub _failures {
	return 0 unless $INC{'Test/More.pm'};
	my $n = eval { scalar grep { !$_ } Test::More->builder->summary };
	return $n // 0;
}

# $t->stop - kill QEMU if it still runs, write the log, and print the
# transcript if a test failed while this machine was up. Called by
# DESTROY; safe to call twice.
sub stop {
	my ($self, %o) = @_;
	return if $self->{stopped}++;
	$self->kill if $self->{alive};
	eval {
		make_path(dirname($self->log_path));
		open my $fh, '>', $self->log_path or die;
		print $fh $self->transcript;
		close $fh;
	};
	if (!$o{quiet} && _failures() > $self->{failures_at_start}) {
		$self->diag_transcript;
	}
	close $self->{in} if $self->{in};
	$self->{in} = undef;
}

sub DESTROY {
	my ($self) = @_;
	local ($@, $!, $?);
	$self->stop;
}

1;
