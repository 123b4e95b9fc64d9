// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which runs go together and which are kept: the runs of one table
 * (same_table()) and the filters of report, compare, gate and db. Used by
 * the importers, the history and the renderers alike (report.h).
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

bool same_table(const struct rep_run *a, const struct rep_run *b)
{
	return str_same(a->test, b->test) && str_same(a->series, b->series) &&
	       str_same(a->load, b->load) && str_same(a->section, b->section);
}

/* ---- filters ---- */

/* Does @s match the glob @pat (none: anything)? Both as a PostgreSQL
 * history stores texts (utf8_cleaned()): a selector with bytes that are
 * not UTF-8 matches the same runs on either store. */
bool filter_glob(const char *pat, const char *s)
{
	char *cp, *cs;
	bool ok;

	if (!pat)
		return true;
	if (!s)
		return false;
	cp = utf8_cleaned(pat);
	cs = utf8_cleaned(s);
	ok = fnmatch(cp ? cp : pat, cs ? cs : s, 0) == 0;
	free(cp);
	free(cs);
	return ok;
}

bool filter_empty(const struct filter *f)
{
	return !f->label && !f->board && !f->kernel && !f->test && !f->load &&
	       !f->since && !f->until && !f->baseline;
}

bool filter_match(const struct filter *f, const struct rep_run *r)
{
	/* the start of the run, else when it entered the history */
	const char *date = r->start_time ? r->start_time : r->added_at;

	if (!filter_glob(f->label, r->label) || !filter_glob(f->board, r->board) ||
	    !filter_glob(f->kernel, r->kernel) || !filter_glob(f->test, r->test))
		return false;
	if (f->load && !filter_glob(f->load, r->load ? r->load : "unknown"))
		return false;
	if (f->baseline && (strcmp(f->baseline, "yes") == 0) != r->baseline)
		return false;
	if (f->since && (!date ||
			 strncmp(date, f->since, strlen(f->since)) < 0))
		return false;
	if (f->until && (!date ||
			 strncmp(date, f->until, strlen(f->until)) > 0))
		return false;
	return true;
}

void runs_filter(struct rep_runs *rs, const struct filter *f)
{
	size_t i, k = 0;

	for (i = 0; i < rs->n; i++) {
		if (filter_match(f, rs->v[i]))
			rs->v[k++] = rs->v[i];
		else
			run_free(rs->v[i]);
	}
	rs->n = k;
}
