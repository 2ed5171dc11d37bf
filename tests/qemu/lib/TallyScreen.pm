# SPDX-License-Identifier: MIT
# tests/qemu/lib/TallyScreen.pm - a QEMU machine seen as a person sees it:
# its screen read back as text, its keyboard typed on. For tests that
# boot without a serial console (usbkbd.t; screen.t has the same code
# inline).
#
#   - The framebuffer console (UEFI): the monitor's screendump (a PPM
#     image), every character cell matched against the kernel's own font
#     (build/fb_font.c).
#   - The VGA text console (BIOS): the same screen, read from the VGA text
#     buffer at 0xb8000 with the monitor's xp (what a screendump of text
#     mode shows, drawn with QEMU's font, which tally does not have).
#   - Keys: the monitor's sendkey, to whatever keyboard the machine has
#     (PS/2, or a USB keyboard).
#
# QEMU is driven through QMP (JSON on a unix socket); screendump, sendkey
# and xp are human monitor commands passed through human-monitor-command.
# Perl core modules only.
package TallyScreen;

use strict;
use warnings;
use File::Copy qw(copy);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use IO::Socket::UNIX;
use JSON::PP;
use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);
use Tally;

my $SCALE = Tally::scale();
my $BUILD = Tally::build_dir();
our $TMP = tempdir('tally-screen-XXXXXX', TMPDIR => 1, CLEANUP => 1);

# --- the font, from the file the kernel is built with ------------------------

our %FONT;  # width, height, glyph{bitmap string} = char, top{...} = char

sub load_font {
	my $file = "$BUILD/fb_font.c";
	open my $fh, '<', $file or return 0;
	my $src = do { local $/; <$fh> };
	my ($w) = $src =~ /fb_font_width = (\d+);/;
	my ($h) = $src =~ /fb_font_height = (\d+);/;
	my ($rb) = $src =~ /fb_font_row_bytes = (\d+);/;
	my ($body) = $src =~ /fb_font_glyphs\[[^\]]*\] = \{(.*?)\};/s;
	return 0 unless $w && $h && $rb && defined $body;
	$body =~ s{/\*.*?\*/}{}gs;
	my @bytes = map { hex } $body =~ /0x([0-9a-f]{2})/g;
	return 0 unless @bytes == 128 * $h * $rb;
	# The cursor is drawn over the last eighth of the rows of its cell.
	my $cursor_from = $h - int(($h + 7) / 8);
	%FONT = (width => $w, height => $h, cursor_from => $cursor_from,
		glyph => {}, top => {});
	# Characters in order, space first: a glyph that two characters share
	# reads as the first.
	for my $c (32 .. 126) {
		my @rows;
		for my $y (0 .. $h - 1) {
			my $bits = 0;
			$bits = ($bits << 8) | $bytes[($c * $h + $y) * $rb + $_] for 0 .. $rb - 1;
			$bits >>= $rb * 8 - $w;
			push @rows, sprintf("%0${w}b", $bits);
		}
		my $key = join('', @rows);
		my $top = join('', @rows[0 .. $cursor_from - 1]);
		$FONT{glyph}{$key} //= chr $c;
		$FONT{top}{$top} //= chr $c;
	}
	return 1;
}

# read_ppm(file) - (width, height, [row bit strings]): '1' for a lit
# pixel (brighter than dark grey), '0' for background.
sub read_ppm {
	my ($file) = @_;
	open my $fh, '<:raw', $file or return;
	my $data = do { local $/; <$fh> };
	return unless defined $data &&
		$data =~ /\AP6\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(\d+)\s/g;
	my ($w, $h, $max) = ($1, $2, $3);
	my $off = pos($data);
	return unless $max == 255 && length($data) >= $off + $w * $h * 3;
	my @rows;
	for my $y (0 .. $h - 1) {
		my @px = unpack('C*', substr($data, $off + $y * $w * 3, $w * 3));
		my $bits = '';
		for (my $i = 0; $i < @px; $i += 3) {
			$bits .= ($px[$i] + $px[$i + 1] + $px[$i + 2] > 192) ? '1' : '0';
		}
		push @rows, $bits;
	}
	return ($w, $h, \@rows);
}

