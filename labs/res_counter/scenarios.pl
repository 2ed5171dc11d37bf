# SPDX-License-Identifier: MIT
# labs/res_counter/scenarios.pl - the QEMU scenarios of the hierarchical
# counter lab: subs given a booted machine (tests/qemu/lib/Tally.pm),
# returning (passed, what was seen).
use strict;
use warnings;

my $D = '/cgroup/lab_p';
return {
	parent_limit_refuses => sub {
		my ($t) = @_;
		$t->cmd("mkdir $D");
		$t->cmd("echo 1 > $D/memory.use_hierarchy");
		$t->cmd("mkdir $D/c");
		$t->cmd("echo 32K > $D/memory.kmem.limit_in_bytes");
		my $first = $t->cmd("run $D/c spin") // '';
		my $before = $t->file("$D/c/memory.kmem.usage_in_bytes");
		my $second = $t->cmd("run $D/c spin") // '';
		my %v = map { $_ => $t->file($_) } "$D/memory.kmem.failcnt",
			"$D/c/memory.kmem.failcnt", "$D/c/memory.kmem.usage_in_bytes",
			"$D/memory.kmem.usage_in_bytes";
		my $seen = "first run: '$first'; second run: '$second'; "
			. join('; ', map { "$_ = $v{$_}" } sort keys %v);
		my $ok = $first =~ /^pid \d+$/m && $second =~ /ENOMEM/
			&& $v{"$D/memory.kmem.failcnt"} eq '1'
			&& $v{"$D/c/memory.kmem.failcnt"} eq '0'
			&& $v{"$D/c/memory.kmem.usage_in_bytes"} eq $before
			&& $v{"$D/memory.kmem.usage_in_bytes"} <= 32768;
		return ($ok, $seen);
	},
};
