#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/check_image.sh ELF - check that the linked kernel can be booted,
# run by the Makefile right after linking build/tally.elf.
#
# QEMU's -kernel loads a multiboot1 kernel; it refuses ELF64 unless the
# header sets the a.out kludge (flag bit 16) and gives the load addresses
# itself, and then it copies the file linearly: the bytes from the load
# offset go to load_addr onwards. That is right only if every PT_LOAD
# segment sits in the file at the same distance (file offset - physical
# address) as the header does. GRUB (make iso) reads the multiboot2 header.
# Checked:
#   - ELF64, x86-64, with PT_LOAD segments;
#   - multiboot1: magic 0x1BADB002 in the first 8192 bytes, 4-byte aligned,
#     checksum valid, a.out kludge set, and its addresses consistent (as
#     QEMU's loader checks them: hw/i386/multiboot.c) and covering every
#     PT_LOAD segment: file bytes up to load_end_addr, memory up to
#     bss_end_addr (else QEMU may put the boot information inside .bss);
#     the entry inside the loaded bytes;
#   - every PT_LOAD segment with file bytes at file offset - physical
#     address equal to the header's, so the linear copy puts it right;
#   - multiboot2: magic 0xE85250D6 in the first 32768 bytes, 8-byte
#     aligned, architecture 0 (i386), checksum valid, tags 8-byte aligned
#     and ending with the end tag at header_length.
# Exits non-zero, with a message saying what is wrong, on failure.

