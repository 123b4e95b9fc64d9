/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests that build a small fake /proc and /sys tree of their own
 * (beside the recorded ones in tests/data/sysroots/): write @n bytes of
 * @data to the file @path below the directory @root, creating the
 * directories on the way. A failure fails the test (cmocka).
 */
#ifndef RTLAT_TEST_SCRATCH_TREE_H
#define RTLAT_TEST_SCRATCH_TREE_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static inline void scratch_put(const char *root, const char *path,
			       const void *data, size_t n)
{
	char p[256], *slash;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, path);
	for (slash = strchr(p + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p, 0755);
		*slash = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

#endif
