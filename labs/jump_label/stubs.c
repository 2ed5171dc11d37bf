// SPDX-License-Identifier: MIT
// labs/jump_label/stubs.c - the starting point of the static-key patching
// lab (docs/labs/jump_label.md). `make lab-start LAB=jump_label` puts each
// block below in place of the body of the function named above it. The
// stub writes each site's five bytes in one go: right on one CPU, unsafe
// while another CPU runs the site.

//@ arch/x86_64/jump_label.c: patch_sites
{
	/* LAB jump_label: int3 first, sync, the last four bytes, sync, the
	 * first byte, sync - with bp_batch published for the #BP handler. */
	uint8_t insn[JUMP_LABEL_INSN_SIZE];

	for (unsigned int i = 0; i < n; i++) {
		jump_insn_make(&entries[i], enable, insn);
		text_poke(jump_entry_code(&entries[i]), insn,
			  JUMP_LABEL_INSN_SIZE);
	}
	sync();
}

//@ arch/x86_64/jump_label.c: jump_label_bp_handler
{
	/* LAB jump_label: an int3 at a site being patched sends the CPU
	 * where the new instruction goes. This claims no int3. (The
	 * helpers and bp_batch are named so that they compile unused.) */
	(void)find_site;
	(void)site_target;
	(void)bp_batch;
	return 0;
}
