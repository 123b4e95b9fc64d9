// SPDX-License-Identifier: GPL-2.0-or-later
/* Import driver and text helpers; see import.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#include "util/log.h"
#include "util/url.h"
#include "report/import/import.h"
#include "report/report.h"

/* Larger inputs are refused (a week of 1 s RTD lines is 5 MB). */
#define IMP_MAX_FILE	(256u << 20)
/* A JSON document is parsed whole into a tree (cJSON) before its runs are
 * read: about 19 times its size in memory (an rtlat result of 13.9 MB
 * took 264 MB, one of 239 MB 4.2 GB). Larger ones are refused. */
#define IMP_MAX_JSON	(32u << 20)
/* Bytes given to the text probes. */
#define IMP_PROBE_LEN	65536
/* Skipped-line warnings shown per file; the rest are counted. */
#define IMP_MAX_LINE_WARN 10

const struct importer *const importers[] = {
	&imp_rtlat,
	&imp_cyclictest,
	&imp_jitterdebugger,
	&imp_oslat,
	&imp_rttests,
	&imp_rtla,
	&imp_stressng,
	&imp_rtai,
	&imp_xenomai,
	&imp_table,
	NULL,
};

const struct importer *importer_find(const char *name)
{
	int i;

	for (i = 0; importers[i]; i++)
		if (!strcmp(importers[i]->name, name))
			return importers[i];
	return NULL;
}

static void vdiag(struct imp_ctx *c, bool err, unsigned line, const char *fmt,
		  va_list ap) __attribute__((format(printf, 4, 0)));

static void vdiag(struct imp_ctx *c, bool err, unsigned line, const char *fmt,
		  va_list ap)
{
	char msg[768];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (c->o->quiet)
		return;
	if (line)
		line += c->line0;
	if (line)
		(err ? log_error : log_warn)("%s:%u: %s", c->path, line, msg);
	else
		(err ? log_error : log_warn)("%s: %s", c->path, msg);
}

void imp_error(struct imp_ctx *c, unsigned line, const char *fmt, ...)
{
	va_list ap;

	c->errors++;
	va_start(ap, fmt);
	vdiag(c, true, line, fmt, ap);
	va_end(ap);
}

void imp_warn(struct imp_ctx *c, unsigned line, const char *fmt, ...)
{
	va_list ap;

	c->warnings++;
	if (line && ++c->skipped > IMP_MAX_LINE_WARN)
		return;
	va_start(ap, fmt);
	vdiag(c, false, line, fmt, ap);
	va_end(ap);
}

struct rep_run *imp_new_run(struct imp_ctx *c, const struct importer *imp,
			    unsigned line)
{
	struct rep_run *r = run_new();

	r->file = xstrdup(c->path);
	r->format = imp->name;
	r->line = line ? line + c->line0 : 0;
	runs_push(&c->runs, r);
	return r;
}

/* ---- text helpers ---- */

void lines_init(struct lines *l, char *buf, size_t len)
{
	l->p = buf;
	l->end = buf + len;
	l->no = 0;
}

char *lines_next(struct lines *l)
{
	char *s = l->p, *e, *t;

	if (s >= l->end)
		return NULL;
	e = memchr(s, '\n', (size_t)(l->end - s));
	if (!e)
		e = l->end;
	*e = '\0';
	l->p = e + 1;
	l->no++;
	/* a carriage return ends a refreshed console line: keep the last part
	 * (cyclictest without -q rewrites its lines in place) */
	t = e;
	while (t > s && (t[-1] == '\r' || isspace((unsigned char)t[-1])))
		*--t = '\0';
	t = strrchr(s, '\r');
	if (t)
		s = t + 1;
	return s;
}

void strip_ansi(char *s)
{
	char *w = s;

	while (*s) {
		if (*s == '\033') {
			s++;
			if (*s == '[') {
				s++;
				while (*s && !(*s >= 0x40 && *s <= 0x7e))
					s++;
				if (*s)
					s++;
			} else if (*s) {
				s++;
			}
			continue;
		}
		*w++ = *s++;
	}
	*w = '\0';
}

bool text_line_with(const char *text, const char *anchor,
		    const char *const *all, const char *none)
{
	const char *p = text;

	while ((p = strstr(p, anchor))) {
		const char *b = p, *e = strchr(p, '\n');
		size_t n;
		int i;

		while (b > text && b[-1] != '\n')
			b--;
		n = e ? (size_t)(e - b) : strlen(b);
		for (i = 0; all[i]; i++)
			if (!memmem(b, n, all[i], strlen(all[i])))
				break;
		if (!all[i] && !(none && memmem(b, n, none, strlen(none))))
			return true;
		p += strlen(anchor);
	}
	return false;
}

const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The text of the number at @p, for a message (at most 24 bytes). */
static int fig_len(const char *p)
{
	size_t n = strcspn(p, " \t,;|");

	return (int)(n > 24 ? 24 : n);
}

/* Is the figure at @p NaN or infinity (signed or not)? */
static bool fig_nan(const char *p)
{
	if (*p == '-' || *p == '+')
		p++;
	return !strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3);
}

/* Does an exponent of a number follow at @p ("e23", "E+5")? */
static bool fig_more(const char *p)
{
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		return isdigit((unsigned char)*p);
	}
	return false;
}

const char *imp_num_err(int err)
{
	switch (err) {
	case -EDOM:
		return "not a number (NaN or infinity) or one with an exponent, which no tool prints";
	case -ERANGE:
		return "number out of range";
	default:
		return "number expected";
	}
}

int imp_num(const char **pp, int64_t unit_ns, int64_t *out)
{
	const char *p = skip_blank(*pp);
	uint64_t ip = 0, frac = 0, fscale = 1, max = (uint64_t)REP_MAX_VALUE;
	bool neg = false, digits = false;
	uint64_t v;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3))
		return -EDOM;
	for (; isdigit((unsigned char)*p); p++) {
		digits = true;
		if (ip > max)
			continue;	/* keep scanning; range error below */
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		for (p++; isdigit((unsigned char)*p); p++) {
			digits = true;
			if (fscale < 1000000000u) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				fscale *= 10;
			}
		}
	}
	if (!digits)
		return -EINVAL;
	if (fig_more(p))
		return -EDOM;	/* "1e23" is no 1 */
	if (unit_ns < 1 || ip > max / (uint64_t)unit_ns)
		return -ERANGE;
	v = ip * (uint64_t)unit_ns;
	/* frac / fscale * unit, exact: fscale <= 1e9 and unit <= 1e9 here */
	if (unit_ns > 1000000000)
		return -ERANGE;
	v += frac * (uint64_t)unit_ns / fscale;
	if (v > max)
		return -ERANGE;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*pp = p;
	return 0;
}

