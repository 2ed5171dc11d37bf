# SPDX-License-Identifier: MIT
# tally - build, run and test.
#
#   make            build/tally.elf (QEMU -kernel, multiboot1)
#   make iso        build/tally.iso (GRUB, multiboot2, BIOS and UEFI)
#   make run        boot the fork-bomb demonstration in QEMU on this terminal
#   make shell      boot straight to the prompt
#   make test       every test; ends with "N passed, N failed"
#   make bench      benchmarks (docs/benchmarks.md)
#   make contain    the fork bomb contained four ways (docs/containment.md)
#   make gdb        boot stopped, waiting for gdb (it prints what to type)
#   make lint       cppcheck and clang-tidy over the kernel and host sources,
#                   and no source line over 80 columns
#   make labs       the graded labs, a line each (docs/labs/README.md)
#   make lab-start LAB=NAME   branch lab/NAME: the lab's code replaced by stubs
#   make grade [LAB=NAME]     build, run the lab's tests, print the score
#   make lab-pack LAB=NAME DIR=PATH     a student's repository, no answer in it
#   make grade-class LAB=NAME DIR=PATH  grade each student repository in PATH
#   make deps       install the Debian packages the other targets need
#
# Variables: CPUS (QEMU -smp, default 2), MEM (default 512M), DEBUG=1 for
# the debugging build build/tally-debug.elf (lock checking,
# kernel/locking/lock_debug.c; poisoned free memory, mm/debug_free.h),
# ACCEL=tcg or ACCEL=kvm to choose the accelerator (default auto), KMEM=0 to compile kmem accounting
# out (the analogue of CONFIG_MEMCG_KMEM=n), TRACE=0 to compile the
# tracepoints out (CONFIG_TRACEPOINTS=n: build/tally-notrace.elf).

VERSION := 0.1
CPUS ?= 2
MEM ?= 512M
ACCEL ?= auto
KMEM ?= 1
TRACE ?= 1
DEBUG ?= 0

BUILD := build
CC := gcc
LD := ld
HOST_CC ?= gcc
FUZZ_CC ?= clang

ifeq ($(KMEM),0)
OBJ := $(BUILD)/obj-nokmem
ELF := $(BUILD)/tally-nokmem.elf
else ifeq ($(TRACE),0)
OBJ := $(BUILD)/obj-notrace
ELF := $(BUILD)/tally-notrace.elf
else ifeq ($(DEBUG),1)
OBJ := $(BUILD)/obj-debug
ELF := $(BUILD)/tally-debug.elf
else
OBJ := $(BUILD)/obj
ELF := $(BUILD)/tally.elf
endif

# --- newlib, built once from Debian's newlib-source -------------------------
NEWLIB_TAR := $(firstword $(wildcard /usr/src/newlib/newlib-*.tar.xz))
NEWLIB := $(BUILD)/newlib
NEWLIB_INST := $(NEWLIB)/inst/x86_64-elf
LIBC := $(NEWLIB_INST)/lib/libc.a
NEWLIB_CFLAGS := -O2 -g -ffreestanding -mno-red-zone -mcmodel=kernel \
	-fno-pic -fno-pie -fno-stack-protector -fno-builtin

# --- the kernel -------------------------------------------------------------
KERNEL_CFLAGS := -std=gnu11 -O2 -g -ffreestanding -mno-red-zone \
	-mcmodel=kernel -fno-pic -fno-pie -fno-stack-protector \
	-fno-omit-frame-pointer -mno-sse -mno-sse2 -mno-mmx -mno-avx \
	-fno-strict-aliasing -fno-common \
	-Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-DTALLY_KERNEL -DTALLY_VERSION='"$(VERSION)"' \
	-I. -isystem $(NEWLIB_INST)/include
ifneq ($(KMEM),0)
KERNEL_CFLAGS += -DCONFIG_MEMCG_KMEM
# tests/check_jump_sites.sh: the kmem hooks are patch sites, or absent.
JUMP_SITES_EXPECT := --sites memcg_kmem_enabled_key
else
JUMP_SITES_EXPECT := --no-sites memcg_kmem_enabled_key
endif
ifneq ($(TRACE),0)
# Tracepoints (kernel/trace/): each a patch site of its event's key.
KERNEL_CFLAGS += -DCONFIG_TRACEPOINTS
JUMP_SITES_EXPECT += --sites trace_mm_page_alloc_key
else
JUMP_SITES_EXPECT += --no-sites trace_mm_page_alloc_key
endif
ifeq ($(DEBUG),1)
# Lock checking, and freed slab objects and pages poisoned (mm/debug_free.h).
KERNEL_CFLAGS += -DCONFIG_DEBUG_LOCKS -DCONFIG_DEBUG_POISON
endif
KERNEL_ASFLAGS := -I. -DTALLY_KERNEL -D__ASSEMBLY__

