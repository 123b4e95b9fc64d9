// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "What changed in the system": the differences between the systems of
 * the two sides of a comparison that matter to latency (docs/report.md).
 * Read from what the model keeps of a result: rep_run.system (an rtlat
 * result's "system" object as "key: value; ..." of its string members),
 * rep_run.check (the rtlat check's warnings and bads), kernel, load, tool.
 */
#include <stdlib.h>
#include <string.h>

#include "report/render/sysdiff.h"

#define NONE "(none)"

static char *dupn(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Kernel command line parameters that matter to latency */
static const char *const params[] = {
	"isolcpus", "nohz_full", "rcu_nocbs", "rcu_nocb_poll", "irqaffinity",
	"idle", "processor.max_cstate", "intel_idle.max_cstate",
	"intel_pstate", "threadirqs", "nosmt", "nosoftlockup", "skew_tick",
	"tsc", "clocksource", "nohz", "kthread_cpus", "housekeeping",
	"mitigations", "preempt", "rcupdate.rcu_normal_after_boot", NULL,
};

/* check ids whose found text is the system's setting (not a measurement):
 * a change of it is said even when the verdict is the same */
static const char *const setting_checks[] = {
	"rt_throttling", "cpufreq", "cpuidle", "smt", "preempt",
	"clocksource", "isolation", NULL,
};

/* Value of @key in @sys ("k: v; k: v"), malloc'd, or NULL. */
static char *sys_get(const char *sys, const char *key)
{
	size_t kl = strlen(key);
	const char *p = sys, *e;

	while (p && *p) {
		if (!strncmp(p, key, kl) && !strncmp(p + kl, ": ", 2)) {
			p += kl + 2;
			e = strstr(p, "; ");
			return e ? dupn(p, (size_t)(e - p)) : xstrdup(p);
		}
		p = strstr(p, "; ");
		if (p)
			p += 2;
	}
	return NULL;
}

/* Parameter @name of the kernel command line @cl (up to a "--": the
 * init's), malloc'd: its value, "yes" for a bare flag, or NULL. */
static char *cmdline_get(const char *cl, const char *name)
{
	size_t nl = strlen(name);
	const char *p = cl;

	while (p && *p) {
		size_t tl;

		p += strspn(p, " ");
		tl = strcspn(p, " ");
		if (tl == 2 && !strncmp(p, "--", 2))
			break;
		if (tl >= nl && !strncmp(p, name, nl)) {
			if (tl == nl)
				return xstrdup("yes");
			if (p[nl] == '=')
				return dupn(p + nl + 1, tl - nl - 1);
		}
		p += tl;
	}
	return NULL;
}

static size_t line(FILE *f, const char *prefix, const char *name,
		   const char *a, const char *b)
{
	if ((!a && !b) || (a && b && !strcmp(a, b)))
		return 0;
	fprintf(f, "%s%s: %s -> %s\n", prefix, name,
		a && *a ? a : NONE, b && *b ? b : NONE);
	return 1;
}

/* Say the difference of system key @key under @name. */
static size_t sys_line(FILE *f, const char *prefix, const char *name,
		       const char *sa, const char *sb, const char *key)
{
	char *a = sa ? sys_get(sa, key) : NULL, *b = sb ? sys_get(sb, key) : NULL;
	size_t n;

	/* "" and not told are the same: nothing set */
	n = line(f, prefix, name, a && *a ? a : NULL, b && *b ? b : NULL);
	free(a);
	free(b);
	return n;
}

/* Finding @id of @chk: its verdict and found text (malloc'd), or false. */
static bool check_get(const char *chk, const char *id, char **verdict,
		      char **found)
{
	const char *pos = chk;
	struct check_line l;

	*verdict = *found = NULL;
	if (!chk)
		return false;
	while (check_next(chk, &pos, &l)) {
		if (!l.id || (size_t)l.id_len != strlen(id) ||
		    strncmp(l.id, id, (size_t)l.id_len) != 0)
			continue;
		*verdict = dupn(l.verdict, (size_t)l.verdict_len);
		*found = dupn(l.text, (size_t)l.text_len);
		return true;
	}
	return false;
}

static bool is_setting(const char *id)
{
	int i;

	for (i = 0; setting_checks[i]; i++)
		if (!strcmp(setting_checks[i], id))
			return true;
	return false;
}

/* One line per check finding whose verdict differs (a setting's: or its
 * text); an id said once. */
static size_t check_lines(FILE *f, const char *prefix, const char *ca,
			  const char *cb)
{
	const char *sides[2] = { ca, cb }, *pos;
	char **seen = NULL;
	size_t nseen = 0, n = 0, i;
	struct check_line l;
	int s;

	for (s = 0; s < 2; s++) {
		if (!sides[s])
			continue;
		pos = sides[s];
		while (check_next(sides[s], &pos, &l)) {
			char *id, *va, *fa, *vb, *fb, *ta, *tb, name[96];
			bool dup = false;

			if (!l.id)
				continue;
			id = dupn(l.id, (size_t)l.id_len);
			for (i = 0; i < nseen && !dup; i++)
				dup = !strcmp(seen[i], id);
			if (dup) {
				free(id);
				continue;
			}
			seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
			seen[nseen++] = id;
			check_get(ca, id, &va, &fa);
			check_get(cb, id, &vb, &fb);
			if (!ca || !cb) {
				/* one side has no check at all: nothing to
				 * tell apart */
			} else if (!va || !vb || strcmp(va, vb) != 0 ||
				   (is_setting(id) && strcmp(fa, fb) != 0)) {
				ta = va ? xasprintf("%s (%s)", va, fa) :
					  xstrdup("ok or n/a");
				tb = vb ? xasprintf("%s (%s)", vb, fb) :
					  xstrdup("ok or n/a");
				snprintf(name, sizeof(name), "check %s", id);
				n += line(f, prefix, name, ta, tb);
				free(ta);
				free(tb);
			}
			free(va);
			free(fa);
			free(vb);
			free(fb);
		}
	}
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	return n;
}

static const struct rep_run *first_described(const struct rep_runs *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		if (rs->v[i]->system || rs->v[i]->check)
			return rs->v[i];
	return rs->n ? rs->v[0] : NULL;
}

size_t sysdiff_print(FILE *f, const struct rep_runs *a,
		     const struct rep_runs *b, const char *prefix)
{
	const struct rep_run *ra = first_described(a), *rb = first_described(b);
	const char *sa, *sb;
	char *cla, *clb;
	size_t n = 0;
	int i;

	if (!ra || !rb)
		return 0;
	sa = ra->system;
	sb = rb->system;
	n += line(f, prefix, "kernel", ra->kernel, rb->kernel);
	if (sa && sb) {
		char *fa = sys_get(sa, "rt_flavour"), *fb = sys_get(sb, "rt_flavour");

		if (fa || fb)
			n += line(f, prefix, "preemption", fa, fb);
		else
			n += sys_line(f, prefix, "preemption", sa, sb, "preempt");
		free(fa);
		free(fb);
		cla = sys_get(sa, "cmdline");
		clb = sys_get(sb, "cmdline");
		if (cla && clb) {
			for (i = 0; params[i]; i++) {
				char *va = cmdline_get(cla, params[i]);
				char *vb = cmdline_get(clb, params[i]);
				char name[64];

				snprintf(name, sizeof(name), "cmdline %s",
					 params[i]);
				n += line(f, prefix, name, va, vb);
				free(va);
				free(vb);
			}
		}
		free(cla);
		free(clb);
		n += sys_line(f, prefix, "clocksource", sa, sb, "clocksource");
		n += sys_line(f, prefix, "cpufreq governor", sa, sb,
			      "cpufreq_governor");
		n += sys_line(f, prefix, "isolated CPUs", sa, sb,
			      "isolated_cpus");
	}
	n += check_lines(f, prefix, ra->check, rb->check);
	if (ra->load && rb->load)
		n += line(f, prefix, "load", ra->load, rb->load);
	if (ra->tool && rb->tool && !strncmp(ra->tool, "rtlat", 5) &&
	    !strncmp(rb->tool, "rtlat", 5))
		n += line(f, prefix, "rtlat", ra->tool, rb->tool);
	return n;
}