int imp_count(const char **pp, uint64_t *out)
{
	const char *p = skip_blank(*pp);
	uint64_t v = 0;
	bool digits = false;

	if (*p == '+')
		p++;
	if (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3))
		return -EDOM;
	for (; isdigit((unsigned char)*p); p++) {
		digits = true;
		if (v <= (uint64_t)REP_MAX_VALUE)
			v = v * 10 + (uint64_t)(*p - '0');
	}
	if (!digits)
		return -EINVAL;
	if (fig_more(p))
		return -EDOM;	/* "1e20" is no 1 */
	if (v > (uint64_t)REP_MAX_VALUE)
		return -ERANGE;
	*out = v;
	*pp = p;
	return 0;
}

int imp_figure(struct imp_ctx *c, unsigned line, const char *what,
	       const char **pp, int64_t unit_ns, unsigned flags, int64_t *out)
{
	const char *p = skip_blank(*pp), *q = p;
	int64_t v;
	int e = imp_num(&q, unit_ns, &v);

	if (e == -EINVAL)
		return 1;
	if (e) {
		imp_error(c, line, "%s '%.*s': %s", what, fig_len(p), p,
			  e == -ERANGE ? "beyond what the tool can print (magnitude above 2^53 ns)" :
			  fig_nan(p) ? "not a number (NaN or infinity)" :
			  "an exponent, which the tool never prints");
		return -1;
	}
	if (v < 0 && !(flags & IMP_FIG_SIGNED)) {
		imp_error(c, line, "%s '%.*s': negative, which the tool never prints",
			  what, fig_len(p), p);
		return -1;
	}
	*out = v;
	*pp = q;
	return 0;
}

int imp_figure_count(struct imp_ctx *c, unsigned line, const char *what,
		     const char **pp, uint64_t *out)
{
	const char *p = skip_blank(*pp), *q = p;
	uint64_t v;
	int e;

	if (*p == '-' && isdigit((unsigned char)p[1])) {
		imp_error(c, line, "%s '%.*s': a negative count", what,
			  fig_len(p), p);
		return -1;
	}
	e = imp_count(&q, &v);
	if (e == -EINVAL)
		return 1;
	if (e) {
		imp_error(c, line, "%s '%.*s': %s", what, fig_len(p), p,
			  e == -ERANGE ? "a count beyond what the tool can print (above 2^53)" :
			  fig_nan(p) ? "not a number (NaN or infinity)" :
			  "not a whole count");
		return -1;
	}
	if (*q == '.' && isdigit((unsigned char)q[1])) {
		imp_error(c, line, "%s '%.*s': not a whole count", what,
			  fig_len(p), p);
		return -1;
	}
	*out = v;
	*pp = q;
	return 0;
}

int imp_check_stats(struct imp_ctx *c, unsigned line, const char *what,
		    int64_t min, double avg, int64_t max)
{
	if (min > max || (!isnan(avg) && (avg < (double)min ||
					  avg > (double)max))) {
		imp_error(c, line, "%s: min <= avg <= max does not hold (min %lld, avg %.1f, max %lld ns)",
			  what, (long long)min, avg, (long long)max);
		return -1;
	}
	return 0;
}

int split_fields(char *line, char sep, char **f, int max)
{
	int n = 0;
	char *s = line;

	for (;;) {
		char *e = strchr(s, sep), *t;

		if (e)
			*e = '\0';
		s = (char *)skip_blank(s);
		t = s + strlen(s);
		while (t > s && isspace((unsigned char)t[-1]))
			*--t = '\0';
		if (n < max)
			f[n] = s;
		n++;
		if (!e)
			break;
		s = e + 1;
	}
	return n;
}

int parse_hms(const char *s, int64_t *ns, const char **end)
{
	uint64_t h, m, sec;
	const char *p = s;
	int r;

	r = imp_count(&p, &h);
	if (r)
		return r;
	if (*p++ != ':')
		return -EINVAL;
	r = imp_count(&p, &m);
	if (r || m > 59 || *p++ != ':')
		return r ? r : -EINVAL;
	r = imp_count(&p, &sec);
	if (r || sec > 59)
		return r ? r : -EINVAL;
	if (h > (uint64_t)REP_MAX_VALUE / (3600 * 1000000000ull))
		return -ERANGE;
	*ns = (int64_t)((h * 3600 + m * 60 + sec) * 1000000000ull);
	if (end)
		*end = p;
	return 0;
}

int parse_time_words(const char *s, int64_t *ns, const char **end)
{
	static const struct {
		const char *name;
		int64_t ns;
	} u[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "min", 60000000000LL }, { "sec", 1000000000 },
		{ "s", 1000000000 },
	};
	const char *p = s, *q;
	int64_t v;
	size_t i;
	int r;

	/* parse as ns first to learn the shape, then redo in the unit */
	r = imp_num(&p, 1, &v);
	if (r)
		return r;
	q = skip_blank(p);
	if (*q == '(')
		q++;
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		size_t n = strlen(u[i].name);

		if (!strncmp(q, u[i].name, n) && !isalpha((unsigned char)q[n]))
			break;
	}
	if (i == sizeof(u) / sizeof(u[0]))
		return -EINVAL;
	p = s;
	r = imp_num(&p, u[i].ns > 1000000000 ? 1000000000 : u[i].ns, &v);
	if (r)
		return r;
	if (u[i].ns > 1000000000) {
		int64_t f = u[i].ns / 1000000000;

		if (v > REP_MAX_VALUE / f || v < -REP_MAX_VALUE / f)
			return -ERANGE;
		v *= f;
	}
	if (v < 0)
		return -EINVAL;
	q += strlen(u[i].name);
	if (*q == ')')
		q++;
	*ns = v;
	if (end)
		*end = q;
	return 0;
}

int rth_names(const char *line, char names[][24], int max)
{
	const char *p = strchr(line, '|');
	int n = 0;

	while (p && n < max) {
		const char *e = strchr(p + 1, '|');
		size_t len = e ? (size_t)(e - p - 1) : strlen(p + 1);
		const char *a = p + 1, *b = p + 1 + len;
		size_t k = 0;

		while (a < b && (*a == '-' || isspace((unsigned char)*a)))
			a++;
		while (b > a && (b[-1] == '-' || isspace((unsigned char)b[-1])))
			b--;
		for (; a < b && k < 23; a++)
			names[n][k++] = (char)tolower((unsigned char)*a);
		names[n][k] = '\0';
		n++;
		p = e;
	}
	return n;
}