# screen_text(ppm file) - the screen as lines of text (trailing blanks
# removed). A cell that matches no glyph reads as "\x{7f}"; the cell under
# the cursor is matched without the cursor's rows.
sub screen_text {
	my ($file) = @_;
	my ($w, $h, $rows) = read_ppm($file);
	return unless $rows;
	my ($fw, $fh) = ($FONT{width}, $FONT{height});
	my @lines;
	for my $r (0 .. int($h / $fh) - 1) {
		my $line = '';
		for my $c (0 .. int($w / $fw) - 1) {
			my @cell = map { substr($rows->[$r * $fh + $_], $c * $fw, $fw) } 0 .. $fh - 1;
			my $ch = $FONT{glyph}{join '', @cell};
			if (!defined $ch && join('', @cell[$FONT{cursor_from} .. $fh - 1]) !~ /0/) {
				$ch = $FONT{top}{join '', @cell[0 .. $FONT{cursor_from} - 1]};
			}
			$line .= $ch // "\x7f";
		}
		$line =~ s/ +$//;
		push @lines, $line;
	}
	pop @lines while @lines && $lines[-1] eq '';
	return join("\n", @lines);
}

# --- a QEMU machine driven through QMP -------------------------------------

my %live;
END { local $?; for my $m (values %live) { $m->kill if $m } }

sub machine_start {
	my (%o) = @_;
	my $dir = tempdir('m-XXXXXX', DIR => $TallyScreen::TMP);
	my $m = bless { %o, dir => $dir, qmp_path => "$dir/qmp.sock",
		serial_file => "$dir/serial.log", spawns => 0 }, 'TallyScreen::Machine';
	$m->spawn($o{accel} // [Tally::accel_args()]);
	return $m;
}

package TallyScreen::Machine;

use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);

sub spawn {
	my ($m, $accel) = @_;
	my @argv = ('qemu-system-x86_64', @$accel, '-smp', 2, '-m', '512M',
		'-display', 'none', '-vga', 'std', '-no-reboot',
		'-qmp', "unix:$m->{qmp_path},server=on,wait=off",
		@{$m->{args}});
	unlink $m->{qmp_path};
	$m->{err_file} = "$m->{dir}/stderr-" . ++$m->{spawns} . ".log";
	my $pid = fork;
	die "fork: $!" unless defined $pid;
	if ($pid == 0) {
		open STDIN, '<', '/dev/null';
		open STDOUT, '>>', $m->{err_file};
		open STDERR, '>>', $m->{err_file};
		exec @argv or POSIX::_exit(127);
	}
	%$m = (%$m, pid => $pid, argv => \@argv, accel => $accel, alive => 1,
		status => undef, t0 => time, qmp => undef, qbuf => '',
		kvm => (grep { /^kvm\b/ } @$accel) && Tally::kvm_usable() ? 1 : 0);
	$live{$pid} = $m;
}

sub reap {
	my ($m) = @_;
	return 0 unless $m->{alive};
	my $r = waitpid($m->{pid}, WNOHANG);
	return 1 if $r == 0;
	$m->{alive} = 0;
	$m->{status} = ($? & 127) ? -($? & 127) : $? >> 8;
	delete $live{$m->{pid}};
	return 0;
}

sub alive { my ($m) = @_; $m->reap; return $m->{alive} }

sub stderr_text {
	my ($m) = @_;
	open my $fh, '<', $m->{err_file} or return '';
	local $/;
	return <$fh> // '';
}

sub serial_text {
	my ($m) = @_;
	open my $fh, '<:raw', $m->{serial_file} or return '';
	local $/;
	my $s = <$fh> // '';
	$s =~ tr/\r//d;
	return $s;
}

# kvm_failed - QEMU stopped on a "KVM internal error" (some hosts' KVM
# cannot run OVMF): the caller boots again under TCG.
sub kvm_failed { $_[0]->stderr_text =~ /KVM internal error/ }

sub kill {
	my ($m) = @_;
	return unless $m->{alive};
	CORE::kill('TERM', $m->{pid});
	for (1 .. 50) { return unless $m->alive; sleep 0.1 }
	CORE::kill('KILL', $m->{pid});
	waitpid($m->{pid}, 0);
	$m->{alive} = 0;
	delete $live{$m->{pid}};
}

sub respawn_tcg {
	my ($m) = @_;
	$m->kill;
	close $m->{qmp} if $m->{qmp};
	Test::More::diag('KVM cannot run the firmware on this host (KVM internal '
		. 'error): booting again under TCG');
	$m->spawn(['-accel', 'tcg']);
}

sub scale { $_[0]->{kvm} ? $SCALE : ($ENV{TALLY_TIMEOUT_SCALE} || 4) }

