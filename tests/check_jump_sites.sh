#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/check_jump_sites.sh ELF [--sites KEY]... [--no-sites KEY]...
# - check the static-key patch sites of the linked kernel, run by the
# Makefile right after linking (after tests/check_image.sh).
#
# Reads the __jump_table section (kernel/base/static_key_table.h: entries of
# {s32 code, s32 target, s64 key}, each an offset from its own field) and
# checks, for every entry:
#   - the site is in .text and holds the 5-byte NOP 0f 1f 44 00 00 (every
#     key is off in the image, as docs/interface.md says);
#   - its target is in .text;
#   - its key is a symbol, and registered: listed in the static_keys table
#     (DEFINE_STATIC_KEY_FALSE), so that /proc/static_keys shows it;
#   - no two entries name the same site, but the entries of a site that
#     several keys share: one per key, all with the same target
#     (static_branch_unlikely_any).
# --sites KEY: KEY must have at least one site (the kmem build's
# memcg_kmem_enabled_key); --no-sites KEY: it must have none (the KMEM=0
# build: no hooks at all).
# Perl and the ELF file only: no binutils, no python. Exits non-zero, with
# a message per problem, on failure.

if [ $# -lt 1 ]; then
	echo "usage: sh tests/check_jump_sites.sh ELF [--sites KEY] [--no-sites KEY]" >&2
	exit 2
fi
if [ ! -f "$1" ]; then
	echo "check_jump_sites: $1: no such file" >&2
	exit 1
fi

exec perl - "$@" <<'EOF'
use strict;
use warnings;

my $file = shift @ARGV;
my (%want_sites, %want_none);
while (@ARGV) {
	my $opt = shift @ARGV;
	my $key = shift @ARGV;
	die "check_jump_sites: $opt needs a key name\n" unless defined $key;
	if ($opt eq '--sites') { $want_sites{$key} = 1 }
	elsif ($opt eq '--no-sites') { $want_none{$key} = 1 }
	else { die "check_jump_sites: unknown option $opt\n" }
}

open my $fh, '<:raw', $file or die "check_jump_sites: $file: $!\n";
my $img = do { local $/; <$fh> };
close $fh;

sub u16 { unpack 'v', substr($img, $_[0], 2) }
sub u32 { unpack 'V', substr($img, $_[0], 4) }
sub u64 { unpack 'Q<', substr($img, $_[0], 8) }
sub s32 { unpack 'l<', substr($img, $_[0], 4) }
sub s64 { unpack 'q<', substr($img, $_[0], 8) }

die "check_jump_sites: $file: not an ELF64 file\n"
	unless substr($img, 0, 4) eq "\x7fELF" && ord(substr($img, 4, 1)) == 2;

# --- sections -----------------------------------------------------------------
my ($shoff, $shentsize, $shnum, $shstrndx) = (u64(0x28), u16(0x3a), u16(0x3c), u16(0x3e));
my @sec;
for my $i (0 .. $shnum - 1) {
	my $p = $shoff + $i * $shentsize;
	push @sec, { name_off => u32($p), type => u32($p + 4), addr => u64($p + 16),
		off => u64($p + 24), size => u64($p + 32), link => u32($p + 40) };
}
my $shstr = $sec[$shstrndx]{off};
for my $s (@sec) {
	my $n = substr($img, $shstr + $s->{name_off}, 256);
	$s->{name} = (split /\0/, $n, 2)[0];
}
my %by_name = map { $_->{name} => $_ } @sec;

# file_offset(addr) - where the bytes at virtual address addr are in the file.
sub file_offset {
	my ($addr, $len) = @_;
	for my $s (@sec) {
		next unless $s->{addr} && $s->{type} != 8;  # not SHT_NOBITS
		return $s->{off} + ($addr - $s->{addr})
			if $addr >= $s->{addr} && $addr + $len <= $s->{addr} + $s->{size};
	}
	return undef;
}

# --- symbols --------------------------------------------------------------------
my $symtab = $by_name{'.symtab'} or die "check_jump_sites: $file: no symbol table\n";
my $strtab = $sec[$symtab->{link}];
my (%sym, %name_of);
for (my $p = $symtab->{off}; $p + 24 <= $symtab->{off} + $symtab->{size}; $p += 24) {
	my $name = (split /\0/, substr($img, $strtab->{off} + u32($p), 256), 2)[0];
	next unless length $name;
	my $value = u64($p + 8);
	$sym{$name} = $value;
	$name_of{$value} //= $name if (ord(substr($img, $p + 4, 1)) & 0xf) == 1;  # STT_OBJECT
}
for my $need (qw(__start___jump_table __stop___jump_table __start_static_keys
		__stop_static_keys _text _etext)) {
	die "check_jump_sites: $file: no symbol $need (linker.ld)\n" unless exists $sym{$need};
}

my @err;
sub bad { push @err, sprintf(shift, @_) }

# --- registered keys: the static_keys table of pointers ---------------------------
my %registered;
my ($ks, $ke) = ($sym{__start_static_keys}, $sym{__stop_static_keys});
if ($ke > $ks) {
	my $off = file_offset($ks, $ke - $ks);
	defined $off or die "check_jump_sites: static_keys table not in the file\n";
	for (my $a = 0; $a < $ke - $ks; $a += 8) {
		$registered{u64($off + $a)} = 1;
	}
}

# --- the sites ----------------------------------------------------------------------
my ($js, $je) = ($sym{__start___jump_table}, $sym{__stop___jump_table});
my ($text, $etext) = ($sym{_text}, $sym{_etext});
bad('__jump_table is %d bytes, not a multiple of 16', $je - $js) if ($je - $js) % 16;
my $joff = $je > $js ? file_offset($js, $je - $js) : 0;
defined $joff or die "check_jump_sites: __jump_table not in the file\n";

my (%sites_of, %seen);
my $nop = "\x0f\x1f\x44\x00\x00";
my $n = int(($je - $js) / 16);
for my $i (0 .. $n - 1) {
	my $e = $js + 16 * $i;
	my $p = $joff + 16 * $i;
	my $code = $e + s32($p);
	my $target = $e + 4 + s32($p + 4);
	my $koff = s64($p + 8);
	my $key = $e + 8 + $koff;
	my $kname = $name_of{$key} // sprintf('(no symbol at %#x)', $key);
	bad('entry %d: key offset %#x of %s has bits 0-2 set (keys are 8-byte aligned)',
	    $i, $koff, $kname) if $koff & 7;
	$sites_of{$kname}++;
	bad('entry %d: site %#x of %s is outside .text (%#x-%#x)', $i, $code, $kname, $text, $etext)
		, next if $code < $text || $code + 5 > $etext;
	bad('entry %d: site %#x of %s: target %#x is outside .text', $i, $code, $kname, $target)
		if $target < $text || $target >= $etext;
	if (my $first = $seen{$code}) {
		bad('entry %d: site %#x is listed twice for %s', $i, $code, $kname)
			if grep { $_->{key} eq $kname } @$first;
	}
	push @{$seen{$code}}, { entry => $i, key => $kname, target => $target };
	my $off = file_offset($code, 5);
	if (!defined $off) {
		bad('entry %d: site %#x of %s is not in the file', $i, $code, $kname);
		next;
	}
	my $bytes = substr($img, $off, 5);
	bad('site %#x of %s holds %s, not the NOP 0f1f440000', $code, $kname, unpack('H*', $bytes))
		if $bytes ne $nop;
	bad('key %s (%#x) has sites but is not registered (DEFINE_STATIC_KEY_FALSE)', $kname, $key)
		unless $registered{$key};
}
# The entries of one site: one target.
for my $code (sort { $a <=> $b } keys %seen) {
	my @plain = @{$seen{$code}};
	for my $x (@plain[1 .. $#plain]) {
		bad('entry %d: site %#x shared by %s has target %#x, not %#x', $x->{entry},
		    $code, $x->{key}, $x->{target}, $plain[0]{target})
			if $x->{target} != $plain[0]{target};
	}
}
for my $k (sort keys %want_sites) {
	bad('key %s has no site (expected at least one)', $k) unless $sites_of{$k};
}
for my $k (sort keys %want_none) {
	bad('key %s has %d sites (expected none in this build)', $k, $sites_of{$k})
		if $sites_of{$k};
}

if (@err) {
	print STDERR "check_jump_sites: $file: $_\n" for @err;
	exit 1;
}
my $keys = scalar keys %sites_of;
print "check_jump_sites: $file: ok ($n sites of $keys keys, each the NOP 0f1f440000)\n";
exit 0;
EOF