/* "latencies in us", "values in ns", "all results in microseconds": the
 * unit in ns, or 0 when @s is no such statement. */
static int64_t unit_clause(const char *s)
{
	static const struct {
		const char *name;
		int64_t ns;
	} u[] = {
		{ "ns", 1 }, { "nanoseconds", 1 },
		{ "us", 1000 }, { "\xc2\xb5s", 1000 }, { "microseconds", 1000 },
		{ "ms", 1000000 }, { "milliseconds", 1000000 },
	};
	static const char *const what[] = {
		"latencies", "values", "figures", "times", "results",
		"all results", "all latencies", "all values", "all figures",
	};
	size_t i, n;

	for (i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		n = strlen(what[i]);
		if (!strncasecmp(s, what[i], n) && !strncasecmp(s + n, " in ", 4))
			break;
	}
	if (i == sizeof(what) / sizeof(what[0]))
		return 0;
	s = skip_blank(s + n + 4);
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (!strcasecmp(s, u[i].name))
			return u[i].ns;
	return 0;
}

bool parse_heading(const char *line, struct heading *h)
{
	char buf[256], *p, *e, *clause;
	bool not_recorded = false;
	size_t len;

	memset(h, 0, sizeof(*h));
	if (strchr(line, '|'))
		return false;
	len = strlen(line);
	if (len >= sizeof(buf))
		return false;
	memcpy(buf, line, len + 1);
	while (len && (buf[len - 1] == ':' || isspace((unsigned char)buf[len - 1])))
		buf[--len] = '\0';
	/* units: "(ns)" or "(us)" at the end */
	if (len > 5 && buf[len - 1] == ')' && buf[len - 4] == '(') {
		if (!strcmp(buf + len - 4, "(ns)"))
			h->unit_ns = 1;
		else if (!strcmp(buf + len - 4, "(us)"))
			h->unit_ns = 1000;
		if (h->unit_ns) {
			len -= 4;
			while (len && isspace((unsigned char)buf[len - 1]))
				len--;
			buf[len] = '\0';
		}
	}
	/* clauses after the title, as rtlat suite writes them:
	 * "LATENCY with load (hell), latencies in us, test-time hh:mm:ss" */
	clause = strstr(buf, ", ");
	if (clause) {
		*clause = '\0';
		clause += 2;
	}
	while (clause) {
		char *next = strstr(clause, ", ");
		int64_t u;

		if (next) {
			*next = '\0';
			next += 2;
		}
		clause = (char *)skip_blank(clause);
		if (!strcasecmp(clause, "load not recorded")) {
			not_recorded = true;
		} else if ((u = unit_clause(clause))) {
			h->unit_ns = u;
		} else if (strncasecmp(clause, "test-time", 9) != 0 &&
			   strncasecmp(clause, "test time", 9) != 0 &&
			   !strstr(clause, " = ")) {
			/* not the format of a column ("test-time hh:mm:ss")
			 * nor what a column means ("dev = computation time -
			 * ideal", rtlat suite's cruncher table) */
			return false;
		}
		clause = next;
	}
	if ((p = strcasestr(buf, " without load")) && !p[13]) {
		if (not_recorded)
			return false;
		snprintf(h->load, sizeof(h->load), "none");
	} else if ((p = strcasestr(buf, " with load"))) {
		if (not_recorded)
			return false;
		e = p + 10;
		if (*e && *e != ' ')
			return false;
		e = (char *)skip_blank(e);
		/* rtlat suite writes the name in parentheses: "(hell)" */
		len = strlen(e);
		if (len > 2 && e[0] == '(' && e[len - 1] == ')') {
			e[len - 1] = '\0';
			e++;
		}
		snprintf(h->load, sizeof(h->load), "%s",
			 *e ? e : REP_LOAD_UNNAMED);
	} else if (not_recorded) {
		h->load[0] = '\0';
		p = buf + strlen(buf);
	} else {
		return false;
	}
	*p = '\0';
	/* a known kind ("LATENCY", "CRUNCER"), else one word ("CYCLIC") */
	if (!*buf || strlen(buf) > 40)
		return false;
	if (kind_from_text(buf)) {
		snprintf(h->kind, sizeof(h->kind), "%s", kind_from_text(buf));
		return true;
	}
	for (p = buf; *p; p++) {
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return false;
		*p = (char)tolower((unsigned char)*p);
	}
	snprintf(h->kind, sizeof(h->kind), "%s", buf);
	return true;
}

const char *kind_from_text(const char *s)
{
	static const struct {
		const char *key;
		const char *kind;
	} k[] = {
		/* order matters: "klatency" contains "latency" */
		{ "klatency", "klatency" },
		{ "kernel latency", "klatency" },
		{ "timer handler", "irq" },
		{ "in-kernel", "klatency" },
		{ "kernel-mode", "klatency" },
		{ "switch", "switch" },
		{ "crunc", "cruncher" },	/* "CRUNCER" in the 2005 summary */
		{ "handshake", "handshake" },
		{ "latency", "latency" },
		{ "user-mode", "latency" },
	};
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (strcasestr(s, k[i].key))
			return k[i].kind;
	return NULL;
}

/* ---- legacy fallback (import.h) ---- */

/* The tests whose series had nothing to miss, before their result said
 * "counts_misses": false. */
static const char *const legacy_no_misses[] = { "cruncher" };

void imp_legacy_no_misses(struct rep_run *r)
{
	size_t i;

	for (i = 0; r->test && i < sizeof(legacy_no_misses) /
		    sizeof(legacy_no_misses[0]); i++)
		if (!strcmp(r->test, legacy_no_misses[i]))
			r->no_misses = true;
}

const char *imp_legacy_reference(const char *test, const char *series)
{
	return !strcmp(test, "cruncher") && !strcmp(series, "deviation") ?
		"ideal_ns" : NULL;
}

/* ---- driver ---- */

static char *stem_of(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s, *dot;

	b = b ? b + 1 : path;
	s = xstrdup(*b ? b : path);
	dot = strrchr(s, '.');
	if (dot && dot != s)
		*dot = '\0';
	return s;
}

