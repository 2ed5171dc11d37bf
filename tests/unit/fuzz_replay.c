// SPDX-License-Identifier: MIT
/*
 * tests/unit/fuzz_replay.c - a fuzz target's kept inputs, as unit tests.
 *
 * Linked with one libFuzzer target (tests/fuzz/NAME.c) in place of
 * libFuzzer, this program hands every file of tests/fuzz/corpus-NAME/ to
 * the target's LLVMFuzzerTestOneInput(), one cmocka test case per file.
 * The target checks its own properties and abort()s when one breaks, so a
 * file passes when the target returns 0, under ASan and UBSan as every
 * unit test.
 *
 * The directory holds two kinds of input: seeds (hand-written, or
 * kept from a libFuzzer run by -merge=1, so that fuzzing starts from
 * inputs that reach deep), and inputs that once crashed the target, named
 * crash-WHAT after what they broke. A crash libFuzzer finds is fixed by
 * copying its artifact there under such a name: from then on `make unit`
 * runs it on every build, whether or not a fuzzer ever finds it again.
 *
 * FUZZ_NAME is the target's name, given by the Makefile; the directory is
 * read relative to the working directory, the top of the tree (make and
 * tests/run run from there), or from $FUZZ_CORPUS_DIR.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#ifndef FUZZ_NAME
#error "FUZZ_NAME must name the fuzz target"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Not every target has one; libFuzzer calls it when it exists. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

struct input {
	char path[512];
};

static void replay_one(void **state)
{
	const struct input *input = *state;
	FILE *f = fopen(input->path, "rb");
	uint8_t *data;
	long size;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size >= 0);
	rewind(f);
	/* An exact-size copy, so ASan sees a read past the input's end. */
	data = malloc(size ? (size_t)size : 1);
	assert_non_null(data);
	assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
	fclose(f);

	assert_int_equal(LLVMFuzzerTestOneInput(data, (size_t)size), 0);
	free(data);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct CMUnitTest *)a)->name,
		      ((const struct CMUnitTest *)b)->name);
}

int main(int argc, char **argv)
{
	const char *dir_path = getenv("FUZZ_CORPUS_DIR");
	char default_dir[256];
	struct CMUnitTest *tests = NULL;
	struct input *inputs = NULL;
	size_t n = 0, cap = 0;
	struct dirent *entry;
	DIR *dir;
	int ret;

	if (!dir_path) {
		snprintf(default_dir, sizeof(default_dir),
			 "tests/fuzz/corpus-%s", FUZZ_NAME);
		dir_path = default_dir;
	}
	dir = opendir(dir_path);
	if (!dir) {
		fprintf(stderr, "%s: cannot open %s (run from the top of "
			"the tree)\n", argv[0], dir_path);
		return 1;
	}
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			inputs = realloc(inputs, cap * sizeof(*inputs));
			tests = realloc(tests, cap * sizeof(*tests));
			if (!inputs || !tests)
				return 1;
		}
		snprintf(inputs[n].path, sizeof(inputs[n].path), "%s/%s",
			 dir_path, entry->d_name);
		n++;
	}
	closedir(dir);
	/* An empty directory would pass without testing anything. */
	if (n == 0) {
		fprintf(stderr, "%s: no inputs in %s\n", argv[0], dir_path);
		return 1;
	}
	/* Pointers into inputs[] are taken only now that it stops moving. */
	for (size_t i = 0; i < n; i++) {
		tests[i] = (struct CMUnitTest){
			.name = strrchr(inputs[i].path, '/') + 1,
			.test_func = replay_one,
			.initial_state = &inputs[i],
		};
	}
	qsort(tests, n, sizeof(*tests), by_name);

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	ret = _cmocka_run_group_tests("replay_" FUZZ_NAME, tests, n,
				      NULL, NULL);
	free(tests);
	free(inputs);
	return ret;
}
