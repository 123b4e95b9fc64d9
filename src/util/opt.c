// SPDX-License-Identifier: GPL-2.0-or-later
/* Option tables; see opt.h. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "util/label.h"
#include "util/log.h"
#include "util/opt.h"

#define MAX_OPTS 128

const char *opt_spelling(const struct optdesc *d)
{
	static char buf[96];

	if (d->shrt && d->lng)
		snprintf(buf, sizeof(buf), "-%c/--%s", d->shrt, d->lng);
	else if (d->shrt)
		snprintf(buf, sizeof(buf), "-%c", d->shrt);
	else
		snprintf(buf, sizeof(buf), "--%s", d->lng);
	return buf;
}

int opt_bad_value(const struct optdesc *d, const char *arg,
		  const char *expected)
{
	char shown[512];

	/* a value with an escape sequence is shown, not obeyed */
	log_error("invalid value '%s' for %s: %s",
		  text_show(shown, sizeof(shown), arg ? arg : ""),
		  opt_spelling(d), expected);
	return -1;
}

const struct optdesc *opt_table_help(struct optdesc *dst, size_t cap,
				     const struct optdesc *src,
				     const struct opt_help *over)
{
	size_t n = 0, i;

	while (src[n].lng || src[n].shrt)
		n++;
	if (n + 1 > cap)
		return src;
	memcpy(dst, src, (n + 1) * sizeof(*dst));	/* with OPT_END */
	for (; over->key; over++)
		for (i = 0; i < n; i++)
			if (dst[i].key == over->key)
				dst[i].help = over->help;
	return dst;
}

static bool help_on_stdout;

bool opt_help_on_stdout(void)
{
	return help_on_stdout;
}

void opt_print_help(FILE *f, const char *usage, const char *about,
		    const struct optdesc *const *tables)
{
	const struct optdesc *d;
	int t;

	if (f == stdout)
		help_on_stdout = true;
	fprintf(f, "Usage: %s\n", usage);
	if (about)
		fprintf(f, "\n%s\n", about);
	fprintf(f, "\nOptions:\n");
	for (t = 0; tables[t]; t++) {
		for (d = tables[t]; d->lng || d->shrt; d++) {
			char left[64];
			const char *h;
			int n = 0;

			if (d->shrt)
				n += snprintf(left + n, sizeof(left) - (size_t)n,
					      "-%c%s", d->shrt, d->lng ? ", " : "");
			else
				n += snprintf(left + n, sizeof(left) - (size_t)n, "    ");
			if (d->lng)
				n += snprintf(left + n, sizeof(left) - (size_t)n,
					      "--%s", d->lng);
			if (d->has_arg == required_argument)
				snprintf(left + n, sizeof(left) - (size_t)n,
					 "%s%s", d->lng ? "=" : " ", d->metavar);
			else if (d->has_arg == optional_argument)
				snprintf(left + n, sizeof(left) - (size_t)n,
					 "[%s%s]", d->lng ? "=" : "", d->metavar);
			fprintf(f, "  %-26s", left);
			if (strlen(left) > 26)
				fprintf(f, "\n  %-26s", "");
			for (h = d->help; *h; h++) {
				fputc(*h, f);
				if (*h == '\n')
					fprintf(f, "  %-26s", "");
			}
			fputc('\n', f);
		}
	}
	fprintf(f, "  %-26s%s\n", "    --help", "show this help and exit");
}

