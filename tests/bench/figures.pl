#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# tests/bench/figures.pl [--write] [FILE.md ...] - the benchmark figures
# of the docs, from the one results file make bench writes and the tree
# keeps, docs/bench-results.csv (the columns are described in
# tests/bench/collect.pl).
#
# A figure in a doc is a number followed at once by a comment that says
# where it comes from:
#
#     costs 171<!--fig kmem:page_order0_accounted--> instructions
#     1.239<!--fig kmem:page_order0_accounted / nokmem:page_order0 %.3f-->
#
# The comment holds an expression (+ - * / and parentheses over figures)
# and, last, an optional printf format (default %.0f). A figure is
# BUILD:NAME{KEY=VALUE,...}.FIELD, where
#   BUILD  kmem, nokmem, notrace, linux (1 CPU), objects (the kmem build
#          booted with slab_accounting=objects), smp, numa2 (the SMP
#          machines, caches design), smp_objects;
#   NAME   the benchmark (charge_depth, slab_memory: the line's name);
#   {...}  the KEY=VALUE fields the row must carry, from its name, its
#          fields column, or cpus= and node=; line=curve|bench|node
#          chooses the kind of line (default: bench on 1 CPU, else any);
#   .FIELD median (the default), p99, ops, or a field such as
#          transfers_per_1k or utilization_pct.
#
# Without --write it checks: each file's figures against the results, and
# prints every one that differs (exit 1). With --write it rewrites the
# numbers in place (make figures; make bench runs it after a run).
# Default files: README.md and docs/**/*.md.
use strict;
use warnings;
use FindBin;
use File::Find;

my $root = "$FindBin::Bin/../..";
chdir $root or die "chdir $root: $!\n";
my $write = @ARGV && $ARGV[0] eq '--write' ? shift : 0;
my $results = $ENV{FIGURES_RESULTS} // 'docs/bench-results.csv';

my @files = @ARGV;
if (!@files) {
	push @files, 'README.md';
	find({no_chdir => 1, wanted => sub { push @files, $_ if /\.md$/ }},
	     'docs');
	@files = sort @files;
}

