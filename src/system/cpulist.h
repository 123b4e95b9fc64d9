/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU lists in the kernel's cpulist format (Documentation/admin-guide/
 * cputopology.rst, as in /sys/devices/system/cpu/online): "0", "0,2-3",
 * "0-7:2" (stride). Surrounding white space is ignored; empty elements,
 * reversed ranges and CPUs >= RTLAT_MAX_CPUS are errors.
 */
#ifndef RTLAT_CPULIST_H
#define RTLAT_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

#define RTLAT_MAX_CPUS 1024

struct cpuset {
	unsigned long bits[RTLAT_MAX_CPUS / (8 * sizeof(unsigned long))];
};

void cpuset_zero(struct cpuset *s);
void cpuset_set(struct cpuset *s, int cpu);
bool cpuset_isset(const struct cpuset *s, int cpu);
int cpuset_count(const struct cpuset *s);
/* Next CPU >= @from in @s, or -1. */
int cpuset_next(const struct cpuset *s, int from);

/*
 * Parse @str into @set. Returns 0, or -EINVAL with a one-line reason in
 * @err (e.g. "empty element at position 3 in \"0,,1\"").
 */
int cpulist_parse(const char *str, struct cpuset *set, char *err,
		  size_t errlen);

/* Format @set as a cpulist ("0,2-3"); "" when empty. Returns @buf. */
char *cpulist_format(const struct cpuset *set, char *buf, size_t len);

#endif