if [ $# -ne 1 ]; then
	echo "usage: sh tests/check_image.sh build/tally.elf" >&2
	exit 2
fi
if [ ! -f "$1" ]; then
	echo "check_image: $1: no such file" >&2
	exit 1
fi

if ! perl - "$1" <<'EOF'
use strict;
use warnings;

my $file = $ARGV[0];
my (@err, @info);
sub bad { push @err, sprintf(shift, @_) }
sub info { push @info, sprintf(shift, @_) }
# hexs - a signed number in hex.
sub hexs { $_[0] < 0 ? sprintf('-0x%x', -$_[0]) : sprintf('0x%x', $_[0]) }

open my $fh, '<:raw', $file or die "check_image: $file: $!\n";
my $img = do { local $/; <$fh> };
close $fh;
my $size = length $img;

sub u32 { unpack 'V', substr($img, $_[0], 4) }
sub u16 { unpack 'v', substr($img, $_[0], 2) }
sub u64 { unpack 'Q<', substr($img, $_[0], 8) }

# --- ELF64 and its PT_LOAD segments -----------------------------------------
if ($size < 64 || substr($img, 0, 4) ne "\x7fELF") {
	print STDERR "check_image: $file: not an ELF file\n";
	exit 1;
}
bad('not ELF64 (EI_CLASS %d)', ord substr($img, 4, 1)) if ord(substr($img, 4, 1)) != 2;
bad('not x86-64 (e_machine %d)', u16(18)) if u16(18) != 62;
my ($phoff, $phentsize, $phnum) = (u64(32), u16(54), u16(56));
my @load;
for my $i (0 .. $phnum - 1) {
	my $p = $phoff + $i * $phentsize;
	last if $p + 56 > $size;
	next unless u32($p) == 1;    # PT_LOAD
	push @load, { flags => u32($p + 4), off => u64($p + 8), vaddr => u64($p + 16),
		paddr => u64($p + 24), filesz => u64($p + 32), memsz => u64($p + 40) };
}
bad('no PT_LOAD segment') unless @load;
@load = sort { $a->{paddr} <=> $b->{paddr} } @load;

# --- multiboot1 ------------------------------------------------------------
my $mb1;
for (my $i = 0; $i + 12 <= 8192 && $i + 12 <= $size; $i += 4) {
	next unless u32($i) == 0x1BADB002;
	my ($flags, $sum) = (u32($i + 4), u32($i + 8));
	if (((0x1BADB002 + $flags + $sum) & 0xffffffff) != 0) {
		bad('multiboot1 magic at file offset 0x%x has a bad checksum 0x%08x', $i, $sum);
		next;
	}
	$mb1 = $i;
	last;
}
if (!defined $mb1) {
	bad('no multiboot1 header (magic 0x1BADB002, valid checksum, 4-byte aligned) '
		. 'in the first 8192 bytes: QEMU -kernel cannot boot it');
} else {
	my $flags = u32($mb1 + 4);
	if (!($flags & 0x10000)) {
		bad('multiboot1 header at 0x%x: flags 0x%08x lack the a.out kludge (bit 16): '
			. 'QEMU refuses an ELF64 kernel without it', $mb1, $flags);
	} elsif ($mb1 + 32 > $size) {
		bad('multiboot1 header at 0x%x is cut short', $mb1);
	} else {
		my ($hdr, $load, $load_end, $bss_end, $entry) = map { u32($mb1 + 12 + 4 * $_) } 0 .. 4;
		my $d = $mb1 - $hdr;         # file offset - physical address
		info('multiboot1 header at file offset 0x%x: header_addr 0x%x '
			. 'load 0x%x-0x%x bss_end 0x%x entry 0x%x',
			$mb1, $hdr, $load, $load_end, $bss_end, $entry);
		if ($hdr < $load) {
			bad('multiboot1: header_addr 0x%x below load_addr 0x%x', $hdr, $load);
		} elsif ($hdr - $load > $mb1) {
			bad('multiboot1: header_addr - load_addr = 0x%x is more than the header\'s '
				. 'file offset 0x%x', $hdr - $load, $mb1);
		} else {
			my $load_off = $mb1 - ($hdr - $load);
			my $load_size = $load_end ? $load_end - $load : $size - $load_off;
			bad('multiboot1: load_end_addr 0x%x below load_addr 0x%x', $load_end, $load)
				if $load_end && $load_end < $load;
			bad('multiboot1: load range 0x%x bytes from file offset 0x%x runs past '
				. 'the end of the file (0x%x bytes)', $load_size, $load_off, $size)
				if $load_off + $load_size > $size;
			bad('multiboot1: bss_end_addr 0x%x below load_end_addr 0x%x', $bss_end, $load_end)
				if $load_end && $bss_end && $bss_end < $load_end;
			my $top = $load_end ? $load_end : $load + $load_size;
			bad('multiboot1: entry 0x%x is outside the loaded bytes 0x%x-0x%x',
				$entry, $load, $top) if $entry < $load || $entry >= $top;
			my $mem_top = $bss_end > $top ? $bss_end : $top;
			for my $s (@load) {
				my $desc = sprintf('PT_LOAD offset 0x%x paddr 0x%x filesz 0x%x memsz 0x%x',
					@$s{qw(off paddr filesz memsz)});
				if ($s->{filesz}) {
					bad('%s: file offset - physical address is %s, the multiboot1 '
						. 'header\'s is %s: QEMU\'s linear copy would load it at the '
						. 'wrong address (file offsets must follow the LMAs)',
						$desc, hexs($s->{off} - $s->{paddr}), hexs($d))
						if $s->{off} - $s->{paddr} != $d;
					bad('%s: file bytes end at 0x%x, past load_end_addr 0x%x',
						$desc, $s->{paddr} + $s->{filesz}, $top)
						if $s->{paddr} < $load || $s->{paddr} + $s->{filesz} > $top;
				}
				bad('%s: memory ends at 0x%x, past bss_end_addr 0x%x (QEMU may put '
					. 'the multiboot information there)', $desc,
					$s->{paddr} + $s->{memsz}, $mem_top)
					if $s->{paddr} + $s->{memsz} > $mem_top;
			}
			my ($in) = grep { $mb1 >= $_->{off} && $mb1 + 32 <= $_->{off} + $_->{filesz} } @load;
			bad('multiboot1 header at file offset 0x%x is in no PT_LOAD segment', $mb1)
				unless $in;
		}
	}
}

# --- multiboot2 ------------------------------------------------------------
my $mb2;
for (my $i = 0; $i + 16 <= 32768 && $i + 16 <= $size; $i += 8) {
	next unless u32($i) == 0xE85250D6;
	$mb2 = $i;
	last;
}
if (!defined $mb2) {
	bad('no multiboot2 header (magic 0xE85250D6, 8-byte aligned) in the first '
		. '32768 bytes: GRUB (make iso) cannot boot it');
} else {
	my ($arch, $len, $sum) = (u32($mb2 + 4), u32($mb2 + 8), u32($mb2 + 12));
	info('multiboot2 header at file offset 0x%x, %d bytes', $mb2, $len);
	bad('multiboot2: architecture %d, not 0 (i386)', $arch) if $arch != 0;
	bad('multiboot2: checksum 0x%08x is wrong', $sum)
		if ((0xE85250D6 + $arch + $len + $sum) & 0xffffffff) != 0;
	if ($len < 24 || $mb2 + $len > $size) {
		bad('multiboot2: header_length %d is impossible', $len);
	} else {
		my ($p, $end, $ended) = ($mb2 + 16, $mb2 + $len, 0);
		while ($p + 8 <= $end) {
			my ($type, $tsize) = (u16($p), u32($p + 4));
			if ($type == 0) {
				bad('multiboot2: end tag has size %d, not 8', $tsize) if $tsize != 8;
				bad('multiboot2: end tag at 0x%x is not at the end (header_length %d)',
					$p - $mb2, $len) if $p + 8 != $end;
				$ended = 1;
				last;
			}
			if ($tsize < 8) {
				bad('multiboot2: tag type %d at 0x%x has size %d', $type, $p - $mb2, $tsize);
				last;
			}
			$p += ($tsize + 7) & ~7;
		}
		bad('multiboot2: no end tag within header_length') unless $ended;
	}
}

if (@err) {
	print STDERR "check_image: $file: $_\n" for @info, @err;
	exit 1;
}
print "check_image: $file: ok (multiboot1 + a.out kludge, multiboot2, "
	. scalar(@load) . " PT_LOAD segments)\n";
exit 0;
EOF
then
	echo "check_image: $1 cannot be booted; its program headers:" >&2
	readelf -lW "$1" >&2 || true
	exit 1
fi
