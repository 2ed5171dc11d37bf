# SPDX-License-Identifier: MIT
# labs/jump_label/scenarios.pl - the QEMU scenario of the static-key
# patching lab (see labs/res_counter/scenarios.pl for the form).
use strict;
use warnings;

return {
	int3_protocol => sub {
		my ($t) = @_;
		my @out = $t->cmd('ktest static_key_flip_smp', 300);
		return (0, 'ktest static_key_flip_smp did not come back to the prompt')
			unless $t->last_ok;
		my ($line) = grep { /int3 traps handled/ } @out;
		return (0, 'no "int3 traps handled" line in its output') unless $line;
		my ($hits) = $line =~ /int3 traps handled (\d+)/;
		my $passed = grep { /^ok 1 static_key_flip_smp/ } @out;
		return ($hits > 0 && $passed, $line);
	},
};
