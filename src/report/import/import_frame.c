// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The framing of pasted text, removed before the importers see it (see
 * import.h, frame_clean()): what a terminal, a mail client, a LAVA log or
 * a shell adds around a tool's output.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/import/import.h"

/* Tools whose command line, after a root prompt "# ", starts a run. */
static const char *const frame_tools[] = {
	"cyclictest", "oslat", "latency", "rtla", "jitterdebugger",
	"stress-ng", "ptsematest", "pmqtest", "sigwaittest", "svsematest",
	"cyclicdeadline", "signaltest", "hackbench", "sudo", "taskset",
	"chrt", "numactl", "timerlat", "cgexec", "klatency", "switchtest",
	NULL,
};

/* Is the first word of @s (a path's last part, "./x" too) one of
 * frame_tools[]? */
bool frame_is_tool(const char *s)
{
	const char *e = s, *b;
	size_t n;
	int i;

	while (*e && !isspace((unsigned char)*e))
		e++;
	for (b = e; b > s && b[-1] != '/'; b--)
		;
	n = (size_t)(e - b);
	for (i = 0; frame_tools[i]; i++)
		if (strlen(frame_tools[i]) == n && !strncmp(b, frame_tools[i], n))
			return true;
	return false;
}

static bool host_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '-' || ch == '_' ||
	       ch == '.';
}

/*
 * The command after a shell prompt at the start of @s, or NULL:
 * "[root@localhost ~]# cmd", "user@host:~/dir$ cmd", "root@host ~ # cmd",
 * "host:~# cmd", "/ # cmd" (busybox), "sh-5.1# cmd", "~# cmd", "$ cmd".
 * A bare "# " is a prompt only before a known tool (frame_is_tool()): it
 * is how tools write comments too.
 */
static const char *prompt_command(const char *s)
{
	const char *p = s;

	if (*p == '(') {	/* "(venv) $ " */
		const char *e = strchr(p, ')');

		if (!e || e - p > 40)
			return NULL;
		p = skip_blank(e + 1);
	}
	if ((p[0] == '$' || p[0] == '#') && p[1] == ' ') {
		const char *cmd = skip_blank(p + 2);

		if (!*cmd)
			return NULL;
		if (p[0] == '$' || frame_is_tool(cmd))
			return cmd;
		return NULL;
	}
	if (*p == '[') {
		const char *e = strchr(p, ']');

		if (!e || e - p > 80 || !memchr(p, '@', (size_t)(e - p)))
			return NULL;
		p = e + 1;
	} else if (*p == '/' || *p == '~') {
		/* "/ # ", "~ # ", "~# ", "/root # " */
		while (*p && !isspace((unsigned char)*p) && *p != '#' &&
		       *p != '$')
			p++;
		p = skip_blank(p);
	} else {
		const char *h = p;
		bool at;

		while (host_char(*p) || *p == '@')
			p++;
		if (p == h || p - h > 64)
			return NULL;
		at = memchr(h, '@', (size_t)(p - h));
		if (*p == ':') {
			/* "user@host:~/dir# ", "host:~# " */
			p++;
			while (*p && !isspace((unsigned char)*p) && *p != '#' &&
			       *p != '$')
				p++;
		} else if (*p == ' ' && at) {
			/* "root@host ~ # " (Gentoo) */
			p = skip_blank(p);
			while (*p && !isspace((unsigned char)*p) && *p != '#' &&
			       *p != '$')
				p++;
			p = skip_blank(p);
		} else if (!at && !memmem(h, (size_t)(p - h), "sh-", 3)) {
			/* only "sh-4.2# ", "bash-5.1$ " have no '@' */
			return NULL;
		}
	}
	if ((*p == '#' || *p == '$') && p[1] == ' ') {
		p = skip_blank(p + 1);
		return *p ? p : NULL;
	}
	return NULL;
}

const char *frame_command(const char *line)
{
	if (line[0] == '$' && line[1] == ' ')
		return skip_blank(line + 2);
	if (line[0] == '#' && line[1] == ' ' && frame_is_tool(line + 2))
		return line + 2;
	return NULL;
}