/* Line number of byte @off of @buf. */
static unsigned line_of(const char *buf, size_t off)
{
	unsigned n = 1;
	size_t i;

	for (i = 0; i < off; i++)
		if (buf[i] == '\n')
			n++;
	return n;
}

/* The first character of @buf after a byte order mark and blanks, or 0. */
static char first_char(const char *buf, size_t len)
{
	size_t i = 0;

	/* UTF-8 byte order mark */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && isspace((unsigned char)buf[i]))
		i++;
	return i < len ? buf[i] : '\0';
}

/* Does @s end with @suffix? */
static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = s ? strlen(s) : 0, k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* A document that starts with '{' or '[', unless its first line is a
 * shell prompt ("[root@localhost ~]# ./oslat ..."): a paste, text. */
static bool looks_json(const char *buf, size_t len)
{
	char c = first_char(buf, len);
	size_t i = 0;

	if (c == '[') {
		while (i < len && isspace((unsigned char)buf[i]))
			i++;
		if (frame_prompt_line(buf + i, len - i))
			return false;
	}
	return c == '{' || c == '[';
}

#ifdef HAVE_CJSON
/* A JSON document ends with '}' or ']': anything else was cut short. */
static bool json_truncated(const char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return !n || (s[n - 1] != '}' && s[n - 1] != ']');
}
#endif

static void known_formats(char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; importers[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      importers[i]->name);
}

/* Words a line of latency figures holds, for "the closest line". */
static int figure_words(const char *s)
{
	static const char *const w[] = {
		"min", "max", "avg", "lat", "T:", "RTD", "RTS", "overrun",
		" us", "ns", "(us)", "jitter", "cycles",
	};
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (strcasestr(s, w[i]))
			n++;
	return n;
}

/* Error for a file in which no importer recognized anything: what was
 * tried, and the line that looks most like figures. */
static void not_recognized(struct imp_ctx *c, const char *text)
{
	const char *p = text, *best = NULL;
	unsigned no = 0, best_no = 0;
	int best_n = 1;
	char names[160];

	known_formats(names, sizeof(names));
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char line[256];
		int k;

		no++;
		snprintf(line, sizeof(line), "%.*s", (int)(n < 255 ? n : 255), p);
		k = figure_words(line);
		if (k > best_n) {
			best_n = k;
			best = p;
			best_no = no;
		}
		if (!e)
			break;
		p = e + 1;
	}
	if (best) {
		size_t n = strcspn(best, "\n");

		imp_error(c, 0, "format not recognized (tried: %s; force one with --format); the closest line is %u: '%.*s%s'",
			  names, best_no, (int)(n > 72 ? 72 : n), best,
			  n > 72 ? "..." : "");
	} else {
		imp_error(c, 0, "format not recognized (tried: %s; force one with --format); no line holds latency figures",
			  names);
	}
}

/* Best text importer for @text (NUL-terminated; probes see its first
 * IMP_PROBE_LEN bytes), or NULL. */
static const struct importer *probe_text_all(char *text, size_t len)
{
	const struct importer *imp = NULL;
	char save = '\0';
	int i, best = 0;

	if (len > IMP_PROBE_LEN) {
		save = text[IMP_PROBE_LEN];
		text[IMP_PROBE_LEN] = '\0';
	}
	for (i = 0; importers[i]; i++) {
		int s;

		if (!importers[i]->probe_text)
			continue;
		s = importers[i]->probe_text(text);
		if (s > best) {
			best = s;
			imp = importers[i];
		}
	}
	if (len > IMP_PROBE_LEN)
		text[IMP_PROBE_LEN] = save;
	return imp;
}

#ifdef HAVE_CJSON
/* The importer most sure to read the JSON document @root, or NULL. */
static const struct importer *probe_json_all(const cJSON *root)
{
	const struct importer *imp = NULL;
	int i, best = 0;

	for (i = 0; importers[i]; i++) {
		int s;

		if (!importers[i]->probe_json)
			continue;
		s = importers[i]->probe_json(root);
		if (s > best) {
			best = s;
			imp = importers[i];
		}
	}
	return imp;
}

/* Start of line @no (1-based) at or after @p, counting from line @at. */
static char *line_start(char *p, unsigned at, unsigned no)
{
	while (at < no && *p) {
		char *e = strchr(p, '\n');

		if (!e)
			return p + strlen(p);
		p = e + 1;
		at++;
	}
	return p;
}

/* At most this many JSON documents are looked for in a text file. */
#define IMP_MAX_EMBEDDED_JSON 64

/*
 * JSON documents in pasted text: a line that starts with '{' and a
 * document from there that some importer (or the forced one) reads. Each
 * is parsed and blanked out of @text. Returns the number read, or -1.
 */
static int embedded_json(struct imp_ctx *c, char *text,
			 const struct importer *forced)
{
	char *p = text;
	unsigned no = 1;
	int found = 0, tries = 0;

	while (*p) {
		char *e = strchr(p, '\n');

		if (*skip_blank(p) == '{' && tries < IMP_MAX_EMBEDDED_JSON) {
			const struct importer *imp = forced;
			const char *end = NULL, *err;
			const char *json = p;
			char *clean = NULL;
			int nans = 0, r;
			cJSON *root = jr_parse(p, &end, false);

			/* the text as it is first: what is no JSON fails at
			 * once; only a document with a bare NaN is copied
			 * (json_sanitize()) and parsed again */
			err = root ? NULL : cJSON_GetErrorPtr();
			if (err && strchr("nNiI+-", *err) && *err) {
				clean = json_sanitize(p, strlen(p), &nans);
				json = clean;
				root = jr_parse(clean, &end, false);
			}
			tries++;
			if (root && !imp)
				imp = probe_json_all(root);
			if (root && cJSON_IsObject(root) && imp &&
			    imp->parse_json) {
				unsigned lines = 0;
				const char *q;
				char *b;

				for (q = json; q < end; q++)
					lines += *q == '\n';
				c->line0 = no - 1;
				if (nans)
					imp_warn(c, 0, "%d NaN/infinity value%s read as n/a",
						 nans, nans > 1 ? "s" : "");
				r = imp->parse_json(c, root);
				c->line0 = 0;
				jr_delete(root);
				free(clean);
				if (r)
					return -1;
				found++;
				/* blank the document out of the text, to the
				 * end of its last line */
				e = strchr(line_start(p, no, no + lines), '\n');
				for (b = p; e ? b < e : *b != '\0'; b++)
					if (*b != '\n')
						*b = ' ';
				no += lines;
				if (!e)
					break;
				p = e + 1;
				no++;
				continue;
			}
			jr_delete(root);
			free(clean);
		}
		if (!e)
			break;
		p = e + 1;
		no++;
	}
	return found;
}
#endif

