#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/screen.t - tally as a user with a screen and a keyboard sees
# it, on a machine without a serial port (docs/hardware.md).
#
# 1. The ISO under OVMF (UEFI) with -vga std and -serial none. GRUB passes
#    the firmware's framebuffer and the kernel draws its console on it. The
#    test reads the screen back through the QEMU monitor's screendump (a
#    PPM image) and turns it into text by matching every character cell
#    against the glyphs of the kernel's own font (build/fb_font.c): the
#    banner and the prompt must be on it. Keys are typed with the
#    monitor's sendkey (the PS/2 keyboard): pwd runs, Backspace and Shift
#    work, the screen scrolls, and poweroff ends QEMU through ACPI S5 -
#    exit status 0, as there is no isa-debug-exit device.
#    The ISO is the real one except that its default menu entry is
#    "tally: shell" (the real default runs the demo, whose output would
#    push the banner off the screen): the test makes that copy itself.
# 2. -kernel under SeaBIOS with the serial line (to read the echo) but no
#    isa-debug-exit: keys typed on the PS/2 keyboard reach the shell beside
#    COM1, and poweroff also ends QEMU through ACPI (exit status 0).
#
# The screen, the keys and QEMU's monitor are driven through
# tests/qemu/lib/TallyScreen.pm (QMP; screendump and sendkey are human
# monitor commands). Perl core modules only.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;
use TallyScreen;

my $BUILD = Tally::build_dir();
diag('accelerator: ' . Tally::accel_name() . ', timeouts x' . Tally::scale());

ok(TallyScreen::load_font(), "the kernel's font is read from $BUILD/fb_font.c")
	or BAIL_OUT("$BUILD/fb_font.c is missing or unreadable: run make");

subtest 'OVMF, -vga std, no serial port: screen and keyboard' => sub {
	my $iso = TallyScreen::shell_iso();
	ok($iso, 'a copy of the ISO booting "tally: shell" is made')
		or return diag(`cat $TallyScreen::TMP/grub-mkrescue.log 2>/dev/null`);
	my @fw = TallyScreen::ovmf_args();
	ok(@fw, 'OVMF firmware is installed') or return;

	my $m = TallyScreen::machine_start(name => 'ovmf', args => [@fw, '-serial', 'none',
		'-cdrom', $iso]);
	my $scr = $m->wait_screen(qr/^tally:\/#/m, 120);
	ok(defined $scr, 'the prompt appears on the screen')
		or return $m->diag_state('no prompt on the screen');
	my @l = split /\n/, $scr;
	my ($cpus, $mib) = ($l[0] // '') =~ /\A$Tally::BANNER_RE\z/ ? ($2, $3) : ();
	ok(defined $cpus, 'the first line on the screen is the banner')
		or diag("first line: '" . ($l[0] // '') . "'");
	is($cpus, 2, 'banner: cpus=2');
	ok(defined $mib && $mib <= 512 && $mib >= 460, 'banner: mem plausible for -m 512M')
		or diag('mem=' . ($mib // '?'));
	like($l[1] // '', qr/^slab_accounting: caches \(/,
	     'the second line names the slab accounting design, caches');
	like($l[2] // '', qr/^tally:\/#$/, 'the third line is the prompt tally:/# ');
	unlike($scr, qr/\x7f/, 'every character cell reads as a glyph of the font');

	# Typing: pwd, then Backspace, then Shift.
	ok($m->type("pwd\n"), 'keys are sent with sendkey');
	$scr = $m->wait_screen(qr/^tally:\/# pwd\n\/\ntally:\/#$/m, 30);
	ok(defined $scr, 'typed "pwd" Enter: the echo, "/", and a new prompt')
		or $m->diag_state('pwd typed');
	$m->type("pwdx\x7f\n");
	$scr = $m->wait_screen(qr/^tally:\/# pwd\n\/\ntally:\/# pwd\n\/\ntally:\/#$/m, 30);
	ok(defined $scr, 'Backspace erases ("pwdx" Backspace runs pwd)')
		or $m->diag_state('pwdx Backspace typed');
	$m->type("PWD\n");
	$scr = $m->wait_screen(qr/^tally:\/# PWD\nerror: ENOENT: [^\n]*\ntally:\/#$/m, 30);
	ok(defined $scr, 'Shift makes capitals ("PWD" is an unknown command)')
		or $m->diag_state('PWD typed');

	# Scrolling: help prints a line per command; three of them and some
	# pwd fill more than the screen.
	my $rows = int(600 / $TallyScreen::FONT{height});
	if (defined $scr) {
		my (undef, undef, $ppm_rows) = TallyScreen::read_ppm($m->{last_ppm});
		$rows = int(@$ppm_rows / $TallyScreen::FONT{height}) if $ppm_rows;
	}
	for (1 .. 3) {
		$m->type("help\n");
		$m->wait_screen(qr/\ntally:\/#$/, 30);
	}
	my $lines_before = $rows;
	$m->type("pwd\n");
	$scr = $m->wait_screen(qr/^tally:\/# pwd\n\/\ntally:\/#$/m, 30);
	ok(defined $scr, 'after output longer than the screen, pwd still shows')
		or $m->diag_state('after help x3');
	if (defined $scr) {
		my @s = split /\n/, $scr;
		unlike($s[0], $Tally::BANNER_RE, 'the screen has scrolled: the banner is gone');
		is(scalar @s, $lines_before, "the text fills all $lines_before rows");
		unlike($scr, qr/\x7f/, 'after scrolling, every cell still reads as a glyph');
		like($s[-1], qr/^tally:\/#$/, 'the prompt is on the last row');
	}

	$m->type("poweroff\n");
	my $status = $m->wait_exit(60);
	is($status, 0, 'poweroff: QEMU exits with status 0 (ACPI S5, no isa-debug-exit)')
		or $m->diag_state('poweroff typed');
	$m->kill;
};

subtest 'SeaBIOS -kernel: PS/2 keyboard beside COM1, ACPI poweroff' => sub {
	my $m = TallyScreen::machine_start(name => 'seabios', args => ['-serial',
		"file:$TallyScreen::TMP/seabios-serial.log", '-kernel', Tally::elf_path()]);
	$m->{serial_file} = "$TallyScreen::TMP/seabios-serial.log";
	ok(defined $m->wait_serial(qr/\ntally:\/# $/, 60), 'the prompt on the serial line')
		or return $m->diag_state('no prompt');
	$m->type("pwd\n");
	ok(defined $m->wait_serial(qr/\ntally:\/# pwd\n\/\ntally:\/# $/, 30),
		'pwd typed on the keyboard runs; the echo and output go to COM1')
		or $m->diag_state('pwd typed');
	$m->type("poweroff\n");
	is($m->wait_exit(30), 0, 'poweroff: QEMU exits with status 0 through ACPI S5')
		or $m->diag_state('poweroff typed');
	$m->kill;
};

done_testing();