/* Say what is wrong with the option @bad that getopt_long() refused. */
static void report_bad_option(const char *bad, int c, const struct option *l,
			      size_t nl)
{
	char name[64], cand[256] = "";
	size_t len, i, n = 0, exact = nl;

	if (c == ':') {
		log_error("option '%s' needs a value (see --help)", bad);
		return;
	}
	if (bad[0] != '-' || bad[1] != '-') {
		if (optopt > 0 && optopt < 256)
			log_error("unknown option '-%c' (see --help)", optopt);
		else
			log_error("unknown option '%s' (see --help)", bad);
		return;
	}
	len = strcspn(bad + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)len, bad + 2);
	for (i = 0; i < nl; i++) {
		if (strncmp(l[i].name, name, len) != 0)
			continue;
		if (strlen(l[i].name) == len)
			exact = i;
		if (n++ < 6)
			snprintf(cand + strlen(cand), sizeof(cand) - strlen(cand),
				 "%s--%s", n > 1 ? ", " : "", l[i].name);
	}
	if (exact < nl && bad[2 + len] == '=' && l[exact].has_arg == no_argument)
		log_error("option '--%s' takes no value (see --help)", name);
	else if (n > 1 && exact == nl)
		log_error("ambiguous option '%s': %s%s (see --help)", bad, cand,
			  n > 6 ? ", ..." : "");
	else
		log_error("unknown option '%s' (see --help)", bad);
}

int opt_parse(int argc, char **argv, const struct optdesc *const *tables,
	      opt_handler h, void *ctx, const char *usage, const char *about,
	      int *first_arg)
{
	struct option lopts[MAX_OPTS + 2];
	const struct optdesc *byidx[MAX_OPTS];
	char sopts[3 * MAX_OPTS + 3];
	size_t nl = 0, nd = 0, ns = 0;
	const struct optdesc *d;
	int t, c, li;

	sopts[ns++] = '+';	/* stop at the first non-option (POSIX) */
	sopts[ns++] = ':';	/* report missing arguments as ':' */
	for (t = 0; tables[t]; t++) {
		for (d = tables[t]; d->lng || d->shrt; d++) {
			if (nd >= MAX_OPTS)
				abort();
			byidx[nd] = d;
			if (d->lng) {
				lopts[nl].name = d->lng;
				lopts[nl].has_arg = d->has_arg;
				lopts[nl].flag = NULL;
				lopts[nl].val = 256 + (int)nd;
				nl++;
			}
			nd++;
			if (d->shrt) {
				sopts[ns++] = (char)d->shrt;
				if (d->has_arg == required_argument)
					sopts[ns++] = ':';
				else if (d->has_arg == optional_argument) {
					sopts[ns++] = ':';
					sopts[ns++] = ':';
				}
			}
		}
	}
	lopts[nl].name = "help";
	lopts[nl].has_arg = no_argument;
	lopts[nl].flag = NULL;
	lopts[nl].val = 255;
	memset(&lopts[nl + 1], 0, sizeof(lopts[0]));
	sopts[ns] = '\0';

	optind = 0;	/* full re-initialisation (glibc and musl) */
	opterr = 0;
	for (;;) {
		li = -1;
		c = getopt_long(argc, argv, sopts, lopts, &li);
		if (c == -1)
			break;
		if (c == 255) {
			opt_print_help(stdout, usage, about, tables);
			return 1;
		}
		if (c == '?' || c == ':') {
			report_bad_option(argv[optind - 1], c, lopts, nl);
			return -1;
		}
		d = NULL;
		if (c >= 256 && c < 256 + (int)nd) {
			d = byidx[c - 256];
		} else {
			size_t i;

			for (i = 0; i < nd; i++)
				if (byidx[i]->shrt == c) {
					d = byidx[i];
					break;
				}
		}
		if (!d) {
			log_error("unknown option '%s' (see --help)", argv[optind - 1]);
			return -1;
		}
		if (h(ctx, d, optarg) < 0)
			return -1;
	}
	if (first_arg)
		*first_arg = optind;
	return 0;
}

int opt_parse_options(int argc, char **argv,
		      const struct optdesc *const *tables, opt_handler h,
		      void *ctx, const char *usage, const char *about)
{
	int first, r;

	r = opt_parse(argc, argv, tables, h, ctx, usage, about, &first);
	if (r)
		return r;
	if (first < argc) {
		log_error("unexpected argument '%s' (see --help)", argv[first]);
		return -1;
	}
	return 0;
}
