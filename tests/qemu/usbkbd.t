#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/usbkbd.t - a machine whose only keyboard is a USB one:
# QEMU's q35 with its PS/2 controller off (i8042=off), an xHCI
# controller (qemu-xhci) and a USB keyboard (usb-kbd), booting the ISO
# with no serial port - what a person with a recent PC sees.
#
# 1. OVMF (UEFI): the banner and the keyboard's line are on the screen
#    (read back from screendumps, tests/qemu/lib/TallyScreen.pm); keys
#    typed with the monitor's sendkey reach the shell through the USB
#    keyboard: pwd runs, Shift makes capitals, /proc/usb and /proc/pci
#    show the keyboard and the controller. The keyboard is unplugged and
#    another plugged in (device_del, device_add): the new one types.
#    poweroff, typed, ends QEMU (ACPI S5: status 0).
# 2. SeaBIOS (BIOS): the same machine, the VGA text screen: banner,
#    keyboard, a command's output.
# 3. A USB hub (QEMU's usb-hub, full speed) with the keyboard behind it
#    (SeaBIOS, the ISO; the serial line shows what the keys do): the
#    keyboard types;
#    moved to another port of the hub after boot, it types again, and
#    /proc/usb shows the hub and the keyboard at port N.3.
# 4. Two xHCI controllers (-kernel, serial): a usb-tablet on the first is
#    named and ignored, the keyboard on the second types.
# 5. The default machine (pc: PS/2, no xHCI, no MCFG): the missing
#    controller is reported once on the serial line and the kernel boots
#    on; /proc/pci is read through ports 0xCF8/0xCFC.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Time::HiRes qw(sleep);
use Tally;
use TallyScreen;

diag('accelerator: ' . Tally::accel_name() . ', timeouts x' . Tally::scale());

ok(TallyScreen::load_font(), "the kernel's font is read from the build's fb_font.c")
	or BAIL_OUT('fb_font.c is missing or unreadable: run make');
my $iso = TallyScreen::shell_iso();
ok($iso, 'a copy of the ISO booting "tally: shell" is made')
	or BAIL_OUT('grub-mkrescue failed');

my @USB = ('-machine', 'q35,i8042=off', '-device', 'qemu-xhci,id=xhci',
	'-device', 'usb-kbd,id=kbd1,bus=xhci.0');
my $KBD = qr/keyboard 0627:0001/;   # QEMU's usb-kbd: vendor:product

# typed(m, keys, screen regex) - type keys, wait for the screen to match.
sub typed {
	my ($m, $keys, $re) = @_;
	$m->type($keys) or return;
	return $m->wait_screen($re, 30);
}

