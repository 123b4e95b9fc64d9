// SPDX-License-Identifier: GPL-2.0-or-later
/* The registry of the tables' output formats (report/format.h). */
#include <stddef.h>

#include "report/format.h"
#include "report/render/sysdiff.h"

extern const struct rep_format rep_format_text;
extern const struct rep_format rep_format_markdown;
extern const struct rep_format rep_format_csv;

const struct rep_format *const rep_formats[] = {
	&rep_format_text,		/* the default */
	&rep_format_markdown,
	&rep_format_csv,
	NULL,
};

const struct rep_format *rep_format_of_key(int key)
{
	size_t i;

	for (i = 0; rep_formats[i]; i++)
		if (rep_formats[i]->key == key)
			return rep_formats[i];
	return NULL;
}

void rep_format_tables(FILE *f, const struct rep_runs *rs,
		       const struct out_opts *o,
		       void (*print)(FILE *f, const struct rtable *t))
{
	struct group *g;
	size_t ng, i;

	ng = groups_make(rs, &g);
	for (i = 0; i < ng; i++) {
		struct rtable t;

		table_build(&g[i], o, &t);
		if (i)
			fputc('\n', f);
		print(f, &t);
		table_free(&t);
	}
	groups_free(g, ng);
}

void rep_format_sysdiff(FILE *f, const struct rep_runs *a,
			const struct rep_runs *b, const char *prefix)
{
	if (a->n && b->n && sysdiff_print(f, a, b, prefix))
		fputc('\n', f);
}