# Every folder of the kernel is built by wildcard: a file added to a folder
# is compiled with no list to edit.
rwildcard = $(foreach d,$(wildcard $(1:=/*)),$(call rwildcard,$(d),$(2)) $(filter $(subst *,%,$(2)),$(d)))
KERNEL_C := $(sort $(call rwildcard,arch drivers kernel mm,*.c))
KERNEL_S := $(sort $(call rwildcard,boot arch,*.S))
KERNEL_H := $(sort $(call rwildcard,arch drivers kernel mm,*.h))
KERNEL_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(KERNEL_C)) \
	$(patsubst %.S,$(OBJ)/%.o,$(KERNEL_S)) \
	$(OBJ)/fb_font.o

# --- host builds of mm/ and the pure logic of kernel/ ------------------------
# mm/ (all of it) and these folders of kernel/ are pure logic: every file in
# them compiles for the host too, behind the platform interface
# (kernel/base/platform.h; tests/unit/host_*.c stand in for the machine).
HOST_DIRS := kernel/lib kernel/fs kernel/cgroup kernel/shell kernel/trace
# Host-built files outside those folders, and kernel-only files inside them
# or inside mm/ (the tracer, and the recorders of the events it records).
# Each must exist: a file that moves out from under a name here stops the
# build instead of silently leaving the host build.
HOST_ALSO := kernel/static_key.c kernel/static_key_table.c kernel/task/runqueue.c
HOST_EXCLUDE := kernel/fs/proc.c kernel/fs/proc_mounts.c \
	kernel/shell/cmd_tasks.c \
	kernel/shell/cmd_locktest.c kernel/shell/script.c \
	kernel/trace/trace.c mm/kmem_trace.c mm/memcg/memcg_trace.c
$(foreach f,$(HOST_ALSO) $(HOST_EXCLUDE),$(if $(wildcard $(f)),,$(error Makefile: $(f) is named in HOST_ALSO or HOST_EXCLUDE but does not exist)))
HOST_SRCS := $(sort $(filter-out $(HOST_EXCLUDE),$(call rwildcard,mm,*.c) \
	$(foreach d,$(HOST_DIRS),$(wildcard $(d)/*.c))) \
	$(HOST_ALSO)) $(wildcard tests/unit/host_*.c)
HOST_HEADERS := $(KERNEL_H) $(wildcard tests/unit/*.h)
# The host chooses its platform stubs here: kernel/base/platform.h names only the
# kernel's (arch/x86_64/asm/platform.h), and -include puts the pthread versions
# in front of every host-compiled file.
HOST_CFLAGS := -std=gnu11 -g -O1 -I. -DTALLY_HOST -DCONFIG_MEMCG_KMEM \
	-include tests/unit/host_platform.h \
	-Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-fsanitize=address,undefined -fno-omit-frame-pointer -pthread
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
# Each fuzz target also runs as a unit test over its kept inputs
# (tests/fuzz/corpus-NAME/: seeds and inputs that once crashed it).
FUZZ_REPLAYS := $(patsubst tests/fuzz/%.c,$(BUILD)/host/test_replay_%,$(wildcard tests/fuzz/fuzz_*.c))
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/host/%,$(wildcard tests/unit/test_*.c)) \
	$(FUZZ_REPLAYS)
FUZZ_SECONDS ?= 10

# --- QEMU -------------------------------------------------------------------
# ACCEL=auto: KVM if it is hardware virtualisation, else TCG (tests/accel).
QEMU_ACCEL := $(shell sh tests/accel $(ACCEL))
QEMU := qemu-system-x86_64 $(QEMU_ACCEL) -smp $(CPUS) -m $(MEM) \
	-no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04
OVMF_CODE := /usr/share/OVMF/OVMF_CODE.fd
export QEMU_ACCEL

.PHONY: all iso run run-iso shell test unit fuzz bench contain deps clean gdb lint \
	lint-cppcheck lint-columns debug labs lab-start grade lab-pack grade-class
all: $(ELF)

# The lock-debugging kernel (tests/qemu/debuglocks.t boots it).
debug:
	$(MAKE) DEBUG=1 KMEM=$(KMEM)

# The tools each target needs; a missing one runs `make deps` first.
need = @for t in $(1); do command -v $$t >/dev/null 2>&1 || { \
	echo "make: $$t is missing: running make deps"; $(MAKE) deps || exit 1; \
	break; }; done

DEBIAN_PACKAGES := gcc make binutils qemu-system-x86 grub-pc-bin \
	grub-efi-amd64-bin grub-common xorriso mtools ovmf newlib-source \
	libcmocka-dev clang perl gnuplot-nox xz-utils console-setup-linux \
	gdb cppcheck clang-tidy
deps:
	@if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
	export DEBIAN_FRONTEND=noninteractive; \
	$$SUDO apt-get update -q && $$SUDO apt-get install -y -q $(DEBIAN_PACKAGES)

$(LIBC):
	@test -n "$(NEWLIB_TAR)" || { echo "make: newlib-source is missing: running make deps"; $(MAKE) deps; }
	@echo "  NEWLIB  building libc.a for x86_64-elf (once, about a minute)"
	rm -rf $(NEWLIB) && mkdir -p $(NEWLIB)/build
	# A shell glob, not $(wildcard): make expands a recipe before it runs,
	# and on a bare machine the tarball exists only after make deps above.
	tar -C $(NEWLIB) -xf "$$(ls /usr/src/newlib/newlib-*.tar.xz | head -n 1)"
	cd $(NEWLIB)/build && ../newlib-*/configure --target=x86_64-elf \
		--prefix=$(abspath $(NEWLIB)/inst) --disable-multilib \
		--disable-newlib-supplied-syscalls --disable-nls \
		--enable-newlib-nano-malloc \
		CC_FOR_TARGET=gcc AS_FOR_TARGET=as AR_FOR_TARGET=ar \
		RANLIB_FOR_TARGET=ranlib LD_FOR_TARGET=ld NM_FOR_TARGET=nm \
		CFLAGS_FOR_TARGET="$(NEWLIB_CFLAGS)" > configure.log 2>&1
	$(MAKE) -C $(NEWLIB)/build -j$$(nproc) all-target-newlib > $(NEWLIB)/build/make.log 2>&1
	$(MAKE) -C $(NEWLIB)/build install-target-newlib > $(NEWLIB)/build/install.log 2>&1

$(OBJ)/%.o: %.c $(LIBC)
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -MMD -MP -c $< -o $@

$(OBJ)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_ASFLAGS) -MMD -MP -c $< -o $@

$(ELF): $(KERNEL_OBJS) linker.ld $(LIBC) tests/check_image.sh tests/check_jump_sites.sh
	$(LD) -z max-page-size=0x1000 -z noexecstack -T linker.ld -o $@ $(KERNEL_OBJS) $(LIBC)
	sh tests/check_image.sh $@
	sh tests/check_jump_sites.sh $@ $(JUMP_SITES_EXPECT)

# The framebuffer console's font: one of Debian's console fonts
# (console-setup-linux), turned into a C array at build time. FONT picks
# another, e.g. FONT=Lat15-Terminus32x16 for large glyphs.
FONT ?= Lat15-VGA16
FONT_PSF := /usr/share/consolefonts/$(FONT).psf.gz
$(BUILD)/fb_font.c: drivers/video/font2c.pl $(wildcard $(FONT_PSF))
	@test -f $(FONT_PSF) || { echo "make: $(FONT_PSF) is missing: running make deps"; $(MAKE) deps; }
	@mkdir -p $(dir $@)
	gzip -dc $(FONT_PSF) | perl drivers/video/font2c.pl $(FONT) > $@.tmp
	mv $@.tmp $@

$(OBJ)/fb_font.o: $(BUILD)/fb_font.c drivers/video/fb_font.h $(LIBC)
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

-include $(KERNEL_OBJS:.o=.d)

iso: $(BUILD)/tally.iso
$(BUILD)/tally.iso: $(BUILD)/tally.elf boot/grub.cfg
	$(call need,grub-mkrescue xorriso mformat)
	rm -rf $(BUILD)/isodir && mkdir -p $(BUILD)/isodir/boot/grub
	cp $(BUILD)/tally.elf $(BUILD)/isodir/boot/tally.elf
	cp boot/grub.cfg $(BUILD)/isodir/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isodir 2> $(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

# The fork-bomb demonstration: boot script "demo" (kernel/shell/script.c),
# then the prompt. `poweroff` exits QEMU with status 1 (the isa-debug-exit
# device; docs/interface.md): a success.
run: $(ELF)
	$(call need,qemu-system-x86_64)
	$(QEMU) -display none -serial mon:stdio -kernel $(ELF) -append "script=demo" || \
		[ $$? -eq 1 ]

shell: $(ELF)
	$(call need,qemu-system-x86_64)
	$(QEMU) -display none -serial mon:stdio -kernel $(ELF)

run-iso: $(BUILD)/tally.iso
	$(QEMU) -display none -serial mon:stdio -cdrom $(BUILD)/tally.iso

# make gdb: QEMU starts the kernel stopped (-S) and waits for gdb on
# GDBPORT; .gdbinit loads the symbols and connects. Breakpoints in the
# kernel must be hbreak at first (docs/reliability.md, "Debugging").
GDBPORT ?= 1234
# (\$$: the line is echoed inside double quotes.)
GDB_CMD := gdb $(if $(filter 1234,$(GDBPORT)),,-ex 'set \$$tally_gdb_port=$(GDBPORT)' )-x .gdbinit
gdb: $(ELF)
	$(call need,qemu-system-x86_64 gdb)
	@echo "QEMU is waiting for gdb on localhost:$(GDBPORT). In another terminal, here:"
	@echo "    $(GDB_CMD)"
	@echo "then, in gdb:  hbreak kmain  and  continue"
	$(QEMU) -display none -serial mon:stdio -kernel $(ELF) -gdb tcp:localhost:$(GDBPORT) -S

# --- tests ------------------------------------------------------------------
# Each host source is compiled once into $(BUILD)/host/obj/, and every unit
# test links the same objects.
HOST_OBJS := $(patsubst %.c,$(BUILD)/host/obj/%.o,$(HOST_SRCS))
$(BUILD)/host/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@
.SECONDARY: $(HOST_OBJS)
-include $(HOST_OBJS:.o=.d)

$(BUILD)/host/%: tests/unit/%.c $(HOST_OBJS) $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(HOST_OBJS) -lcmocka

$(BUILD)/host/test_replay_%: tests/fuzz/%.c tests/unit/fuzz_replay.c $(HOST_OBJS) $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -DFUZZ_NAME='"$*"' -o $@ $< tests/unit/fuzz_replay.c \
		$(HOST_OBJS) -lcmocka

$(BUILD)/fuzz/%: tests/fuzz/%.c $(HOST_SRCS) $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(filter-out -fsanitize=address%,$(HOST_CFLAGS)) \
		-fsanitize=fuzzer,address,undefined -o $@ $< $(HOST_SRCS)

# The charge path on every host CPU with threads (tests/bench/host_charge.c):
# the real mm/ sources, optimised and without sanitizers.
$(BUILD)/host/bench_charge: tests/bench/host_charge.c $(HOST_SRCS) $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(filter-out -O1 -fsanitize=%,$(HOST_CFLAGS)) -O2 -o $@ $< $(HOST_SRCS)

unit: $(UNIT_TESTS)
	@for t in $(UNIT_TESTS); do echo "== $$t"; $$t || exit 1; done

fuzz: $(FUZZ_TARGETS)
	@for f in $(FUZZ_TARGETS); do echo "== $$f"; \
		mkdir -p $(BUILD)/fuzz/corpus-$$(basename $$f); \
		$$f -max_total_time=60 $(BUILD)/fuzz/corpus-$$(basename $$f) \
			tests/fuzz/corpus-$$(basename $$f) || exit 1; done

test: $(ELF) $(BUILD)/tally.iso $(UNIT_TESTS) $(FUZZ_TARGETS) debug
	$(call need,qemu-system-x86_64 prove)
	@BUILD=$(BUILD) ELF=$(ELF) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		UNIT_TESTS="$(UNIT_TESTS)" FUZZ_TARGETS="$(FUZZ_TARGETS)" \
		bash tests/run

bench:
	@bash tests/bench/run

# The fork bomb contained by the kmem limit, pids.max, memory.max and
# memory.high, one boot each (tests/contain/run, docs/containment.md):
# four lines, build/contain/results.csv and build/contain/contain.png.
contain: $(ELF)
	$(call need,qemu-system-x86_64 gnuplot)
	@QEMU_ACCEL="$${QEMU_ACCEL:-$$(sh tests/accel auto)}" perl tests/contain/run

# --- labs -------------------------------------------------------------------
# The graded exercises (labs/, handouts in docs/labs/): labs/stub lists them
# and checks their manifests, labs/start makes a student's branch, labs/grade
# builds and scores, labs/pack writes a student's repository, and
# labs/grade-class grades a folder of them (docs/labs/teaching.md).
labs:
	@perl labs/stub --list

lab-start:
	@sh labs/start $(LAB)

grade:
	$(call need,qemu-system-x86_64)
	@BUILD=$(BUILD) perl labs/grade $(LAB)

lab-pack:
	@perl labs/pack '$(LAB)' '$(DIR)'

grade-class:
	$(call need,qemu-system-x86_64)
	@BUILD=$(BUILD) perl labs/grade-class '$(LAB)' '$(DIR)'

# --- lint -------------------------------------------------------------------
# make lint: cppcheck, then clang-tidy (the checks are in .clang-tidy), over
# the kernel's sources with the kernel's own flags and defines (newlib's
# headers included) and over the host's as the unit tests compile them.
# Both must be silent: a finding fails the target. cppcheck's few ignored
# findings are listed, with reasons, in tests/lint/cppcheck-suppressions.
# clang-tidy's verdict on each file is kept in $(BUILD)/lint/, so a second
# run looks only at what changed; make -j2 lint runs two files at once.
LINT := $(BUILD)/lint
HOST_LINT_C := $(HOST_SRCS) $(wildcard tests/unit/test_*.c)
KERNEL_TIDY := $(patsubst %.c,$(LINT)/kernel/%.ok,$(KERNEL_C))
HOST_TIDY := $(patsubst %.c,$(LINT)/host/%.ok,$(HOST_LINT_C))
# cppcheck does not read C11's _Noreturn: without this it takes panic() for
# a function that returns, and every "if (!p) panic(...)" for a NULL check
# that comes too late.
CPPCHECK := cppcheck --quiet --std=c11 --platform=unix64 \
	--enable=warning,portability --inline-suppr --error-exitcode=1 \
	--suppressions-list=tests/lint/cppcheck-suppressions \
	'-D_Noreturn=__attribute__((noreturn))' -DCONFIG_MEMCG_KMEM -I.

lint: lint-columns lint-cppcheck $(KERNEL_TIDY) $(HOST_TIDY)
	@echo "lint: clean (cppcheck, and clang-tidy on $(words $(KERNEL_TIDY)) kernel and $(words $(HOST_TIDY)) host files)"

# Lines of at most 80 columns in kernel/, mm/, arch/ and drivers/
# (tests/lint/columns.pl).
lint-columns:
	@perl tests/lint/columns.pl kernel mm arch drivers

lint-cppcheck: $(LIBC)
	$(call need,cppcheck clang-tidy)
	$(CPPCHECK) -DTALLY_KERNEL -D__x86_64__ -isystem $(NEWLIB_INST)/include $(KERNEL_C)
	$(CPPCHECK) -DTALLY_HOST --include=tests/unit/host_platform.h $(HOST_LINT_C)

$(LINT)/kernel/%.ok: %.c .clang-tidy $(KERNEL_H) $(LIBC)
	@mkdir -p $(dir $@)
	clang-tidy --quiet $< -- $(KERNEL_CFLAGS)
	@touch $@

$(LINT)/host/%.ok: %.c .clang-tidy $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	clang-tidy --quiet $< -- $(HOST_CFLAGS)
	@touch $@

clean:
	rm -rf $(OBJ) $(OBJ)-nokmem $(BUILD)/obj-debug $(BUILD)/host $(BUILD)/fuzz $(BUILD)/*.elf $(BUILD)/*.iso $(BUILD)/isodir $(LINT) \
		$(BUILD)/fb_font.c