# --- the results -----------------------------------------------------------
open my $in, '<', $results or die "$results: $!\n";
my @cols = split /,/, scalar(<$in>) =~ s/\s+$//r;
my @rows;
while (my $l = <$in>) {
	$l =~ s/\s+$//;
	next unless length $l;
	# The accel column may hold commas (-icount shift=0,sleep=off): the
	# columns before it are read from the left, those after from the right.
	my @f = split /,/, $l, -1;
	my $acc = (grep { $cols[$_] eq 'accel' } 0 .. $#cols)[0];
	my $after = $#cols - $acc;
	my %r;
	@r{@cols[0 .. $acc - 1]} = @f[0 .. $acc - 1];
	@r{@cols[$acc + 1 .. $#cols]} = @f[$#f - $after + 1 .. $#f];
	$r{accel} = join ',', @f[$acc .. $#f - $after];
	$r{$_} //= '' for @cols;
	# The KEY=VALUE pairs of the row: from its name's tail
	# ("charge_depth depth=4 stock=0"), its fields, cpus and node.
	my ($name, @tail) = split / /, $r{name};
	my %kv = map { /^(\w+)=(.*)$/ ? ($1, $2) : () }
		(@tail, split / /, $r{fields});
	$kv{cpus} = $r{cpus} if length $r{cpus};
	$kv{node} = $r{node} if length $r{node};
	$kv{line} = $r{line};
	$r{base} = $name;
	$r{kv} = \%kv;
	push @rows, \%r;
}
close $in;

my %BUILD = (
	kmem        => sub { $_[0]{build} eq 'kmem' && $_[0]{machine} eq 'one'
			     && $_[0]{design} ne 'objects' },
	objects     => sub { $_[0]{build} eq 'kmem' && $_[0]{machine} eq 'one'
			     && $_[0]{design} eq 'objects' },
	nokmem      => sub { $_[0]{build} eq 'nokmem' },
	notrace     => sub { $_[0]{build} eq 'notrace' },
	linux       => sub { $_[0]{build} eq 'linux' },
	smp         => sub { $_[0]{machine} eq 'smp' && $_[0]{design} ne 'objects' },
	smp_objects => sub { $_[0]{machine} eq 'smp' && $_[0]{design} eq 'objects' },
	numa2       => sub { $_[0]{machine} eq 'numa2' },
);

# figure($term) - the value a figure names, or die saying why not.
sub figure {
	my ($term) = @_;
	my ($b, $n, $sel, $field) =
		$term =~ /^(\w+):(\w+)(?:\{([^}]*)\})?(?:\.(\w+))?$/
		or die "not a figure: '$term'\n";
	my $in_build = $BUILD{$b} or die "no build '$b' in '$term'\n";
	my %want = map { /^(\w+)=(.*)$/ ? ($1, $2) : die "bad '$_' in '$term'\n" }
		split /,/, $sel // '';
	$want{line} //= 'bench' if $b !~ /^(?:smp|smp_objects|numa2)$/;
	my @hit = grep {
		my $r = $_;
		$r->{base} eq $n && $in_build->($r)
		    && !grep { ($r->{kv}{$_} // "\0") ne $want{$_} } keys %want
	} @rows;
	# The SMP machines' all-CPU line and the curve's last point are one
	# figure twice: a curve point is asked for with cpus=K.
	@hit = grep { $_->{line} eq 'curve' } @hit
		if @hit > 1 && defined $want{cpus} && !defined $want{line};
	$field //= 'median';
	my $col = {median => 'median_cycles', p99 => 'p99_cycles',
		   ops => 'ops'}->{$field};
	# A curve point may come as two lines, a median and other fields:
	# the one that has the value asked for.
	my $get = sub { defined $col ? $_[0]{$col} : $_[0]{kv}{$field} };
	@hit = grep { my $v = $get->($_); defined $v && $v =~ /^-?[\d.]+$/ }
		@hit;
	die "no figure '$term' in $results\n" unless @hit;
	die scalar(@hit) . " rows match '$term' in $results\n" if @hit > 1;
	return $get->($hit[0]);
}

# value($comment) - the text a marker's comment makes: its expression
# computed from the results and printed in its format.
sub value {
	my ($c) = @_;
	$c =~ s/^\s+|\s+$//g;
	my $fmt = $c =~ s/\s+(%[-+ 0#]*\d*(?:\.\d+)?[dfg])$// ? $1 : '%.0f';
	(my $expr = $c) =~ s/(\w+:\w+(?:\{[^}]*\})?(?:\.\w+)?)/'(' . figure($1) . ')'/ge;
	die "not arithmetic: '$c'\n" unless $expr =~ m{^[\d.\s()+*/-]+$};
	my $v = eval $expr;
	die "'$c': $@" if $@;
	return sprintf $fmt, $v;
}

# A figure: a number, then its marker.
my $MARK = qr/(-?\d[\d.]*)<!--fig\s([^>]*?)-->/;

my ($checked, @wrong, @errors);
for my $f (@files) {
	open my $fh, '<', $f or die "$f: $!\n";
	my $text = do { local $/; <$fh> };
	close $fh;
	my $new = $text;
	my $line = 1;
	my $pos = 0;
	$new =~ s{$MARK}{
		my ($shown, $c) = ($1, $2);
		$line += (substr($text, $pos, $-[0] - $pos) =~ tr/\n//);
		$pos = $-[0];
		my $want = eval { value($c) };
		if (!defined $want) {
			push @errors, "$f:$line: $@";
			"$shown<!--fig $c-->";
		} else {
			$checked++;
			push @wrong, "$f:$line: $shown, but the results give $want"
				. " ($c)" if $shown ne $want;
			"$want<!--fig $c-->";
		}
	}ge;
	if ($write && $new ne $text) {
		open my $out, '>', "$f.tmp" or die "$f.tmp: $!\n";
		print $out $new;
		close $out;
		rename "$f.tmp", $f or die "$f: $!\n";
		print "figures: $f rewritten\n";
	}
}
print STDERR "figures: $_" for @errors;
print STDERR "figures: $_\n" for $write ? () : @wrong;
printf "figures: %d figures %s against %s%s\n", $checked // 0,
	$write ? 'written' : 'checked', $results,
	$write || !@wrong ? '' : ', ' . scalar(@wrong) . ' differ';
exit(@errors || (!$write && @wrong) ? 1 : 0);