# qmp_connect - open the QMP socket and leave capabilities negotiation.
sub qmp_connect {
	my ($m) = @_;
	return $m->{qmp} if $m->{qmp};
	my $end = time + 10;
	my $s;
	while (!$s && time < $end && $m->alive) {
		$s = IO::Socket::UNIX->new(Peer => $m->{qmp_path});
		sleep 0.1 unless $s;
	}
	return unless $s;
	$m->{qmp} = $s;
	$m->{qbuf} = '';
	$m->qmp_reply(10) or return;                    # the greeting
	$m->qmp_execute({ execute => 'qmp_capabilities' }) or return;
	return $s;
}

# qmp_reply(timeout) - the next line that is not an event, decoded.
sub qmp_reply {
	my ($m, $timeout) = @_;
	my $end = time + $timeout;
	while (time < $end) {
		while ($m->{qbuf} =~ s/\A([^\n]*)\n//) {
			my $msg = eval { JSON::PP::decode_json($1) } or next;
			return $msg unless $msg->{event};
			push @{$m->{events}}, $msg->{event};
		}
		my $rin = '';
		vec($rin, fileno($m->{qmp}), 1) = 1;
		next unless select(my $rout = $rin, undef, undef, 0.2);
		my $n = sysread($m->{qmp}, my $data, 65536);
		return unless $n;
		$m->{qbuf} .= $data;
	}
	return;
}

sub qmp_execute {
	my ($m, $cmd) = @_;
	return unless $m->{qmp} || $cmd->{execute} eq 'qmp_capabilities';
	syswrite($m->{qmp}, JSON::PP::encode_json($cmd) . "\n") or return;
	my $r = $m->qmp_reply(30);
	return $r && exists $r->{return} ? $r : undef;
}

# hmp(command) - a human monitor command; its output, or undef.
sub hmp {
	my ($m, $line) = @_;
	$m->qmp_connect or return;
	my $r = $m->qmp_execute({ execute => 'human-monitor-command',
		arguments => { 'command-line' => $line } });
	return $r ? $r->{return} : undef;
}

# screen - the screen as text, or undef: from a screendump, or from VGA
# text memory if the machine was started with vga_text => 1.
sub screen {
	my ($m) = @_;
	return $m->vga_screen if $m->{vga_text};
	my $file = "$m->{dir}/screen.ppm";
	unlink $file;
	my $out = $m->hmp("screendump $file");
	return unless defined $out && -s $file;
	my $text = TallyScreen::screen_text($file);
	$m->{last_screen} = $text;
	$m->{last_ppm} = $file;
	return $text;
}

# vga_screen - the 80x25 VGA text screen as lines of text (trailing blanks
# removed), read from 0xb8000 (character bytes at even addresses).
sub vga_screen {
	my ($m) = @_;
	my $out = $m->hmp('xp /2000hx 0xb8000');
	return unless defined $out;
	my @cells;
	for my $line (split /\n/, $out) {
		next unless $line =~ /^[0-9a-f]+:\s+(.*)$/i;
		push @cells, map { hex($_) & 0xff } $1 =~ /0x([0-9a-f]{4})/gi;
	}
	return unless @cells >= 2000;
	my @lines;
	for my $r (0 .. 24) {
		my $l = join '', map { $_ >= 32 && $_ < 127 ? chr $_ : ' ' }
			@cells[$r * 80 .. $r * 80 + 79];
		$l =~ s/ +$//;
		push @lines, $l;
	}
	pop @lines while @lines && $lines[-1] eq '';
	my $text = join("\n", @lines);
	$m->{last_screen} = $text;
	return $text;
}

# wait_screen(regex, timeout) - take screendumps until the screen's text
# matches; returns the text, or undef.
sub wait_screen {
	my ($m, $re, $timeout) = @_;
	my $end = time + $m->scale * $timeout;
	while (time < $end) {
		if ($m->{kvm} && $m->kvm_failed) {
			$m->respawn_tcg;
			$end = time + $m->scale * $timeout;
			next;
		}
		if (!$m->alive) {
			return unless $m->crashed_in_firmware;
			$m->respawn_crashed;
			$end = time + $m->scale * $timeout;
			next;
		}
		my $text = $m->screen;
		return $text if defined $text && $text =~ $re;
		sleep 0.5;
	}
	return;
}