bool frame_starts_run(const char *line)
{
	static const char *const banners[] = {
		"cyclictest V", "oslat V", "stress-ng, version ",
		"jitterdebugger ", "ptsematest V", "pmqtest V",
		"sigwaittest V", "svsematest V", "signaltest V",
	};
	size_t i, n;

	if (frame_command(line))
		return true;
	for (i = 0; i < sizeof(banners) / sizeof(banners[0]); i++)
		if (starts_with(line, banners[i]))
			return true;
	/* "cgexec -g cpu cyclictest -m -a 7", "cyclictest -p 80 -t 4"; the
	 * line may be followed by others: look at it alone */
	n = strcspn(line, "\n");
	return frame_is_tool(line) && memmem(line, n, " -", 2) &&
	       !memchr(line, '|', n) && !memchr(line, ':', n);
}

/* A line that ends with a figure's key, "Max:" or "Avg: ": its value was
 * broken onto the next line. */
static bool ends_with_key(const char *s, size_t n)
{
	while (n && s[n - 1] == ' ')
		n--;
	return n >= 3 && s[n - 1] == ':' && isalpha((unsigned char)s[n - 2]) &&
	       isalpha((unsigned char)s[n - 3]);
}

static bool starts_with_number(const char *s)
{
	s = skip_blank(s);
	if (*s == '-')
		s++;
	return isdigit((unsigned char)*s);
}

/* Is @next the rest of the line @s (@n bytes), broken by a mail client? */
static bool broken(const char *s, size_t n, const char *next)
{
	if (ends_with_key(s, n) && starts_with_number(next))
		return true;
	/* wrapped by its author with a shell continuation: "delay, \" */
	if (n >= 2 && s[n - 1] == '\\' && s[n - 2] == ' ' && *next)
		return true;
	/* a T: line without its end: "... Avg:   18" / "Max:  103" */
	return n > 2 && starts_with(s, "T:") && !memmem(s, n, "Max:", 4) &&
	       strstr(next, "Max:") && !strstr(next, "T:");
}

struct fline {
	size_t off, len;
};

/* Clean one line of @len bytes at @s into @w (room for @len + 2 bytes);
 * returns the length written. */
static size_t clean_line(const char *s, size_t len, char *w, bool lava)
{
	char *t = w, *p;
	const char *cmd;
	size_t n;
	int guard;

	memcpy(w, s, len);
	w[len] = '\0';
	/* CRLF and trailing blanks */
	while (len && (w[len - 1] == '\r' || w[len - 1] == ' ' ||
		       w[len - 1] == '\t'))
		w[--len] = '\0';
	if (memchr(w, '\033', len))
		strip_ansi(w);
	/* quoting and log prefixes, in any nesting: "> ", ">> ", "| " */
	for (guard = 0; guard < 32; guard++) {
		p = t;
		if (*p == '>') {
			p++;
			if (*p == ' ')
				p++;
		} else if (lava && *p == '|' && (p[1] == ' ' || !p[1])) {
			/* LAVA's "| " */
			p += p[1] ? 2 : 1;
		} else {
			break;
		}
		t = p;
	}
	/* Xenomai latency -g: the RTH/RTS lines commented above the
	 * histogram ("# RTS|...") */
	if (t[0] == '#') {
		p = (char *)skip_blank(t + 1);
		if ((starts_with(p, "RT") || starts_with(p, "HS")) &&
		    isupper((unsigned char)p[2]) && p[3] == '|')
			t = p;
	}
	n = strlen(t);
	if (starts_with(t, "<LAVA_")) {
		n = 0;
	} else if (t[0] == '+' && t[1] == ' ' && t[2] && t[2] != ' ') {
		/* a command traced by "set -x" */
		t[0] = '$';
	} else if ((t[0] != '$' && t[0] != '#') ||
		   (t[0] == '#' && t[1] == ' ')) {
		/* "# cyclictest ..." stays as it is: a tool's comment line
		 * that importers read */
		cmd = prompt_command(t);
		if (cmd && cmd > t + 2) {
			size_t m = strlen(cmd);

			memmove(t + 2, cmd, m + 1);
			t[0] = '$';
			t[1] = ' ';
			n = m + 2;
		}
	}
	if (t != w)
		memmove(w, t, n);
	w[n] = '\0';
	return n;
}

/* Do most lines start with "| " (after mail quoting), as in a LAVA log?
 * Then it is a prefix; else it is part of a table ("| lat min| ..."). */
static bool lava_log(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	size_t lines = 0, bars = 0;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;

		while (q < (e ? e : end) && (*q == '>' || *q == ' '))
			q++;
		if (q < (e ? e : end) && *q != '\r') {
			lines++;
			if (*q == '|' && (q + 1 == end || q[1] == ' ' ||
					  q[1] == '\n' || q[1] == '\r'))
				bars++;
		}
		p = e ? e + 1 : end;
	}
	return bars >= 3 && 2 * bars >= lines;
}

