// SPDX-License-Identifier: GPL-2.0-or-later
/* A test's declared figures and "==" lines; see figures.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/outfile.h"
#include "util/timeutil.h"
#include "output/figures.h"

void figures_collect(struct run *r, struct test_figs *f)
{
	if (r->test->figures)
		r->test->figures(r, f);
	f->open = -1;		/* the lists still open end here */
}

static void fig_json_value(const struct run *r, const struct test_param *p,
			   const char *key, struct jw *w)
{
	switch (p->kind) {
	case FIG_STRING:
		jw_str(w, key, p->value);
		break;
	case FIG_BOOL:
		jw_bool(w, key, !strcmp(p->value, "true"));
		break;
	case FIG_NULL:
		jw_null(w, key);
		break;
	case FIG_JSON:
		p->json(r, w, key, p->ctx);
		break;
	case FIG_AUTO:
	default:
		jw_number_text(w, key, p->value);
		break;
	}
}

/* Components of dotted @name before its last one (the objects it is in). */
static int fig_depth(const char *name)
{
	int d = 0;

	for (; *name; name++)
		d += *name == '.';
	return d;
}

/* Length of the first @k components of @name ("a.b.c", 2: 3). */
static size_t fig_prefix(const char *name, int k)
{
	const char *s = name;

	for (; k > 0; k--) {
		s = strchr(s, '.');
		if (!s)
			return strlen(name);
		s++;
	}
	return (size_t)(s - name) - (s > name);
}

static int write_members(const struct run *r, const struct test_figs *f,
			 int i, struct jw *w);

/* The member @i of @f and what is in it; returns the next index. */
static int write_one(const struct run *r, const struct test_figs *f, int i,
		     const char *key, struct jw *w)
{
	const struct test_param *p = &f->p[i];

	if (p->kind == FIG_LIST) {
		if (p->one_line)
			jw_arr_begin_inline(w, key);
		else
			jw_arr_begin(w, key);
		i = write_members(r, f, i, w);
		jw_arr_end(w);
		return i;
	}
	if (p->kind == FIG_ITEM) {
		jw_obj_begin(w, NULL);
		i = write_members(r, f, i, w);
		jw_obj_end(w);
		return i;
	}
	fig_json_value(r, p, key, w);
	return i + 1;
}

/* The members of the container @c (-1: test_data) from @c + 1 on: a run
 * of figures "OBJ.KEY" is the members KEY of one object OBJ (nested for
 * "OBJ.SUB.KEY"). Returns the index after them. */
static int write_members(const struct run *r, const struct test_figs *f,
			 int c, struct jw *w)
{
	const char *open = NULL;	/* name of the figure whose objects
					 * are open */
	int depth = 0, i = c + 1;

	while (i < f->n && f->p[i].parent == c) {
		const struct test_param *p = &f->p[i];
		int d = fig_depth(p->name), k = 0;
		size_t n;

		if (p->said) {	/* and what is in it */
			for (i++; i < f->n && f->p[i].parent > c; i++)
				;
			continue;
		}
		/* the objects the open ones and this one share */
		while (open && k < depth && k < d &&
		       (n = fig_prefix(p->name, k + 1)) ==
		       fig_prefix(open, k + 1) && !strncmp(p->name, open, n))
			k++;
		for (; depth > k; depth--)
			jw_obj_end(w);
		for (; depth < d; depth++) {
			char obj[sizeof(p->name)];
			size_t a = depth ? fig_prefix(p->name, depth) + 1 : 0;

			n = fig_prefix(p->name, depth + 1);
			snprintf(obj, sizeof(obj), "%.*s", (int)(n - a),
				 p->name + a);
			jw_obj_begin(w, obj);
		}
		open = p->name;
		i = write_one(r, f, i, p->name[0] ?
			      p->name + fig_prefix(p->name, d) + (d > 0) : NULL,
			      w);
	}
	for (; depth > 0; depth--)
		jw_obj_end(w);
	return i;
}

void figures_json(const struct run *r, const struct test_figs *f,
		  struct jw *w)
{
	write_members(r, f, -1, w);
}

void figures_headline(const struct test_figs *f, FILE *out)
{
	char key[64];	/* "param." and a name */
	int i;

	for (i = 0; i < f->n; i++) {
		const struct test_param *p = &f->p[i];

		if (!p->headline || p->parent >= 0 || p->kind == FIG_NULL ||
		    p->kind >= FIG_LIST || !p->name[0] ||
		    strpbrk(p->name, " \t\r\n"))
			continue;	/* not the run's, not known, not a key */
		snprintf(key, sizeof(key), "param.%s", p->name);
		headline_put(out, key, p->value);
	}
}

