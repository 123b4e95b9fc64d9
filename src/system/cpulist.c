// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU list parsing and formatting; see cpulist.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/cpulist.h"

#define BITS_PER_WORD (8 * sizeof(unsigned long))

void cpuset_zero(struct cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void cpuset_set(struct cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < RTLAT_MAX_CPUS)
		s->bits[cpu / BITS_PER_WORD] |= 1UL << (cpu % BITS_PER_WORD);
}

bool cpuset_isset(const struct cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= RTLAT_MAX_CPUS)
		return false;
	return s->bits[cpu / BITS_PER_WORD] & (1UL << (cpu % BITS_PER_WORD));
}

int cpuset_count(const struct cpuset *s)
{
	int n = 0, c;

	for (c = 0; c < RTLAT_MAX_CPUS; c++)
		n += cpuset_isset(s, c);
	return n;
}

int cpuset_next(const struct cpuset *s, int from)
{
	int c;

	for (c = from < 0 ? 0 : from; c < RTLAT_MAX_CPUS; c++)
		if (cpuset_isset(s, c))
			return c;
	return -1;
}

/* Parse a CPU number at *p; advance *p. Returns -1 when no digit. */
static long parse_cpu(const char **p)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v > RTLAT_MAX_CPUS)
		v = RTLAT_MAX_CPUS;	/* reported as out of range */
	*p = end;
	return v;
}

int cpulist_parse(const char *str, struct cpuset *set, char *err,
		  size_t errlen)
{
	const char *p, *end;
	size_t len;

	cpuset_zero(set);
	if (!str)
		str = "";
	while (isspace((unsigned char)*str))
		str++;
	len = strlen(str);
	while (len && isspace((unsigned char)str[len - 1]))
		len--;
	end = str + len;
	if (len == 0) {
		snprintf(err, errlen, "empty CPU list");
		return -EINVAL;
	}
	p = str;
	for (;;) {
		long a, b, stride = 1, c;
		size_t pos = (size_t)(p - str) + 1;

		if (p == end || *p == ',') {
			snprintf(err, errlen,
				 "empty element at position %zu in \"%.*s\"",
				 pos, (int)len, str);
			return -EINVAL;
		}
		a = parse_cpu(&p);
		if (a < 0)
			goto bad;
		b = a;
		if (p < end && *p == '-') {
			p++;
			b = parse_cpu(&p);
			if (b < 0)
				goto bad;
			if (p < end && *p == ':') {
				p++;
				stride = parse_cpu(&p);
				if (stride < 1)
					goto bad;
			}
		}
		if (p < end && *p != ',')
			goto bad;
		if (b < a) {
			snprintf(err, errlen,
				 "reversed range %ld-%ld in \"%.*s\" (write %ld-%ld)",
				 a, b, (int)len, str, b, a);
			return -EINVAL;
		}
		if (b >= RTLAT_MAX_CPUS) {
			snprintf(err, errlen,
				 "CPU number out of range in \"%.*s\" (0..%d)",
				 (int)len, str, RTLAT_MAX_CPUS - 1);
			return -EINVAL;
		}
		for (c = a; c <= b; c += stride)
			cpuset_set(set, (int)c);
		if (p == end)
			return 0;
		p++;		/* skip ',' */
		if (p == end) {
			snprintf(err, errlen, "trailing ',' in \"%.*s\"",
				 (int)len, str);
			return -EINVAL;
		}
		continue;
bad:
		if (p >= end)
			snprintf(err, errlen,
				 "unexpected end of \"%.*s\" (expected e.g. 0,2-3)",
				 (int)len, str);
		else
			snprintf(err, errlen,
				 "unexpected '%c' at position %zu in \"%.*s\" (expected e.g. 0,2-3)",
				 *p, (size_t)(p - str) + 1, (int)len, str);
		return -EINVAL;
	}
}

char *cpulist_format(const struct cpuset *set, char *buf, size_t len)
{
	size_t off = 0;
	int c = cpuset_next(set, 0);

	if (len)
		buf[0] = '\0';
	while (c >= 0) {
		int last = c;
		int n;

		while (cpuset_isset(set, last + 1))
			last++;
		if (last == c)
			n = snprintf(buf + off, len - off, "%s%d",
				     off ? "," : "", c);
		else
			n = snprintf(buf + off, len - off, "%s%d-%d",
				     off ? "," : "", c, last);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
		c = cpuset_next(set, last + 1);
	}
	return buf;
}
