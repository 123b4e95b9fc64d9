// SPDX-License-Identifier: GPL-2.0-or-later
/* INI reader for suite files; see ini.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/ini.h"

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int ini_parse_file(const char *path, ini_handler h, void *ctx, char *err,
		   size_t errlen)
{
	char line[4096], section[128] = "", *p, *eq, *end;
	int n = 0;
	FILE *f;

	err[0] = '\0';
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "cannot read suite file %s: %s", path,
			 strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line too long", path, n);
			goto fail;
		}
		p = trim(line);
		if (!*p || *p == '#' || *p == ';')
			continue;
		if (*p == '[') {
			end = strchr(p, ']');
			if (!end || end[1]) {
				snprintf(err, errlen, "%s:%d: expected [section]", path, n);
				goto fail;
			}
			*end = '\0';
			snprintf(section, sizeof(section), "%s", trim(p + 1));
			continue;
		}
		eq = strchr(p, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%d: expected key = value, got '%s'",
				 path, n, p);
			goto fail;
		}
		*eq = '\0';
		if (!*trim(p)) {
			snprintf(err, errlen, "%s:%d: empty key", path, n);
			goto fail;
		}
		if (h(ctx, section, trim(p), trim(eq + 1), n) < 0)
			goto fail;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read suite file %s: %s", path,
			 strerror(errno));
		goto fail;
	}
	fclose(f);
	return 0;
fail:
	fclose(f);
	return -1;
}
