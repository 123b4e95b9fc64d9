// SPDX-License-Identifier: GPL-2.0-or-later
/* The figure cells of the tests' table columns (suitecol.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/suitecol.h"
#include "util/timeutil.h"

/* A figure named NAME_ns is a time in ns. */
static bool is_ns(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 3 && !strcmp(name + n - 3, "_ns");
}

/* @v as a whole number of ns; false when it is none. */
static bool ns_of(const char *v, long long *ns)
{
	char *end;

	if (!v || !v[0])
		return false;
	*ns = strtoll(v, &end, 10);
	return end != v && !*end;
}

const char *suite_fig_text(const char *name, const char *v, int decimals,
			   char *buf, size_t len)
{
	char b[32], *end;
	long long ns;
	double x = v ? strtod(v, &end) : 0;

	if (!v || !v[0])
		snprintf(buf, len, "n/a");
	else if (decimals > 0 && end != v && !*end)
		snprintf(buf, len, "%.*f", decimals, x);
	else if (is_ns(name) && ns_of(v, &ns))
		snprintf(buf, len, "%s", fmt_us3(b, ns));
	else
		snprintf(buf, len, "%s", v);
	return buf;
}

bool suite_col_figure(const struct suite_col *c)
{
	return c->stat == SUITE_FIGURE || c->stat == SUITE_PERCENT ||
	       c->stat == SUITE_CPU;
}

bool suite_spec_figures(const struct suite_spec *sp)
{
	const struct suite_col *c;

	for (c = sp && sp->cols ? sp->cols : NULL; c && c->stat != SUITE_END; c++)
		if (suite_col_figure(c) || (c->stat == SUITE_TIME && c->name))
			return true;
	return false;
}

bool suite_col_time(const struct suite_col *c)
{
	return is_ns(c->name);
}

const char *suite_col_text(const struct suite_col *c, const char *v,
			   char *buf, size_t len)
{
	return suite_fig_text(c->name, v, c->stat == SUITE_PERCENT ? 4 : 0, buf,
			      len);
}

const char *suite_time_text(const char *v, int64_t duration_ns, char *buf,
			    size_t len)
{
	char b[32];
	long long ns;

	/* a figure is what was measured (spun: 10 spins of 100 ms a few
	 * clock reads short of 1 s): to the nearest second */
	if (ns_of(v, &ns) && ns >= 0)
		duration_ns = (ns + NSEC_PER_SEC / 2) / NSEC_PER_SEC * NSEC_PER_SEC;
	snprintf(buf, len, "%s", duration_ns >= 0 ? fmt_hms(b, duration_ns) :
		 "n/a");
	return buf;
}