# booted(m) - the first screen with a prompt: banner, the keyboard found.
sub booted {
	my ($m) = @_;
	my $scr = $m->wait_screen(qr/^tally:\/#$/m, 120);
	ok(defined $scr, 'the prompt appears on the screen')
		or return $m->diag_state('no prompt on the screen');
	my @l = split /\n/, $scr;
	like($l[0] // '', qr/\A$Tally::BANNER_RE\z/, 'the first line on the screen is the banner');
	like($scr, qr/^usb: port \d+: $KBD$/m, 'the USB keyboard is found at boot (on the screen)');
	unlike($scr, qr/\x7f/, 'every character cell reads');
	return $scr;
}

sub commands {
	my ($m) = @_;
	ok(defined typed($m, "pwd\n", qr/^tally:\/# pwd\n\/\ntally:\/#$/m),
		'pwd typed on the USB keyboard runs: its echo, "/", a new prompt')
		or return $m->diag_state('pwd typed');
	ok(defined typed($m, "PWD\n", qr/^tally:\/# PWD\nerror: ENOENT: [^\n]*\ntally:\/#$/m),
		'Shift makes capitals ("PWD" is an unknown command)')
		or $m->diag_state('PWD typed');
	my $scr = typed($m, "cat /proc/usb\n",
		qr/^tally:\/# cat \/proc\/usb\nxhci [0-9a-f:.]+: \d+ ports, \d+ slots\nport \d+: $KBD\ntally:\/#$/m);
	ok(defined $scr, 'cat /proc/usb: the controller and the keyboard on its port')
		or $m->diag_state('cat /proc/usb typed');
	$scr = typed($m, "cat /proc/pci\n", qr/^tally:\/# cat \/proc\/pci\n(?:[^\n]*\n)*?tally:\/#$/m);
	like($scr // '', qr/^[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] 1b36:000d 0c0330$/m,
		'cat /proc/pci: the xHCI controller, class 0c0330')
		or $m->diag_state('cat /proc/pci typed');
}

subtest 'OVMF: screen, USB keyboard, hot-plug' => sub {
	my @fw = TallyScreen::ovmf_args();
	ok(@fw, 'OVMF firmware is installed') or return;
	my $m = TallyScreen::machine_start(name => 'usb-ovmf',
		args => [@fw, @USB, '-serial', 'none', '-cdrom', $iso]);
	booted($m) or return $m->kill;
	commands($m);

	# Unplug the keyboard and plug in another: the new one types.
	ok(defined $m->hmp('device_del kbd1'), 'device_del kbd1');
	sleep 1;
	ok(defined $m->hmp('device_add usb-kbd,id=kbd2,bus=xhci.0'), 'device_add usb-kbd');
	# Enter until a new prompt shows that a key got through (keys typed
	# before the new keyboard is set up are lost, as on a real machine).
	my $before = () = ($m->screen // '') =~ /^tally:\/#/mg;
	my $through;
	for (1 .. 20 * $m->scale) {
		$m->type("\n");
		my $now = () = ($m->screen // '') =~ /^tally:\/#/mg;
		if ($now > $before) { $through = 1; last }
		sleep 1;
	}
	ok($through, 'after the replug, Enter on the new keyboard reaches the shell')
		or $m->diag_state('after device_add');
	ok(defined typed($m, "cat /proc/usb\n",
		qr/^tally:\/# cat \/proc\/usb\nxhci [^\n]*\nport \d+: $KBD\ntally:\/#$/m),
		'cat /proc/usb: one keyboard, the new one')
		or $m->diag_state('cat /proc/usb after replug');

	$m->type("poweroff\n");
	is($m->wait_exit(60), 0, 'poweroff typed on the USB keyboard: QEMU exits (ACPI S5)')
		or $m->diag_state('poweroff typed');
	$m->kill;
};

subtest 'SeaBIOS: VGA text screen, USB keyboard' => sub {
	my $m = TallyScreen::machine_start(name => 'usb-seabios', vga_text => 1,
		args => [@USB, '-serial', 'none', '-cdrom', $iso]);
	booted($m) or return $m->kill;
	commands($m);
	$m->type("poweroff\n");
	is($m->wait_exit(60), 0, 'poweroff typed on the USB keyboard: QEMU exits (ACPI S5)')
		or $m->diag_state('poweroff typed');
	$m->kill;
};

subtest 'a keyboard behind a USB hub, and one plugged into the hub later' => sub {
	# SeaBIOS, the ISO; the serial line to a file, to read what the keys do.
	my $serial = "$TallyScreen::TMP/hub-serial.log";
	my $m = TallyScreen::machine_start(name => 'usb-hub', args => [
		'-machine', 'q35,i8042=off', '-device', 'qemu-xhci,id=xhci',
		'-device', 'usb-hub,id=hub,bus=xhci.0,port=1',
		'-device', 'usb-kbd,id=kbd1,bus=xhci.0,port=1.1',
		'-serial', "file:$serial", '-cdrom', $iso]);
	$m->{serial_file} = $serial;
	my $out = $m->wait_serial(qr/\ntally:\/# $/, 120);
	ok(defined $out, 'the prompt on the serial line')
		or return $m->diag_state('no prompt');
	like($out // '', qr/^usb: port (\d+): hub 0409:55aa\nusb: port \1\.1: $KBD\n/m,
		'at boot: the hub on a root port, the keyboard on its port 1');
	$m->type("pwd\n");
	ok(defined $m->wait_serial(qr/\ntally:\/# pwd\n\/\ntally:\/# $/, 30),
		'pwd typed on the keyboard behind the hub runs')
		or $m->diag_state('pwd typed');

	# Move the keyboard to port 3 of the hub.
	ok(defined $m->hmp('device_del kbd1'), 'device_del kbd1');
	sleep 1;
	ok(defined $m->hmp('device_add usb-kbd,id=kbd2,bus=xhci.0,port=1.3'),
		'device_add usb-kbd on the hub\'s port 3');
	my $prompts = () = $m->serial_text =~ /tally:\/# /g;
	my $through;
	for (1 .. 20 * $m->scale) {
		$m->type("\n");
		my $now = () = $m->serial_text =~ /tally:\/# /g;
		if ($now > $prompts) { $through = 1; last }
		sleep 1;
	}
	ok($through, 'Enter on the keyboard now on port 3 of the hub reaches the shell')
		or $m->diag_state('after device_add behind the hub');
	$m->type("cat /proc/usb\n");
	ok(defined $m->wait_serial(qr/\ntally:\/# cat \/proc\/usb\nxhci [^\n]*\nport (\d+): hub 0409:55aa\nport \1\.3: $KBD\ntally:\/# $/, 30),
		'cat /proc/usb: the hub, and the keyboard on its port 3 (port 1 is empty)')
		or $m->diag_state('cat /proc/usb typed');
	$m->type("poweroff\n");
	is($m->wait_exit(60), 0, 'poweroff: QEMU exits through ACPI S5')
		or $m->diag_state('poweroff typed');
	$m->kill;
};

subtest 'two xHCI controllers: a tablet on the first, the keyboard on the second' => sub {
	my $serial = "$TallyScreen::TMP/two-serial.log";
	my $m = TallyScreen::machine_start(name => 'usb-two', args => [
		'-machine', 'q35,i8042=off',
		'-device', 'qemu-xhci,id=xa', '-device', 'qemu-xhci,id=xb',
		'-device', 'usb-tablet,bus=xa.0', '-device', 'usb-kbd,bus=xb.0',
		'-serial', "file:$serial", '-kernel', Tally::elf_path()]);
	$m->{serial_file} = $serial;
	my $out = $m->wait_serial(qr/\ntally:\/# $/, 120);
	ok(defined $out, 'the prompt on the serial line')
		or return $m->diag_state('no prompt');
	like($out // '', qr/^usb ([0-9a-f:.]+): port \d+: device [0-9a-f:]+ is not a boot keyboard: ignored\nusb (?!\1)[0-9a-f:.]+: port \d+: $KBD\n/m,
		'at boot: the tablet on one controller is ignored, the keyboard on the other found');
	$m->type("cat /proc/usb\n");
	ok(defined $m->wait_serial(qr/\ntally:\/# cat \/proc\/usb\nxhci [^\n]*\nport \d+: device [^\n]*\nxhci [^\n]*\nport \d+: $KBD\ntally:\/# $/, 30),
		'typed on the keyboard of the second controller: /proc/usb, a block per controller')
		or $m->diag_state('cat /proc/usb typed');
	$m->type("poweroff\n");
	is($m->wait_exit(60), 0, 'poweroff: QEMU exits through ACPI S5')
		or $m->diag_state('poweroff typed');
	$m->kill;
};

subtest 'the default machine (PS/2, no xHCI, no MCFG): PCI through the ports' => sub {
	my $t = Tally->boot(name => 'usb-none', timeout => 180);
	ok(defined $t->wait_for(qr/^usb: no xHCI controller[^\n]*\n/m, 60),
		'at boot, once, on the serial line: there is no xHCI controller');
	is($t->prompt(60), '/', 'the kernel boots on to the prompt');
	my @pci = $t->cmd('cat /proc/pci', 30);
	ok((grep { /^00:00\.0 8086:1237 060000$/ } @pci),
		'/proc/pci through ports 0xCF8/0xCFC: the i440FX host bridge at 00:00.0');
	ok(!(grep { !/^[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] [0-9a-f]{4}:[0-9a-f]{4} [0-9a-f]{6}$/ } @pci),
		'every line of /proc/pci is "bus:dev.fn vendor:device class"')
		or diag(join "\n", @pci);
	is_deeply([$t->cmd('cat /proc/usb', 30)], ['no xHCI controller'],
		'/proc/usb: no xHCI controller');
	is($t->poweroff(30), 1, 'poweroff: QEMU exits with status 1');
	$t->stop;
};

done_testing();