char *frame_clean(const char *buf, size_t len, size_t *out_len)
{
	struct fline *fl = NULL;
	size_t nl = 0, cap = 0, i, o = 0;
	const char *p = buf, *end = buf + len;
	char *tmp = xmalloc(len + 3), *out;
	bool lava;

	lava = lava_log(buf, len);
	/* pass 1: each line cleaned into tmp */
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p);

		if (nl == cap) {
			cap = cap ? 2 * cap : 256;
			fl = xrealloc(fl, cap * sizeof(*fl));
		}
		fl[nl].off = o;
		fl[nl].len = clean_line(p, n, tmp + o, lava);
		o += fl[nl].len + 1;
		nl++;
		p = e ? e + 1 : end;
	}
	/* pass 2: join lines broken by a mail client; each line joined to
	 * the one before leaves an empty line, so that line numbers stay */
	out = xmalloc(o + 2 * nl + 2);
	o = 0;
	for (i = 0; i < nl; i++) {
		size_t start = o, k = i;

		memcpy(out + o, tmp + fl[i].off, fl[i].len);
		o += fl[i].len;
		out[o] = '\0';
		while (k + 1 < nl && k - i < 4 &&
		       broken(out + start, o - start, tmp + fl[k + 1].off)) {
			const char *nx = skip_blank(tmp + fl[k + 1].off);
			size_t m = strlen(nx);

			if (o - start >= 2 && out[o - 1] == '\\' &&
			    out[o - 2] == ' ')
				o -= 2;	/* " \" of a continuation */
			out[o++] = ' ';
			memcpy(out + o, nx, m);
			o += m;
			out[o] = '\0';
			k++;
		}
		out[o++] = '\n';
		for (; i < k; i++)
			out[o++] = '\n';
	}
	out[o] = '\0';
	free(tmp);
	free(fl);
	*out_len = o;
	return out;
}

bool frame_prompt_line(const char *buf, size_t len)
{
	char line[256];
	size_t n = 0;

	while (n < len && n < sizeof(line) - 3 && buf[n] != '\n' &&
	       buf[n] != '\r')
		n++;
	memcpy(line, buf, n);
	while (n && isblank((unsigned char)line[n - 1]))
		n--;
	/* a bare prompt ("[root@localhost ~]#") is one with a command */
	memcpy(line + n, " x", 3);
	return prompt_command(line) != NULL;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Is @p (of @end) a quoted-printable soft line break: '=', blanks, end of
 * line? Sets *@next to the start of the next line. */
static bool qp_soft_break(const char *p, const char *end, const char **next)
{
	const char *q = p + 1;

	while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
		q++;
	if (q < end && *q != '\n')
		return false;
	*next = q < end ? q + 1 : q;
	return true;
}

bool frame_is_qp(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *next;
	unsigned marks = 0;

	while ((p = memchr(p, '=', (size_t)(end - p)))) {
		if (qp_soft_break(p, end, &next)) {
			marks++;
			p = next;
		} else if (end - p >= 3 && hexval(p[1]) >= 0 &&
			   hexval(p[2]) >= 0) {
			/* "=20" before a line's end, "=3D": what an encoder
			 * writes; "=00".."=1F" but blanks are no text */
			int v = hexval(p[1]) * 16 + hexval(p[2]);

			if (v < 0x20 && v != '\t')
				return false;
			marks += v == ' ' || v == '\t' || v == '=';
			p += 3;
		} else {
			return false;	/* a bare '=': plain text */
		}
	}
	return marks >= 2;
}

char *frame_qp_decode(const char *buf, size_t len, size_t *out_len)
{
	const char *p = buf, *end = buf + len, *next;
	char *out = xmalloc(len + 1), *o = out;
	size_t owed = 0;	/* line ends of joined lines, still to write */

	while (p < end) {
		if (*p == '=' && qp_soft_break(p, end, &next)) {
			owed++;
			p = next;
		} else if (*p == '=' && end - p >= 3 && hexval(p[1]) >= 0 &&
			   hexval(p[2]) >= 0) {
			*o++ = (char)(hexval(p[1]) * 16 + hexval(p[2]));
			p += 3;
		} else {
			if (*p == '\n')
				for (; owed; owed--)
					*o++ = '\n';
			*o++ = *p++;
		}
	}
	for (; owed; owed--)
		*o++ = '\n';
	*o = '\0';
	*out_len = (size_t)(o - out);
	return out;
}