/*
 * A text file as users paste it (see frame_clean()): JSON documents in
 * it, then the text cut into parts at each command line, each part read
 * by the importer that recognizes it (notes no importer recognizes are
 * skipped). With @forced, the whole text is one part read by it. Returns
 * 0, -1 on error, or 1 when nothing was recognized and @quiet_unknown.
 */
static int parse_pasted(struct imp_ctx *c, const char *buf, size_t len,
			const struct importer *forced, bool quiet_unknown,
			bool was_json)
{
	size_t clen;
	char *text = frame_clean(buf, len, &clen), *p, *seg;
	unsigned no = 1, seg_no = 1;
	int found = 0, r = 0;

#ifdef HAVE_CJSON
	if (!forced || forced->parse_json) {
		r = embedded_json(c, text, forced);
		if (r < 0) {
			free(text);
			return -1;
		}
		found = r;
		r = 0;
	}
#endif
	if (forced && forced->json) {
		free(text);
		if (found)
			return 0;
		imp_error(c, 0, "no JSON document that --format %s reads",
			  forced->name);
		return -1;
	}
	/* the parts: from one command line to the next */
	seg = p = text;
	for (;;) {
		char *e = strchr(p, '\n');
		bool last = !e || !e[1];
		bool cut = !forced && !last && frame_starts_run(e + 1);

		if (cut || last) {
			char *end = e ? e + 1 : p + strlen(p);
			size_t n = (size_t)(end - seg);
			char *part = xmalloc(n + 1);
			const struct importer *imp;

			memcpy(part, seg, n);
			part[n] = '\0';
			imp = forced ? forced : probe_text_all(part, n);
			if (imp) {
				c->line0 = seg_no - 1;
				r = imp->parse_text(c, part, n);
				c->line0 = 0;
				found++;
			}
			free(part);
			if (r || last)
				break;
			seg = e + 1;
			seg_no = no + 1;
		}
		p = e + 1;
		no++;
	}
	if (r) {
		free(text);
		return -1;
	}
	if (!found) {
		if (quiet_unknown) {
			free(text);
			return 1;
		}
		if (!was_json)
			not_recognized(c, text);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

static int parse_detect(struct imp_ctx *c, const char *buf, size_t len,
			bool quiet_unknown);

/*
 * Detect and parse. Returns 0, -1 on error, or 1 when the format was not
 * recognized and @quiet_unknown asks to skip such files silently. A mail
 * body still in quoted-printable is decoded first (its lines kept: line
 * numbers are the file's).
 */
static int parse_any(struct imp_ctx *c, const char *buf, size_t len,
		     bool quiet_unknown)
{
	size_t dlen;
	char *dec;
	int r;

	if (memchr(buf, '\0', len) || !frame_is_qp(buf, len))
		return parse_detect(c, buf, len, quiet_unknown);
	dec = frame_qp_decode(buf, len, &dlen);
	r = parse_detect(c, dec, dlen, quiet_unknown);
	free(dec);
	return r;
}

static int parse_detect(struct imp_ctx *c, const char *buf, size_t len,
			bool quiet_unknown)
{
	const struct importer *imp = NULL;
	const char *nul;
	char names[160];
	int r = -1;

	if (c->o->format) {
		imp = importer_find(c->o->format);
		if (!imp) {
			known_formats(names, sizeof(names));
			imp_error(c, 0, "unknown format '%s' (known: %s)",
				  c->o->format, names);
			return -1;
		}
	}
	nul = memchr(buf, '\0', len);
	if (nul) {
		if (quiet_unknown && !imp)
			return 1;
		imp_error(c, line_of(buf, (size_t)(nul - buf)),
			  "binary data (NUL byte at offset %zu): not a result or log file",
			  (size_t)(nul - buf));
		return -1;
	}
	if (looks_json(buf, len) && (!imp || imp->json || imp->parse_json)) {
#ifdef HAVE_CJSON
		const char *err;
		cJSON *root;
		char *clean;
		int nans = 0;

		if (len > IMP_MAX_JSON && first_char(buf, len) == '{') {
			imp_error(c, 0, "a JSON document of %.1f MiB: rtlat report reads at most %u MiB of JSON (reading it takes about 19 times its size in memory); a long run's interval series make a result that large: report its text output, or the result without them (jq 'del(.. | .intervals?)')",
				  (double)len / (1 << 20), IMP_MAX_JSON >> 20);
			return -1;
		}
		clean = json_sanitize(buf, len, &nans);
		root = jr_parse(clean, &err, true);
		if (!root && !(imp && imp->json)) {
			/* "[root@host ~]# cyclictest ...", or JSON in a log:
			 * read as pasted text; the JSON error only when
			 * nothing is found there */
			free(clean);
			r = parse_pasted(c, buf, len, imp, true, true);
			if (r <= 0)
				return r;
			clean = json_sanitize(buf, len, &nans);
			root = jr_parse(clean, &err, true);
		}
		if (!root) {
			err = cJSON_GetErrorPtr();
			/* in a directory, a text that is no JSON is skipped;
			 * a JSON object or a .json file cut short or broken
			 * is a result lost: said, an error */
			if (quiet_unknown && !imp && first_char(buf, len) != '{' &&
			    !has_suffix(c->path, ".json")) {
				free(clean);
				return 1;
			}
			imp_error(c, err ? line_of(clean, (size_t)(err - clean)) : 0,
				  "invalid JSON%s", json_truncated(clean) ?
				  " (truncated: the file ends before the document does)" :
				  "");
			free(clean);
			return -1;
		}
		if (!imp)
			imp = probe_json_all(root);
		if (!imp) {
			if (!quiet_unknown) {
				known_formats(names, sizeof(names));
				imp_error(c, 0, "JSON of an unknown kind (known formats: %s; see --format)",
					  names);
			}
			r = quiet_unknown ? 1 : -1;
		} else {
			if (nans)
				imp_warn(c, 0, "%d NaN/infinity value%s read as n/a",
					 nans, nans > 1 ? "s" : "");
			r = imp->parse_json(c, root);
		}
		jr_delete(root);
		free(clean);
		return r;
#else
		(void)names;
		/* "[root@host ~]# ..." is text */
		r = parse_pasted(c, buf, len, imp, true, true);
		if (r <= 0)
			return r;
		if (quiet_unknown && !imp)
			return 1;
		imp_error(c, 0, "JSON input needs cJSON, which is not built into this rtlat (install pkg-config and libcjson-dev, or run make deps, then rebuild: make clean all)");
		return -1;
#endif
	}
	if (imp && imp->json) {
		imp_error(c, 0, "not JSON, but --format %s reads JSON", imp->name);
		return -1;
	}
	return parse_pasted(c, buf, len, imp, quiet_unknown, false);
}

/* Does a thread of @r have figures (a summary-only source without sample
 * counts has them per thread only)? */
static bool run_thread_stats(const struct rep_run *r)
{
	size_t i;

	for (i = 0; i < r->nthr; i++)
		if (r->thr[i].has_stats)
			return true;
	return false;
}

/* The percentiles of @s lie between its min and max (a histogram's
 * estimate may pass them by its bucket: 2 % and 1 us allowed): else
 * refused (the breaker's trial: a p99.9 ten times
 * the max gated as "cannot tell", then pass). */
static int check_pct(struct imp_ctx *c, const struct rep_run *r,
		     const struct rep_series *s, const char *what)
{
	int64_t slack = (s->max > 0 ? s->max / 50 : 0) + 1000;
	int i;

	for (i = 0; i < RTLAT_NPCT; i++) {
		if (!s->has_pct[i])
			continue;
		if (s->pct[i] > s->max + slack ||
		    (!s->pct_bound[i] && s->pct[i] < s->min - slack)) {
			imp_error(c, r->line, "%s: a percentile (%lld ns) outside min %lld .. max %lld ns: no tool prints that",
				  what, (long long)s->pct[i], (long long)s->min,
				  (long long)s->max);
			return -1;
		}
	}
	return 0;
}

/* The check of one series every importer's runs pass (what each read
 * is checked as it reads it, imp_figure()): figures no tool prints. */
static int check_series(struct imp_ctx *c, const struct rep_run *r,
			const struct rep_series *s, const char *what)
{
	if (s->has_stats && (!isfinite(s->avg) ||
			     imp_check_stats(c, r->line, what, s->min, s->avg,
					     s->max)))
		goto bad;
	if (s->has_stddev && (!isfinite(s->stddev) || s->stddev < 0))
		goto bad;
	if (s->has_stats && check_pct(c, r, s, what))
		return -1;
	if ((s->has_samples && s->samples > (uint64_t)REP_MAX_VALUE) ||
	    (s->has_misses && s->misses > (uint64_t)REP_MAX_VALUE))
		goto bad;
	return 0;
bad:
	if (!c->errors)
		imp_error(c, r->line, "%s: a figure no tool prints (NaN, infinity, a negative deviation or a count above 2^53)",
			  what);
	return -1;
}

static int check_run(struct imp_ctx *c, const struct rep_run *r)
{
	char w[48];
	size_t i;

	if (check_series(c, r, &r->sum, "the run"))
		return -1;
	for (i = 0; i < r->nthr; i++) {
		snprintf(w, sizeof(w), "thread %d", r->thr[i].id);
		if (check_series(c, r, &r->thr[i], w))
			return -1;
	}
	return 0;
}

/* Check what an importer produced; fill defaults and overrides. */
static int finish_runs(struct imp_ctx *c, const char *default_label)
{
	char *stem = stem_of(c->path);
	bool *unlabelled = xcalloc(c->runs.n + 1, sizeof(*unlabelled));
	size_t i, j;

	if (c->skipped > IMP_MAX_LINE_WARN && !c->o->quiet)
		log_warn("%s: %d more lines skipped", c->path,
			 c->skipped - IMP_MAX_LINE_WARN);
	for (i = 0; i < c->runs.n; i++)
		unlabelled[i] = !c->runs.v[i]->label;
	for (i = 0; i < c->runs.n; i++) {
		struct rep_run *r = c->runs.v[i];

		run_finish(r);
		if (!r->test)
			r->test = xstrdup("latency");
		imp_legacy_no_misses(r);
		if (!r->series)
			r->series = xstrdup("latency");
		/* who the run is, before overrides and a label from the file
		 * name change what it is called */
		run_identity(r, r->label, r->ident);
		if (c->o->label)
			str_set(&r->label, c->o->label);
		if (c->o->load)
			str_set(&r->load, c->o->load);
		if (c->o->test)
			str_set(&r->test, c->o->test);
		if (check_run(c, r)) {
			free(unlabelled);
			free(stem);
			return -1;
		}
		if (!r->sum.has_stats && !r->sum.has_samples && !r->has_ideal &&
		    !run_thread_stats(r)) {
			imp_error(c, r->line, "run without any figure (no min/avg/max, no sample count)");
			free(unlabelled);
			free(stem);
			return -1;
		}
	}
	/* a run without a label is named after the file; runs that would
	 * share a row name in one table are numbered "NAME #k" (the series
	 * of one result file are tables of their own) */
	for (i = 0; i < c->runs.n; i++) {
		struct rep_run *r = c->runs.v[i];
		const char *base = default_label ? default_label : stem;
		size_t k = 0, n = 0;

		if (!unlabelled[i] || r->label)
			continue;
		for (j = 0; j < c->runs.n; j++) {
			if (!unlabelled[j] || !same_table(r, c->runs.v[j]))
				continue;
			n++;
			if (j <= i)
				k++;
		}
		r->label = n > 1 && !default_label ?
			   xasprintf("%s #%zu", base, k) : xstrdup(base);
	}
	free(unlabelled);
	free(stem);
	return 0;
}

static int import_file_buf(const char *name, const char *buf, size_t len,
			   const struct imp_opts *o, struct rep_runs *out,
			   bool quiet_unknown, const char *default_label)
{
	struct imp_ctx c;
	int r;

	memset(&c, 0, sizeof(c));
	c.path = name;
	c.o = o;
	runs_init(&c.runs);
	if (len == 0 || !buf) {
		/* in a directory: an empty result file is a result lost */
		if (quiet_unknown && !has_suffix(name, ".json"))
			return 1;
		imp_error(&c, 0, "empty file");
		return -1;
	}
	r = parse_any(&c, buf, len, quiet_unknown);
	if (r == 0 && !c.errors && c.runs.n == 0) {
		imp_error(&c, 0, "no run found in this file");
		r = -1;
	}
	if (r == 0 && c.errors)
		r = -1;
	if (r == 0)
		r = finish_runs(&c, default_label);
	if (r != 0) {
		runs_free(&c.runs);
		return r;
	}
	runs_move(out, &c.runs);
	return 0;
}

static const char *const *load_names;

void import_set_load_names(const char *const *names)
{
	load_names = names;
}

const char *const *import_load_names(void)
{
	return load_names;
}

int import_buffer(const char *name, const char *buf, size_t len,
		  const struct imp_opts *o, struct rep_runs *out)
{
	return import_file_buf(name, buf, len, o, out, false, NULL) ? -1 : 0;
}

/* What a file of mode @m is, for messages. */
static const char *file_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISDIR(m))
		return "a directory";
	return "not a regular file";
}

