/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JSON object of one accumulated series (docs/result-schema.md): the
 * form every writer of the accounting uses (result files, the trace's
 * parts), so that none copies it.
 */
#ifndef RTLAT_ACCUM_JSON_H
#define RTLAT_ACCUM_JSON_H

#include <stdint.h>

#include "engine/engine.h"

struct jw;

/* Write series @a (described by @d) as member @key of @w: samples, misses,
 * statistics, percentiles, histograms; the interval series @iv (windows of
 * @interval_ns) when not NULL. */
void accum_json(struct jw *w, const char *key, const struct accum *a,
		const struct series_desc *d, const struct ivstore *iv,
		int64_t interval_ns);

#endif