/* The figure @name (@n bytes) of item @row, else of the run, or NULL. */
static const struct test_param *fig_find(const struct test_figs *f, int row,
					 const char *name, size_t n)
{
	const struct test_param *run = NULL;
	int i;

	for (i = 0; i < f->n; i++) {
		const struct test_param *p = &f->p[i];

		if (strlen(p->name) != n || strncmp(p->name, name, n) != 0)
			continue;
		if (row >= 0 && p->parent == row)
			return p;
		if (p->parent < 0 && !run)
			run = p;
	}
	return run;
}

int figures_item(const struct test_figs *f, const char *list, int k)
{
	const struct test_param *l = fig_find(f, -1, list, strlen(list));
	int i, at;

	if (!l || l->kind != FIG_LIST || !f->p)
		return -1;
	at = (int)(l - f->p);
	for (i = at + 1; i < f->n; i++)
		if (f->p[i].parent == at && f->p[i].kind == FIG_ITEM && !k--)
			return i;
	return -1;
}

static bool fig_known(const struct test_param *p)
{
	return p && p->kind != FIG_NULL && strcmp(p->value, "false") != 0;
}

/* [?COND:...]: COND is NAME (known and not false) or NAME=VALUE. */
static bool fig_cond(const struct test_figs *f, int row, const char *c,
		     size_t n)
{
	const char *eq = memchr(c, '=', n);
	const struct test_param *p;
	size_t vn;

	if (!eq)
		return fig_known(fig_find(f, row, c, n));
	p = fig_find(f, row, c, (size_t)(eq - c));
	vn = n - (size_t)(eq + 1 - c);
	return fig_known(p) && p->kind < FIG_LIST &&
	       strlen(p->value) == vn && !strncmp(p->value, eq + 1, vn);
}

static bool ends_with(const char *s, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n >= t && !strncmp(s + n - t, tail, t);
}

struct out {
	char *buf;
	size_t len, n;
};

