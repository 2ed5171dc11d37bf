#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/tree/names.t - a function that a comment or a doc names is one
# the tree defines. A rename that leaves a comment behind, or a doc that
# names a function never written, fails here with the file, the line and
# the name.
#
# What is read: every name followed by "()", an empty pair of brackets
# (the way the comments and docs name a function), in
#   - the comments of the C and assembler sources (.c .h .S): /* */ and //
#     (text in strings and character constants is skipped);
#   - every line of every Markdown file (docs/, the README.md files), code
#     blocks included;
#   - the whole-line # comments of the scripts (Perl, shell: the .t .pl
#     .pm .sh files, those that start with #!) and of the Makefile.
# Not read: a name with arguments in its brackets, a name after "." or
# "->" (a method or a field), a shell command at tally's prompt (the
# docs write a command `name`, without brackets).
#
# What counts as defined:
#   - a C function definition: at column 0, the name after its type (or
#     alone, the type on the line before), its parameters, then its body;
#     a prototype with no body anywhere does not count;
#   - a function-like macro (#define NAME(ARGS));
#   - a tracepoint's wrapper and its recorder: TRACEPOINT(event, NAME,
#     ...) and TRACEPOINT_SHARED(NAME, ...) define NAME and __NAME;
#   - a label at column 0 in an assembler source (.S);
#   - a Perl sub, a shell function in a script.
# Comments and strings are removed before the definitions are looked for,
# so a comment cannot define a name.
#
# Names from outside the tree (Linux's, set beside ours in the docs to say
# where a design comes from; the C library's; QEMU's, gdb's...) are listed
# in tests/tree/outside-names.txt, the one list this test reads. A name on
# it must not be defined in the tree, and must be named somewhere.
use strict;
use warnings;
use Test::More;
use FindBin;

chdir "$FindBin::Bin/../.." or die "chdir: $!";

my @files = grep { -f && !m{^tests/fuzz/corpus-} } split /\n/,
	`git ls-files`;

sub slurp {
	my ($f) = @_;
	open my $fh, '<', $f or die "$f: $!";
	local $/;
	return scalar <$fh>;
}

sub is_script {
	my ($f) = @_;
	return 1 if $f =~ /\.(t|pl|pm|sh)$/;
	return 0 if $f =~ /\.\w+$/;
	open my $fh, '<', $f or return 0;
	my $first = <$fh> // '';
	return $first =~ /^#!/;
}

my @c = grep { /\.[chS]$/ } @files;
my @docs = grep { /\.md$/ } @files;
my @scripts = grep { is_script($_) } @files;
my @makefiles = grep { m{(^|/)Makefile$|\.mk$} } @files;
ok(@c > 100, scalar(@c) . ' C and assembler files');
ok(@docs > 10, scalar(@docs) . ' Markdown files');
ok(@scripts > 10, scalar(@scripts) . ' scripts');