/*
 * Open an input given by name: a regular file, or a FIFO or pipe
 * (/dev/stdin). The open does not block: a FIFO without a writer reads as
 * empty instead of waiting for one. Devices and sockets are refused.
 * Returns the descriptor (blocking) with its status in *@st, or -1 after
 * an error message.
 */
static int open_input(const char *path, struct stat *st)
{
	int fd, fl;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		log_error("%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, st)) {
		log_error("%s: cannot read: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode)) {
		log_error("%s: %s: rtlat reads regular files, directories and pipes",
			  path, file_kind(st->st_mode));
		close(fd);
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		log_error("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Read all of @fd (opened by open_input(), closed here). Returns a
 * malloc'ed NUL-terminated buffer or NULL after an error. */
static char *read_fd(int fd, const char *path, const struct stat *st,
		     size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (S_ISREG(st->st_mode) && (uint64_t)st->st_size > IMP_MAX_FILE) {
		log_error("%s: too large (%lld bytes; at most %u MiB are read)",
			  path, (long long)st->st_size, IMP_MAX_FILE >> 20);
		close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap >= IMP_MAX_FILE) {
				log_error("%s: too large (at most %u MiB are read)",
					  path, IMP_MAX_FILE >> 20);
				goto fail;
			}
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			log_error("%s: read error: %s", path, strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!n && S_ISFIFO(st->st_mode)) {
		log_error("%s: nothing to read: a FIFO or pipe without a writer (rtlat does not wait for one)",
			  path);
		free(buf);
		return NULL;
	}
	if (!buf)
		buf = xmalloc(1);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}


static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- walking the inputs: each file and directory once ---- */

struct seen {
	dev_t dev;
	ino_t ino;
	char *path;
};

struct walk {
	const struct imp_opts *o;
	struct rep_runs *out;
	struct seen *v;
	size_t n;
};

/* The path under which the file @st was read before, or NULL; then it is
 * recorded as read under @path. */
static const char *walk_seen(struct walk *w, const struct stat *st,
			     const char *path)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->v[i].dev == st->st_dev && w->v[i].ino == st->st_ino)
			return w->v[i].path;
	w->v = xrealloc(w->v, (w->n + 1) * sizeof(*w->v));
	w->v[w->n].dev = st->st_dev;
	w->v[w->n].ino = st->st_ino;
	w->v[w->n].path = xstrdup(path);
	w->n++;
	return NULL;
}

/*
 * Import the file @path (its status in @st). In a directory (@in_dir),
 * files no importer recognizes are skipped with a note. Returns 0 (runs
 * added, or the file was read before), 1 (skipped) or -1 (error).
 */
static int walk_file(struct walk *w, const char *path, bool in_dir,
		     const char *default_label)
{
	const char *before;
	struct stat st;
	size_t len;
	char *buf;
	int fd, r;

	fd = open_input(path, &st);
	if (fd < 0)
		return -1;
	before = walk_seen(w, &st, path);
	if (before) {
		close(fd);
		if (!w->o->quiet)
			log_note("%s: skipped (the same file as %s, read before)",
				 path, before);
		return 0;
	}
	buf = read_fd(fd, path, &st, &len);
	if (!buf)
		return -1;
	r = import_file_buf(path, buf, len, w->o, w->out, in_dir,
			    default_label);
	free(buf);
	if (r > 0 && !w->o->quiet)
		log_note("%s: skipped (not a format rtlat reads)", path);
	return r;
}

static int walk_dir(struct walk *w, const char *path, bool top);

/* "@dir/@name", without doubling a slash @dir ends with ("base2/"). */
static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/",
			 name);
}

