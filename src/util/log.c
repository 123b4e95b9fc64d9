// SPDX-License-Identifier: GPL-2.0-or-later
/* Diagnostics on stderr; see log.h. */
#include <stdarg.h>
#include <stdio.h>

#include "util/log.h"

static const char *prefix = "rtlat";
static bool quiet;

void log_set_prefix(const char *p)
{
	prefix = p;
}

const char *log_prefix(void)
{
	return prefix;
}

void log_set_quiet(bool q)
{
	quiet = q;
}

static void vlog(const char *kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vlog(const char *kind, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* one fprintf so that lines from several threads do not interleave */
	fprintf(stderr, "%s: %s%s\n", prefix, kind, buf);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("error: ", fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void log_note_always(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("note: ", fmt, ap);
	va_end(ap);
}

void log_note(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vlog("note: ", fmt, ap);
	va_end(ap);
}
