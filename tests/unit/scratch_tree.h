/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests that build a small fake /proc and /sys tree of their own
 * (beside the recorded ones in tests/data/sysroots/): write @n bytes of
 * @data to the file @path below the directory @root, creating the
 * directories on the way. A failure fails the test (cmocka).
 * scratch_remove() removes the tree @root again, @root too.
 */
#ifndef RTLAT_TEST_SCRATCH_TREE_H
#define RTLAT_TEST_SCRATCH_TREE_H

#include <ftw.h>
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

static inline int scratch_remove_one(const char *path, const struct stat *st,
				     int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void scratch_remove(const char *root)
{
	assert_int_equal(nftw(root, scratch_remove_one, 16,
			      FTW_DEPTH | FTW_PHYS), 0);
}

#endif