#ifdef HAVE_CJSON
/* Read a whole file. Returns a malloc'ed buffer or NULL after an error. */
static char *read_file(const char *path, size_t *len)
{
	struct stat st;
	int fd = open_input(path, &st);

	return fd < 0 ? NULL : read_fd(fd, path, &st, len);
}

/* A plain name of a file in the suite directory (no '/', not "..").*/
static bool plain_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") != 0 &&
	       strcmp(s, "..") != 0;
}

/*
 * A suite directory (docs/suite.md): its runs are the result files that
 * suite.json lists, each imported once; the suite's label is the default
 * label, the load of its run entry the default load. Nothing else in the
 * directory is read (report.txt and the logs repeat the same runs).
 * Returns 0, -1 on error, or 1 when suite.json is no suite index (then
 * *@label is its "label", if any, for a plain directory read).
 */
static int walk_suite(struct walk *w, const char *dir, const char *index,
		      char **label)
{
	const cJSON *runs, *e, *l, *schema;
	size_t len, found = 0;
	int ret = 0, k = 0;
	cJSON *root;
	char *buf;

	*label = NULL;
	buf = read_file(index, &len);
	if (!buf)
		return -1;
	root = cJSON_Parse(buf);
	free(buf);
	if (!root || !cJSON_IsObject(root)) {
		log_error("%s: not a suite index rtlat can read (invalid JSON or not an object)",
			  index);
		cJSON_Delete(root);
		return -1;
	}
	l = cJSON_GetObjectItemCaseSensitive(root, "label");
	if (cJSON_IsString(l) && l->valuestring[0])
		*label = xstrdup(l->valuestring);
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
	if (!cJSON_IsString(schema) ||
	    strcmp(schema->valuestring, "rtlat-suite") != 0) {
		cJSON_Delete(root);
		return 1;
	}
	if (!cJSON_IsArray(runs)) {
		log_error("%s: suite index without a 'runs' array", index);
		cJSON_Delete(root);
		return -1;
	}
	cJSON_ArrayForEach(e, runs) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "file");
		const cJSON *ix = cJSON_GetObjectItemCaseSensitive(e, "index");
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "status");
		const cJSON *ld = cJSON_GetObjectItemCaseSensitive(e, "load");
		const cJSON *ran = cJSON_GetObjectItemCaseSensitive(e, "ran");
		const char *status = cJSON_IsString(st) ? st->valuestring : "?";
		const char *load = cJSON_IsString(ld) ? ld->valuestring : NULL;
		struct rep_runs mine;
		struct walk sub;
		int idx = cJSON_IsNumber(ix) && ix->valuedouble >= 0 &&
			  ix->valuedouble < 1e6 ? (int)ix->valuedouble : k + 1;
		char *p;
		size_t i;
		int r;

		k++;
		if (!cJSON_IsObject(e)) {
			log_error("%s: runs[%d] is not an object", index, k - 1);
			ret = -1;
			continue;
		}
		if (cJSON_IsFalse(ran) || !cJSON_IsString(f)) {
			if (!w->o->quiet)
				log_note("%s: run %d has no result file (%s)", dir,
					 idx, cJSON_IsFalse(ran) ? "not run" : status);
			continue;
		}
		if (!plain_name(f->valuestring)) {
			log_error("%s: run %d: 'file' must name a file in the suite directory, not '%s'",
				  index, idx, f->valuestring);
			ret = -1;
			continue;
		}
		p = path_join(dir, f->valuestring);
		if (access(p, F_OK)) {
			/* a run that failed early may leave no result file */
			if (strcmp(status, "complete") != 0) {
				if (!w->o->quiet)
					log_note("%s: run %d (%s) left no result file",
						 p, idx, status);
			} else {
				log_error("%s: missing: %s lists it as the result of run %d",
					  p, index, idx);
				ret = -1;
			}
			free(p);
			continue;
		}
		runs_init(&mine);
		sub = *w;
		sub.out = &mine;
		r = walk_file(&sub, p, false, *label);
		w->v = sub.v;
		w->n = sub.n;
		if (r)
			ret = -1;
		else
			found++;
		for (i = 0; i < mine.n; i++)
			if (!mine.v[i]->load && load && *load)
				mine.v[i]->load = xstrdup(load);
		runs_move(w->out, &mine);
		free(p);
	}
	cJSON_Delete(root);
	if (!found && !ret) {
		log_error("%s: a suite without any result file", dir);
		ret = -1;
	}
	return ret;
}
#endif