static void put(struct out *o, const char *s, size_t n)
{
	size_t room = o->n + 1 < o->len ? o->len - o->n - 1 : 0;

	if (n > room)
		n = room;
	memcpy(o->buf + o->n, s, n);
	o->n += n;
	o->buf[o->n] = '\0';
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* How a sentence says figure @p (of @f): a list its values, ", " between
 * them. */
static void fig_say(struct out *o, const struct test_figs *f,
		    const struct test_param *p)
{
	char b[32], *end;
	long long v;
	int i, at;

	if (p && p->text) {
		puts_(o, p->text);
		return;
	}
	if (p && f->p && p->kind == FIG_LIST) {	/* its members: after it */
		at = (int)(p - f->p);
		for (i = at + 1; i < f->n && f->p[i].parent >= at; i++)
			if (f->p[i].parent == at) {
				puts_(o, i > at + 1 ? ", " : "");
				fig_say(o, f, &f->p[i]);
			}
		return;
	}
	if (!p || p->kind == FIG_NULL || p->kind > FIG_LIST) {
		puts_(o, "n/a");
		return;
	}
	if (ends_with(p->name, strlen(p->name), "_ns")) {
		v = strtoll(p->value, &end, 10);
		if (end != p->value && !*end) {
			puts_(o, fmt_us3(b, v));
			return;
		}
	}
	puts_(o, p->value);
}

/* Series @name (@n bytes) of @r, or NULL. */
static const struct series_name *series_find(const struct run *r,
					     const char *name, size_t n)
{
	int i;

	for (i = 0; i < r->nnames; i++)
		if (strlen(r->names[i].desc->name) == n &&
		    !strncmp(r->names[i].desc->name, name, n))
			return &r->names[i];
	return NULL;
}

/* "min X us (+P %), avg ..., max ..." of @a against @ref_ns (> 0), else
 * "(n/a)" for the percentages; "n/a" without samples. */
static void say_rel(struct out *o, const struct accum *a, int64_t ref_ns)
{
	static const char *const what[] = { "min", "avg", "max" };
	char u[32], p[32], b[128];
	int64_t v[3];
	double mean;
	int i;

	if (!a || !a->st.n) {
		puts_(o, "n/a");
		return;
	}
	stats_mean(&a->st, &mean);
	v[0] = a->st.min;
	v[1] = (int64_t)(mean < 0 ? mean - 0.5 : mean + 0.5);
	v[2] = a->st.max;
	for (i = 0; i < 3; i++) {
		snprintf(b, sizeof(b), "%s%s %s us (%s)", i ? ", " : "", what[i],
			 fmt_us3(u, v[i]), ref_ns > 0 ?
			 fmt_pct_ppm(p, ppm_of(v[i], ref_ns)) : "n/a");
		puts_(o, b);
	}
}

/* {TOKEN} of @tok (@n bytes). */
static void say_token(struct out *o, const struct run *r,
		      const struct test_figs *f, int row, const char *tok,
		      size_t n)
{
	const struct series_name *nm;
	const struct test_param *p;
	const char *dot;
	char b[32];
	long long sum = 0;
	int i;

	if (n > 7 && !strncmp(tok, "series.", 7)) {
		tok += 7;
		n -= 7;
		dot = memchr(tok, '.', n);
		nm = dot ? series_find(r, tok, (size_t)(dot - tok)) : NULL;
		if (!nm) {
			puts_(o, "n/a");
			return;
		}
		n -= (size_t)(dot + 1 - tok);
		tok = dot + 1;
		if (n == 7 && !strncmp(tok, "samples", 7)) {
			snprintf(b, sizeof(b), "%llu",
				 (unsigned long long)nm->agg.st.n);
		} else if (n == 6 && !strncmp(tok, "misses", 6)) {
			snprintf(b, sizeof(b), "%llu",
				 (unsigned long long)nm->agg.overruns);
		} else if (n > 4 && !strncmp(tok, "rel:", 4)) {
			p = fig_find(f, row, tok + 4, n - 4);
			say_rel(o, &nm->agg, fig_known(p) ?
				strtoll(p->value, NULL, 10) : 0);
			return;
		} else {
			snprintf(b, sizeof(b), "n/a");
		}
		puts_(o, b);
		return;
	}
	if (n > 4 && !strncmp(tok, "sum.", 4)) {
		for (i = 0; i < f->n; i++)
			if (f->p[i].parent >= 0 &&
			    f->p[f->p[i].parent].kind == FIG_ITEM &&
			    strlen(f->p[i].name) == n - 4 &&
			    !strncmp(f->p[i].name, tok + 4, n - 4) &&
			    f->p[i].kind != FIG_NULL)
				sum += strtoll(f->p[i].value, NULL, 10);
		snprintf(b, sizeof(b), "%lld", sum);	/* of none: 0 */
		puts_(o, b);
		return;
	}
	fig_say(o, f, fig_find(f, row, tok, n));
}

static void render(struct out *o, const struct run *r,
		   const struct test_figs *f, int row, const char *s,
		   const char *end)
{
	const char *q, *name;
	int depth;
	bool want;

	while (s < end) {
		if (*s == '{') {
			q = memchr(s, '}', (size_t)(end - s));
			if (!q)
				break;
			say_token(o, r, f, row, s + 1, (size_t)(q - s - 1));
			s = q + 1;
		} else if (*s == '[' && s + 1 < end &&
			   (s[1] == '?' || s[1] == '!')) {
			want = s[1] == '?';
			name = s + 2;
			q = memchr(name, ':', (size_t)(end - name));
			if (!q)
				break;
			/* the matching ']' */
			depth = 1;
			s = q + 1;
			for (q = s; q < end; q++) {
				if (*q == '[')
					depth++;
				else if (*q == ']' && !--depth)
					break;
			}
			if (fig_cond(f, row, name, (size_t)(s - 1 - name)) ==
			    want)
				render(o, r, f, row, s, q);
			s = q < end ? q + 1 : end;
		} else {
			put(o, s, 1);
			s++;
		}
	}
}

void figures_render(const struct run *r, const struct test_figs *f, int row,
		    const char *text, char *out, size_t len)
{
	struct out o = { out, len, 0 };

	if (len)
		out[0] = '\0';
	render(&o, r, f, row, text, text + strlen(text));
}

/* "== " and each line of @text that says something. */
static void say_lines(const char *text)
{
	const char *nl;
	int n;

	for (; *text; text = nl + !!*nl) {
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text);
		n = (int)(nl - text);
		if (n)
			printf("== %.*s\n", n, text);
	}
}

void figures_lines(struct run *r, enum test_line_at at)
{
	struct test_figs f = TEST_FIGS_INIT;
	const struct test_line *l;
	char line[2048];
	bool any = false;
	int k, row;

	if (!r->test->lines || (at != LINE_SUMMARY && r->o->quiet))
		return;
	for (l = r->test->lines; l->text; l++)
		any |= l->at == at;
	if (!any)
		return;
	figures_collect(r, &f);
	for (l = r->test->lines; l->text; l++) {
		if (l->at != at)
			continue;
		for (k = 0;; k++) {
			row = l->each ? figures_item(&f, l->each, k) : -1;
			if (l->each && row < 0)
				break;
			figures_render(r, &f, row, l->text, line, sizeof(line));
			say_lines(line);
			if (!l->each)
				break;
		}
	}
	figs_free(&f);
	if (at != LINE_SUMMARY)
		stdout_flush();
}
