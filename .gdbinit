# SPDX-License-Identifier: MIT
# .gdbinit - debug tally running in QEMU. In one terminal:
#
#   make gdb            QEMU starts the kernel stopped, waiting for gdb
#
# and in another, from the top of the repository:
#
#   gdb -x .gdbinit
#
# (plain `gdb` reads this file only if your ~/.gdbinit allows it:
# "add-auto-load-safe-path /path/to/tally/.gdbinit"; -x always works).
# QEMU listens on localhost:1234; for another port (make gdb GDBPORT=N),
# set $tally_gdb_port before this file runs: gdb -ex 'set $tally_gdb_port=N'
# -x .gdbinit.
#
# Break with hbreak, not break: when QEMU starts, the kernel's higher-half
# text is not mapped yet (the 32-bit entry builds those page tables), so
# gdb cannot write a software breakpoint there; a hardware breakpoint
# needs no write and fires once the address is reached:
#
#   hbreak kmain
#   continue

set confirm off
set pagination off
set disassembly-flavor intel
file build/tally.elf
# QEMU's stub runs the machine as 64-bit even before long mode.
set architecture i386:x86-64

if $_isvoid($tally_gdb_port)
	set $tally_gdb_port = 1234
end
eval "target remote localhost:%d", $tally_gdb_port