/* Directory @path: a suite directory, or every file in it and below. */
static int walk_dir(struct walk *w, const char *path, bool top)
{
	char **names = NULL, *label = NULL, *index;
	size_t n = 0, i, found = 0;
	const char *before;
	struct dirent *de;
	struct stat st;
	int ret = 0;
	DIR *d;

	if (stat(path, &st)) {
		log_error("%s: %s", path, strerror(errno));
		return -1;
	}
	before = walk_seen(w, &st, path);
	if (before) {
		/* a link back to a directory being read, or read before */
		if (!w->o->quiet)
			log_note("%s: skipped (the same directory as %s, read before or being read)",
				 path, before);
		return 0;
	}
	index = xasprintf("%s/suite.json", path);
	if (!access(index, F_OK)) {
#ifdef HAVE_CJSON
		int r = walk_suite(w, path, index, &label);

		if (r <= 0) {
			free(index);
			free(label);
			return r;
		}
#else
		log_error("%s: a suite directory: its result files are JSON, which needs cJSON (not built into this rtlat)",
			  path);
		free(index);
		return -1;
#endif
	}
	free(index);
	d = opendir(path);
	if (!d) {
		log_error("%s: cannot open directory: %s", path, strerror(errno));
		free(label);
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		char *p = path_join(path, names[i]);
		int r;

		if (stat(p, &st)) {
			/* a dangling symbolic link, a file gone, no permission */
			int e = errno;

			if (e == ENOENT && !lstat(p, &st) && S_ISLNK(st.st_mode))
				log_error("%s: cannot read: a symbolic link to a file that does not exist",
					  p);
			else
				log_error("%s: cannot read: %s", p, strerror(e));
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			size_t had = w->out->n;

			if (walk_dir(w, p, false))
				ret = -1;
			found += w->out->n - had;
		} else if (!strcmp(names[i], "suite.json")) {
			/* a suite index that is no suite: its label only */
		} else if (!S_ISREG(st.st_mode)) {
			if (!w->o->quiet)
				log_note("%s: skipped (%s, not a regular file)", p,
					 file_kind(st.st_mode));
		} else {
			r = walk_file(w, p, true, label);
			if (r < 0)
				ret = -1;
			else if (r == 0)
				found++;
		}
		free(p);
		free(names[i]);
	}
	free(names);
	free(label);
	if (!found && !ret && top) {
		log_error("%s: no result or log file found in this directory", path);
		ret = -1;
	}
	return ret;
}

int import_paths(char *const *paths, int n, const struct imp_opts *o,
		 struct rep_runs *out)
{
	struct walk w = { .o = o, .out = out };
	size_t i;
	int k, ret = 0;

	for (k = 0; k < n; k++) {
		const char *path = paths[k], *base = strrchr(path, '/');
		struct stat st;
		int r;

		if (stat(path, &st)) {
			char shown[1024];	/* a URL given as a path */

			log_error("%s: %s",
				  url_redact(path, path, shown, sizeof(shown)),
				  strerror(errno));
			ret = -1;
			continue;
		}
		base = base ? base + 1 : path;
		if (S_ISDIR(st.st_mode)) {
			r = walk_dir(&w, path, true);
#ifdef HAVE_CJSON
		} else if (!strcmp(base, "suite.json") && S_ISREG(st.st_mode)) {
			/* a suite index stands for its suite directory */
			char *dir = base == path ? xstrdup(".") :
				    base == path + 1 ? xstrdup("/") :
				    xasprintf("%.*s", (int)(base - path - 1), path);
			char *label = NULL;

			r = walk_suite(&w, dir, path, &label);
			if (r > 0)
				r = walk_file(&w, path, false, NULL);
			free(label);
			free(dir);
#endif
		} else {
			r = walk_file(&w, path, false, NULL);
		}
		if (r)
			ret = -1;
	}
	for (i = 0; i < w.n; i++)
		free(w.v[i].path);
	free(w.v);
	return ret;
}

int import_path(const char *path, const struct imp_opts *o,
		struct rep_runs *out)
{
	char *p = (char *)path;

	return import_paths(&p, 1, o, out);
}