# crashed_in_firmware - QEMU itself died of a signal (a fault in the
# emulator, not a kernel's exit) while the screen still showed the
# firmware or GRUB: tally had not started, so a second start tells the
# test what the first could not. Once only: a second crash is a failure.
sub crashed_in_firmware {
	my ($m) = @_;
	return !$m->{alive} && defined $m->{status} && $m->{status} < 0
		&& !$m->{crash_respawned}
		&& ($m->{last_screen} // '') !~ /$Tally::BANNER_RE/;
}

sub respawn_crashed {
	my ($m) = @_;
	close $m->{qmp} if $m->{qmp};
	Test::More::diag("QEMU died of signal " . -$m->{status} . " before the "
		. "kernel's banner was on the screen (a fault in the emulator): "
		. "starting it again");
	$m->{crash_respawned} = 1;
	$m->spawn($m->{accel});
}

# wait_serial(regex, timeout) - poll the serial log file until it matches.
sub wait_serial {
	my ($m, $re, $timeout) = @_;
	my $end = time + $m->scale * $timeout;
	while (time < $end) {
		my $s = $m->serial_text;
		return $s if $s =~ $re;
		return unless $m->alive;
		sleep 0.2;
	}
	return;
}

# The monitor's key names for the characters tests type.
my %KEY = (' ' => 'spc', "\n" => 'ret', "\x7f" => 'backspace', '/' => 'slash',
	'.' => 'dot', '-' => 'minus', '=' => 'equal', '>' => 'shift-dot',
	'_' => 'shift-minus', ':' => 'shift-semicolon');

# type(text) - send each character as a key press ("\n" is Enter, "\x7f"
# Backspace, capitals with Shift).
sub type {
	my ($m, $text) = @_;
	for my $ch (split //, $text) {
		my $key = $KEY{$ch} // ($ch =~ /[A-Z]/ ? 'shift-' . lc $ch
			: $ch =~ /[a-z0-9]/ ? $ch : die "no key for '$ch'");
		defined $m->hmp("sendkey $key") or return 0;
		sleep 0.03;
	}
	return 1;
}

# wait_exit(timeout) - QEMU's exit status once it has exited, else undef.
sub wait_exit {
	my ($m, $timeout) = @_;
	my $end = time + $m->scale * $timeout;
	while (time < $end) {
		return $m->{status} unless $m->alive;
		sleep 0.1;
	}
	return;
}

sub diag_state {
	my ($m, $what) = @_;
	my $s = "$what\nQEMU: @{$m->{argv}}\n";
	$s .= "--- last screen\n" . ($m->{last_screen} // '(none)') . "\n";
	my $ser = $m->serial_text;
	$s .= "--- serial\n$ser\n" if length $ser;
	$s .= "--- QEMU stderr\n" . $m->stderr_text;
	$s .= "--- QEMU " . ($m->{alive} ? 'running' : "exit status $m->{status}") . "\n";
	Test::More::diag($s);
	# Keep the last screendump for a person to look at.
	if ($m->{last_ppm} && -f $m->{last_ppm}) {
		File::Path::make_path("$BUILD/qemu-logs");
		File::Copy::copy($m->{last_ppm}, "$BUILD/qemu-logs/screen-$m->{name}.ppm");
	}
}


package TallyScreen;

# shell_iso - a copy of the ISO (the kernel, boot/grub.cfg) whose default
# menu entry is "tally: shell"; its path, or undef.
sub shell_iso {
	my $iso = "$TMP/shell.iso";
	my $dir = "$TMP/isodir";
	make_path("$dir/boot/grub");
	copy(Tally::elf_path(), "$dir/boot/tally.elf") or return;
	open my $in, '<', "$Tally::ROOT/boot/grub.cfg" or return;
	my $cfg = do { local $/; <$in> };
	$cfg =~ s/^set default=.*$/set default="tally: shell"/m or return;
	open my $out, '>', "$dir/boot/grub/grub.cfg" or return;
	print $out $cfg;
	close $out;
	system("grub-mkrescue -o $iso $dir >$TMP/grub-mkrescue.log 2>&1") == 0 or return;
	return $iso;
}

sub ovmf_args {
	for my $pair (['/usr/share/OVMF/OVMF_CODE_4M.fd', '/usr/share/OVMF/OVMF_VARS_4M.fd'],
		      ['/usr/share/OVMF/OVMF_CODE.fd', '/usr/share/OVMF/OVMF_VARS.fd']) {
		my ($code, $vars) = @$pair;
		next unless -f $code && -f $vars;
		copy($vars, "$TMP/vars.fd") or next;
		return ('-drive', "if=pflash,format=raw,unit=0,readonly=on,file=$code",
			'-drive', "if=pflash,format=raw,unit=1,file=$TMP/vars.fd");
	}
	return ('-bios', '/usr/share/ovmf/OVMF.fd') if -f '/usr/share/ovmf/OVMF.fd';
	return;
}

1;