# C's tokens: a comment, a string, a character constant, or other text.
# Both functions below walk the source with it.
my $C_TOKEN = qr{\G(?:([^/"']+)|("(?:[^"\\\n]|\\.)*")|('(?:[^'\\\n]|\\.)*')
		 |/\*(.*?)\*/|//([^\n]*)|(.))}sx;

# The code alone: comments and strings blanked out (their newlines kept,
# so that line numbers stay right).
sub c_code {
	my ($text) = @_;
	my $code = '';
	while ($text =~ /$C_TOKEN/g) {
		my $piece = $&;
		if (defined $1 || defined $6) {
			$code .= $piece;
		} else {
			(my $blank = $piece) =~ s/[^\n]/ /g;
			$code .= $blank;
		}
	}
	return $code;
}

# Each comment of a C text, with the line its text starts on.
sub c_comments {
	my ($text) = @_;
	my (@out, $line);
	$line = 1;
	while ($text =~ /$C_TOKEN/g) {
		my $comment = $4 // $5;
		push @out, [$line, $comment] if defined $comment;
		$line += ($& =~ tr/\n//);
	}
	return @out;
}

# --- what the tree defines --------------------------------------------------
my %defined;
my $attribute = qr{__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)};
my $type_word = qr{(?:$attribute|[A-Za-z_]\w*)[\s*]+};
for my $f (@c) {
	my $code = c_code(slurp($f));
	# A definition: its parameters hold no ; or { and are followed by
	# the body (a prototype ends with ;).
	$defined{$1} = 1
		while $code =~ /^(?:$type_word)*(\w+)\([^;{]*?\)\s*\{/mg;
	$defined{$1} = 1 while $code =~ /^\s*#\s*define\s+(\w+)\(/mg;
	while ($code =~ /\bTRACEPOINT\(\s*\w+\s*,\s*(\w+)/g) {
		$defined{$1} = $defined{"__$1"} = 1;
	}
	while ($code =~ /\bTRACEPOINT_SHARED\(\s*(\w+)/g) {
		$defined{$1} = $defined{"__$1"} = 1;
	}
	if ($f =~ /\.S$/) {
		$defined{$1} = 1 while $code =~ /^([A-Za-z_]\w*):/mg;
	}
}
for my $f (@scripts) {
	my $text = slurp($f);
	$defined{$1} = 1 while $text =~ /^\s*sub\s+(\w+)/mg;
	$defined{$1} = 1 while $text =~ /^\s*(\w+)\s*\(\)\s*\{/mg;
}
ok(keys %defined > 1000, scalar(keys %defined) . ' names defined');

# --- the outside names ------------------------------------------------------
my $list = 'tests/tree/outside-names.txt';
my %outside;
for (split /\n/, slurp($list)) {
	s/#.*//;
	$outside{$_} = 0 for split ' ';
}
my @both = grep { $defined{$_} } sort keys %outside;
is(scalar @both, 0, "$list lists no name the tree defines")
	or diag("defined here, so not outside: @both");

# --- the names used ---------------------------------------------------------
# check(WHERE, TEXT) - the names TEXT uses that nobody defines, each
# after "WHERE: "; counts every name read in $named.
my $named = 0;
sub check {
	my ($where, $text) = @_;
	my @bad;
	while ($text =~ /(?<![\w.>:\$])([A-Za-z_]\w*)\(\)/g) {
		my $name = $1;
		$named++;
		if (exists $outside{$name}) {
			$outside{$name}++;
		} elsif (!$defined{$name}) {
			push @bad, "$where: $name()";
		}
	}
	return @bad;
}

sub check_c {
	my ($f, $text) = @_;
	my @bad;
	for (c_comments($text)) {
		my ($l, $comment) = @$_;
		push @bad, check("$f:" . $l++, $_)
			for split /\n/, $comment, -1;
	}
	return @bad;
}

sub check_lines {
	my ($f, $text, $only_comments) = @_;
	my (@bad, $n);
	for (split /\n/, $text, -1) {
		$n++;
		next if $only_comments && !/^\s*#/;
		push @bad, check("$f:$n", $_);
	}
	return @bad;
}

# The test can fail: a name nobody defines, planted in each kind of text,
# is found (these do not count towards the names read below).
my @planted = (check_c('plant.c', "int x; /* see\n * no_such_fn_xq() */\n"
			   . "char *s = \"no_such_fn_xr()\";"
			   . " // no_such_fn_xs()\n"),
	       check_lines('plant.md', "a\n`no_such_fn_xt()` and f.x()\n"),
	       check_lines('plant.t', "# no_such_fn_xu()\nx(); # y()\n", 1));
is("@planted", 'plant.c:2: no_such_fn_xq() plant.c:3: no_such_fn_xs() '
   . 'plant.md:2: no_such_fn_xt() plant.t:1: no_such_fn_xu()',
   'a name nobody defines is found in a comment, a doc and a script');
$named = 0;

my @bad;
push @bad, check_c($_, slurp($_)) for @c;
push @bad, check_lines($_, slurp($_), 0) for @docs;
push @bad, check_lines($_, slurp($_), 1) for @scripts, @makefiles;

ok($named > 300, "$named names read");
is(scalar @bad, 0, 'every NAME() in a comment or a doc is defined, or listed '
   . "as an outside name in $list")
	or diag(join "\n", @bad);
my @unused = grep { !$outside{$_} } sort keys %outside;
is(scalar @unused, 0, "every name $list lists is named somewhere")
	or diag("named nowhere: @unused");

done_testing();
