/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare --html: the comparison and the gate's verdicts as a page. */
#ifndef RTLAT_REPORT_CMP_HTML_H
#define RTLAT_REPORT_CMP_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

/*
 * Write @path: what changed between the systems of @a and @b (either may
 * be NULL: not said), the @n comparisons of @rows (values in @unit_ns)
 * with their verdicts, and with @gates (NULL: no gate) each table's gate
 * lines and the gate's last line (@nref tables refused). Returns 0, or 1
 * when the file cannot be written (said).
 */
int cmp_html_write(const char *path, const struct cmp_row *rows, size_t n,
		   const struct gate_row *gates, size_t nref,
		   const struct rep_runs *a, const struct rep_runs *b,
		   int64_t unit_ns);

#endif
