#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/qemu/boot.t - the boot matrix: -kernel on 1, 2 and 4 CPUs, and the
# ISO under SeaBIOS and OVMF. Each boot must print the banner
# "tally VERSION cpus=N mem=MMiB" (docs/interface.md) with N = -smp and MMiB
# plausible for -m, reach the prompt, and power off with QEMU exit status 1
# (docs/interface.md). The time from start to prompt is printed, not asserted.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use Tally;

diag('accelerator: ' . Tally::accel_name() . ', timeouts x' . Tally::scale());

# mem_ok(MiB reported, -m in MiB) - the banner counts usable RAM: at most
# what QEMU was given, and at least 90% of it (the holes below 1 MiB, the
# BIOS and ACPI areas are far smaller than that).
sub mem_ok {
	my ($mib, $m) = @_;
	return $mib <= $m && $mib >= int($m * 0.9);
}

sub to_mib {
	my ($m) = @_;
	return $m =~ /^(\d+)G$/ ? $1 * 1024 : $m =~ /^(\d+)M?$/ ? $1 : die "size $m";
}

# The -kernel matrix.
for my $case ([1, '256M'], [2, '512M'], [4, '1G']) {
	my ($smp, $mem) = @$case;
	my $m = to_mib($mem);
	subtest "-kernel -smp $smp -m $mem" => sub {
		my $t = Tally->boot(smp => $smp, mem => $mem, timeout => 180);
		my ($line) = $t->wait_for(qr/\A([^\n]*)\n/, 60);
		ok(defined $line, 'a first line is printed')
			or return $t->stop;
		my ($ver, $cpus, $mib) = $line =~ /\A$Tally::BANNER_RE\z/;
		ok(defined $ver, 'the first line is the banner')
			or diag("first line: '" . Tally::_printable($line) . "'");
		is($cpus, $smp, "banner: cpus=$smp");
		ok(defined $mib && mem_ok($mib, $m), "banner: mem plausible for -m $mem")
			or diag('banner says mem=' . ($mib // '?') . "MiB for -m $mem");

		my $cwd = $t->prompt(60);
		is($cwd, '/', 'the prompt tally:/# is reached');
		diag(sprintf('-smp %d: %.2fs from start to prompt (%s)',
			$smp, $t->boot_time, $t->kvm ? 'KVM' : 'TCG'))
			if defined $t->boot_time;

		my @cpuinfo = $t->cmd('cat /proc/cpuinfo', 30);
		ok($t->last_ok, 'cat /proc/cpuinfo answers');
		my @proc = map { /^processor\s*:\s*(\d+)\s*$/ ? $1 : () } @cpuinfo;
		is(scalar @proc, $smp, "/proc/cpuinfo lists $smp CPUs");
		is_deeply([sort { $a <=> $b } @proc], [0 .. $smp - 1],
			'processor numbers 0..' . ($smp - 1));

		is($t->poweroff(30), 1, 'poweroff: QEMU exits with status 1');
		$t->stop;
	};
}

# grub_entries - the menu entries of boot/grub.cfg, from which the ISO is
# built: [title, kernel command line] each.
sub grub_entries {
	open my $fh, '<', "$Tally::ROOT/boot/grub.cfg" or return;
	my @e;
	while (<$fh>) {
		push @e, [$1, undef] if /^\s*menuentry\s+["']([^"']+)["']/;
		$e[-1][1] = $1 if @e && /^\s*multiboot2?\s+\S+\s*(.*?)\s*$/;
	}
	return @e;
}

# highlighted($text) - the index of the entry that GRUB shows highlighted
# last in $text (a serial terminal shows it as "*TITLE"), or undef.
sub highlighted {
	my ($text, @entries) = @_;
	my $alt = join '|', map { quotemeta $_->[0] }
		sort { length $b->[0] <=> length $a->[0] } @entries;
	my $hl;
	while ($text =~ /\*($alt)/g) { $hl = $1 }
	return unless defined $hl;
	my ($i) = grep { $entries[$_][0] eq $hl } 0 .. $#entries;
	return $i;
}

# choose($t, $target, @entries) - in GRUB's menu, move the highlight to
# entry $target with the keys the menu names ("Use the ^ and v keys"): up
# to the first entry, then down to $target (at least one move, so that
# the keys, not the countdown, choose), each key sent once GRUB has
# answered the one before it by highlighting the entry it moved to; then
# Enter. Returns '' when done, else what went wrong: 'countdown' when GRUB
# began to boot its default entry before it answered the first key.
sub choose {
	my ($t, $target, @entries) = @_;
	my $alt = join '|', map { quotemeta $_->[0] } @entries;
	my $at = highlighted($t->output, @entries);
	if (!defined $at) {
		my $m = $t->wait_for(qr/\*(?:$alt)|Booting `/, 30);
		return 'countdown' if defined $m && $m =~ /^Booting/;
		$at = highlighted($t->output, @entries);
		return 'GRUB shows no highlighted entry' unless defined $at;
	}
	my @keys = (('^') x $at, ('v') x $target);
	@keys = ('v', '^') if !@keys && @entries > 1;
	for my $n (0 .. $#keys) {
		my $key = $keys[$n];
		$at += $key eq 'v' ? 1 : -1;
		my $want = $entries[$at][0];
		$t->send($key);
		my $m = $t->wait_for(qr/\*\Q$want\E|Booting `/, 30);
		return "GRUB did not answer the key '$key' (no highlight on '$want')"
			unless defined $m;
		if ($m =~ /^Booting/) {
			return 'countdown' if $n == 0;
			return "GRUB began to boot after the key '$key'";
		}
	}
	$t->send("\r");
	return '';
}

# The ISO: GRUB, multiboot2, under SeaBIOS and under OVMF. The test picks
# the plain shell entry from GRUB's menu (choose), as a user at the serial
# console would. GRUB's countdown is short (boot/grub.cfg: timeout=1) and
# runs on the host's clock: on a loaded host it can run out before the
# first key reaches GRUB, which then boots its default entry and leaves
# the keys to the kernel's shell. When GRUB begins to boot before it has
# answered the first key, the machine is booted again (3 tries).
my @entries = grub_entries();
my ($shell) = grep { ($entries[$_][1] // '') !~ /\bscript=/ } 0 .. $#entries;
for my $fw ('bios', 'uefi') {
	subtest "ISO under " . ($fw eq 'bios' ? 'SeaBIOS' : 'OVMF') => sub {
		if (!-f Tally::iso_path()) {
			fail('the ISO exists');
			diag(Tally::iso_path() . ' is missing: run make iso');
			return;
		}
		if (!defined $shell) {
			fail('boot/grub.cfg has a menu entry without script=');
			return;
		}
		my $title = $entries[$shell][0];
		my ($t, $shown, $chose);
		for my $try (1 .. 3) {
			# Some hosts' KVM cannot run OVMF (the machine stops on
			# a "KVM internal error" in the firmware): Tally then
			# boots again under TCG and says so.
			$t = Tally->boot(iso => $fw, smp => 2, mem => '512M', timeout => 300,
				firmware_tcg_fallback => 1);
			$shown = defined $t->wait_for(qr/\Q$title\E/, 240);
			last unless $shown;
			$chose = choose($t, $shell, @entries);
			last unless $chose eq 'countdown';
			diag("try $try: GRUB's countdown ran out before it took the first key "
				. '(a loaded host); booting again (' . $t->log_path . ')');
			$t->stop;
		}
		ok($shown, "GRUB shows the entry '$title'")
			or return $t->stop;
		is($chose, '', "GRUB takes the keys ^ and v to '$title', then Enter")
			or return $t->stop;
		# Firmware and GRUB print before the kernel (with escape
		# sequences under OVMF): the banner need not be the first line.
		my ($ver, $cpus, $mib) = $t->wait_for($Tally::BANNER_RE, 240);
		ok(defined $ver, 'the banner is printed') or return $t->stop;
		is($cpus, 2, 'banner: cpus=2');
		ok(mem_ok($mib, 512), 'banner: mem plausible for -m 512M')
			or diag("banner says mem=${mib}MiB");
		is($t->prompt(60), '/', 'the prompt is reached');
		diag(sprintf('ISO %s: %.2fs from start to prompt (%s)', $fw,
			$t->boot_time, $t->kvm ? 'KVM' : 'TCG'))
			if defined $t->boot_time;
		my $pwd = $t->cmd('pwd');
		is($pwd, '/', 'the shell answers pwd');
		is($t->poweroff(30), 1, 'poweroff: QEMU exits with status 1');
		$t->stop;
	};
}

done_testing();
